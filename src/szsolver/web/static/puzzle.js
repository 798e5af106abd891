// The puzzle page: place stars, see their beams and the mistakes no star can mend on
// the board, undo and redo, a hint, reveal; solved as the last star goes down.
//
// The page carries its data as JSON (#sz-data): the puzzle as `szsolver puzzle show
// --json` gives it, the board (szsolver.web.puzzles.board_data), the puzzle to offer
// next, and on the static page the logic steps and the solution. body[data-mode]
// says where the steps and the solution come from: "server" asks the API on demand,
// "static" has them. Both pages check the board here (starmap.js, tested against
// the Python checker) and say it in the words of wording.js, so they say the same.
// Progress is kept in localStorage under "szsolver:puzzle:<ID>", the dates of the
// daily puzzles solved without Reveal under "szsolver:daily-solved".

import { beamPairs, boardCheck, certainMistakes, nextHint, GRADE_NAMES } from './starmap.js';
import { caption, toPlace, summary, mistakeText, WORDS, infoLine, legendText, givenText, blockedText, streakText, hintParts } from './wording.js';
import { attachBoard, enableZoom, svgEl, say, api } from './board.js';

const data = JSON.parse(document.getElementById('sz-data').textContent);
const mode = document.body.dataset.mode;
const board = data.board;
const puzzle = data.puzzle;
const pid = puzzle.id;
const key = 'szsolver:puzzle:' + pid;
const DAILY_KEY = 'szsolver:daily-solved';
const $ = (id) => document.getElementById(id);
const msg = $('sz-msg');
const hintBox = $('sz-hint');
const blocked = new Set(board.blocked);
const given = new Map(board.givens);
const byName = new Map(board.points.map((p, i) => [p.name, i]));
const colours = board.colours;

// The board's state: what undo and redo step through.
let placed = new Set();
let empties = new Set();
let revealed = false;
let solvedBefore = false;       // solved once (kept): the streak counts it once
let undoStack = [];
let redoStack = [];
let markMode = false;           // a tap marks empty instead of placing a star
let highlight = -1;
let steps = data.steps || null;
let solution = puzzle.solution ? new Set(puzzle.solution.map((n) => byName.get(n))) : null;

function snapshot() { return { placed: new Set(placed), empties: new Set(empties), revealed }; }
function restore(s) { placed = new Set(s.placed); empties = new Set(s.empties); revealed = s.revealed; }

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || 'null');
    if (!saved) return;
    placed = new Set((saved.stars || []).map((n) => byName.get(n)).filter((i) => i != null && !blocked.has(i) && !given.has(i)));
    empties = new Set((saved.empty || []).map((n) => byName.get(n)).filter((i) => i != null && !placed.has(i)));
    solvedBefore = !!saved.solved;
    revealed = !!saved.revealed;
  } catch (e) { /* a damaged entry: start afresh */ }
}

function save(solved) {
  const names = (s) => [...s].sort((a, b) => a - b).map((i) => board.points[i].name);
  try {
    localStorage.setItem(key, JSON.stringify({ stars: names(placed), empty: names(empties), solved, revealed }));
  } catch (e) { /* storage full or disabled: play on without it */ }
}

function solvedDays() {
  try { return new Set(JSON.parse(localStorage.getItem(DAILY_KEY) || '[]')); } catch (e) { return new Set(); }
}

function streak() {
  const days = solvedDays();
  let n = 0;
  const d = new Date(puzzle.date + 'T00:00:00Z');
  while (days.has(d.toISOString().slice(0, 10))) { n += 1; d.setUTCDate(d.getUTCDate() - 1); }
  return n;
}

function creditDaily() {
  if (!puzzle.date) return;
  const days = solvedDays();
  days.add(puzzle.date);
  try { localStorage.setItem(DAILY_KEY, JSON.stringify([...days].sort().slice(-400))); } catch (e) { /* no storage */ }
}

const holder = $('sz-board');
// zoomed in, the keyboard's cursor pans the board to stay in view (a click is in view)
const view = attachBoard(holder, { onPoint: tapPoint, onMark: toggleEmpty,
  onCursor: (i, shown) => { if (shown) zoom.show(i); } });
