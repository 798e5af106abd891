// The analysis board: load a position or a game (or start from the empty board),
// place turns by clicking (the stone, then a neutral or the stone again for none),
// step through the turns, and ask the server's tools about the position shown:
// `check` of the turn that led to it, the value of every turn (the endgame solver),
// the CP-SAT potential map, and the whole game's annotation.
//
// The game lives here as JSON ({type: "game", tags, turns}); the server replays it
// on every change (POST /api/game) and draws each position (POST /api/view).

import { attachBoard, say, api } from './board.js';

const $ = (id) => document.getElementById(id);
const msg = $('sz-msg');
let game = null;        // the /api/game answer: game, record, positions, turns
let at = 0;             // index into game.positions
let view = null;        // the /api/view answer for positions[at]
let board = null;       // attachBoard's handle
let pending = -1;       // the stone's point while the neutral is being chosen
let requestNo = 0;
const running = new Set();   // the tools whose answer is awaited (their buttons wait too)
const asking = new Map();    // tool -> the AbortController of its request

function limit() {
  const box = $('sz-limit');
  const v = parseFloat(box.value);
  if (Number.isFinite(v) && v > 0) return v;
  box.value = '5';
  say(msg, 'The time limit must be a number of seconds above 0: 5 s is used.', 'info');
  return 5;
}

// Run one tool's request: its button is off meanwhile, and once the board moves to
// another position (or game) the request is given up (the server then stops its
// work) and any answer dropped.
async function job(name, ask) {
  if (!game || running.has(name)) return;
  running.add(name);
  const ctl = new AbortController();
  asking.set(name, ctl);
  renderStatus();
  try {
    await ask(ctl.signal);
  } finally {
    if (asking.get(name) === ctl) asking.delete(name);
    running.delete(name);
    renderStatus();
  }
}

function stillAt(position) { return game && game.positions[at] === position; }

async function loadGame(body, where) {
  const r = await api('POST', '/api/game', body);
  if (!r.ok) { say(msg, r.data.error, 'bad'); return false; }
  game = r.data;
  $('sz-record').value = game.record;
  clearPanels();
  say(msg, '');
  for (const w of game.warnings) say(msg, 'Warning: ' + w, 'info');
  await show(where == null ? game.positions.length - 1 : where);
  return true;
}

function clearPanels(perPosition = false) {
  const ids = ['sz-check-out', 'sz-values-out', 'sz-potential-out'];
  for (const id of perPosition ? ids : [...ids, 'sz-annotate-out']) $(id).replaceChildren();
  for (const [name, ctl] of asking) if (!perPosition || name !== 'annotate') ctl.abort();
}

function occupied() {
  const pos = view.position;
  const names = new Set();
  for (const k of ['red', 'blue', 'neutral']) for (const [r, c] of pos[k]) names.add(r < 10 && c < 10 ? `${r}${c}` : `${r},${c}`);
  return names;
}

async function show(k) {
  k = Math.max(0, Math.min(game.positions.length - 1, k));
  const mine = ++requestNo;
  const last = k > 0 ? game.turns[k - 1].turn : null;
  const r = await api('POST', '/api/view', { position: game.positions[k], last_turn: last });
  if (mine !== requestNo) return;
  if (!r.ok) { say(msg, r.data.error, 'bad'); return; }
  if (k !== at) clearPanels(true);         // the tools' answers were about another position
  at = k;
  view = r.data;
  pending = -1;
  const holder = $('sz-board');
  const cursor = board ? board.cursor : 0;
  holder.innerHTML = view.svg;
  board = attachBoard(holder, { onPoint: clickPoint, onKey: boardKey, cursor });
  renderStatus();
  renderTurns();
  document.body.dataset.at = String(at);
}

function renderStatus() {
  for (const name of ['check', 'values', 'potential', 'annotate']) $(`sz-${name}`).disabled = true;
  if (!view) return;
  const s = view.score;
  const side = (n) => n[0].toUpperCase() + n.slice(1);
  for (const name of ['red', 'blue']) {
    const d = s[name];
    $(`sz-${name}-score`).textContent = `${side(name)} ${d.score}`;
    $(`sz-${name}-patterns`).textContent = d.patterns.map((p) => p.name).join(' ') || 'no stones';
  }
  const left = view.position.neutrals_left;
  let status = view.over ? `Game over: ${s.result}.`
    : `${side(view.side)} to move; neutrals left: red ${left.red}, blue ${left.blue}. ${side(s.result)}.`;
  if (at > 0) status = `After ${game.turns[at - 1].turn} (round ${game.turns[at - 1].round}, ${game.turns[at - 1].side}). ` + status;
  $('sz-status').textContent = status;
  $('sz-position').textContent = view.position.position;
  $('sz-check').disabled = at === 0 || running.has('check');
  $('sz-values').disabled = view.over || running.has('values');
  $('sz-potential').disabled = view.over || running.has('potential');
  $('sz-annotate').disabled = running.has('annotate');
}

