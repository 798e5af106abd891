// Starmap rules for the puzzle page, without the DOM (node runs this file in the tests).
//
// A board is the data of szsolver.web.puzzles.board_data: points, rays (per point and
// direction, the points along that line in order), blocked points, givens [[point,
// pattern]], the rule. Stars are a Set of point indices. The checker gives the same
// answers, in the same words, as szsolver.starmaps.model.solution_problems; the
// tests compare the two on every published puzzle and on near-solutions.

// {point: pattern} for every star: bit d set when the first star along ray d comes
// before the ray ends (under the advanced rule a blocked point also ends it).
export function starPatterns(board, stars) {
  const cut = board.rule === 'advanced';
  const blocked = new Set(board.blocked);
  const out = new Map();
  for (const p of [...stars].sort((a, b) => a - b)) {
    let pat = 0;
    board.rays[p].forEach((ray, d) => {
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
  for (const p of stars) {
    for (const ray of board.rays[p]) {
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

// Why `stars` is not a solution (an empty list: it is one).
export function solutionProblems(board, stars) {
  const problems = [];
  const name = (p) => board.points[p].name;
  const n = stars.size;
  const need = board.n_patterns;
  if (n !== need) problems.push(`${n} star${n === 1 ? '' : 's'}, a complete starmap needs ${need}`);
  const blocked = new Set(board.blocked);
  if ([...stars].some((p) => blocked.has(p))) problems.push('a star on a blocked point');
  const pats = starPatterns(board, stars);
  for (const [p, want] of board.givens) {
    if (!pats.has(p)) problems.push(`given ${name(p)} has no star`);
    else if (pats.get(p) !== want) problems.push(`given ${name(p)} shows pattern ${pats.get(p)}, not ${want}`);
  }
  const counts = new Map();
  for (const pat of pats.values()) counts.set(pat, (counts.get(pat) || 0) + 1);
  const dup = [...counts].filter(([, c]) => c > 1).map(([pat]) => pat).sort((a, b) => a - b);
  if (dup.length) problems.push(`patterns shown more than once: [${dup.join(', ')}]`);
  return problems;
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
