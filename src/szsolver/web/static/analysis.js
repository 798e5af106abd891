// The analysis board: load a position or a game (or start from the empty board),
// place turns by clicking (the stone, then a neutral or the stone again for none),
// step through the turns, and ask the server's tools about the position shown:
// `check` of the turn that led to it, the value of every turn (the endgame solver),
// the CP-SAT potential map, and the whole game's annotation. The live evaluation
// follows the position shown: the engine's value and best line as its search deepens
// (Server-Sent Events of GET /api/evaluate), the evaluation bar beside the board and
// the best turn ringed on it; a step closes the stream, and the server stops the work.
//
// The server reads the game once (POST /api/game: its turns, its start, the board
// and the board's bare picture); from then on the page plays and draws every
// position itself with the rules of game.js, so a step is instant and never lost.
// The turns form a tree: the game's own line and, beside it, the variations played
// on the board (a turn played mid-game starts one; the game's turns are kept). The
// address carries the game and the turn shown (tags as `Name=value`, `turns=44n66.64`,
// `turn=N`): Back and Forward go through the turns visited, and a link opens there.
//
// Star and Stargazers games are played on the same board and tree, on the server's
// answers: the page has no rules of its own for them (see "the family's other games"
// below).

import { attachBoard, say, api, apiEvents, svgEl } from './board.js';
import { SIDES, caption, isOver, parseTurn, patternSet, picture, playTurn, positionFromJson, positionString, recordText, resultText, turnError, turnText, value } from './game.js';

const $ = (id) => document.getElementById(id);
const msg = $('sz-msg');
let data = null;        // the /api/game answer of the game loaded (its board, start, tags)
let geo = null;         // its board (geometry_data)
let root = null;        // the tree of turns: {id, text, turn, pos, parent, children, ply}
let node = null;        // the node shown
let board = null;       // attachBoard's handle
let pending = -1;       // the stone's point while the neutral is being chosen
let lastId = 0;
let undoable = [];      // the turns played on the board, last on top: {node, added}
let annotated = null;   // the line (its turns' text) the annotation panel is about
let marks = new Map();  // node id -> its verdict's mark in the turn list: {mark, verdict, proved}
let chartLine = null;   // the annotated line's nodes, the chart's steps 1.. (0: the start)
const running = new Set();   // the tools whose answer is awaited (their buttons wait too)
const asking = new Map();    // tool -> the AbortController of its request

let live = null;         // the live evaluation: {node, timer, source (its EventSource)}
const LIVE_KEY = 'szsolver:analysis:live';
const LIVE_DELAY = 150;  // ms on a position before its evaluation starts (quick steps start none)

