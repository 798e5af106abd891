// A server-drawn SVG board made playable: the picture comes from the same code as the
// CLI's --svg, with a layer of transparent circles (class sz-point, data-index,
// data-point) to click and an empty layer (class sz-live) to draw on.
//
// attachBoard(holder, handlers) wires clicks and the keyboard: arrow keys move a
// cursor to the nearest point in that direction, space or enter act on it like a
// click, x (or a right click) marks it. It returns {points, live, draw, setCursor}.

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// The point nearest to `from` in direction (dx, dy), within 45 degrees of it.
function neighbourTowards(points, from, dx, dy) {
  const a = points[from];
  let best = -1;
  let bestScore = Infinity;
  points.forEach((b, i) => {
    if (i === from) return;
    const vx = b.x - a.x;
    const vy = b.y - a.y;
    const along = vx * dx + vy * dy;
    const across = Math.abs(vx * dy - vy * dx);
    if (along <= 0 || across > along) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = i; }
  });
  return best;
}

export function attachBoard(holder, handlers) {
  const svg = holder.querySelector('svg');
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('role', 'application');
  // its name for screen readers: the holder's instructions, not the SVG's title (a
  // position or puzzle string)
  svg.setAttribute('aria-label', holder.getAttribute('aria-label') || 'board');
  // the point under the cursor, read out as it moves
  let spoken = holder.parentNode.querySelector(':scope > .sz-sr');
  if (!spoken) {
    spoken = document.createElement('span');
    spoken.className = 'sz-sr';
    spoken.setAttribute('aria-live', 'polite');
    holder.after(spoken);
  }
  const live = svg.querySelector('.sz-live');
  const hits = [...svg.querySelectorAll('.sz-point')];
  const points = [];
  for (const el of hits) {
    points[+el.dataset.index] = { x: +el.getAttribute('cx'), y: +el.getAttribute('cy'),
      r: +el.getAttribute('r'), name: el.dataset.point, el };
  }
  const cursorLayer = svgEl('g', { class: 'sz-cursor' });
  svg.insertBefore(cursorLayer, live.nextSibling);
  let cursor = handlers.cursor != null && points[handlers.cursor] ? handlers.cursor : 0;
  let cursorShown = false;

  function drawCursor() {
    cursorLayer.replaceChildren();
    if (!cursorShown) return;
    const p = points[cursor];
    svgEl('circle', { cx: p.x, cy: p.y, r: p.r * 0.95, class: 'sz-cursor-ring' }, cursorLayer);
  }
  function setCursor(i, show = true) {
    if (i < 0 || !points[i]) return;
    cursor = i;
    cursorShown = show;
    drawCursor();
    if (show) spoken.textContent = `point ${points[i].name}` + (points[i].el.dataset.state ? `, ${points[i].el.dataset.state}` : '');
    if (handlers.onCursor) handlers.onCursor(i);
  }

  for (const el of hits) {
    const i = +el.dataset.index;
    el.addEventListener('click', (e) => {
      e.preventDefault();
      setCursor(i, false);
      if (e.shiftKey && handlers.onMark) handlers.onMark(i); else handlers.onPoint(i);
    });
    el.addEventListener('contextmenu', (e) => {
      if (!handlers.onMark) return;
      e.preventDefault();
      setCursor(i, false);
      handlers.onMark(i);
    });
  }
  holder.tabIndex = 0;
  // The holder outlives the SVG drawn in it: drop the listeners of the last board
  // attached here, or one key would act once per redraw.
  if (holder.szDetach) holder.szDetach();
  const onKeydown = (e) => {
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (dirs[e.key]) {
      e.preventDefault();
      if (!cursorShown) { setCursor(cursor); return; }
      const j = neighbourTowards(points, cursor, ...dirs[e.key]);
      if (j >= 0) setCursor(j);
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      setCursor(cursor);
      handlers.onPoint(cursor);
    } else if ((e.key === 'x' || e.key === 'X') && handlers.onMark) {
      e.preventDefault();
      setCursor(cursor);
      handlers.onMark(cursor);
    } else if (handlers.onKey) {
      handlers.onKey(e);
    }
  };
  const onFocus = () => { if (!cursorShown) setCursor(cursor); };
  const onBlur = () => { cursorShown = false; drawCursor(); };
  holder.addEventListener('keydown', onKeydown);
  holder.addEventListener('focus', onFocus);
  holder.addEventListener('blur', onBlur);
  holder.szDetach = () => {
    holder.removeEventListener('keydown', onKeydown);
    holder.removeEventListener('focus', onFocus);
    holder.removeEventListener('blur', onBlur);
  };
  if (document.activeElement === holder) { cursorShown = true; drawCursor(); }   // redrawn under focus

  return {
    svg, points, live, setCursor,
    get cursor() { return cursor; },
    clear() { live.replaceChildren(); },
    draw(tag, attrs) { return svgEl(tag, attrs, live); },
  };
}

// A small status helper: text into an element, with a class for its tone.
export function say(el, text, tone) {
  el.textContent = text;
  el.className = 'sz-msg' + (tone ? ' sz-' + tone : '');
}

// JSON from the API: {ok, status, data}; data.error holds the server's message. A
// POST is sent as JSON (the server takes nothing else); `signal` (an AbortSignal)
// gives the request up: the connection closes and the server stops the work.
export async function api(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    if (e.name === 'AbortError') return { ok: false, status: 0, data: { error: 'given up' } };
    return { ok: false, status: 0, data: { error: 'the server cannot be reached' } };
  }
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
  return { ok: res.ok, status: res.status, data };
}
