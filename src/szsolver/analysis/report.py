"""The annotated game as one self-contained HTML page: :func:`annotation_html`.

The page needs nothing from outside (no scripts, fonts or pictures to fetch): the
board as an SVG picture at every turn (``formats.svg.position_svg``) with a
slider, step buttons and the arrow keys; the value over the game as an SVG chart
(proved values solid, estimates dashed, with their proved bounds as a band); the
turn list with each verdict marked, the proved part apart from the estimated one.
"""
from __future__ import annotations

import json
from html import escape

from ..formats.notation import format_turn
from ..formats.palette import BACKGROUND, BLUE_STONE, RED_STONE
from ..verdict import describe_value
from .annotate import accuracy_text

MARKS = {"optimal": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
VERDICT_COLOURS = {"optimal": "#3cb371", "inaccuracy": "#e0b000", "mistake": "#ff8c00",
                   "blunder": "#e03030", None: "#888888"}
BEST_FILL = "#2e8b57"

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; background: #fafafa; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
.sub { color: #555; margin-top: 0; }
.wrap { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.board { background: %(bg)s; padding: 6px; border-radius: 6px; }
.board svg { display: block; }
.step { display: none; } .step.on { display: block; }
.controls { margin: 0.6em 0; display: flex; gap: 0.4em; align-items: center; }
.controls input[type=range] { width: 320px; }
.info { min-height: 5.5em; max-width: 480px; }
.tag { display: inline-block; padding: 0 0.4em; border-radius: 3px; font-size: 0.85em; }
.proved { background: #dff3e4; color: #185c2c; } .estimated { background: #fff1cc; color: #7a5a00; }
table { border-collapse: collapse; font-size: 0.92em; }
td, th { padding: 2px 8px; text-align: left; }
tr.turn { cursor: pointer; } tr.turn:hover, tr.turn.on { background: #e8eefc; }
tr.split td { font-weight: bold; padding-top: 0.8em; border-bottom: 1px solid #999; }
.v-optimal { color: #2e8b57; } .v-inaccuracy { color: #b08900; }
.v-mistake { color: #e07000; font-weight: bold; } .v-blunder { color: #d02020; font-weight: bold; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.summary td { padding: 2px 10px; }
.chart { background: white; border: 1px solid #ccc; }
.note { color: #555; font-size: 0.9em; max-width: 640px; }
"""

_JS = """
(function () {
  var data = JSON.parse(document.getElementById('szdata').textContent);
  var n = data.steps - 1, cur = 0;
  var slider = document.getElementById('slider');
  function show(k) {
    cur = Math.max(0, Math.min(n, k));
    var steps = document.querySelectorAll('.step');
    for (var i = 0; i < steps.length; i++) steps[i].classList.toggle('on', i === cur);
    var rows = document.querySelectorAll('tr.turn');
    for (var j = 0; j < rows.length; j++) rows[j].classList.toggle('on', +rows[j].dataset.step === cur);
    slider.value = cur;
    document.getElementById('info').innerHTML = data.info[cur];
    var m = document.getElementById('cursor');
    if (m) { m.setAttribute('x1', data.xs[cur]); m.setAttribute('x2', data.xs[cur]); }
  }
  slider.addEventListener('input', function () { show(+slider.value); });
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(cur - 1); };
  document.getElementById('next').onclick = function () { show(cur + 1); };
  document.getElementById('last').onclick = function () { show(n); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(cur - 1);
    if (e.key === 'ArrowRight') show(cur + 1);
  });
  var rows = document.querySelectorAll('[data-step]');
  for (var i = 0; i < rows.length; i++)
    rows[i].addEventListener('click', function () { show(+this.dataset.step); });
  show(+(location.hash.slice(1)) || 0);
})();
"""


def _signed(v) -> str:
    return "?" if v is None else f"{v:+d}"


def _info(ann, k: int) -> str:
    """The text under the board at step k (the position after k turns)."""
    g = ann.game
    geo = g.geometry
    if k == 0:
        v = ann.values[0]
        kind = "proved" if v["exact"] else "estimated"
        return (f"<b>Start.</b> Value {_signed(v['value'])} "
                f"<span class='tag {kind}'>{kind}</span>")
    r = ann.turns[k - 1]
    num = ann.numbers[k - 1]
    side = "Red" if r.mover == 0 else "Blue"
    kind = "proved" if r.exact else "estimated"
    tag = f"<span class='tag {kind}'>{kind}</span>"
    if not r.exact and r.verdict_proved:
        tag = "<span class='tag proved'>verdict proved</span> <span class='tag estimated'>" \
              "values estimated</span>"
    played = format_turn(r.turn, geo)
    best = " ".join(format_turn(b, geo) for b in r.best[:8])
    verdict = r.verdict or "no verdict"
    s = (f"<b>Turn {num}</b> (round {g.round_of(k - 1)}, {side}): <b>{escape(played)}</b> "
         f"<span class='v-{r.verdict}'>{verdict}</span> {tag}<br>"
         f"Value before {_signed(r.value_before)}, after {_signed(r.played_value)} "
         f"(Red's side; loss {r.loss if r.loss is not None else '?'} for {side}).<br>")
    if r.verdict != "optimal" or len(r.best) > 1:
        s += f"Best: {escape(best)}{' ...' if len(r.best) > 8 else ''} (shaded green).<br>"
    if not r.exact:
        s += "Proved: " + "; ".join(_proved_parts(r)) + "."
    else:
        s += f"After it: {describe_value(r.played_value)} with best play."
    return s


def _range(name, lo, hi) -> str:
    return f"{name} {_signed(lo)}" if lo == hi else f"{name} between {_signed(lo)} and {_signed(hi)}"


def _proved_parts(r) -> list[str]:
    """What is proved about a turn that is not all proved, in words."""
    lo, hi = r.lower, r.upper
    parts = [_range("value before", lo["value_before"], hi["value_before"]),
             _range("value after", lo["played_value"], hi["played_value"])]
    if lo["loss"] > 0:
        parts.append(f"loss at least {lo['loss']}")
    return parts


def _boards(ann) -> list[str]:
    from ..formats.svg import position_svg
    g = ann.game
    out = []
    positions = [g.start] + list(g.positions)
    for k, pos in enumerate(positions):
        fills = None
        last = None
        if k > 0:
            r = ann.turns[k - 1]
            last = r.turn
            fills = {b & 63: BEST_FILL for b in r.best if (b & 63) != (r.turn & 63)
                     and pos.empty >> (b & 63) & 1}
        svg = position_svg(pos, last_turn=last, fills=fills or None, size=420)
        out.append(f"<div class='step{' on' if k == 0 else ''}'>{svg}</div>")
    return out


def value_chart(ann, width: int = 640, height: int = 260) -> tuple[str, list[float]]:
    """The value over the game as SVG (x: turns played, y: value from Red's side),
    and the x of each step for the cursor."""
    vals = ann.values
    n = len(vals) - 1
    ml, mr, mt, mb = 48, 12, 14, 28
    w, h = width - ml - mr, height - mt - mb
    known = [v["value"] for v in vals if v["value"] is not None]
    top = max([200] + [abs(v) for v in known])
    top = min(top, 1600)
    top = (top + 99) // 100 * 100

    def x(i):
        return ml + w * i / max(n, 1)

    def y(v):
        v = max(-top, min(top, v))
        return mt + h * (top - v) / (2 * top)

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">']
    out.append(f'<rect x="{ml}" y="{mt}" width="{w}" height="{h / 2:.1f}" fill="{RED_STONE}" '
               f'opacity="0.07"/><rect x="{ml}" y="{mt + h / 2:.1f}" width="{w}" '
               f'height="{h / 2:.1f}" fill="{BLUE_STONE}" opacity="0.09"/>')
    step = 100 if top <= 400 else (200 if top <= 800 else 400)
    for v in range(-top, top + 1, step):
        out.append(f'<line x1="{ml}" x2="{ml + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="{"#777" if v == 0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{ml - 4}" y="{y(v) + 4:.1f}" font-size="10" text-anchor="end">'
                   f'{v:+d}</text>')
    for i in range(n + 1):
        if vals[i]["ply"] % 4 == 0:
            out.append(f'<text x="{x(i):.1f}" y="{height - 10}" font-size="10" '
                       f'text-anchor="middle">{vals[i]["ply"]}</text>')
    # proved part shaded
    if ann.proved_from is not None:
        k0 = ann.numbers.index(ann.proved_from)
        out.append(f'<rect x="{x(k0):.1f}" y="{mt}" width="{x(n) - x(k0):.1f}" height="{h}" '
                   f'fill="#3cb371" opacity="0.08"/>')
        out.append(f'<text x="{x(k0) + 3:.1f}" y="{mt + 10}" font-size="10" fill="#185c2c">'
                   f'proved</text>')
        if k0 > 0:
            out.append(f'<text x="{ml + 3}" y="{mt + 10}" font-size="10" fill="#7a5a00">'
                       f'estimated</text>')
    # bounds band where not exact
    for i, v in enumerate(vals):
        if not v["exact"] and v["lower"] is not None and v["upper"] is not None \
                and abs(v["lower"]) < 10 ** 5:
            out.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(v["upper"]):.1f}" '
                       f'y2="{y(v["lower"]):.1f}" stroke="#bbb" stroke-width="3" opacity="0.35">'
                       f'<title>proved: {v["lower"]:+d} .. {v["upper"]:+d}</title></line>')
    # the value line: segments solid between proved points, dashed otherwise
    for i in range(n):
        a, b = vals[i], vals[i + 1]
        if a["value"] is None or b["value"] is None:
            continue
        dash = "" if a["exact"] and b["exact"] else ' stroke-dasharray="4 3"'
        out.append(f'<line x1="{x(i):.1f}" y1="{y(a["value"]):.1f}" x2="{x(i + 1):.1f}" '
                   f'y2="{y(b["value"]):.1f}" stroke="#333" stroke-width="1.6"{dash}/>')
    for i, v in enumerate(vals):
        if v["value"] is None:
            continue
        colour = "#333"
        label = f"after {i} turn{'' if i == 1 else 's'}: {v['value']:+d} ({'proved' if v['exact'] else 'estimated'})"
        if i > 0:
            r = ann.turns[i - 1]
            colour = VERDICT_COLOURS.get(r.verdict, "#333")
            label += f"; turn {ann.numbers[i - 1]} {format_turn(r.turn, ann.game.geometry)}: " \
                     f"{r.verdict or 'no verdict'}"
        fill = colour if v["exact"] else "white"
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(v["value"]):.1f}" r="3.5" fill="{fill}" '
                   f'stroke="{colour}" stroke-width="1.5" data-step="{i}" cursor="pointer">'
                   f'<title>{escape(label)}</title></circle>')
    out.append(f'<line id="cursor" x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{mt}" y2="{mt + h}" '
               f'stroke="{BACKGROUND}" stroke-width="2" opacity="0.6"/>')
    out.append("</svg>")
    return "\n".join(out), [round(x(i), 1) for i in range(n + 1)]


def _turn_table(ann) -> str:
    g = ann.game
    geo = g.geometry
    rows = ["<table><tr><th>turn</th><th>round</th><th>side</th><th>played</th>"
            "<th class='num'>before</th><th class='num'>after</th><th class='num'>loss</th>"
            "<th>verdict</th><th>best</th></tr>"]
    split = ann.numbers.index(ann.proved_from) if ann.proved_from is not None else None
    for k, r in enumerate(ann.turns):
        if k == 0 and split != 0:
            last = ann.numbers[(split or len(ann.turns)) - 1]
            rows.append(f"<tr class='split'><td colspan='9'>Estimated: turns {ann.numbers[0]}-"
                        f"{last} (engine estimates, not proved)</td></tr>")
        if k == split:
            rows.append(f"<tr class='split'><td colspan='9'>Proved: turns {ann.proved_from}-"
                        f"{ann.numbers[-1]} (exact solver)</td></tr>")
        side = "red" if r.mover == 0 else "blue"
        played = escape(format_turn(r.turn, geo)) + MARKS.get(r.verdict, "")
        best = " ".join(format_turn(b, geo) for b in r.best[:5]) + (" ..." if len(r.best) > 5 else "")
        rows.append(
            f"<tr class='turn' data-step='{k + 1}'><td class='num'>{ann.numbers[k]}</td>"
            f"<td class='num'>{g.round_of(k)}</td><td>{side}</td><td>{played}</td>"
            f"<td class='num'>{_signed(r.value_before)}</td><td class='num'>{_signed(r.played_value)}</td>"
            f"<td class='num'>{r.loss if r.loss is not None else '?'}</td>"
            f"<td class='v-{r.verdict}'>{r.verdict or 'open'}"
            f"{' (proved)' if r.verdict_proved and not r.exact else ''}</td>"
            f"<td>{escape(best)}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _summary_table(ann) -> str:
    rows = ["<table class='summary'><tr><th></th><th>accuracy (judged turns)</th>"
            "<th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>"]
    for name in ("red", "blue"):
        s = ann.summary[name]
        acc = escape(accuracy_text(s))
        rows.append(f"<tr><td><b>{name.capitalize()}</b></td><td>{acc}</td>"
                    f"<td>{s['inaccuracies']} ({s['inaccuracies_proved']} proved)</td>"
                    f"<td>{s['mistakes']} ({s['mistakes_proved']} proved)</td>"
                    f"<td>{s['blunders']} ({s['blunders_proved']} proved)</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)



def _budget_words(settings: dict) -> str:
    """An annotation's budget per estimated turn, in words (the page's subtitle)."""
    if settings.get("time_per_turn") is not None:
        return f"about {settings['time_per_turn']:g} s per turn, bounds and probes included"
    return f"{settings.get('engine_seconds', 2):g} s of search per turn"

def annotation_html(ann, title: str | None = None) -> str:
    """The page (a string) for an :class:`~szsolver.analysis.annotate.Annotation`."""
    g = ann.game
    tags = g.tags
    title = title or f"{tags.get('Red', 'Red')} - {tags.get('Blue', 'Blue')}" + \
        (f", {tags['Date']}" if "Date" in tags else "")
    r, b = g.final.scores()
    chart, xs = value_chart(ann)
    info = [_info(ann, k) for k in range(len(g.turns) + 1)]
    data = json.dumps({"steps": len(g.turns) + 1, "info": info, "xs": xs}).replace("</", "<\\/")
    s = ann.settings
    proved = f"turns {ann.proved_from}-{ann.numbers[-1]} proved by the exact solver" \
        if ann.proved_from is not None else "no turn proved"
    parts = [
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)} - annotated</title>",
        f"<style>{_CSS % {'bg': BACKGROUND}}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p class='sub'>{['Basic', 'Advanced'][g.rule]} rule, neutrals {g.neutrals[0]}+"
        f"{g.neutrals[1]}. Final score {r}-{b}. {escape(proved)}; earlier turns estimated by "
        f"the engine ({_budget_words(s)}).</p>",
        "<div class='wrap'><div>",
        "<div class='board'>", *_boards(ann), "</div>",
        "<div class='controls'><button id='first' title='start'>&laquo;</button>"
        "<button id='prev' title='back (left arrow)'>&lsaquo;</button>"
        f"<input type='range' id='slider' min='0' max='{len(g.turns)}' value='0'>"
        "<button id='next' title='forward (right arrow)'>&rsaquo;</button>"
        "<button id='last' title='end'>&raquo;</button></div>",
        "<div class='info' id='info'></div></div>",
        "<div><h3>Value over the game (Red's side, by turns played)</h3>", chart,
        "<p class='note'>100 = one point of score difference, 1 = one neutral stone "
        "left. Filled dots and solid lines: proved; hollow dots and dashed lines: engine "
        "estimates; grey bars: what is proved there (CP-SAT bounds). Dot colour: the "
        "verdict on the turn that led there.</p>",
        "<h3>Players</h3>", _summary_table(ann), "</div></div>",
        "<h3>Turns</h3>", _turn_table(ann),
        "<p class='note'>Verdicts from the mover's side: optimal (no loss), inaccuracy "
        "(?!, a loss under a point), mistake (?, a point or more, same result), blunder "
        "(??, the result gets worse). Accuracy: the share of optimal turns among the "
        "judged turns, those whose verdict is proved apart from those estimated.</p>",
        f"<script type='application/json' id='szdata'>{data}</script>",
        f"<script>{_JS}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