// The time limit box's seconds: above 0 and at most its max (the server's cap, which
// the page is written with); else its default, or the cap for more, and the page says so.
function limit() {
  const box = $('sz-limit');
  const most = parseFloat(box.max);
  const v = /^\s*([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$/.test(box.value) ? parseFloat(box.value) : NaN;
  if (v > 0 && v <= most) return v;
  const used = v > most ? most : parseFloat(box.defaultValue);
  box.value = String(used);
  limitSaid = `The time limit must be a number of seconds above 0 and at most ${most}: ${used} s is used.`;
  say(msg, limitSaid, 'info');
  return used;
}
// the message limit() left, taken back once the box holds another value
let limitSaid = null;

// Run one tool's request: its button is off meanwhile, and once the board moves to
// another position (or game) the request is given up (the server then stops its
// work) and any answer dropped.
async function job(name, ask) {
  if (!root || running.has(name)) return;
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

function stillAt(here) { return node === here; }

// --- the tree of turns ---------------------------------------------------------------

function newNode(parent, turn) {
  const pos = parent ? playTurn(geo, parent.pos, turn) : null;
  const n = { id: ++lastId, turn, text: turn ? turnText(geo, turn) : null, pos, parent,
    children: [], ply: parent ? parent.ply + 1 : 0 };
  if (parent) parent.children.push(n);
  return n;
}

// The node's line: the turns from the start to it, then on along the first child.
function lineOf(n) {
  const line = [];
  for (let k = n; k.parent; k = k.parent) line.unshift(k);
  for (let k = n.children[0]; k; k = k.children[0]) line.push(k);
  return line;
}

function onMainLine(n) {
  for (let k = n; k.parent; k = k.parent) if (k.parent.children[0] !== k) return false;
  return true;
}

// The first node of the variation `n` is in (null on the main line).
function branchOf(n) {
  for (let k = n; k.parent; k = k.parent) if (k.parent.children[0] !== k) return k;
  return null;
}

// The child of `n` playing `text`, added if there is none (the first child of a node
// with none: the line goes on; else a variation).
function childFor(n, text) {
  const old = n.children.find((c) => c.text === text);
  if (old) return { child: old, added: false };
  const turn = parseTurn(geo, text);
  if (!turn) throw new Error(`bad turn ${text}`);
  return { child: newNode(n, turn), added: true };
}

function sideName(i) { return SIDES[i][0].toUpperCase() + SIDES[i].slice(1); }

// The side that played node n's turn (0: the first to play in a round) and its round.
function moverOf(n) { return family ? family.sides.indexOf(n.side) : n.parent.pos.side; }

function roundOf(n) {
  if (family) return n.round;
  return Math.floor((root.pos.red.size + root.pos.blue.size + n.ply - 1) / 2) + 1;
}

// --- the address ------------------------------------------------------------------------

// The game's tags for the line shown: the Result tag only while the line is the game's own.
function lineTags(line) {
  const tags = { ...data.game.tags };
  const own = data.game.turns;
  if (line.length !== own.length || line.some((n, i) => n.text !== own[i])) delete tags.Result;
  return tags;
}

function enc(v) {
  return encodeURIComponent(v).replace(/%20/g, '+').replace(/%2F/gi, '/').replace(/%2C/gi, ',');
}

function address() {
  if (family) return familyAddress();
  const line = lineOf(node);
  const parts = Object.entries(lineTags(line)).map(([k, v]) =>
    `${/^[A-Z]/.test(k) ? k : 'tag.' + k}=${enc(v)}`);
  if (line.length) parts.push('turns=' + line.map((n) => n.text).join('.'));
  parts.push(`turn=${node.ply}`);
  return location.pathname + '?' + parts.join('&');
}

// {tags, turns, turn} of an address's query, or null when it names no game.
function gameOfAddress(search) {
  const params = new URLSearchParams(search);
  const tags = {};
  let named = false;
  for (const [k, v] of params) {
    if (/^[A-Z]/.test(k)) { tags[k] = v; named = true; }
    else if (k.startsWith('tag.')) { tags[k.slice(4)] = v; named = true; }
  }
  const turns = (params.get('turns') || '').split('.').filter(Boolean);
  if (turns.length || params.has('turn')) named = true;
  const t = params.get('turn');
  const turn = t !== null && /^[0-9]{1,4}$/.test(t) ? Number(t) : null;
  // a turn in other digits (or none) is said, not read as some other turn
  const badTurn = t !== null && turn === null ? t : null;
  return named ? { tags, turns, turn, badTurn } : null;
}

function sameTags(a, b) {
  const strip = (t) => JSON.stringify(Object.entries(t).filter(([k]) => k !== 'Result'));
  return strip(a) === strip(b);
}

// The tab keeps the last game's tree (sessionStorage), so a reload keeps its
// variations: they come back when the address's line is in it.
const TREE_KEY = 'szsolver:analysis:tree';

function treeData(n) { return n.children.map((c) => [c.text, treeData(c)]); }

function saveTree() {
  if (family) return;        // a Star or Stargazers game's line is its address's record
  try {
    sessionStorage.setItem(TREE_KEY, JSON.stringify({ tags: data.game.tags, tree: treeData(root) }));
  } catch (e) { /* storage full or turned off: a reload keeps the address's line only */ }
}

function savedTree() {
  try { return JSON.parse(sessionStorage.getItem(TREE_KEY)); } catch (e) { return null; }
}

// A saved tree (savedTree, read before the game shown was loaded, which saves its
// own) of the game shown, if it holds `turns`: then it becomes the tree and the
// board goes to turn `at` of that line (null: its end).
function restoreTree(saved, turns, at) {
  if (!saved || !Array.isArray(saved.tree) || !sameTags(saved.tags || {}, data.game.tags)) return;
  const fresh = { ...root, id: ++lastId, children: [] };
  const build = (parent, kids) => {
    for (const [text, more] of kids) build(childFor(parent, text).child, more);
  };
  try { build(fresh, saved.tree); } catch (e) { return; }     // not this game's after all
  const path = [];
  let n = fresh;
  for (const text of turns) {
    n = n.children.find((c) => c.text === text);
    if (!n) return;
    path.push(n);
  }
  root = fresh;
  const k = at == null ? path.length : Math.min(at, path.length);
  go(k === 0 ? root : path[k - 1], 'none');
}

function remember(how) {
  if (family && !node.view) return;        // its record comes with its view
  if (how === 'push') history.pushState(null, '', address());
  else if (how === 'replace') history.replaceState(null, '', address());
}

// --- showing a position ---------------------------------------------------------------

// Go to node `n`: the board, the lists and the address ('push' a new entry in the
// browser's history, 'replace' the current one, or 'none': it is already there).
function go(n, how = 'push') {
  if (!n) return;
  const moved = n !== node;
  if (moved) clearPanels(true);            // the tools' answers were about another position
  // a pending stone goes, and the values written on the board about another position
  if (board && (moved || pending >= 0)) board.clear();
  node = n;
  pending = -1;
  if (annotated !== null && annotated !== lineOf(node).map((k) => k.text).join(' ')) {
    clearAnnotation();
  }
  if (family) {                            // drawn once the server's view is there
    if (moved) stopLive();
    renderStatus();
    renderTurns();
    familyShow(n);
    return;
  }
  drawPosition();
  renderStatus();
  renderTurns();
  if (moved) startLive();
  markChart();
  if (moved || how === 'replace') remember(how);
  saveTree();
  document.body.dataset.at = String(node.ply);
}

function step(k, repeat) {
  if (!root) return;
  let n = node;
  if (k < 0) for (let i = 0; i < -k && n.parent; i++) n = n.parent;
  else for (let i = 0; i < k && n.children[0]; i++) n = n.children[0];
  go(n, repeat ? 'replace' : 'push');
}

function toEnd(repeat) {
  let n = node;
  while (n.children[0]) n = n.children[0];
  go(n, repeat ? 'replace' : 'push');
}

function drawPosition() {
  const svg = board.svg;
  const layer = svg.querySelector('.sz-stones');
  layer.replaceChildren();
  const pic = picture(geo, node.pos, node.turn);
  const c = data.colours;
  const xy = (p) => [board.points[p].x, board.points[p].y];
  const beams = svgEl('g', { 'stroke-width': 0.14, 'stroke-linecap': 'round', opacity: 0.85 }, layer);
  for (const [side, p, q] of pic.beams) {
    const [[x1, y1], [x2, y2]] = [xy(p), xy(q)];
    svgEl('line', { x1, y1, x2, y2, stroke: c[SIDES[side]] }, beams);
  }
  const stones = svgEl('g', { stroke: c.background, 'stroke-width': 0.04 }, layer);
  for (const p of board.points) if (p) delete p.el.dataset.state;
  for (const { point, kind } of pic.stones) {
    const [cx, cy] = xy(point);
    svgEl('circle', { cx, cy, r: 0.4, fill: c[kind] }, stones);
    board.points[point].el.dataset.state = kind === 'neutral' ? 'neutral stone' : `${kind} stone`;
  }
  for (const p of pic.marks) {
    const [cx, cy] = xy(p);
    const mark = svgEl('circle', { cx, cy, r: 0.13, fill: c.background, class: 'sz-last' }, layer);
    svgEl('title', {}, mark).textContent = 'last turn';
  }
  // the caption under the board, in szsolver.formats.svg's size rule
  const lines = caption(geo, node.pos);
  const cap = svg.querySelector('g.caption');
  if (cap) {
    const width = svg.viewBox.baseVal.width;
    cap.setAttribute('font-size', Math.min(0.36, 0.95 * width / (0.55 * Math.max(...lines.map((t) => t.length)))).toFixed(3));
    [...cap.querySelectorAll('text')].forEach((t, i) => { t.textContent = lines[i] || ''; });
  }
}

function renderStatus() {
  for (const name of ['check', 'values', 'potential', 'annotate']) $(`sz-${name}`).disabled = true;
  if (!root) return;
  if (family) { familyStatus(); return; }
  const pos = node.pos;
  const over = isOver(pos);
  const tags = data.game.tags;
  for (const side of [0, 1]) {
    const name = SIDES[side];
    const shown = patternSet(geo, pos, side);
    const player = (tags[sideName(side)] || '').trim();
    $(`sz-${name}-name`).textContent = player || sideName(side);
    $(`sz-${name}-name`).title = player ? `${sideName(side)}: ${player}` : '';
    $(`sz-${name}-score`).textContent = String(shown.length);
    $(`sz-${name}-patterns`).textContent = shown.map((k) => geo.pattern_names[k]).join(' ') || 'no stones';
  }
  // the score and who leads in the header; the status line the turn, the side to
  // move and the neutrals left, each once
  const result = resultText(geo, pos);
  $('sz-result').textContent = result[0].toUpperCase() + result.slice(1);
  let status = over ? 'Game over.'
    : `${sideName(pos.side)} to move; neutrals left: red ${pos.left[0]}, blue ${pos.left[1]}.`;
  if (node.parent) status = `After ${node.text} (round ${roundOf(node)}, ${SIDES[node.parent.pos.side]}). ` + status;
  $('sz-status').textContent = status;
  $('sz-position').textContent = positionString(geo, pos);
  const line = lineOf(node);
  $('sz-record').value = recordText(geo, lineTags(line), root.pos, line.map((n) => n.text));
  $('sz-check').disabled = !node.parent || running.has('check');
  $('sz-values').disabled = over || running.has('values');
  $('sz-potential').disabled = over || running.has('potential');
  $('sz-annotate').disabled = running.has('annotate');
  $('sz-undo').disabled = !lastPlayed();
  const inVariation = !onMainLine(node);
  $('sz-promote').disabled = !inVariation;
  $('sz-delete').disabled = !inVariation;
}

function turnButton(n, numbered) {
  const b = document.createElement('button');
  b.type = 'button';
  const side = moverOf(n);
  b.textContent = (side === 0 ? `${roundOf(n)}. ` : numbered ? `${roundOf(n)}... ` : '') + n.text;
  const m = marks.get(n.id);
  if (m && m.mark) {
    const span = document.createElement('span');
    span.className = `sz-mark sz-v-${m.verdict} ${m.proved ? 'sz-proved' : 'sz-estimated'}`;
    span.textContent = m.mark;
    span.title = `${m.verdict} (${m.proved ? 'proved' : 'estimated'})`;
    b.appendChild(span);
  }
  b.className = 'sz-turn sz-' + SIDES[side] + (n === node ? ' sz-at' : '');
  b.dataset.turn = String(n.ply);
  b.dataset.node = String(n.id);
  if (n === node) b.setAttribute('aria-current', 'step');
  b.addEventListener('click', () => go(n));
  return b;
}

// A line as the turn list shows it: each turn, and after a turn its alternatives in
// parentheses (each a line of its own), as a game record with variations is written.
function renderLine(box, first) {
  let numbered = true;
  for (let n = first; n; n = n.children[0]) {
    box.appendChild(turnButton(n, numbered));
    numbered = false;
    const siblings = n.parent.children;
    if (siblings[0] === n && siblings.length > 1) {
      for (const v of siblings.slice(1)) {
        const sub = document.createElement('span');
        sub.className = 'sz-variation';
        sub.setAttribute('role', 'group');
        sub.setAttribute('aria-label', `variation from ${v.text}`);
        renderLine(sub, v);
        box.appendChild(sub);
      }
      numbered = true;
    }
  }
}

function renderTurns() {
  const list = $('sz-turns');
  list.replaceChildren();
  if (root.children[0]) renderLine(list, root.children[0]);
  $('sz-turn-no').textContent = `${node.ply} / ${lineOf(node).length}`;
}

// --- loading a game --------------------------------------------------------------------

// Show the game of a /api/game answer, at turn `at` of its line (null: its end).
function setGame(answer, at, how) {
  if (answer.family) { setFamilyGame(answer, at, how); return; }
  leaveFamily();
  $('sz-other-turns').replaceChildren();
  $('sz-potential-out').replaceChildren();
  data = answer;
  geo = answer.geometry;
  const holder = $('sz-board');
  holder.innerHTML = answer.svg;
  board = attachBoard(holder, { onPoint: clickPoint, onKey: boardKey, cursor: board ? board.cursor : 0 });
  root = { id: ++lastId, turn: null, text: null, parent: null, children: [], ply: 0,
    pos: positionFromJson(geo, answer.start, answer.stones_per_side) };
  node = null;
  undoable = [];
  let n = root;
  for (const text of answer.game.turns) n = childFor(n, text).child;
  const line = lineOf(root);
  const k = at == null ? line.length : Math.min(at, line.length);
  go(k === 0 ? root : line[k - 1], how);
}

async function loadGame(body, where, how = 'push') {
  const r = await api('POST', '/api/game', body);
  if (!r.ok) { say(msg, r.data.error, 'bad'); return false; }
  clearPanels();
  say(msg, '');
  setGame(r.data, where, how);
  for (const w of r.data.warnings) say(msg, 'Warning: ' + w, 'info');
  return true;
}

function clearAnnotation() {
  $('sz-annotate-out').replaceChildren();
  annotated = null;
  chartLine = null;
  if (marks.size) { marks = new Map(); if (root) renderTurns(); }
  const ctl = asking.get('annotate');
  if (ctl) ctl.abort();
}

function clearPanels(perPosition = false) {
  for (const id of ['sz-check-out', 'sz-values-out', 'sz-potential-out']) $(id).replaceChildren();
  for (const [name, ctl] of asking) if (name !== 'annotate') ctl.abort();
  if (!perPosition) clearAnnotation();
}

// An address's game: the one shown already (its tags) takes the address's line into
// its tree; another is loaded. `how`: the history entry, as go's.
async function openAddress(how) {
  const params = new URLSearchParams(location.search);
  const asked = gameOfAddress(location.search);
  if (asked && root && !family && sameTags(asked.tags, data.game.tags)) {
    let n = root;
    try {
      for (const text of asked.turns) n = childFor(n, text).child;
    } catch (e) {
      say(msg, `The address's turns do not replay: ${e.message}.`, 'bad');
      return;
    }
    const line = lineOf(n).slice(0, asked.turns.length);
    const at = asked.turn == null ? asked.turns.length : Math.min(asked.turn, asked.turns.length);
    go(at === 0 ? root : line[at - 1], how);
    sayBadTurn(asked);
    return;
  }
  let ok = true;
  let error = '';
  if (params.get('example')) {
    ok = await loadGame({ example: true }, asked && asked.turn !== null ? asked.turn : 0, how);
    if (ok && asked) sayBadTurn(asked);
  }
  else if (params.get('position')) {
    ok = await loadGame({ source: params.get('position') }, asked ? asked.turn : null, how);
    if (ok && asked) sayBadTurn(asked);
  }
  else if (asked) {
    const saved = savedTree();
    ok = await loadGame({ game: { type: 'game', tags: asked.tags, turns: asked.turns } }, asked.turn, how);
    if (ok) restoreTree(saved, asked.turns, asked.turn);
    if (ok) sayBadTurn(asked);
  } else {
    await loadGame({ game: { type: 'game', tags: { Rule: 'basic' }, turns: [] } }, null, how);
  }
  if (!ok) {
    error = msg.textContent;       // keep it, on the empty board
    await loadGame({ game: { type: 'game', tags: { Rule: 'basic' }, turns: [] } }, null, 'none');
    say(msg, error, 'bad');
  }
}

// An address's turn that is no number 0-9999 in digits 0-9 (the game is shown at its end).
function sayBadTurn(asked) {
  if (asked.turn !== null && node && node.ply < asked.turn) {
    say(msg, `The address's turn ${asked.turn} is past the line's end: its last turn, ${node.ply}, is shown.`, 'bad');
    return;
  }
  if (asked.badTurn === null) return;
  const shown = asked.badTurn.length > 40 ? asked.badTurn.slice(0, 40) + '...' : asked.badTurn;
  say(msg, `The address's turn must be a number (digits 0-9), got '${shown}': the line's last turn is shown.`, 'bad');
}

// --- the family's other games: Star and Stargazers, on the server's answers -------------

// The page's own rules (game.js) are Stars' Zone's. A Star or Stargazers game comes from
// /api/game as its turns (text, round, side), read by that game's entry in the server's
// registry of games, and is played on the same tree of turns as a Stars' Zone game
// (variations, undo, promote, delete). Each position is the server's answer to its
// line (POST /api/play: the game's own picture with a target on every cell, the score,
// the legal turns, the line's record), asked once and kept on its node, so a step back
// or on to a position seen is instant (the neighbours of the position shown are asked
// for ahead). A click plays a legal turn; a cell the legal list does not hold is refused
// on the page, naming the legal turns, and a turn of two placements it does not hold
// goes to the server, whose refusal names why. The tools ask the game's own answers:
// `check`, `solve` with every turn, `best` as the live evaluation, `annotate`; the
// potential map is Stars' Zone's only, and the page says so.
let family = null;        // the /api/game answer of the Star or Stargazers game shown

function leaveFamily() {
  family = null;
  delete document.body.dataset.game;
}

function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : ''; }

// A name as the owner of what follows: Star's, Stargazers'.
function owner(name) { return name.endsWith('s') ? `${name}'` : `${name}'s`; }

// The family games' answers, read here and only here (every game's JSON has the same
// keys: docs/architecture.md, "One JSON shape a command"): values in points from the
// first side's view (Black's in Star, Red's in Stargazers), turns and placements as
// text. `kind`: the command answered.
function familyAnswer(kind, d) {
  const texts = (x) => (x == null ? [] : [].concat(x).map(String));
  if (kind === 'best') {
    return { value: d.value, exact: d.exact, turn: String(d.turn), best: texts(d.best),
      line: texts(d.pv), nodes: d.nodes, iterations: d.iterations };
  }
  if (kind === 'solve') {
    return { exact: d.exact, value: d.value, lower: d.lower, upper: d.upper,
      stopped: d.stopped || null, best: texts(d.best), line: texts(d.pv),
      unit: d.unit === 'placement' ? 'placement' : 'turn',
      turns: (d.turns || []).map((m) => ({ turn: String(m.turn), value: m.value })) };
  }
  const judged = (t) => ({ turn: String(t.played), mover: t.mover,
    verdict: t.verdict, proved: t.method === 'solver', best: texts(t.best) });
  if (kind === 'check') return judged(d);
  return { turns: d.turns.map(judged), summary: d.summary };    // annotate
}

function setFamilyGame(answer, at, how) {
  stopLive();
  clearAnnotation();
  data = null;
  geo = null;
  family = answer;
  document.body.dataset.game = answer.game;
  undoable = [];
  root = { id: ++lastId, text: null, parent: null, children: [], ply: 0, view: null };
  node = null;
  let n = root;
  for (const t of answer.turns) n = familyChild(n, t);
  for (const side of ['red', 'blue']) $(`sz-${side}-patterns`).textContent = '';
  const line = lineOf(root);
  const k = at == null ? line.length : Math.min(at, line.length);
  go(k === 0 ? root : line[k - 1], how === 'push' ? 'replace' : how);
}

// A node for turn `t` ({turn, round, side}) after `parent` (its view: the server's, later).
function familyChild(parent, t, view = null) {
  const n = { id: ++lastId, text: t.turn, round: t.round, side: t.side, parent, children: [],
    ply: parent.ply + 1, view };
  parent.children.push(n);
  return n;
}

function lineTo(n) {
  const turns = [];
  for (let k = n; k.parent; k = k.parent) turns.unshift(k.text);
  return turns;
}

// The server's view of node `n` (a promise, asked once: a failure is asked again next time).
function viewOf(n) {
  if (n.view) return Promise.resolve(n.view);
  if (!n.viewing) {
    n.viewing = api('POST', '/api/play', { source: family.record, turns: lineTo(n) }).then((r) => {
      n.viewing = null;
      if (!r.ok) throw new Error(r.data.error);
      n.view = r.data;
      return r.data;
    });
  }
  return n.viewing;
}

// Show node `n` once its view is there (a step taken meanwhile wins), and ask for its
// neighbours' views ahead, so stepping on or back is instant.
function familyShow(n) {
  const here = family;
  viewOf(n).then(() => {
    if (family !== here || node !== n) return;
    familyDraw(n);
    renderStatus();
    startLive();
    remember('replace');
    document.body.dataset.at = String(n.ply);
  }, (e) => { if (family === here && node === n) say(msg, e.message, 'bad'); });
  for (const k of [n.parent, n.children[0]]) if (k) viewOf(k).catch(() => {});
}

function familyDraw(n) {
  const holder = $('sz-board');
  holder.innerHTML = n.view.svg;
  board = attachBoard(holder, { onPoint: clickPoint, onKey: boardKey, cursor: board ? board.cursor : 0 });
  familyTurnButtons(n.view);
}

// The turns that are no point of the board (Star's pass and swap): a button each.
function familyTurnButtons(view) {
  const box = $('sz-other-turns');
  box.replaceChildren();
  const names = new Set(board.points.filter(Boolean).map((p) => p.name));
  for (const t of view.legal) {
    if (t.split(',').some((c) => names.has(c))) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = capital(t);
    b.dataset.turn = t;
    b.addEventListener('click', () => familyPlay(t));
    box.appendChild(b);
  }
}

function familyStatus() {
  const v = node.view;
  const over = v ? v.score.over : false;
  $('sz-check').disabled = !node.parent || running.has('check');
  $('sz-values').disabled = !v || over || running.has('values');
  $('sz-potential').disabled = true;
  $('sz-annotate').disabled = running.has('annotate');
  $('sz-undo').disabled = !lastPlayed();
  const inVariation = !onMainLine(node);
  $('sz-promote').disabled = !inVariation;
  $('sz-delete').disabled = !inVariation;
  $('sz-potential-out').replaceChildren();
  para($('sz-potential-out'), `The potential map is Stars' Zone's: ${family.title} has none.`, 'sz-info sz-not-offered');
  if (!v) return;
  const s = v.score;
  family.sides.forEach((side, i) => {
    const el = i === 0 ? 'red' : 'blue';
    $(`sz-${el}-name`).textContent = capital(side);
    $(`sz-${el}-score`).textContent = String(s.scores[side]);
  });
  $('sz-result').textContent = capital(s.result);
  familyStatusLine(v);
  $('sz-position').textContent = v.position;
  $('sz-record').value = v.record;
}

// The status line: the turn that led here, and who is to move. In the middle of a
// Stargazers turn of two placements (one of its stones placed: in the position, or by a
// first click waiting for the second) it says what is left of the turn.
function familyStatusLine(v) {
  const who = capital(v.to_move);
  const first = pending >= 0 ? board.points[pending].name : null;
  let move = `${who} to move.`;
  if (v.score.placed_in_turn || first) {
    const left = v.score.placements_left - (first ? 1 : 0);
    move = `${who} to move: ${left === 1 ? 'one placement' : `${left} placements`} left in the turn` +
      (first ? `, its first stone on ${first}.` : '.');
  }
  $('sz-status').textContent = `${family.title}. ` +
    (node.parent ? `After ${node.text} (round ${node.round}, ${node.side}). ` : '') +
    (v.score.over ? 'Game over.' : v.unfinished ? `${who} is placing: the record's last turn is unfinished, so no turn follows it here.`
      : move);
}

// The address: the line's record (the game's own as given, or the record of the line up
// to the turn shown) and the turn.
function familyAddress() {
  const own = family.turns.map((t) => t.turn).join(' ');
  const line = lineOf(node);
  const record = line.map((k) => k.text).join(' ') === own ? family.record : node.view.record;
  return `${location.pathname}?position=${enc(record)}&turn=${node.ply}`;
}

// A click on cell `i`: a turn of one cell is played at once; for a turn of two
// placements (Stargazers) the first click marks its cell and the second plays both, in
// the order clicked (the first cell again, or Escape, cancels). The legal turns name
// their placements in the order they are made, so a first click is taken only on a cell
// some legal turn starts with: a cell only a turn's second placement can reach (its
// stone is inspired only through the first) is refused, naming the cells that can go
// before it. A turn the position's legal turns do not hold is refused (familyPlay).
function familyClick(i) {
  const v = node.view;
  if (!v) { say(msg, 'The position is still on its way from the server.', 'info'); return; }
  if (v.score.over) { say(msg, 'The game is over: no more turns.', 'info'); return; }
  if (v.unfinished) { say(msg, "The record's last turn is unfinished: no turn can follow it.", 'info'); return; }
  const name = board.points[i].name;
  if (pending >= 0) {
    const first = board.points[pending].name;
    pending = -1;
    drawPending();
    if (first === name) { say(msg, `${name} taken back: click the turn's first cell.`, 'info'); return; }
    familyPlay(`${first},${name}`);
    return;
  }
  const turns = v.legal.map((t) => t.split(','));
  if (turns.some((t) => t.length > 1 && t[0] === name)) {
    pending = i;
    drawPending();
    say(msg, `${name} is the turn's first placement: now click its second (${name} again, or Escape, cancels).`, 'info');
    return;
  }
  const before = turns.filter((t) => t.length > 1 && t[1] === name).map((t) => t[0]);
  if (before.length && !turns.some((t) => t.length === 1 && t[0] === name)) {
    const some = before.slice(0, 12).join(' ') + (before.length > 12 ? ' ...' : '');
    say(msg, `${name} cannot be the turn's first placement: a ${v.to_move} stone there would not be inspired yet. ` +
      `It can be the second, after ${some}.`, 'bad');
    return;
  }
  familyPlay(name);
}

// The same turn: the same placements, whatever their order (the position after it).
function sameTurn(a, b) {
  const cells = (t) => t.split(',').sort().join(',');
  return cells(a) === cells(b);
}

// Play `text` after the node shown: the turn the line plays already just steps there; a
// new one is asked of the server (a refusal is said, in the game's words) and added,
// beside the line as a variation when the line goes on otherwise. A turn of several
// placements that is not legal goes to the server, whose refusal says why (which
// placement, in the order made, is not inspired).
async function familyPlay(text) {
  const from = node;
  const here = family;
  const legal = from.view ? from.view.legal : [];
  if (!legal.includes(text) && !text.includes(',')) {
    const some = legal.slice(0, 12).join(' ') + (legal.length > 12 ? ' ...' : '');
    say(msg, `Illegal turn ${text}: not one of the legal turns here (${some || 'none'}).`, 'bad');
    return;
  }
  const old = from.children.find((c) => sameTurn(c.text, text));
  if (old && legal.includes(text)) {
    undoable.push({ node: old, added: false });
    go(old);
    say(msg, `Played ${old.text}, as the game goes on.`, 'info');
    return;
  }
  const r = await api('POST', '/api/play', { source: family.record, turns: [...lineTo(from), text] });
  if (family !== here) return;
  if (!r.ok) { say(msg, `Illegal turn ${text}: ${r.data.error}.`, 'bad'); return; }
  if (!legal.includes(text)) { say(msg, `Illegal turn ${text}: not one of the legal turns here.`, 'bad'); return; }
  const t = r.data.turns[r.data.turns.length - 1];
  const main = from.children[0];
  const child = from.children.find((c) => c.text === t.turn) || familyChild(from, t, r.data);
  undoable.push({ node: child, added: true });
  if (node === from) go(child);
  if (main) say(msg, `Played ${t.turn}: a variation beside ${main.text}, which stays in the game.`, 'info');
  else say(msg, `Played ${t.turn}.`, 'info');
}

// The best turn's cells ringed on the board.
function familyBestTurn(text) {
  const layer = svgEl('g', { class: 'sz-best-turn', 'pointer-events': 'none' });
  board.svg.insertBefore(layer, board.svg.querySelector('.sz-points'));
  for (const c of String(text).split(',')) {
    const p = board.points.find((q) => q && q.name === c);
    if (!p) continue;
    const ring = drawAt(p, 'circle', { cx: 0, cy: 0, r: 0.46, class: 'sz-best-ring', 'data-point': c }, layer);
    svgEl('title', {}, ring).textContent = `best turn: ${text}`;
  }
}

function familyWords(v, exact) {
  const points = Math.abs(v);
  if (points === 0) return 'level';
  const who = capital(family.sides[v > 0 ? 0 : 1]);
  return `${who} ${exact ? 'wins' : 'ahead'} by ${exact ? '' : 'about '}${points} point${points === 1 ? '' : 's'}`;
}

// A Star or Stargazers engine's work as it goes (`best`'s "progress" events: {partial,
// done, total}, the exact solver's nodes or the tree search's iterations, of at most
// total): these engines tell no value before their answer, so the panel says what is at
// work and how far it is, in the words it has for Stars' Zone's engine.
function familyLiveProgress(d) {
  const out = $('sz-live-out');
  out.replaceChildren();
  out.dataset.state = 'running';
  busy(out, AT_WORK[d.partial] || AT_WORK.tree);
  const work = d.partial === 'solver'
    ? `the exact solver: ${d.done.toLocaleString('en')}${d.total ? ' of ' + d.total.toLocaleString('en') : ''} nodes`
    : engineWork(false, 0, d.done, d.total);
  para(out, `${work} ...`, 'sz-info');
}

// The engine's answer (`best`, the stream's "done" event): its value, best turn and line.
function familyShowLive(raw) {
  const d = familyAnswer('best', raw);
  const out = $('sz-live-out');
  out.replaceChildren();
  out.dataset.state = 'done';
  const v = d.exact ? d.value : Math.round(d.value * 10) / 10;
  const p = para(out, `${signed(v)} `, 'sz-eval-value' + (d.exact ? '' : ' sz-estimated'));
  tag(p, d.exact ? 'proved' : 'estimated', d.exact ? 'sz-proved-tag' : 'sz-estimated-tag');
  out.dataset.value = String(d.value);
  out.dataset.exact = d.exact ? '1' : '0';
  para(out, `${familyWords(v, d.exact)} (${capital(family.sides[0])}'s side, in points).`);
  const best = d.exact && d.best.length > 1 ? ` (optimal: ${d.best.slice(0, 8).join(' ')})` : '';
  para(out, `Best: ${d.turn}${best}`, 'sz-eval-best');
  if (d.line.length > 1) para(out, `${d.exact ? 'Line of best play' : 'Expected line'}: ${d.line.join(' ')}`, 'sz-eval-line');
  para(out, `${engineWork(d.exact, d.nodes, d.iterations)}, done.`, 'sz-info');
  setBar(100 * d.value, d.exact, familyWords(v, d.exact));
  familyBestTurn(d.turn);
}

function familyFinal() {
  const out = $('sz-live-out');
  const s = node.view.score;
  const [a, b] = family.sides.map((side) => s.scores[side]);
  out.replaceChildren();
  out.dataset.state = 'done';
  out.dataset.final = '1';
  const p = para(out, `${signed(a - b)} `, 'sz-eval-value');
  tag(p, 'final', 'sz-proved-tag');
  para(out, `${capital(s.result)}.`);
  setBar(100 * (a - b), true, capital(s.result));
}

async function familyCheck(signal) {
  if (!node.parent) return;
  const here = node;
  const out = $('sz-check-out');
  busy(out, `Checking ${here.text} ...`);
  let before;
  try { before = await viewOf(here.parent); } catch (e) { before = null; }
  const r = before ? await api('POST', '/api/check', { position: before.position, turn: here.text, time_limit: limit() }, signal)
    : { ok: false, data: { error: 'the position before the turn did not come from the server' } };
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = familyAnswer('check', r.data);
  para(out, `${d.turn} (${d.mover}): ${d.verdict} (${d.proved ? 'proved' : 'estimated by the engine'}).`, 'sz-verdict sz-v-' + d.verdict);
  para(out, 'Best: ' + d.best.join(' '));
}

// The value of every turn (`solve` with every turn), in a table and on the board.
async function familyValues(signal) {
  const out = $('sz-values-out');
  const here = node;
  busy(out, 'Solving every turn ...');
  const r = await api('POST', '/api/solve', { position: here.view.position, all_turns: true, time_limit: limit() }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = familyAnswer('solve', r.data);
  const side = `${capital(family.sides[0])}'s side, in points`;
  if (!d.exact) {
    para(out, `Not proved within the limit (${d.stopped}): ${signed(d.lower)} <= value <= ${signed(d.upper)} (${side}).`);
    return;
  }
  para(out, `Value ${signed(d.value)} (exact, ${side}): ${familyWords(d.value, true)}; best ${d.best.join(' ')}.`, 'sz-family-value');
  if (d.unit === 'placement') para(out, `${owner(family.title)} solver values each placement (the turn's first): the value with that placement and best play after it.`, 'sz-help');
  const rows = new Map();
  for (const t of d.turns) {
    if (!rows.has(t.value)) rows.set(t.value, []);
    rows.get(t.value).push(t.turn);
  }
  const table = document.createElement('table');
  table.className = 'sz-values';
  const head = table.insertRow();
  for (const h of ['value', d.unit === 'placement' ? 'placements' : 'turns']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  for (const [v, turns] of rows) {
    const row = table.insertRow();
    row.insertCell().textContent = signed(v);
    row.insertCell().textContent = turns.join(' ');
    if (v === d.value) row.className = 'sz-best';
  }
  table.dataset.rows = String(rows.size);
  const box = document.createElement('div');
  box.className = 'sz-scroll';
  box.appendChild(table);
  out.appendChild(box);
  board.clear();
  for (const t of d.turns) valueLabel(t.turn, signed(t.value), t.value === d.value ? ' sz-best' : '');
}

// The annotation of the line shown (`annotate` of its record; Cancel stops it), its
// progress as it goes ("turn k of N", as Stars' Zone's), then every turn's verdict and
// the marks in the turn list. These games' annotations have no chart.
async function familyAnnotate(signal) {
  const out = $('sz-annotate-out');
  const a = startAnnotation();
  if (!a) return;
  const { line, asked } = a;
  let last;
  try { last = await viewOf(line[line.length - 1]); } catch (e) { last = null; }
  const r = last ? await apiEvents('/api/annotate/events', { source: last.record }, signal, (name, d) => {
    if (name === 'progress') a.progress(d);
  }) : { ok: false, data: { error: 'the line did not come from the server' } };
  if (a.stopped() || annotated !== asked) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = familyAnswer('annotate', r.data);
  para(out, `${owner(family.title)} annotation gives each turn's verdict (no value chart).`, 'sz-help');
  const list = document.createElement('ol');
  list.className = 'sz-annotation';
  marks = new Map();
  d.turns.forEach((t, i) => {
    const li = document.createElement('li');
    li.className = `sz-v-${t.verdict} ${t.proved ? 'sz-proved' : 'sz-estimated'}`;
    li.textContent = `${t.turn}${MARKS[t.verdict] || ''} ${t.mover}: ${t.verdict} (${t.proved ? 'proved' : 'estimated'})` +
      (t.verdict !== 'optimal' && t.best.length ? `; best ${t.best.slice(0, 4).join(' ')}` : '');
    li.addEventListener('click', () => { if (annotated === asked) go(line[i]); });
    list.appendChild(li);
    marks.set(line[i].id, { mark: MARKS[t.verdict], verdict: t.verdict, proved: t.proved });
  });
  out.appendChild(list);
  for (const side of family.sides) {
    const s = d.summary[side] || {};
    para(out, `${side}: ${verdictCounts(s.inaccuracies, s.mistakes, s.blunders)}.`);
  }
  renderTurns();
}

// --- playing ---------------------------------------------------------------------------

function drawPending() {
  board.clear();
  if (family && node.view) familyStatusLine(node.view);
  if (pending < 0) return;
  const side = family ? family.sides.indexOf(node.view.to_move) : node.pos.side;
  drawAt(board.points[pending], 'circle', { cx: 0, cy: 0, r: 0.4, class: 'sz-pending sz-' + SIDES[side] });
}

function lastPlayed() {
  while (undoable.length) {
    const top = undoable[undoable.length - 1];
    let k = top.node;
    while (k.parent && k.parent.children.includes(k)) k = k.parent;
    if (k === root) return top;          // still in the tree
    undoable.pop();
  }
  return null;
}

function playText(text) {
  pending = -1;
  const turn = parseTurn(geo, text);
  const why = turn ? turnError(geo, node.pos, turn) : 'no such turn';
  if (why) { say(msg, `Illegal turn ${text}: ${why}.`, 'bad'); drawPending(); return; }
  const from = node;
  const main = from.children[0];
  const { child, added } = childFor(from, text);
  undoable.push({ node: child, added });
  go(child);
  if (!added) say(msg, `Played ${text}, as the game goes on.`, 'info');
  else if (main) say(msg, `Played ${text}: a variation beside ${main.text}, which stays in the game.`, 'info');
  else say(msg, `Played ${text}.`, 'info');
}

// Take back the last turn played on the board (a turn it added is removed).
function undo() {
  const top = lastPlayed();
  if (!top) { say(msg, 'No turn played on the board to take back.', 'info'); return; }
  undoable.pop();
  const n = top.node;
  if (top.added) n.parent.children.splice(n.parent.children.indexOf(n), 1);
  go(n.parent, 'replace');                 // the address shown no longer holds the turn
  say(msg, `Took back ${n.text}.`, 'info');
}

function deleteVariation() {
  const b = branchOf(node);
  if (!b) return;
  b.parent.children.splice(b.parent.children.indexOf(b), 1);
  go(b.parent, 'replace');
  say(msg, `Deleted the variation from ${b.text}.`, 'info');
}

// The variation shown goes one step up: its first turn becomes the first choice there.
function promoteVariation() {
  const b = branchOf(node);
  if (!b) return;
  const kids = b.parent.children;
  kids.splice(kids.indexOf(b), 1);
  kids.unshift(b);
  renderStatus();
  renderTurns();
  remember('replace');
  saveTree();
  say(msg, onMainLine(node) ? `${b.text} is now the main line.` : `Promoted the variation from ${b.text}.`, 'info');
}

function clickPoint(i) {
  if (family) { familyClick(i); return; }
  const pos = node.pos;
  if (isOver(pos)) { say(msg, 'The game is over: no more turns.', 'info'); return; }
  const name = board.points[i].name;
  const empty = turnError(geo, pos, { stone: i, neutral: -1 }) === null;
  if (pending < 0) {
    if (!empty) { say(msg, `${name} is occupied.`, 'bad'); return; }
    if (pos.left[pos.side] === 0) { playText(name); return; }
    pending = i;
    drawPending();
    say(msg, `Stone on ${name}: now click a point for a neutral, or ${name} again (or Enter) for none; Esc cancels.`, 'info');
  } else if (pending === i) {
    playText(name);
  } else {
    if (!empty) { say(msg, `${name} is occupied.`, 'bad'); return; }
    playText(`${board.points[pending].name}n${name}`);
  }
}

function boardKey(e) {
  if (e.key === 'Escape' && pending >= 0) { pending = -1; drawPending(); say(msg, ''); }
}

// The keys that step and take back act anywhere on the page but in a text field; on
// the board, while its keyboard cursor is shown, the arrows move the cursor (and
// PageUp and PageDown step there, as they scroll the page elsewhere).
function pageKey(e) {
  if (!root || e.altKey) return;
  const t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  const onBoard = board && document.activeElement === $('sz-board');
  const onCursor = onBoard && board.cursorShown;
  let act = null;
  if (e.ctrlKey || e.metaKey) {            // ctrl+z, and cmd+z on a Mac; not cmd+arrow (Back)
    if (e.key.toLowerCase() === 'z' && !e.shiftKey) act = undo;
  } else {
    const keys = {
      ArrowLeft: onCursor ? null : () => step(-1, e.repeat),
      ArrowRight: onCursor ? null : () => step(1, e.repeat),
      '[': () => step(-1, e.repeat), ']': () => step(1, e.repeat),
      PageUp: onBoard ? () => step(-1, e.repeat) : null, PageDown: onBoard ? () => step(1, e.repeat) : null,
      Home: () => go(root, e.repeat ? 'replace' : 'push'), End: () => toEnd(e.repeat),
      u: undo, U: undo,
    };
    act = keys[e.key] || null;
  }
  if (!act) return;
  e.preventDefault();
  e.stopPropagation();
  act();
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

// --- the live evaluation ---------------------------------------------------------------

// The stream of the position left is closed (the server stops its job).
function stopLive() {
  if (!live) return;
  clearTimeout(live.timer);
  if (live.source) live.source.close();
  live = null;
}

function liveOn() { return $('sz-live').checked; }

// Evaluate the position shown, once the board has rested on it for LIVE_DELAY ms.
function startLive() {
  stopLive();
  drawBestTurn(null);
  const out = $('sz-live-out');
  delete out.dataset.final;                // (a game over's: its final value, no room kept)
  if (!root) return;
  if (!liveOn()) { out.replaceChildren(); out.dataset.state = 'off'; setBar(null); return; }
  const here = node;
  if (family && !here.view) {              // familyShow starts it once the view is there
    out.dataset.state = 'waiting';
    busy(out, 'Evaluating ...');
    return;
  }
  if (family && here.view.score.over) { familyFinal(); return; }
  if (!family && isOver(here.pos)) {
    const v = value(geo, here.pos);
    out.replaceChildren();
    out.dataset.state = 'done';
    out.dataset.final = '1';
    const p = para(out, `${signed(v)} `, 'sz-eval-value');
    tag(p, 'final', 'sz-proved-tag');
    para(out, `${valueWords(v, true)}.`);     // the result itself is in the header
    setBar(v, true);
    return;
  }
  out.dataset.state = 'waiting';
  busy(out, 'Evaluating ...');
  $('sz-evalbar').dataset.stale = '1';     // the last position's value, until this one's comes
  const entry = { node: here, timer: 0, source: null };
  live = entry;
  entry.timer = setTimeout(() => {
    const position = family ? here.view.position : positionString(geo, here.pos);
    const q = new URLSearchParams({ position, time_limit: String(limit()) });
    const source = new EventSource('/api/evaluate?' + q);
    entry.source = source;
    const mine = () => live === entry && node === here;
    source.addEventListener('progress', (e) => {
      entry.last = JSON.parse(e.data);
      if (mine()) (family ? familyLiveProgress : showLive)(entry.last, false);
    });
    source.addEventListener('done', (e) => {
      source.close();
      if (mine()) (family ? familyShowLive : showLive)(JSON.parse(e.data), true);
    });
    // the server's error event (with data), or the connection failing (none): the
    // stream is over either way (an EventSource would open it again)
    source.addEventListener('error', (e) => {
      source.close();
      if (!mine()) return;
      let text = 'The live evaluation stopped: the server did not answer.';
      if (e.data) { try { text = JSON.parse(e.data).error; } catch (err) { /* keep the text */ } }
      if (entry.last) {
        // what the search had got to stays (said to be where it stopped), not a blank panel
        (family ? familyLiveProgress : showLive)(entry.last, false);
        text = text.replace(/\.?$/, '.') + ' The figures above are where the search had got to.';
      } else {
        out.replaceChildren();
      }
      out.dataset.state = 'error';
      para(out, text, 'sz-bad');
    });
  }, LIVE_DELAY);
}

function tag(parent, text, cls) {
  const t = document.createElement('span');
  t.className = cls;
  t.textContent = text;
  parent.appendChild(t);
  return t;
}

// What the engine is at before it has a value, in every game's words.
const AT_WORK = { solver: 'The exact solver is at work ...', bounds: 'Proving bounds ...',
  tree: 'The engine is searching ...' };

// The engine's work in words, the same for every game: the exact solver's nodes where
// it proved the answer, else the tree search's iterations (of those planned, when known).
function engineWork(exact, nodes, iterations, planned) {
  return exact ? `proved by the exact solver (${nodes.toLocaleString('en')} nodes)`
    : `${iterations.toLocaleString('en')}${planned ? ' of ' + planned.toLocaleString('en') : ''} iterations`;
}

// A value in words: who is ahead and by how many points (100 = one point).
function valueWords(v, exact) {
  const points = Math.round(Math.abs(v) / 100);
  const about = exact ? '' : 'about ';
  if (points === 0) return v === 0 ? 'level' : `level on points, ${v > 0 ? 'Red' : 'Blue'} ahead on neutrals`;
  return `${v > 0 ? 'Red' : 'Blue'} ${exact ? 'wins' : 'ahead'} by ${about}${points} point${points === 1 ? '' : 's'}`;
}

function showLive(d, final) {
  const out = $('sz-live-out');
  out.replaceChildren();
  out.dataset.state = final ? 'done' : 'running';
  if (d.value == null) {
    busy(out, d.partial === 'solver' ? AT_WORK.solver : AT_WORK.bounds);
  } else {
    const p = para(out, `${signed(d.value)} `, 'sz-eval-value' + (d.exact ? '' : ' sz-estimated'));
    tag(p, d.exact ? 'proved' : 'estimated', d.exact ? 'sz-proved-tag' : 'sz-estimated-tag');
    out.dataset.value = String(d.value);
    out.dataset.exact = d.exact ? '1' : '0';
    para(out, `${valueWords(d.value, d.exact)}.`);
    // a limit may stop the solver while it lists the optimal turns (best_complete false)
    const which = d.best_complete === false ? 'optimal, proved so far' : 'optimal';
    const best = d.exact && d.best.length > 1 ? ` (${which}: ${d.best.slice(0, 8).join(' ')}${d.best.length > 8 ? ' ...' : ''})` : '';
    para(out, `Best turn: ${d.turn}${best}`, 'sz-eval-best');
    if (d.pv.length > 1) para(out, `${d.exact ? 'Principal variation' : 'Expected line'}: ${d.pv.join(' ')}`, 'sz-eval-line');
  }
  if (!d.exact) {
    const width = d.upper - d.lower;
    const wide = width >= 200 * geo.n_patterns;
    para(out, wide ? `Proved: nothing yet (${signed(d.lower)} .. ${signed(d.upper)}).`
      : `Proved: ${signed(d.lower)} <= value <= ${signed(d.upper)}.`, 'sz-eval-bounds');
  }
  const work = engineWork(d.exact, d.nodes, d.iterations, d.budget ? d.budget.iterations : 0);
  const stopped = d.solver_stopped ? `; the exact solver stopped: ${d.solver_stopped}` : '';
  para(out, `${work}${stopped}${final ? ', done.' : ' ...'}`, 'sz-info');
  if (d.value != null) {
    setBar(d.value, d.exact);
    drawBestTurn(d.turn);
  }
}

// The bar: Red's share from the bottom, half at a level game, most of it past a few points.
function setBar(v, exact, words) {
  const bar = $('sz-evalbar');
  if (v == null) { bar.dataset.state = 'off'; bar.querySelector('.sz-evalbar-text').textContent = ''; return; }
  const share = 50 + 50 * Math.tanh(v / 500);
  bar.dataset.state = 'on';
  bar.dataset.stale = '0';
  bar.dataset.exact = exact ? '1' : '0';
  bar.querySelector('.sz-evalbar-fill').style.height = `${share.toFixed(1)}%`;
  bar.querySelector('.sz-evalbar-text').textContent = signed(v);
  bar.setAttribute('aria-valuenow', String(Math.round(share * 2 - 100)));
  bar.setAttribute('aria-valuetext', `${signed(v)}, ${exact ? 'proved' : 'estimated'}: ${words || valueWords(v, exact)}`);
}

// The best turn on the board: its stone's point ringed, its neutral's ringed dashed.
function drawBestTurn(text) {
  if (!board) return;
  const svg = board.svg;
  let layer = svg.querySelector('g.sz-best-turn');
  if (family) { if (layer) layer.remove(); return; }
  if (!layer) {
    layer = svgEl('g', { class: 'sz-best-turn', 'pointer-events': 'none' });
    svg.insertBefore(layer, svg.querySelector('.sz-points'));
  }
  layer.replaceChildren();
  const turn = text ? parseTurn(geo, text) : null;
  if (!turn) return;
  const s = board.points[turn.stone];
  const ring = svgEl('circle', { cx: s.x, cy: s.y, r: 0.46, class: 'sz-best-ring', 'data-point': s.name }, layer);
  svgEl('title', {}, ring).textContent = `best turn: ${text}`;
  if (turn.neutral >= 0) {
    const n = board.points[turn.neutral];
    svgEl('line', { x1: s.x, y1: s.y, x2: n.x, y2: n.y, class: 'sz-best-link' }, layer);
    svgEl('circle', { cx: n.x, cy: n.y, r: 0.36, class: 'sz-best-neutral', 'data-point': n.name }, layer);
  }
}

async function checkTurn(signal) {
  if (!node.parent) return;
  const out = $('sz-check-out');
  const here = node;
  busy(out, `Checking ${here.text} ...`);
  const r = await api('POST', '/api/check', { position: positionString(geo, here.parent.pos), turn: here.text, time_limit: limit() }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  const how = d.exact ? 'proved' : d.method === 'engine' ? 'estimated by the engine' : 'from proved bounds';
  para(out, `${d.played} (${d.mover}): ${d.verdict || 'no verdict'} (${how}).`, 'sz-verdict sz-v-' + (d.verdict || 'open'));
  para(out, `Value before ${signed(d.value_before)}, after ${signed(d.played_value)}, loss ${d.loss == null ? '?' : d.loss} (Red's side).`);
  if (!d.exact && d.method === 'engine') {
    para(out, 'Estimates, not proved: a loss under half a point (50) is within their precision ' +
      'and counts as 0, unless the proved bounds show it.', 'sz-note sz-precision');
  }
  if (d.best.length) para(out, 'Best: ' + d.best.slice(0, 12).join(' ') + (d.best.length > 12 ? ' ...' : ''));
  for (const n of d.notes) para(out, n, 'sz-note');
}

async function turnValues(signal) {
  const out = $('sz-values-out');
  const here = node;
  busy(out, 'Solving every turn ...');
  const r = await api('POST', '/api/solve', { position: positionString(geo, here.pos), all_turns: true, time_limit: limit() }, signal);
  if (!stillAt(here)) return;
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  const every = (d.turns || []).every(t => t.exact);
  // Both the solver's stopped bounds and the engine's CP-SAT bounds are proved: one
  // line gives the tighter of each, not two different "proved" ranges.
  let lo = d.lower, hi = d.upper;
  if (!d.exact && d.estimates) {
    lo = Math.max(lo, d.estimates.lower);
    hi = Math.min(hi, d.estimates.upper);
  }
  para(out, !d.exact ? `Not proved within the limit (${d.stopped}): ${signed(lo)} <= value <= ${signed(hi)}.`
    : every ? `Value ${signed(d.value)} (exact, Red's side): ${d.winner || 'draw'}; best ${d.best.join(' ')}.`
    : `Value ${signed(d.value)} (exact, Red's side): ${d.winner || 'draw'}; proved best so far ${d.best.join(' ') || 'none'}; ` +
      `the limit stopped before every turn's value (those not reached show their proved bounds).`);
  // One row per value (best first for the side to move), and the best value of
  // each stone point written on the board.
  const rows = new Map();
  const perPoint = new Map();
  const red = here.pos.side === 0;
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
  for (const [name, v] of perPoint) valueLabel(name, signed(v), d.exact && v === d.value ? ' sz-best' : '');
  table.dataset.rows = String(rows.size);
  if (!d.estimates) { out.appendChild(box); return; }
  // Turns not proved: the engine's estimates first, the proved bounds of every turn folded.
  estimatedTurns(out, d.estimates, red, d.exact ? null : [lo, hi]);
  const fold = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = "Proved bounds of every turn";
  fold.append(summary, box);
  out.appendChild(fold);
}

// Beyond the solver's reach: the engine's candidate turns with their estimated values
// (marked ~, never proved), beside the proved bounds of the position's value.
function estimatedTurns(out, e, red, bounds) {
  const [lo, hi] = bounds || [e.lower, e.upper];
  // where the value is proved, the estimates are only of the turns not proved yet, each
  // within its proved bounds (the server clamps them)
  para(out, lo === hi
    ? `The turns not proved yet, estimated by the engine (${e.iterations.toLocaleString('en')} iterations, not proved; each within its proved bounds):`
    : `Estimated by the engine (${e.iterations.toLocaleString('en')} iterations, not proved): ` +
      `value about ${signed(e.value)}; proved ${signed(lo)} <= value <= ${signed(hi)}.`, 'sz-estimated');
  const table = document.createElement('table');
  table.className = 'sz-values sz-estimates';
  const head = table.insertRow();
  for (const h of ['turn', 'estimate', 'visits']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  const perPoint = new Map();
  for (const c of e.candidates) {
    const row = table.insertRow();
    row.insertCell().textContent = c.turn;
    row.insertCell().textContent = '~' + signed(Math.round(c.estimate));
    row.insertCell().textContent = String(c.visits);
    if (c.turn === e.turn) row.className = 'sz-best';
    const stone = c.turn.split('n')[0];
    const old = perPoint.get(stone);
    if (old == null || (red ? c.estimate > old : c.estimate < old)) perPoint.set(stone, c.estimate);
  }
  table.dataset.rows = String(e.candidates.length);
  out.appendChild(table);
  for (const [name, v] of perPoint) valueLabel(name, '~' + signed(Math.round(v)), ' sz-estimate');
}

// A value written on a stone point of the board (the point by its name); a name the
// picture writes in the cell (Star's) gives way to it until the board is cleared.
function valueLabel(name, text, extra) {
  const p = board.points.find((q) => q && q.name === name);
  if (!p) return;
  board.svg.querySelector(`.names text[data-name="${CSS.escape(name)}"]`)?.classList.add('sz-covered');
  const el = drawAt(p, 'text', { x: 0, y: 0.12, class: 'sz-value-label' + extra });
  el.textContent = text;
}

// A mark drawn at point `p` of the board, in the units of Stars' Zone's board (a point's
// target 0.48 across), scaled to the picture's own (Star's and Stargazers' differ), in
// `layer` (default the board's layer to draw on).
function drawAt(p, tag, attrs, layer) {
  const g = svgEl('g', { transform: `translate(${p.x} ${p.y}) scale(${p.r / 0.48})` }, layer || board.live);
  return svgEl(tag, attrs, g);
}

// The count of a side's verdicts other than optimal, in words.
function verdictCounts(inaccuracies, mistakes, blunders) {
  const n = (k, one, many) => `${k || 0} ${k === 1 ? one : many}`;
  return `${n(inaccuracies, 'inaccuracy', 'inaccuracies')}, ${n(mistakes, 'mistake', 'mistakes')}, ` +
    n(blunders, 'blunder', 'blunders');
}

async function potentialMap(signal) {
  const out = $('sz-potential-out');
  const here = node;
  busy(out, 'CP-SAT is working out the map ...');
  const r = await api('POST', '/api/potential', { position: positionString(geo, here.pos), time_limit: limit(), svg: true }, signal);
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

const MARKS = { optimal: '', inaccuracy: '?!', mistake: '?', blunder: '??' };

// The annotation of the line shown begins: that line becomes the one the panel is
// about, and the panel shows the progress ("turn k of N") with a Cancel button, which
// stops the server's work. Null, said in the panel, when the line has no turns.
function startAnnotation() {
  const out = $('sz-annotate-out');
  const line = lineOf(node);
  out.replaceChildren();
  if (!line.length) { para(out, 'The game has no turns yet.', 'sz-bad'); return null; }
  const asked = line.map((n) => n.text).join(' ');
  annotated = asked;
  const box = document.createElement('div');
  box.className = 'sz-progress';
  const label = para(box, `Annotating ${line.length} turns: starting ...`, 'sz-busy');
  const bar = document.createElement('progress');
  bar.max = line.length;
  bar.value = 0;
  box.appendChild(bar);
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.id = 'sz-annotate-cancel';
  cancel.textContent = 'Cancel';
  let cancelled = false;
  cancel.addEventListener('click', () => {
    cancelled = true;
    const ctl = asking.get('annotate');
    if (ctl) ctl.abort();
  });
  box.appendChild(cancel);
  out.appendChild(box);
  return {
    line, asked,
    // a "progress" event of the annotation's stream
    progress(d) {
      if (annotated !== asked) return;
      // the turns judged so far, as the command says it (the proved last turns come first)
      label.textContent = d.done >= d.total ? `All ${d.total} turns judged.` : `${d.done} of ${d.total} turns judged; ${d.text} ...`;
      bar.max = d.total;
      bar.value = d.done;
      out.dataset.done = String(d.done);
    },
    // whether Cancel stopped it (the panel then says so)
    stopped() {
      if (!cancelled) return false;
      if (annotated === asked) { out.replaceChildren(); para(out, 'Annotation cancelled.', 'sz-info'); annotated = null; }
      return true;
    },
  };
}

// The annotation of the line shown, its progress as it goes ("turn k of N", a Cancel
// button that stops the server's work), then the value chart (a point's click goes
// to that turn), every turn's verdict, the marks in the turn list and the legend.
async function annotateGame(signal) {
  const out = $('sz-annotate-out');
  const a = startAnnotation();
  if (!a) return;
  const { line, asked } = a;
  const game = { type: 'game', tags: lineTags(line), turns: line.map((n) => n.text) };
  const r = await apiEvents('/api/annotate/events', { game }, signal, (name, d) => {
    if (name === 'progress') a.progress(d);
  });
  if (a.stopped()) return;
  if (annotated !== asked) return;     // another line since: its panel was cleared
  out.replaceChildren();
  if (!r.ok) { para(out, r.data.error, 'sz-bad'); return; }
  const d = r.data;
  const chart = document.createElement('div');
  chart.className = 'sz-chart';
  chart.innerHTML = d.chart;
  chartLine = line;
  for (const c of chart.querySelectorAll('circle[data-step]')) {
    c.addEventListener('click', () => {
      const k = +c.dataset.step;
      if (chartLine === line) go(k === 0 ? root : line[k - 1]);
    });
  }
  out.appendChild(chart);
  para(out, 'Values Red\'s side (100 = one point of score; above the middle line Red is ahead, below it Blue). ' +
    'Filled points and solid lines are proved, hollow points and dashed lines estimated; the grey bars are the bounds proved. ' +
    'Click a point to go to that turn.', 'sz-help');
  const list = document.createElement('ol');
  list.className = 'sz-annotation';
  marks = new Map();
  d.turns.forEach((t, i) => {
    const li = document.createElement('li');
    li.value = t.number;
    const proved = t.verdict_proved;
    li.className = 'sz-v-' + (t.verdict || 'open') + (t.verdict ? (proved ? ' sz-proved' : ' sz-estimated') : '');
    li.textContent = `${t.played}${MARKS[t.verdict] || ''} ${t.side}: ${t.verdict || 'open'}${t.verdict ? (proved ? ' (proved)' : ' (estimated)') : ''}` +
      (t.verdict && t.verdict !== 'optimal' && t.best.length ? `; best ${t.best.slice(0, 4).join(' ')}` : '');
    li.addEventListener('click', () => { if (chartLine === line) go(line[i]); });
    list.appendChild(li);
    if (t.verdict) marks.set(line[i].id, { mark: MARKS[t.verdict], verdict: t.verdict, proved });
  });
  out.appendChild(list);
  para(out, 'Marks: ?! inaccuracy (a loss of less than a point, the result kept), ? mistake (a point or more), ' +
    '?? blunder (the result gets worse: a win to a draw or a loss). Bold: proved (the exact solver, or bounds proved); ' +
    'italic: estimated by the engine (within half a point it counts as optimal).', 'sz-help sz-legend-verdicts');
  for (const side of ['red', 'blue']) {
    const s = d.summary[side];
    // the accuracy in the server's words, as the command's report has it
    para(out, `${side}: ${verdictCounts(s.inaccuracies, s.mistakes, s.blunders)}` +
      (s.judged ? `; ${s.accuracy_text}` : '') + '.');
  }
  renderTurns();
  markChart();
}

// The chart's cursor on the turn shown, when it is in the annotated line.
function markChart() {
  const cursor = chartLine && $('sz-annotate-out').querySelector('.sz-chart line#cursor');
  if (!cursor) return;
  const at = chartLine.indexOf(node);
  const k = node === root ? 0 : at < 0 ? -1 : at + 1;
  const dot = k >= 0 && $('sz-annotate-out').querySelector(`.sz-chart circle[data-step="${k}"]`);
  cursor.setAttribute('visibility', dot ? 'visible' : 'hidden');
  if (dot) { cursor.setAttribute('x1', dot.getAttribute('cx')); cursor.setAttribute('x2', dot.getAttribute('cx')); }
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
// The panel's tabs (shown on a narrow screen; a wide one shows every pane at once).
function showTab(name) {
  $('sz-side').dataset.tab = name;
  for (const t of document.querySelectorAll('.sz-tabs [role="tab"]')) {
    t.setAttribute('aria-selected', String(t.id === `sz-tab-${name}`));
  }
}
for (const t of document.querySelectorAll('.sz-tabs [role="tab"]')) {
  t.addEventListener('click', () => showTab(t.id.slice('sz-tab-'.length)));
}
$('sz-first').addEventListener('click', () => root && go(root));
$('sz-prev').addEventListener('click', () => step(-1));
$('sz-next').addEventListener('click', () => step(1));
$('sz-last').addEventListener('click', () => root && toEnd());
$('sz-undo').addEventListener('click', () => root && undo());
$('sz-promote').addEventListener('click', () => root && promoteVariation());
$('sz-delete').addEventListener('click', () => root && deleteVariation());
$('sz-check').addEventListener('click', () => job('check', family ? familyCheck : checkTurn));
$('sz-values').addEventListener('click', () => job('values', family ? familyValues : turnValues));
$('sz-potential').addEventListener('click', () => job('potential', potentialMap));
$('sz-annotate').addEventListener('click', () => job('annotate', family ? familyAnnotate : annotateGame));
$('sz-live').addEventListener('change', () => {
  try { localStorage.setItem(LIVE_KEY, liveOn() ? '1' : '0'); } catch (e) { /* not kept */ }
  startLive();
});
$('sz-limit').addEventListener('input', () => {
  if (limitSaid !== null && msg.textContent === limitSaid) say(msg, '');
  limitSaid = null;
});
$('sz-limit').addEventListener('change', () => { if (liveOn()) startLive(); });
try { if (localStorage.getItem(LIVE_KEY) === '0') $('sz-live').checked = false; } catch (e) { /* on */ }
document.addEventListener('keydown', pageKey, true);
// a row of the live evaluation cut to its one line (style.css) shows all of it as its
// title; a click (a tap, on a phone) on the rows shows them whole, another cuts them again
$('sz-live-out').addEventListener('pointerover', (e) => {
  const row = e.target.closest('#sz-live-out > p');
  if (row) row.title = row.scrollWidth > row.clientWidth ? row.textContent : '';
});
$('sz-live-out').addEventListener('click', () => $('sz-live-out').toggleAttribute('data-whole'));
window.addEventListener('popstate', () => openAddress('none'));

(async () => {
  await openAddress('replace');
  document.body.dataset.ready = '1';
})();
