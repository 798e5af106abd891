// The Stars' Zone rules for the analysis board, without the DOM (node runs this file
// in the tests, against szsolver.rules on random games of both rules): the legal
// turns, a turn placing its stone and its neutral, the scores and the result, the
// position string, the record's text, and what the picture shows (stones, beams,
// the last turn). The patterns and the beams are starmap.js's: a side's stones are
// the stars, the neutral stones the blocked points (they cut a beam under the
// advanced rule only, as in the puzzles).
//
// A board is szsolver.web.analysis.geometry_data: points [{name, row, col}], steps
// (the directions as row and column steps), pattern_names. A position is
// {red, blue, neutral: Sets of point indices, side: 0 red | 1 blue, left: [red's
// neutrals left, blue's], rule: 'basic' | 'advanced', stones: stones per side};
// positions are never changed in place. A turn is {stone, neutral} (-1: no neutral).

import { starPatterns, beamPairs } from './starmap.js';

export const SIDES = ['red', 'blue'];

// The position of a position's JSON (szsolver.formats.notation.position_json).
export function positionFromJson(board, json, stones = 16) {
  const at = new Map(board.points.map((p, i) => [p.row * 65536 + p.col, i]));
  const set = (list) => new Set(list.map(([r, c]) => at.get(r * 65536 + c)));
  return { red: set(json.red), blue: set(json.blue), neutral: set(json.neutral),
    side: SIDES.indexOf(json.side), left: [json.neutrals_left.red, json.neutrals_left.blue],
    rule: json.rule, stones };
}

export function isOver(pos) { return pos.red.size + pos.blue.size >= 2 * pos.stones; }

function isEmpty(pos, p) { return !pos.red.has(p) && !pos.blue.has(p) && !pos.neutral.has(p); }

export function turnText(board, turn) {
  return board.points[turn.stone].name + (turn.neutral >= 0 ? 'n' + board.points[turn.neutral].name : '');
}

// {stone, neutral} of a turn's text ('44n66'), or null when it names no turn here.
export function parseTurn(board, text) {
  const [s, n, ...rest] = String(text).trim().toLowerCase().split('n');
  if (rest.length) return null;
  const index = (name) => board.points.findIndex((p) => p.name === name);
  const stone = index(s);
  const neutral = n === undefined ? -1 : index(n);
  if (stone < 0 || (n !== undefined && (neutral < 0 || neutral === stone))) return null;
  return { stone, neutral };
}

// Why `turn` is illegal in `pos` (szsolver.rules.base.turn_error's words), or null.
export function turnError(board, pos, turn) {
  if (isOver(pos)) return 'the game is over';
  if (!isEmpty(pos, turn.stone)) return `point ${board.points[turn.stone].name} is occupied`;
  if (turn.neutral >= 0) {
    if (turn.neutral === turn.stone) return `the neutral cannot go on ${board.points[turn.stone].name}, where the stone goes`;
    if (!isEmpty(pos, turn.neutral)) return `point ${board.points[turn.neutral].name} is occupied`;
    if (pos.left[pos.side] === 0) return `${SIDES[pos.side]} has no neutral stones left`;
  }
  return null;
}

// Every legal turn, in szsolver's order: stones in point order, each first without a
// neutral, then with a neutral on each other empty point in point order.
export function legalTurns(board, pos) {
  if (isOver(pos)) return [];
  const empties = board.points.map((_, p) => p).filter((p) => isEmpty(pos, p));
  const withNeutral = pos.left[pos.side] > 0;
  const out = [];
  for (const stone of empties) {
    out.push({ stone, neutral: -1 });
    if (withNeutral) for (const neutral of empties) if (neutral !== stone) out.push({ stone, neutral });
  }
  return out;
}

// The position after `turn` (checked: an Error with turnError's words if illegal).
export function playTurn(board, pos, turn) {
  const why = turnError(board, pos, turn);
  if (why) throw new Error(`illegal turn ${turnText(board, turn)}: ${why}`);
  const next = { ...pos, red: new Set(pos.red), blue: new Set(pos.blue), neutral: new Set(pos.neutral),
    left: [...pos.left], side: 1 - pos.side };
  next[SIDES[pos.side]].add(turn.stone);
  if (turn.neutral >= 0) {
    next.neutral.add(turn.neutral);
    next.left[pos.side] -= 1;
  }
  return next;
}