function renderTurns() {
  const list = $('sz-turns');
  list.replaceChildren();
  game.turns.forEach((t, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = (t.side === 'red' ? `${t.round}. ` : '') + t.turn;
    b.className = 'sz-turn sz-' + t.side + (i + 1 === at ? ' sz-at' : '');
    b.dataset.turn = String(i + 1);
    b.addEventListener('click', () => show(i + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
  $('sz-turn-no').textContent = `${at} / ${game.turns.length}`;
}

function drawPending() {
  board.clear();
  if (pending < 0) return;
  const p = board.points[pending];
  board.draw('circle', { cx: p.x, cy: p.y, r: 0.4, class: 'sz-pending sz-' + view.side });
}

async function play(turn) {
  const turns = game.turns.slice(0, at).map((t) => t.turn).concat([turn]);
  const next = { type: 'game', tags: game.game.tags, turns };
  const r = await api('POST', '/api/game', { game: next });
  pending = -1;
  if (!r.ok) { say(msg, r.data.error, 'bad'); drawPending(); return; }
  game = r.data;
  $('sz-record').value = game.record;
  clearPanels();
  say(msg, `Played ${turn}.`, 'info');
  await show(game.positions.length - 1);
}

function clickPoint(i) {
  if (view.over) { say(msg, 'The game is over: no more turns.', 'info'); return; }
  const name = board.points[i].name;
  if (pending < 0) {
    if (occupied().has(name)) { say(msg, `${name} is occupied.`, 'bad'); return; }
    if (view.neutrals_left_to_move === 0) { play(name); return; }
    pending = i;
    drawPending();
    say(msg, `Stone on ${name}: now click a point for a neutral, or ${name} again (or Enter) for none; Esc cancels.`, 'info');
  } else if (pending === i) {
    play(name);
  } else {
    if (occupied().has(name)) { say(msg, `${name} is occupied.`, 'bad'); return; }
    play(`${board.points[pending].name}n${name}`);
  }
}

function boardKey(e) {
  if (e.key === 'Escape' && pending >= 0) { pending = -1; drawPending(); say(msg, ''); }
  else if (e.key === 'PageUp' || e.key === '[') show(at - 1);
  else if (e.key === 'PageDown' || e.key === ']') show(at + 1);
}

function signed(v) { return v == null ? '?' : (v > 0 ? '+' : '') + v; }

function busy(out, text) {
  const p = document.createElement('p');
  p.className = 'sz-busy';
  p.textContent = text;
  out.replaceChildren(p);
}

function para(out, text, cls) {
  const p = document.createElement('p');
  if (cls) p.className = cls;
  p.textContent = text;
  out.appendChild(p);
  return p;
}

async function checkTurn(signal) {
  if (at === 0) return;
  const out = $('sz-check-out');
  const t = game.turns[at - 1];
  const here = game.positions[at];
  busy(out, `Checking ${t.turn} ...`);
  const r = await api('POST', '/api/check', { position: game.positions[at - 1], turn: t.turn, time_limit: limit() }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  const how = d.exact ? 'proved' : d.method === 'engine' ? 'estimated by the engine' : 'from proved bounds';
  para(out, `${d.played} (${d.mover}): ${d.verdict || 'no verdict'} (${how}).`, 'sz-verdict sz-v-' + (d.verdict || 'open'));
  para(out, `Value before ${signed(d.value_before)}, after ${signed(d.played_value)}, loss ${d.loss == null ? '?' : d.loss} (Red's side).`);
  if (d.best.length) para(out, 'Best: ' + d.best.slice(0, 12).join(' ') + (d.best.length > 12 ? ' ...' : ''));
  for (const n of d.notes) para(out, n, 'sz-note');
}

async function turnValues(signal) {
  const out = $('sz-values-out');
  const here = game.positions[at];
  busy(out, 'Solving every turn ...');
  const r = await api('POST', '/api/solve', { position: here, all_turns: true, time_limit: limit() }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  para(out, d.exact ? `Value ${signed(d.value)} (exact, Red's side): ${d.winner || 'draw'}; best ${d.best.join(' ')}.`
    : `Not proved within the limit (${d.stopped}): ${signed(d.lower)} <= value <= ${signed(d.upper)}.`);
  // One row per value (best first for the side to move), and the best value of
  // each stone point written on the board.
  const rows = new Map();
  const perPoint = new Map();
  const red = view.side === 'red';
  for (const t of d.turns || []) {
    const label = t.exact ? signed(t.value) : `[${signed(t.lower)}, ${signed(t.upper)}]`;
    if (!rows.has(label)) rows.set(label, { t, turns: [] });
    rows.get(label).turns.push(t.turn);
    if (t.exact) {
      const stone = t.turn.split('n')[0];
      const old = perPoint.get(stone);
      if (old == null || (red ? t.value > old : t.value < old)) perPoint.set(stone, t.value);
    }
  }
  const table = document.createElement('table');
  table.className = 'sz-values';
  const head = table.insertRow();
  for (const h of ['value', 'turns']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  for (const [label, { t, turns }] of rows) {
    const row = table.insertRow();
    row.insertCell().textContent = label;
    row.insertCell().textContent = turns.join(' ');
    if (d.exact && t.exact && t.value === d.value) row.className = 'sz-best';
  }
  const box = document.createElement('div');
  box.className = 'sz-scroll';
  box.appendChild(table);
  board.clear();
  for (const [name, v] of perPoint) {
    const i = board.points.findIndex((p) => p && p.name === name);
    if (i < 0) continue;
    const p = board.points[i];
    const el = board.draw('text', { x: p.x, y: p.y + 0.12, class: 'sz-value-label' + (d.exact && v === d.value ? ' sz-best' : '') });
    el.textContent = signed(v);
  }
  table.dataset.rows = String(rows.size);
  out.appendChild(box);
}

async function potentialMap(signal) {
  const out = $('sz-potential-out');
  const here = game.positions[at];
  busy(out, 'CP-SAT is working out the map ...');
  const r = await api('POST', '/api/potential', { position: here, time_limit: limit(), svg: true }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const side = Object.keys(r.data).find((k) => k !== 'svg');
  const d = r.data[side];
  para(out, `${side}: potential ${d.potential}${d.proven ? ' (proven)' : ` (at most ${d.upper_bound})`}; each number is the potential if ${side}'s next stone goes there${d.map_proven ? '' : ' (some values are lower bounds)'}.`);
  const pic = document.createElement('div');
  pic.className = 'sz-map';
  pic.innerHTML = r.data.svg;
  out.appendChild(pic);
}

async function annotateGame(signal) {
  const out = $('sz-annotate-out');
  if (!game.turns.length) { out.replaceChildren(); para(out, 'The game has no turns yet.', 'sz-bad'); return; }
  const asked = game;
  busy(out, 'Annotating the game (this takes a while) ...');
  const r = await api('POST', '/api/annotate', { game: game.game }, signal);
  if (game !== asked) return;     // another game since: its panel was cleared
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  const chart = document.createElement('div');
  chart.className = 'sz-chart';
  chart.innerHTML = d.chart;
  out.appendChild(chart);
  const marks = { optimal: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
  const list = document.createElement('ol');
  list.className = 'sz-annotation';
  for (const t of d.turns) {
    const li = document.createElement('li');
    li.value = t.number;
    li.className = 'sz-v-' + (t.verdict || 'open');
    li.textContent = `${t.played}${marks[t.verdict] || ''} ${t.side}: ${t.verdict || 'open'}${t.exact ? ' (proved)' : ''}` +
      (t.verdict && t.verdict !== 'optimal' && t.best.length ? `; best ${t.best.slice(0, 4).join(' ')}` : '');
    list.appendChild(li);
  }
  out.appendChild(list);
  for (const side of ['red', 'blue']) {
    const s = d.summary[side];
    const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
    para(out, `${side}: ${n(s.inaccuracies, 'inaccuracy', 'inaccuracies')}, ${n(s.mistakes, 'mistake', 'mistakes')}, ` +
      `${n(s.blunders, 'blunder', 'blunders')}` +
      (s.accuracy == null ? '' : `; accuracy ${(100 * s.accuracy).toFixed(0)}% of the turns judged exactly`) + '.');
  }
}

$('sz-load').addEventListener('click', () => {
  const text = $('sz-source').value.trim();
  if (!text) { say(msg, 'Paste a position string or a game record first.', 'bad'); return; }
  loadGame({ source: text });
});
$('sz-example').addEventListener('click', () => loadGame({ example: true }, 0));
$('sz-new').addEventListener('click', () => {
  const rule = $('sz-rule').value;
  loadGame({ game: { type: 'game', tags: { Rule: rule }, turns: [] } });
});
$('sz-first').addEventListener('click', () => game && show(0));
$('sz-prev').addEventListener('click', () => game && show(at - 1));
$('sz-next').addEventListener('click', () => game && show(at + 1));
$('sz-last').addEventListener('click', () => game && show(game.positions.length - 1));
$('sz-check').addEventListener('click', () => job('check', checkTurn));
$('sz-values').addEventListener('click', () => job('values', turnValues));
$('sz-potential').addEventListener('click', () => job('potential', potentialMap));
$('sz-annotate').addEventListener('click', () => job('annotate', annotateGame));

const params = new URLSearchParams(location.search);
(async () => {
  if (params.get('example')) await loadGame({ example: true }, 0);
  else if (params.get('position')) {
    if (!(await loadGame({ source: params.get('position') }))) {
      const error = msg.textContent;       // keep it, on the empty board
      await loadGame({ game: { type: 'game', tags: { Rule: 'basic' }, turns: [] } });
      say(msg, error, 'bad');
    }
  }
  else await loadGame({ game: { type: 'game', tags: { Rule: 'basic' }, turns: [] } });
  document.body.dataset.ready = '1';
})();