const zoom = enableZoom(view, holder);
const step = board.step;
const captionText = view.svg.querySelector('.caption text:last-child');
const captionBase = captionText ? captionText.textContent : '';

// The givens explain their number on hover (tap or click: in the message line).
for (const [p, pat] of given) {
  svgEl('title', {}, view.points[p].el).textContent = givenText(board, p, pat);
}

function allStars() { return new Set([...placed, ...given.keys()]); }

function render() {
  view.clear();
  const stars = allStars();
  const check = boardCheck(board, stars);
  const mistakes = certainMistakes(board, check);
  const solved = check.correct;
  const pts = view.points;
  const rad = step * (board.cell === 'hex' ? 0.36 : 0.3);
  const tick = step * (board.cell === 'hex' ? 0.63 : 0.62);
  const width = (step / 6.5).toFixed(2);
  const wrongBeams = new Set(mistakes.filter((m) => m.kind === 'beam').map((m) => Math.min(m.point, m.to) * 100000 + Math.max(m.point, m.to)));
  const wrongStars = new Set();
  for (const m of mistakes) {
    if (m.kind === 'beam') { wrongStars.add(m.point); wrongStars.add(m.to); }
    if (m.kind === 'no-beam') wrongStars.add(m.point);
    if (m.kind === 'clash') m.points.forEach((p) => wrongStars.add(p));
  }
  // Beams from edge to edge of the two stars, so no star's number is covered.
  for (const [p, q] of beamPairs(board, stars)) {
    const dx = pts[q].x - pts[p].x;
    const dy = pts[q].y - pts[p].y;
    const len = Math.hypot(dx, dy);
    const wrong = wrongBeams.has(p * 100000 + q);
    if (len <= 2 * tick && !wrong) continue;      // neighbours: their ticks meet
    const ux = dx / len;
    const uy = dy / len;
    const gap = wrong ? rad : tick;     // a wrong beam shows between neighbours too
    const ends = { x1: pts[p].x + ux * gap, y1: pts[p].y + uy * gap, x2: pts[q].x - ux * gap, y2: pts[q].y - uy * gap };
    if (wrong) {
      view.draw('line', { ...ends, class: 'sz-beam-halo', 'stroke-width': (step / 4).toFixed(2) });
      view.draw('line', { ...ends, class: 'sz-beam sz-wrong', 'data-wrong-beam': `${board.points[p].name}-${board.points[q].name}`,
        'stroke-width': (step / 8).toFixed(2) });
    } else {
      view.draw('line', { ...ends, class: 'sz-beam', stroke: colours.placed });
    }
  }
  const pats = check.patterns;
  const counts = new Map();
  for (const pat of pats.values()) counts.set(pat, (counts.get(pat) || 0) + 1);
  for (const p of placed) {
    const { x, y } = pts[p];
    const pat = pats.get(p);
    board.dirs.forEach(([ux, uy], d) => {
      if (pat >> d & 1) {
        view.draw('line', { x1: x + ux * rad, y1: y + uy * rad, x2: x + ux * tick, y2: y + uy * tick,
          stroke: colours.placed, 'stroke-width': width, 'stroke-linecap': 'round' });
      }
    });
    // orange: another star shows this pattern so far (more stars may change it)
    view.draw('circle', { cx: x, cy: y, r: rad, fill: colours.placed,
      class: counts.get(pat) > 1 && !wrongStars.has(p) ? 'sz-star sz-clash' : 'sz-star', 'data-star': board.points[p].name });
  }
  // a given's missing beam: a dashed red tick where it needs one
  for (const m of mistakes.filter((k) => k.kind === 'no-beam')) {
    const { x, y } = pts[m.point];
    const [ux, uy] = board.dirs[m.dir];
    view.draw('line', { x1: x + ux * rad, y1: y + uy * rad, x2: x + ux * step * 0.9, y2: y + uy * step * 0.9,
      class: 'sz-missing-beam', 'stroke-width': width });
  }
  for (const p of wrongStars) {
    const { x, y } = pts[p];
    view.draw('circle', { cx: x, cy: y, r: rad * 1.3, class: 'sz-wrong-ring', 'data-wrong': board.points[p].name,
      'stroke-width': (step / 10).toFixed(2) });
  }
  for (const p of empties) {
    const { x, y } = pts[p];
    view.draw('circle', { cx: x, cy: y, r: step * 0.1, class: 'sz-empty-mark' });
  }
  if (highlight >= 0) {
    view.draw('circle', { cx: pts[highlight].x, cy: pts[highlight].y, r: step * 0.46, class: 'sz-hint-ring' });
  }
  // what the cursor reads out for each point
  view.points.forEach((p, i) => {
    p.el.dataset.state = placed.has(i) ? 'star' : given.has(i) ? 'given' : blocked.has(i) ? 'blocked'
      : empties.has(i) ? 'marked empty' : '';
  });

  const n = stars.size;
  $('sz-count').textContent = caption(n, board.n_patterns, solved);
  if (captionText) captionText.textContent = captionBase.replace(/place \d+ (more )?stars?/, toPlace(n, board.n_patterns));
  holder.classList.toggle('sz-solved', solved);
  document.body.dataset.solved = solved ? '1' : '';
  document.body.dataset.mistakes = String(mistakes.length);
  document.body.dataset.placed = String(placed.size);
  document.body.dataset.moves = String(undoStack.length);     // for the tests: what undo can take back
  showVerdict(solved, mistakes);
  $('sz-undo').disabled = !undoStack.length;
  $('sz-redo').disabled = !redoStack.length;
  return solved;
}

