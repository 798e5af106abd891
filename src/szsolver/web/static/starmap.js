// Starmap rules for the puzzle page, without the DOM (node runs this file in the tests).
//
// A board is the data of szsolver.web.puzzles.board_data: points (name, row, col),
// steps (the directions as row and column steps), blocked points, givens [[point,
// pattern]], the rule. Stars are a Set of point indices. boardCheck finds what
// szsolver.starmaps.model.check_solution finds (its verdict is solution_problems');
// the tests compare them on every published puzzle and on near-solutions. The
// page's sentences are in wording.js.

const RAYS = new WeakMap();

// rays[p][d]: the points further along direction d from p, nearest first, walked as
// Geometry.rays walks them (to the edge of the coordinates, skipping holes). Kept per
// board.points: the game's positions share their board's.
export function boardRays(board) {
  let rays = RAYS.get(board.points);
  if (rays) return rays;
  const rows = board.points.map((p) => p.row);
  const cols = board.points.map((p) => p.col);
  const span = Math.max(Math.max(...rows) - Math.min(...rows), Math.max(...cols) - Math.min(...cols)) + 1;
  const at = new Map(board.points.map((p, i) => [p.row * 65536 + p.col, i]));
  rays = board.points.map(({ row, col }) => board.steps.map(([dr, dc]) => {
    const ray = [];
    for (let k = 1; k <= 2 * span; k++) {
      const q = at.get((row + k * dr) * 65536 + col + k * dc);
      if (q !== undefined) ray.push(q);
    }
    return ray;
  }));
  RAYS.set(board.points, rays);
  return rays;
}

// The first star along `ray` (-1: none; under the advanced rule a blocked point ends it).
function firstStar(board, ray, stars, blocked) {
  const cut = board.rule === 'advanced';
  for (const q of ray) {
    if (stars.has(q)) return q;
    if (cut && blocked.has(q)) return -1;
  }
  return -1;
}

// Whether a star could still be placed along `ray` (a point that is neither a star
// nor blocked, before the ray ends).
function stillOpen(board, ray, stars, blocked) {
  const cut = board.rule === 'advanced';
  for (const q of ray) {
    if (blocked.has(q)) { if (cut) return false; continue; }
    if (!stars.has(q)) return true;
  }
  return false;
}

// {point: pattern} for every star: bit d set when the first star along ray d comes
// before the ray ends (under the advanced rule a blocked point also ends it).
export function starPatterns(board, stars) {
  const cut = board.rule === 'advanced';
  const blocked = new Set(board.blocked);
  const out = new Map();
  const rays = boardRays(board);
  for (const p of [...stars].sort((a, b) => a - b)) {
    let pat = 0;
    rays[p].forEach((ray, d) => {
      for (const q of ray) {
        if (stars.has(q)) { pat |= 1 << d; break; }
        if (cut && blocked.has(q)) break;
      }
    });
    out.set(p, pat);
  }
  return out;
}

// [p, q] (p < q) for every pair of stars that see each other, each pair once.
export function beamPairs(board, stars) {
  const cut = board.rule === 'advanced';
  const blocked = new Set(board.blocked);
  const seen = new Set();
  const out = [];
  const rays = boardRays(board);
  for (const p of stars) {
    for (const ray of rays[p]) {
      for (const q of ray) {
        if (stars.has(q)) {
          const key = Math.min(p, q) * 100000 + Math.max(p, q);
          if (!seen.has(key)) { seen.add(key); out.push([Math.min(p, q), Math.max(p, q)]); }
          break;
        }
        if (cut && blocked.has(q)) break;
      }
    }
  }
  return out;
}

