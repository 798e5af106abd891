// The puzzle page: place stars, see their beams, check, get a hint, reveal.
//
// The page carries its data as JSON (#sz-data): the puzzle as `szsolver puzzle show
// --json` gives it, the board (szsolver.web.puzzles.board_data) and, on the static
// page, the logic steps and the solution. body[data-mode] says where answers come
// from: "server" asks the API (the Python checker, steps and solution on demand),
// "static" works alone (the checker in starmap.js). Progress is kept in
// localStorage under "szsolver:puzzle:<ID>".

import { starPatterns, beamPairs, solutionProblems, nextHint, GRADE_NAMES } from './starmap.js';
import { attachBoard, say, api } from './board.js';

const data = JSON.parse(document.getElementById('sz-data').textContent);
const mode = document.body.dataset.mode;
const board = data.board;
const puzzle = data.puzzle;
const pid = puzzle.id;
const key = 'szsolver:puzzle:' + pid;
const msg = document.getElementById('sz-msg');
const hintBox = document.getElementById('sz-hint');
const blocked = new Set(board.blocked);
const given = new Map(board.givens);
const byName = new Map(board.points.map((p, i) => [p.name, i]));
const colours = board.colours;

let placed = new Set();
let empties = new Set();
let solved = false;
let revealed = false;
let highlight = -1;
let steps = data.steps || null;
let solution = puzzle.solution ? new Set(puzzle.solution.map((n) => byName.get(n))) : null;

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || 'null');
    if (!saved) return;
    placed = new Set((saved.stars || []).map((n) => byName.get(n)).filter((i) => i != null && !blocked.has(i) && !given.has(i)));
    empties = new Set((saved.empty || []).map((n) => byName.get(n)).filter((i) => i != null && !placed.has(i)));
    solved = !!saved.solved;
    revealed = !!saved.revealed;
  } catch (e) { /* a damaged entry: start afresh */ }
}

function save() {
  const names = (s) => [...s].sort((a, b) => a - b).map((i) => board.points[i].name);
  try {
    localStorage.setItem(key, JSON.stringify({ stars: names(placed), empty: names(empties), solved, revealed }));
  } catch (e) { /* storage full or disabled: play on without it */ }
}

const holder = document.getElementById('sz-board');
const view = attachBoard(holder, { onPoint: toggleStar, onMark: toggleEmpty });
const step = board.step;

function allStars() { return new Set([...placed, ...given.keys()]); }

function render() {
  view.clear();
  const stars = allStars();
  const pts = view.points;
  const rad = step * (board.cell === 'hex' ? 0.36 : 0.3);
  const tick = step * (board.cell === 'hex' ? 0.63 : 0.62);
  // Beams from edge to edge of the two stars, so no star's number is covered.
  for (const [p, q] of beamPairs(board, stars)) {
    const dx = pts[q].x - pts[p].x;
    const dy = pts[q].y - pts[p].y;
    const len = Math.hypot(dx, dy);
    if (len <= 2 * tick) continue;      // neighbours: their ticks meet
    const ux = dx / len;
    const uy = dy / len;
    view.draw('line', { x1: pts[p].x + ux * tick, y1: pts[p].y + uy * tick, x2: pts[q].x - ux * tick,
      y2: pts[q].y - uy * tick, class: 'sz-beam', stroke: colours.placed });
  }
  const pats = starPatterns(board, stars);
  const counts = new Map();
  for (const pat of pats.values()) counts.set(pat, (counts.get(pat) || 0) + 1);
  for (const p of placed) {
    const { x, y } = pts[p];
    const pat = pats.get(p);
    board.dirs.forEach(([ux, uy], d) => {
      if (pat >> d & 1) {
        view.draw('line', { x1: x + ux * rad, y1: y + uy * rad, x2: x + ux * tick, y2: y + uy * tick,
          stroke: colours.placed, 'stroke-width': (step / 6.5).toFixed(2), 'stroke-linecap': 'round' });
      }
    });
    view.draw('circle', { cx: x, cy: y, r: rad, fill: colours.placed,
      class: counts.get(pat) > 1 ? 'sz-star sz-clash' : 'sz-star', 'data-star': board.points[p].name });
  }
  for (const p of empties) {
    const { x, y } = pts[p];
    view.draw('circle', { cx: x, cy: y, r: step * 0.1, class: 'sz-empty-mark' });
  }
  if (highlight >= 0) {
    view.draw('circle', { cx: pts[highlight].x, cy: pts[highlight].y, r: step * 0.46, class: 'sz-hint-ring' });
  }
  const n = stars.size;
  document.getElementById('sz-count').textContent =
    `${n} of ${board.n_patterns} stars` + (solved ? ' - solved!' : '') + (revealed ? ' (revealed)' : '');
  holder.classList.toggle('sz-solved', solved);
}