function showVerdict(solved, mistakes) {
  const details = $('sz-details');
  const done = $('sz-done');
  done.replaceChildren();
  details.hidden = true;
  if (solved) {
    say(msg, revealed ? WORDS.revealed : WORDS.solved, revealed ? 'info' : 'good');
    if (!revealed && puzzle.date) {
      const s = document.createElement('span');
      s.id = 'sz-streak';
      s.textContent = streakText(streak());
      done.append(s);
    }
    if (data.next) {
      const a = document.createElement('a');
      a.id = 'sz-next';
      a.href = '/puzzle/' + encodeURIComponent(data.next);
      a.textContent = `${WORDS.next}: ${data.next}`;
      done.append(a);
    }
    return;
  }
  if (!mistakes.length) { say(msg, ''); return; }
  say(msg, summary(board, mistakes), 'bad');
  if (mistakes.length > 1) {
    const list = details.querySelector('ul');
    list.replaceChildren(...mistakes.map((m) => {
      const li = document.createElement('li');
      li.textContent = mistakeText(board, m);
      return li;
    }));
    details.hidden = false;
  }
}

// Every change goes through here: the state before it is kept for undo.
function change(apply) {
  const before = snapshot();
  apply();
  undoStack.push(before);
  if (undoStack.length > 2000) undoStack.shift();
  redoStack = [];
  settle();
}

function settle() {
  highlight = -1;
  hintBox.textContent = '';
  const solved = render();
  if (solved && !revealed && !solvedBefore) { solvedBefore = true; creditDaily(); render(); }
  save(solvedBefore);
}

function undo() {
  if (!undoStack.length) { say(msg, WORDS.nothingToUndo, 'info'); return; }
  redoStack.push(snapshot());
  restore(undoStack.pop());
  settle();
}

function redo() {
  if (!redoStack.length) { say(msg, WORDS.nothingToRedo, 'info'); return; }
  undoStack.push(snapshot());
  restore(redoStack.pop());
  settle();
}

function tapPoint(i) {
  if (markMode) toggleEmpty(i); else toggleStar(i);
}

function toggleStar(i) {
  if (blocked.has(i)) { say(msg, blockedText(board, i), 'info'); return; }
  if (given.has(i)) { say(msg, givenText(board, i, given.get(i)), 'info'); return; }
  change(() => { if (placed.has(i)) placed.delete(i); else { placed.add(i); empties.delete(i); } });
}

function toggleEmpty(i) {
  if (blocked.has(i)) { say(msg, blockedText(board, i), 'info'); return; }
  if (given.has(i)) { say(msg, givenText(board, i, given.get(i)), 'info'); return; }
  change(() => { if (empties.has(i)) empties.delete(i); else { empties.add(i); placed.delete(i); } });
}

