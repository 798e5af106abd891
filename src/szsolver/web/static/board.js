// A server-drawn SVG board made playable: the picture comes from the same code as the
// CLI's --svg, with a layer of transparent circles (class sz-point, data-index,
// data-point) to click and an empty layer (class sz-live) to draw on.
//
// attachBoard(holder, handlers) wires clicks and the keyboard: arrow keys move a
// cursor to the nearest point in that direction, space or enter act on it like a
// click, x (or a right click, or a shift-click) marks it; handlers.onCursor(i, shown)
// hears the cursor move (shown: by the keyboard, drawn on the board). It returns
// {points, live, draw, setCursor, cursor, cursorShown (whether the keyboard's cursor
// is drawn)}. enableZoom adds zoom and pan to such a board.

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
    if (handlers.onCursor) handlers.onCursor(i, show);
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
    get cursorShown() { return cursorShown; },
    clear() { live.replaceChildren(); for (const t of svg.querySelectorAll('.sz-covered')) t.classList.remove('sz-covered'); },
    draw(tag, attrs) { return svgEl(tag, attrs, live); },
  };
}

// Zoom and pan for `view` (attachBoard's answer) inside `holder`: the picture's
// viewBox shrinks around a centre, so the page keeps its layout. Pinch (two
// fingers, or a trackpad's pinch), ctrl + wheel, and the returned zoomBy(f) zoom;
// a drag (one finger or the mouse) pans once zoomed in, and so does the wheel until
// the picture's edge (then the page scrolls on); a drag is never a click. The
// plain wheel never zooms: the page would stop scrolling under the pointer. The
// deepest zoom makes a point's target at least `target` px across. holder gets
// class sz-zoomed while zoomed in (its CSS lets a drag pan) and data-zoom the factor.
// Returns {zoomBy, reset, show(i): pan point i into view, get zoom}.
export function enableZoom(view, holder, { target = 44 } = {}) {
  const svg = view.svg;
  const base = svg.viewBox.baseVal;
  const x0 = base.x, y0 = base.y, w0 = base.width, h0 = base.height;
  const r = Math.max(...view.points.map((p) => p.r));
  let z = 1;
  let cx = x0 + w0 / 2;
  let cy = y0 + h0 / 2;
  const rect = () => svg.getBoundingClientRect();
  // px per unit of the picture at zoom 1 (the picture may be letterboxed in its box)
  const scale = () => { const m = svg.getScreenCTM(); return m ? m.a / z : 1; };
  const maxZoom = () => Math.max(2, target / (2 * r * scale()));

  function apply() {
    const w = w0 / z;
    const h = h0 / z;
    cx = Math.min(Math.max(cx, x0 + w / 2), x0 + w0 - w / 2);
    cy = Math.min(Math.max(cy, y0 + h / 2), y0 + h0 - h / 2);
    svg.setAttribute('viewBox', `${(cx - w / 2).toFixed(2)} ${(cy - h / 2).toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)}`);
    holder.classList.toggle('sz-zoomed', z > 1.001);
    holder.dataset.zoom = z.toFixed(2);
  }
  // zoom by `f` keeping the picture's point under client (px, py) where it is
  function zoomAt(f, px, py) {
    const m = svg.getScreenCTM();
    if (!m || !m.a) return;
    const nz = Math.min(Math.max(z * f, 1), maxZoom());
    const ux = (px - m.e) / m.a;           // the picture's point under (px, py)
    const uy = (py - m.f) / m.d;
    cx = ux + (cx - ux) * z / nz;
    cy = uy + (cy - uy) * z / nz;
    z = nz;
    apply();
  }
  // pan by a distance in px; whether the picture moved
  function panBy(dxPx, dyPx) {
    const m = svg.getScreenCTM();
    if (!m || !m.a) return false;
    const [ox, oy] = [cx, cy];
    cx -= dxPx / m.a;
    cy -= dyPx / m.d;
    apply();
    return Math.abs(cx - ox) + Math.abs(cy - oy) > 1e-6;
  }

  const down = new Map();        // pointerId -> {x, y}
  let moved = false;             // this gesture panned or pinched: no click at its end
  let startGap = 0;
  let startZoom = 1;
  svg.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    down.set(e.pointerId, { x: e.clientX, y: e.clientY, x1: e.clientX, y1: e.clientY });
    if (down.size === 1) moved = false;
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      startGap = Math.hypot(a.x - b.x, a.y - b.y);
      startZoom = z;
    }
  });
  svg.addEventListener('pointermove', (e) => {
    const p = down.get(e.pointerId);
    if (!p) return;
    if (down.size === 1) {
      if (!moved && Math.hypot(e.clientX - p.x1, e.clientY - p.y1) < 8) return;
      if (z <= 1.001) return;
      if (!moved) { moved = true; svg.setPointerCapture(e.pointerId); }
      panBy(e.clientX - p.x, e.clientY - p.y);
    } else if (down.size === 2) {
      moved = true;
      const before = [...down.values()];
      const midX = (before[0].x + before[1].x) / 2;
      const midY = (before[0].y + before[1].y) / 2;
      p.x = e.clientX;
      p.y = e.clientY;
      const [a, b] = [...down.values()];
      const gap = Math.hypot(a.x - b.x, a.y - b.y);
      if (startGap > 0) zoomAt(startZoom * gap / startGap / z, (a.x + b.x) / 2, (a.y + b.y) / 2);
      panBy((a.x + b.x) / 2 - midX, (a.y + b.y) / 2 - midY);
      return;
    }
    p.x = e.clientX;
    p.y = e.clientY;
  });
  const up = (e) => { down.delete(e.pointerId); };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);
  // the click that ends a drag or a pinch places nothing
  svg.addEventListener('click', (e) => {
    if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; }
  }, true);
  svg.addEventListener('wheel', (e) => {
    if (e.ctrlKey) {
      e.preventDefault();
      zoomAt(Math.exp(-e.deltaY * 0.01), e.clientX, e.clientY);
    } else if (z > 1.001 && panBy(-e.deltaX, -e.deltaY)) {
      e.preventDefault();
    }
  }, { passive: false });

  return {
    get zoom() { return z; },
    zoomBy(f) { const b = rect(); zoomAt(f, b.left + b.width / 2, b.top + b.height / 2); },
    reset() { z = 1; apply(); },
    show(i) {
      const p = view.points[i];
      const w = w0 / z;
      const h = h0 / z;
      const m = 2 * p.r;
      if (p.x - m < cx - w / 2 || p.x + m > cx + w / 2) cx = p.x;
      if (p.y - m < cy - h / 2 || p.y + m > cy + h / 2) cy = p.y;
      apply();
    },
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

// A POST whose answer is Server-Sent Events (a job reporting its progress): each
// event's name and JSON data go to onEvent as they come; the answer is as api's, its
// data the "done" event's (or the "error" event's {error, status}). `signal` gives
// it up as for api.
export async function apiEvents(path, body, signal, onEvent) {
  let res;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === 'AbortError') return { ok: false, status: 0, data: { error: 'given up' } };
    return { ok: false, status: 0, data: { error: 'the server cannot be reached' } };
  }
  if (!res.ok || !res.body) {
    let data;
    try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
    return { ok: false, status: res.status, data };
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      let end;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        let name = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) name = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        const parsed = JSON.parse(data);
        if (name === 'done') return { ok: true, status: 200, data: parsed };
        if (name === 'error') return { ok: false, status: parsed.status, data: parsed };
        onEvent(name, parsed);
      }
    }
  } catch (e) {
    if (e.name === 'AbortError') return { ok: false, status: 0, data: { error: 'given up' } };
    return { ok: false, status: 0, data: { error: 'the answer was cut off' } };
  }
  return { ok: false, status: 0, data: { error: 'the answer was cut off' } };
}
