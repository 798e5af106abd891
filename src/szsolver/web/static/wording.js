// Every sentence the puzzle page says about the board, in one place: the server's
// page and the static page both take their words from here (the tests compare the
// two pages' words). No DOM: node runs this file in the tests too.
//
// A board is the data of szsolver.web.puzzles.board_data; mistakes are those of
// starmap.js's certainMistakes. Points are named as on the board; a pattern is
// said as its beams ("beams up and left"), its number only where the legend
// explains it.

const PLAIN = { w: 'left', e: 'right', nw: 'up-left', ne: 'up-right', sw: 'down-left', se: 'down-right' };

// A direction of the board in words: up, right, down, left (hex: left, up-left, ...).
export function directionWord(board, d) {
  const name = board.directions[d];
  return PLAIN[name] || name;
}

// "a, b and c"
export function listWords(items) {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
}

// The number a given shows, as the board prints it: one hex digit on square boards
// (0-f), two decimal digits on the hex board (00-63).
export function patternLabel(board, pattern) {
  return board.n_patterns <= 16 ? pattern.toString(16) : String(pattern).padStart(2, '0');
}

function beamList(board, pattern) {
  return board.directions.map((_, d) => d).filter((d) => pattern >> d & 1).map((d) => directionWord(board, d));
}

// "beams up and left", "a beam down", "no beam at all"
export function beamWords(board, pattern) {
  const on = beamList(board, pattern);
  if (!on.length) return 'no beam at all';
  return (on.length === 1 ? 'a beam ' : 'beams ') + listWords(on);
}

function stars(n) { return `${n} star${n === 1 ? '' : 's'}`; }

// The live count, for the caption under the picture: "place 9 more stars".
export function toPlace(count, needed) {
  if (count < needed) return `place ${needed - count} more star${needed - count === 1 ? '' : 's'}`;
  if (count > needed) return `${stars(count - needed)} too many`;
  return `all ${needed} stars placed`;
}

// The live caption beside the board.
export function caption(count, needed, solved) {
  const head = toPlace(count, needed);
  const line = head[0].toUpperCase() + head.slice(1) + ` (${count} of ${needed}).`;
  return solved ? `All ${needed} stars placed (${count} of ${needed}).` : line;
}

// One mistake in plain words.
export function mistakeText(board, m) {
  const name = (p) => board.points[p].name;
  switch (m.kind) {
    case 'beam':
      return `given ${name(m.point)} must not see a star ${directionWord(board, m.dir)}, but it sees ${name(m.to)}`;
    case 'no-beam':
      return `given ${name(m.point)} needs a star somewhere ${directionWord(board, m.dir)}, and none can be there`;
    case 'clash':
      return `${listWords(m.points.map(name))} have the same beams (${listWords(beamList(board, m.pattern)) || 'none'}): each pattern only once`;
    case 'too-many':
      return `${stars(m.count)}, ${m.count - m.needed} more than the ${m.needed} a starmap has`;
    case 'blocked':
      return `a star on blocked point${m.points.length > 1 ? 's' : ''} ${listWords(m.points.map(name))}`;
    default:
      return m.kind;
  }
}

// The one-line summary of the mistakes ('' when there are none).
export function summary(board, mistakes) {
  if (!mistakes.length) return '';
  const first = mistakeText(board, mistakes[0]);
  const more = mistakes.length - 1;
  return first[0].toUpperCase() + first.slice(1) + (more ? ` (and ${more} more: see below)` : '') + '.';
}

export const WORDS = {
  solved: 'Solved! Every pattern appears exactly once.',
  revealed: 'The solution is shown.',
  confirmReveal: 'Show the solution? (Undo takes it back.)',
  confirmClear: 'Take every star and mark off the board? (Undo puts them back.)',
  yes: { reveal: 'Show the solution', clear: 'Clear the board' },
  no: 'Cancel',
  asking: 'Asking the logic solver ...',
  nothingToUndo: 'Nothing to undo.',
  nothingToRedo: 'Nothing to redo.',
  tapStar: 'Tap: star',
  tapMark: 'Tap: mark empty',
  next: 'Next puzzle',
  details: 'Every mistake',
};

// "sz-medium-3 · grade: medium · 10 givens · board stars-zone · basic rule"
export function infoLine(puzzle) {
  const parts = [puzzle.id, `grade: ${puzzle.grade}`, `${puzzle.givens.length} givens`,
    `board ${puzzle.board}`, `${puzzle.rule} rule`];
  if (puzzle.date) parts.unshift(`puzzle of ${puzzle.date}`);
  return parts.join(' \u00b7 ');
}

// What a given's number says, for the legend: the value of each direction.
export function legendText(board) {
  const values = board.directions.map((_, d) => `${directionWord(board, d)} ${1 << d}`);
  const digits = board.n_patterns <= 16
    ? 'written as one hex digit (a = 10, b = 11, c = 12, d = 13, e = 14, f = 15)'
    : 'written as two digits (00 to 63)';
  const all = board.n_patterns - 1;
  const ex = board.n_patterns <= 16 ? 5 : 3;
  return `A given's number is its pattern: the sum of the directions in which it sees another star ` +
    `(${listWords(values)}), ${digits}. So ${patternLabel(board, ex)} is ${beamWords(board, ex)}, ` +
    `${patternLabel(board, 0)} no beam at all, ${patternLabel(board, all)} a beam every way.`;
}

// A given explained, when it is clicked or tapped.
export function givenText(board, p, pattern) {
  return `${board.points[p].name} is a given star: its ${patternLabel(board, pattern)} means ${beamWords(board, pattern)}` +
    (pattern === board.n_patterns - 1 || pattern === 0 ? '.'
      : `, and none ${listWords(beamList(board, board.n_patterns - 1 - pattern))}.`);
}

export function blockedText(board, p) {
  return `${board.points[p].name} is blocked: no star there.`;
}

// The daily puzzle's streak: days in a row solved (without Reveal), up to this one.
export function streakText(n) {
  return n > 1 ? `Daily streak: ${n} days in a row.` : 'Daily streak: 1 day. Come back tomorrow!';
}

// The hint for nextHint's answer `h`.
export function hintParts(board, h, solved, gradeNames) {
  const name = (i) => board.points[i].name;
  if (h.kind === 'wrong') return { text: `The star at ${name(h.index)} is not part of the solution: remove it.` };
  if (h.kind === 'step') return { head: `${h.technique} (${gradeNames[h.level - 1]}): `, text: h.text };
  if (h.kind === 'reveal') {
    return { text: `The named techniques stop here (the next step needs trial and error): a star goes on ${name(h.index)}.` };
  }
  return { text: solved ? 'Solved: there is nothing left to find.' : 'Every deduction is on the board.' };
}