// A question with two answers, in the page's dialog: resolves true for yes.
function confirmAction(text, yes) {
  const dlg = $('sz-confirm');
  $('sz-confirm-text').textContent = text;
  $('sz-confirm-yes').textContent = yes;
  $('sz-confirm-no').textContent = WORDS.no;
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => resolve(dlg.returnValue === 'yes'), { once: true });
    dlg.returnValue = '';
    dlg.showModal();
  });
}

async function needSteps() {
  if (steps) return true;
  const [text, tone] = [msg.textContent, msg.className];    // put back after the wait
  say(msg, WORDS.asking, 'info');
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
  highlight = h.index != null ? h.index : -1;
  const { head, text } = hintParts(board, h, document.body.dataset.solved === '1', GRADE_NAMES);
  hintBox.replaceChildren();
  if (head) {
    const b = document.createElement('b');
    b.textContent = head;
    hintBox.append(b);
  }
  hintBox.append(document.createTextNode(text));
  render();
  if (highlight >= 0) zoom.show(highlight);
  hintBox.scrollIntoView({ block: 'nearest' });     // below the board on a phone
}

async function reveal() {
  if (!(await confirmAction(WORDS.confirmReveal, WORDS.yes.reveal))) return;
  if (!(await needSolution())) return;
  change(() => {
    placed = new Set([...solution].filter((p) => !given.has(p)));
    empties = new Set();
    revealed = true;
  });
}

async function reset() {
  if (!placed.size && !empties.size && !revealed) return;
  if (!(await confirmAction(WORDS.confirmClear, WORDS.yes.clear))) return;
  change(() => { placed = new Set(); empties = new Set(); revealed = false; });
}

function setMarkMode(on) {
  markMode = on;
  const b = $('sz-mode');
  b.setAttribute('aria-pressed', on ? 'true' : 'false');
  b.textContent = on ? WORDS.tapMark : WORDS.tapStar;
  holder.classList.toggle('sz-marking', on);
}

// The legend: what a given's number means, in words and as a compass of the values.
function legend() {
  $('sz-legend-text').textContent = legendText(board);
  const pic = $('sz-legend-pic');
  const s = svgEl('svg', { viewBox: '-50 -50 100 100', width: 96, height: 96, role: 'img',
    'aria-label': board.directions.map((_, d) => `${1 << d}`).join(' ') }, pic);
  svgEl('circle', { cx: 0, cy: 0, r: 9, fill: colours.given }, s);
  board.dirs.forEach(([ux, uy], d) => {
    svgEl('line', { x1: ux * 11, y1: uy * 11, x2: ux * 24, y2: uy * 24, stroke: colours.given, 'stroke-width': 3,
      'stroke-linecap': 'round' }, s);
    svgEl('text', { x: ux * 37, y: uy * 37 + 5, 'text-anchor': 'middle', class: 'sz-legend-value' }, s)
      .textContent = String(1 << d);
  });
}

$('sz-hint-btn').addEventListener('click', hint);
$('sz-reveal').addEventListener('click', reveal);
$('sz-reset').addEventListener('click', reset);
$('sz-undo').addEventListener('click', undo);
$('sz-redo').addEventListener('click', redo);
$('sz-mode').addEventListener('click', () => setMarkMode(!markMode));
$('sz-zoom-in').addEventListener('click', () => zoom.zoomBy(1.5));
$('sz-zoom-out').addEventListener('click', () => zoom.zoomBy(1 / 1.5));
$('sz-zoom-fit').addEventListener('click', () => zoom.reset());
$('sz-details').querySelector('summary').textContent = WORDS.details;
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.defaultPrevented || $('sz-confirm').open) return;
  const k = e.key.toLowerCase();
  const ctrl = e.ctrlKey || e.metaKey;
  if ((!ctrl && k === 'u') || (ctrl && k === 'z' && !e.shiftKey)) { e.preventDefault(); undo(); }
  else if ((!ctrl && k === 'r') || (ctrl && (k === 'y' || (k === 'z' && e.shiftKey)))) { e.preventDefault(); redo(); }
  else if (!ctrl && (k === '+' || k === '=')) zoom.zoomBy(1.5);
  else if (!ctrl && k === '-') zoom.zoomBy(1 / 1.5);
  else if (!ctrl && k === '0') zoom.reset();
});

load();
$('sz-info').textContent = infoLine(puzzle);
legend();
setMarkMode(false);
render();
document.body.dataset.ready = '1';