function changed() {
  solved = false;
  highlight = -1;
  hintBox.textContent = '';
  save();
  render();
}

function toggleStar(i) {
  if (blocked.has(i)) { say(msg, `${board.points[i].name} is blocked: no star there`, 'info'); return; }
  if (given.has(i)) { say(msg, `${board.points[i].name} is a given star`, 'info'); return; }
  if (placed.has(i)) placed.delete(i); else { placed.add(i); empties.delete(i); }
  say(msg, '');
  changed();
}

function toggleEmpty(i) {
  if (blocked.has(i) || given.has(i)) return;
  if (empties.has(i)) empties.delete(i); else { empties.add(i); placed.delete(i); }
  changed();
}

async function check() {
  const stars = allStars();
  let problems;
  if (mode === 'static') {
    problems = solutionProblems(board, stars);
  } else {
    const names = [...stars].sort((a, b) => a - b).map((i) => board.points[i].name);
    const r = await api('POST', `/api/puzzles/${encodeURIComponent(pid)}/check`, { stars: names });
    if (!r.ok) { say(msg, r.data.error, 'bad'); return; }
    problems = r.data.problems;
  }
  if (!problems.length) {
    solved = true;
    save();
    render();
    say(msg, 'Correct: every pattern appears exactly once and every given shows its pattern.', 'good');
  } else {
    say(msg, 'Not a solution yet: ' + problems.join('; ') + '.', 'bad');
  }
}

async function needSteps() {
  if (steps) return true;
  const [text, tone] = [msg.textContent, msg.className];    // put back after the wait
  say(msg, 'Asking the logic solver ...', 'info');
  const r = await api('GET', `/api/puzzles/${encodeURIComponent(pid)}/steps`);
  if (!r.ok) { say(msg, r.data.error, 'bad'); return false; }
  steps = r.data.steps;
  msg.textContent = text;
  msg.className = tone;
  return true;
}

async function needSolution() {
  if (solution) return true;
  const r = await api('GET', `/api/puzzles/${encodeURIComponent(pid)}?solution=1`);
  if (!r.ok) { say(msg, r.data.error, 'bad'); return false; }
  solution = new Set(r.data.solution.map((n) => byName.get(n)));
  return true;
}

async function hint() {
  if (!(await needSteps())) return;
  let h = nextHint(board, steps, placed, empties, solution);
  if (h.kind === 'stuck') {
    if (!(await needSolution())) return;
    h = nextHint(board, steps, placed, empties, solution);
  }
  const name = (i) => board.points[i].name;
  highlight = h.index != null ? h.index : -1;
  if (h.kind === 'wrong') {
    hintBox.innerHTML = '';
    hintBox.textContent = `The star at ${name(h.index)} is not part of the solution: remove it.`;
  } else if (h.kind === 'step') {
    hintBox.replaceChildren();
    const b = document.createElement('b');
    b.textContent = `${h.technique} (${GRADE_NAMES[h.level - 1]}): `;
    hintBox.append(b, document.createTextNode(h.text));
  } else if (h.kind === 'reveal') {
    hintBox.textContent = `The named techniques stop here (the next step needs trial and error): a star goes on ${name(h.index)}.`;
  } else {
    hintBox.textContent = solved ? 'Solved: there is nothing left to find.'
      : 'Every deduction is on the board: check your solution.';
  }
  render();
  hintBox.scrollIntoView({ block: 'nearest' });     // below the board on a phone
}

async function reveal() {
  if (!(await needSolution())) return;
  placed = new Set([...solution].filter((p) => !given.has(p)));
  empties = new Set();
  revealed = true;
  changed();
  say(msg, 'The solution is shown.', 'info');
}

function reset() {
  placed = new Set();
  empties = new Set();
  revealed = false;
  changed();
  say(msg, '');
}

function describe() {
  const info = document.getElementById('sz-info');
  const parts = [`${pid}`, `grade: ${puzzle.grade}`, `${puzzle.givens.length} givens`,
    `board ${puzzle.board}`, `${puzzle.rule} rule`];
  if (puzzle.date) parts.unshift(`puzzle of ${puzzle.date}`);
  info.textContent = parts.join(' \u00b7 ');
}

document.getElementById('sz-check').addEventListener('click', check);
document.getElementById('sz-hint-btn').addEventListener('click', hint);
document.getElementById('sz-reveal').addEventListener('click', reveal);
document.getElementById('sz-reset').addEventListener('click', reset);

load();
describe();
render();
document.body.dataset.ready = '1';