function rulesBoard(board, pos) {
  return { points: board.points, steps: board.steps, rule: pos.rule, blocked: [...pos.neutral] };
}

// {point: pattern} of one side's stones.
export function patterns(board, pos, side) {
  return starPatterns(rulesBoard(board, pos), pos[SIDES[side]]);
}

// The patterns a side shows, ascending (its score is how many).
export function patternSet(board, pos, side) {
  return [...new Set(patterns(board, pos, side).values())].sort((a, b) => a - b);
}

export function scores(board, pos) {
  return [patternSet(board, pos, 0).length, patternSet(board, pos, 1).length];
}

// 100 * (red's score - blue's) + (red's neutrals left - blue's): its sign is the winner.
export function value(board, pos) {
  const [r, b] = scores(board, pos);
  return 100 * (r - b) + pos.left[0] - pos.left[1];
}

// Who is ahead or has won, as szsolver.formats.notation.result_text says it.
export function resultText(board, pos) {
  const [r, b] = scores(board, pos);
  const over = isOver(pos);
  const [rn, bn] = pos.left;
  if (r !== b) return `${r > b ? 'red' : 'blue'} ${over ? 'wins' : 'leads'} ${r}-${b}`;
  if (rn !== bn) return `${rn > bn ? 'red' : 'blue'} ${over ? 'wins' : 'leads'} on neutrals: ${r}-${b}, neutrals left ${rn}-${bn}`;
  return `${over ? 'draw' : 'scores tied'} ${r}-${b}, neutrals left ${rn}-${bn}`;
}

// The position string (szsolver.rules.text.position_string).
export function positionString(board, pos) {
  const rows = new Map();
  board.points.forEach((p, i) => {
    const ch = pos.red.has(i) ? 'R' : pos.blue.has(i) ? 'B' : pos.neutral.has(i) ? 'N' : '.';
    rows.set(p.row, (rows.get(p.row) || '') + ch);
  });
  const text = [...rows].sort(([a], [b]) => a - b).map(([, t]) => t).join('/');
  return `${text} ${'RB'[pos.side]} ${pos.left[0]} ${pos.left[1]} ${pos.rule}`;
}

// The caption lines under the picture (szsolver.formats.svg.position_caption).
export function caption(board, pos) {
  const [r, b] = scores(board, pos);
  const ply = pos.red.size + pos.blue.size;
  const first = isOver(pos) ? `Game over: ${resultText(board, pos)}; ${pos.rule} rule`
    : `${pos.side ? 'Blue' : 'Red'} to move, turn ${ply + 1} of ${2 * pos.stones}; ${pos.rule} rule`;
  return [first, `score red ${r}, blue ${b}; neutrals left red ${pos.left[0]}, blue ${pos.left[1]}`];
}

// What the picture shows: stones [{point, kind: 'red' | 'blue' | 'neutral'}] in point
// order, beams [[side, p, q]] (p < q: two stones of a side that see each other), and
// the points of the last turn to mark.
export function picture(board, pos, last) {
  const stones = [];
  board.points.forEach((_, p) => {
    for (const kind of ['red', 'blue', 'neutral']) if (pos[kind].has(p)) stones.push({ point: p, kind });
  });
  const beams = [];
  [0, 1].forEach((side) => {
    for (const [p, q] of beamPairs(rulesBoard(board, pos), pos[SIDES[side]])) beams.push([side, p, q]);
  });
  const marks = last ? [last.stone].concat(last.neutral >= 0 ? [last.neutral] : []) : [];
  return { stones, beams, marks };
}

// The record's text (szsolver.formats.record.game_string): the tags, a blank line,
// one round per line; a line starting with Blue's turn is written `7... 54`.
// `start` is the position the turns start from.
export function recordText(board, tags, start, turns) {
  const out = Object.entries(tags).map(([k, v]) => `[${k} "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`);
  const lines = [];
  const ply = start.red.size + start.blue.size;
  turns.forEach((t, i) => {
    const text = typeof t === 'string' ? t : turnText(board, t);
    const round = Math.floor((ply + i) / 2) + 1;
    if ((start.side + i) % 2 === 0) lines.push(`${round}. ${text}`);
    else if (i === 0) lines.push(`${round}... ${text}`);
    else lines[lines.length - 1] += ` ${text}`;
  });
  if (out.length && lines.length) out.push('');
  return out.concat(lines).join('\n') + '\n';
}