// What is wrong with `stars` (the givens among them), point by point, as
// szsolver.starmaps.model.check_solution finds it: stars on blocked points are left
// out of the patterns; `contradicted` lists each given whose pattern is not its own,
// with the beams it has but must not (`extra`: [direction, the star it sees]) and the
// ones it lacks (`missing`: directions); `clashes` each pattern two or more stars
// show; `missingPatterns` the patterns no star shows. `fixed` holds the stars whose
// pattern no further star can change (every direction they are blank in is closed).
export function boardCheck(board, stars) {
  const blocked = new Set(board.blocked);
  const byNumber = (a, b) => a - b;
  const onBlocked = [...stars].filter((p) => blocked.has(p)).sort(byNumber);
  const valid = new Set([...stars].filter((p) => !blocked.has(p)));
  const pats = starPatterns(board, valid);
  const rays = boardRays(board);
  const contradicted = [];
  for (const [p, want] of board.givens) {
    const got = pats.get(p);
    if (got === want) continue;
    const extra = [];
    const missing = [];
    board.steps.forEach((_, d) => {
      const bit = 1 << d;
      if (got & bit && !(want & bit)) extra.push([d, firstStar(board, rays[p][d], valid, blocked)]);
      else if (want & bit && !(got & bit)) missing.push(d);
    });
    contradicted.push({ point: p, shows: got, needs: want, extra, missing });
  }
  const byPattern = new Map();
  for (const [p, t] of pats) {
    if (!byPattern.has(t)) byPattern.set(t, []);
    byPattern.get(t).push(p);
  }
  const clashes = [...byPattern].filter(([, ps]) => ps.length > 1).sort(([a], [b]) => a - b)
    .map(([pattern, points]) => ({ pattern, points }));
  const missingPatterns = [];
  for (let t = 0; t < board.n_patterns; t++) if (!byPattern.has(t)) missingPatterns.push(t);
  const fixed = new Set([...pats].filter(([p, t]) => rays[p].every((ray, d) =>
    t >> d & 1 || !stillOpen(board, ray, valid, blocked))).map(([p]) => p));
  const count = valid.size;
  const correct = !onBlocked.length && !contradicted.length && !clashes.length && count === board.n_patterns;
  return { count, needed: board.n_patterns, onBlocked, contradicted, clashes, missingPatterns,
    patterns: pats, fixed, correct };
}

// The mistakes no further star can mend, from boardCheck's findings (`check`), each
// {kind, ...} for the page to draw and word: 'beam' a given that sees a star it must
// not ({point, dir, to}: stars are only ever added, and a beam once there stays);
// 'no-beam' a given blank where it needs a beam ({point, dir}) that no point can give
// it any more; 'clash' stars showing one pattern ({pattern, points}) whose patterns
// can no longer change; 'too-many' ({count, needed}); 'blocked' ({points}). With every
// star placed, every finding is certain.
export function certainMistakes(board, check) {
  const full = check.count >= check.needed;
  const out = [];
  if (check.onBlocked.length) out.push({ kind: 'blocked', points: check.onBlocked });
  const blocked = new Set(board.blocked);
  const stars = new Set(check.patterns.keys());
  const rays = boardRays(board);
  for (const c of check.contradicted) {
    for (const [dir, to] of c.extra) out.push({ kind: 'beam', point: c.point, dir, to });
    for (const dir of c.missing) {
      if (full || !stillOpen(board, rays[c.point][dir], stars, blocked)) out.push({ kind: 'no-beam', point: c.point, dir });
    }
  }
  for (const { pattern, points } of check.clashes) {
    const sure = full ? points : points.filter((p) => check.fixed.has(p));
    if (sure.length > 1) out.push({ kind: 'clash', pattern, points: sure });
  }
  if (check.count > check.needed) out.push({ kind: 'too-many', count: check.count, needed: check.needed });
  return out;
}

export const GRADE_NAMES = ['easy', 'medium', 'hard', 'fiendish'];

// The next hint for a person whose board holds `placed` (stars placed, givens not
// included) and `empties` (points marked empty), from the logic solver's `steps`
// (szsolver.web.puzzles.logic_steps) and, when known, the `solution` (a Set):
//   {kind: 'wrong', index}  a placed star no solution has (a step proves the point empty);
//   {kind: 'step', index, technique, level, text}  the first step the board does not show yet;
//   {kind: 'reveal', index}  the steps are all shown but the techniques stopped short:
//                            a star of the solution not placed yet (needs `solution`);
//   {kind: 'stuck'}          as 'reveal' without a solution to tell;
//   {kind: 'done'}           every step is shown.
export function nextHint(board, steps, placed, empties, solution) {
  const provedEmpty = new Set(steps.filter((s) => s.outcome === 'empty').map((s) => s.index));
  for (const p of [...placed].sort((a, b) => a - b)) {
    if (provedEmpty.has(p) || (solution && !solution.has(p))) return { kind: 'wrong', index: p };
  }
  const given = new Set(board.givens.map(([p]) => p));
  // With every star placed, the points the steps prove empty need no marks.
  const full = placed.size + given.size === board.n_patterns;
  for (const s of steps) {
    if (full && s.outcome === 'empty') continue;
    const shown = s.outcome === 'star' ? placed.has(s.index) || given.has(s.index) : empties.has(s.index);
    if (!shown) {
      return { kind: 'step', index: s.index, technique: s.technique, level: s.level, text: s.text };
    }
  }
  const total = placed.size + given.size;
  if (total === board.n_patterns) return { kind: 'done' };
  if (!solution) return { kind: 'stuck' };
  const missing = [...solution].filter((p) => !placed.has(p) && !given.has(p)).sort((a, b) => a - b);
  return missing.length ? { kind: 'reveal', index: missing[0] } : { kind: 'done' };
}
