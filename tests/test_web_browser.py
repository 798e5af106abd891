"""End-to-end tests of the web pages in a real headless browser: Playwright driving
Chromium (Debian's /usr/bin/chromium, or CHROMIUM=path), against ``szsolver serve``
started as a real process on 127.0.0.1, and the static daily page opened from a
file:// address. The pages' Content-Security-Policy allows no eval, so the tests
wait for selectors, never for a predicate in a string (Playwright evals those).

Where no browser can be installed the tests are skipped with a message.
With SZSOLVER_SCREENSHOTS=DIR they also save a PNG of each page in DIR (the
pictures in docs/screenshots are made so).
"""
import json
import os
import re
import shutil
import subprocess
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("starlette", reason="the web extras are not installed")
pytest.importorskip("uvicorn", reason="the web extras are not installed")

# one worker of a parallel run (-n, --dist loadgroup) runs them all: one server and
# one Chromium
pytestmark = pytest.mark.xdist_group("browser")

from szsolver.formats.record import example_game  # noqa: E402
from szsolver.starmaps.daily import daily  # noqa: E402
from szsolver.starmaps.generate import puzzle_from_id  # noqa: E402
from szsolver.starmaps.io import stars_to_points  # noqa: E402
from szsolver.web.puzzles import daily_html, logic_steps  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = os.environ.get("SZSOLVER_SCREENSHOTS")
DATE = "2026-11-23"

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (install Debian's chromium, or set CHROMIUM=path): "
                "the browser tests are skipped", allow_module_level=True)


@pytest.fixture(scope="module")
def server(start_server):
    proc, base = start_server()
    yield base
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as e:  # noqa: BLE001 - a browser that cannot start here
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(e).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert not errors, errors


def shot(pg, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        pg.screenshot(path=os.path.join(SHOTS, name), full_page=True)



def on_a_phone(browser, url, height=844):
    """(context, page): ``url`` opened on a phone's screen, 390 px wide, its page ready."""
    ctx = browser.new_context(viewport={"width": 390, "height": height}, device_scale_factor=2,
                              is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    pg.goto(url)
    pg.wait_for_selector("body[data-ready]")
    return ctx, pg

def place(pg, names):
    for n in names:
        pg.click(f'#sz-board .sz-point[data-point="{n}"]', force=True)


def solution_points(gen):
    """The points of the stars a player places (the solution less the givens)."""
    givens = {q for q, _ in gen.puzzle.givens}
    g = gen.puzzle.geometry
    return [g.coord_text(q) for q in range(g.size) if gen.solution >> q & 1 and q not in givens]


def stars_shown(pg):
    return sorted(pg.eval_on_selector_all("[data-star]", "els => els.map(e => e.dataset.star)"))


def example_at(page, server, turn):
    """The analysis board on the rulebook game, stepped to the position after ``turn``
    turns."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    page.click(f'button.sz-turn[data-turn="{turn}"]')
    page.wait_for_selector(f'body[data-at="{turn}"]')


def test_solve_a_puzzle_by_clicking(server, page):
    gen = puzzle_from_id("sz-medium-3")
    g = gen.puzzle.geometry
    mine = solution_points(gen)
    page.goto(server + "/puzzle/sz-medium-3")
    page.wait_for_selector("body[data-ready]")
    assert "grade: medium" in page.text_content("#sz-info")
    # A wrong star first: the hint says which.
    wrong = next(g.coord_text(q) for q in range(g.size)
                 if not (gen.solution | gen.puzzle.blocked) >> q & 1)
    place(page, [wrong])
    page.click("#sz-hint-btn")
    page.wait_for_selector("#sz-hint:not(:empty)")
    assert f"star at {wrong} is not part of the solution" in page.text_content("#sz-hint")
    place(page, [wrong])                       # removed again
    page.click("#sz-hint-btn")
    steps, _ = logic_steps(gen.puzzle)
    page.wait_for_selector("#sz-hint:has-text(':')")
    hint = page.text_content("#sz-hint")
    assert hint.startswith(steps[0]["technique"]) and steps[0]["text"] in hint
    place(page, mine)
    page.wait_for_selector('body[data-solved="1"]')
    assert page.text_content("#sz-msg") == "Solved! Every pattern appears exactly once."
    assert page.text_content("#sz-count") == "All 16 stars placed (16 of 16)."
    # Progress survives a reload.
    page.reload()
    page.wait_for_selector('body[data-solved="1"]')
    assert stars_shown(page) == sorted(mine)


def test_keyboard_and_a_phone_sized_screen(server, browser):
    ctx, pg = on_a_phone(browser, server + "/puzzle/sz-easy-2", height=800)
    width = pg.eval_on_selector("#sz-board svg", "e => e.getBoundingClientRect().width")
    assert 300 < width <= 390                  # the board fits the screen
    pg.focus("#sz-board")                      # the cursor starts on the first point, 14
    pg.keyboard.press("ArrowDown")             # 24 (row 2 starts at column 3; 14 is above 24)
    pg.keyboard.press("ArrowDown")             # 34
    pg.keyboard.press("Space")
    pg.keyboard.press("ArrowRight")            # 35
    pg.keyboard.press("x")
    stored = json.loads(pg.evaluate("localStorage.getItem('szsolver:puzzle:sz-easy-2')"))
    assert stored["stars"] == ["34"] and stored["empty"] == ["35"]
    ctx.close()


def test_example_game_step_through_and_turn_values(server, page):
    game = example_game()
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute("body", "data-at") == "0"
    for k in range(1, 4):
        page.click("#sz-next")
        page.wait_for_selector(f'body[data-at="{k}"]')
    assert f"After {game.turns[2]}" in page.text_content("#sz-status")
    r, b = game.positions[2].scores()
    assert page.text_content("#sz-red-score") == str(r) and page.text_content("#sz-blue-score") == str(b)
    page.click("#sz-last")
    page.wait_for_selector('body[data-at="32"]')
    assert "Game over" in page.text_content("#sz-status")
    # 4 turns before the end: the solver's value of every turn.
    page.click('button.sz-turn[data-turn="28"]')
    page.wait_for_selector('body[data-at="28"]')
    page.click("#sz-values")
    page.wait_for_selector("table.sz-values", timeout=30000)
    first = page.inner_text("table.sz-values tr.sz-best")
    assert first.split() == ["+199", "38"]
    page.click("#sz-check")                    # the turn that led here: 78n35
    page.wait_for_selector(".sz-verdict", timeout=30000)
    assert page.text_content(".sz-verdict").startswith("78n35 (blue):")
    assert page.locator(".sz-precision").count() == 0        # proved: no estimate's margin
    shot(page, "analysis.png")


def test_an_estimated_check_says_how_its_loss_is_read(server, page):
    """Early in the game the check is the engine's estimate: the panel says that a loss
    under half a point counts as 0 (an estimated drop of 11 with "loss 0" puzzled a user)."""
    example_at(page, server, 5)
    page.fill("#sz-limit", "2")
    page.click("#sz-check")
    page.wait_for_selector(".sz-verdict", timeout=30000)
    assert "estimated" in page.text_content(".sz-verdict")
    assert "counts as 0" in page.text_content(".sz-precision")


FAMILY_GAMES = {
    # record, its turns, its sides, the verdict on its first turn, a variation played
    # by clicks from the start (each turn its clicks) and a click on a taken cell
    "star": ('[Game "star"] [Position "star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/'
             'BWBB.W/WBWW.:B"] 1. E7 E8 2. H2', ["E7", "E8", "H2"], ("Black", "White"), "blunder",
             [("E8", ["E8"]), ("C5", ["C5"])], "E8"),
    "stargazers": ('[Game "stargazers"] [Position "stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,'
                   '14,16,20,21,24,29,32:b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45"] '
                   '9. 35,47 11', ["35,47", "11"], ("Red", "Blue"), "optimal",
                   [("42,28", ["42", "28"]), ("35,11", ["35", "11"])], "2"),
}


def post(server, path, body) -> dict:
    import urllib.request
    req = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def bare_turns(pg, selector) -> list:
    """The turns a list shows, without their round numbers."""
    return [t.split(" ")[-1] for t in pg.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")]


@pytest.mark.parametrize("name", list(FAMILY_GAMES))
def test_play_a_star_and_a_stargazers_game(server, page, name):
    """The page has no rules of these games: it opens the game from the server's
    replay and shows each position as the server draws and scores it; turns clicked on
    the board are played through the server (a variation beside the game's turn, an
    illegal click refused in the game's words, undo), and the live evaluation, the
    value of every turn, the check and the annotation are the game's own answers, the
    same the server's solver gives for that position."""
    record, turns, sides, verdict, variation, taken = FAMILY_GAMES[name]
    first = sides[0].lower()
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-source", record)
    page.click("#sz-load")
    page.wait_for_selector(f'body[data-game="{name}"][data-at="{len(turns)}"]')
    assert bare_turns(page, "#sz-turns > button.sz-turn") == turns
    page.click("#sz-first")
    page.wait_for_selector('body[data-at="0"]')
    for k, turn in enumerate(turns, 1):
        page.click("#sz-next")
        page.wait_for_selector(f'body[data-at="{k}"]')
        assert f"After {turn} (round " in page.text_content("#sz-status")
    assert page.text_content("#sz-red-name") == sides[0]
    page.click('#sz-turns button.sz-turn[data-turn="1"]')
    page.wait_for_selector('body[data-at="1"]')
    assert "turn=1" in page.url
    page.goto(page.url)                        # the address is a link to that turn
    page.wait_for_selector(f'body[data-game="{name}"][data-at="1"]')
    page.click("#sz-check")                    # the game's own judge, on the server
    page.wait_for_selector(".sz-verdict", timeout=30000)
    assert page.text_content(".sz-verdict") == f"{turns[0]} ({first}): {verdict} (proved)."
    assert page.is_disabled("#sz-potential")
    assert "has none" in page.text_content("#sz-potential-out")
    # turns that are no cell (Star's pass) are buttons
    assert bare_turns(page, "#sz-other-turns button") == (["Pass"] if name == "star" else [])

    # a variation from the start, by clicks on the board
    page.keyboard.press("Home")
    page.wait_for_selector('body[data-at="0"]')
    assert page.locator(".sz-verdict").count() == 0       # it was about another turn
    for k, (turn, clicks) in enumerate(variation, 1):
        place(page, clicks)
        page.wait_for_selector(f'body[data-at="{k}"]')
        assert f"After {turn} (round " in page.text_content("#sz-status")
    assert bare_turns(page, "#sz-turns > button.sz-turn") == turns     # the game's turns stay
    assert bare_turns(page, "#sz-turns .sz-variation button.sz-turn") == [t for t, _ in variation]
    place(page, [taken])                       # a taken cell: refused, in words
    page.wait_for_selector("#sz-msg.sz-bad")
    assert page.text_content("#sz-msg").startswith(f"Illegal turn {taken}: not one of the legal turns here (")
    assert page.get_attribute("body", "data-at") == str(len(variation))
    page.click("#sz-undo")                     # the last turn played goes
    page.wait_for_selector(f'body[data-at="{len(variation) - 1}"]')
    assert bare_turns(page, "#sz-turns .sz-variation button.sz-turn") == [t for t, _ in variation[:-1]]
    assert not page.is_disabled("#sz-promote")

    # the live evaluation and the value of every turn: the server's solver's value
    position = page.text_content("#sz-position")
    solved = post(server, "/api/solve", {"position": position, "all_turns": True})
    value = solved["value"]          # the first side's, as every game's
    page.wait_for_selector('#sz-live-out[data-state="done"]', timeout=30000)
    assert page.get_attribute("#sz-live-out", "data-exact") == "1"
    assert int(page.get_attribute("#sz-live-out", "data-value")) == value
    assert page.locator("g.sz-best-turn circle.sz-best-ring").count() >= 1
    page.click("#sz-values")
    page.wait_for_selector(".sz-family-value", timeout=30000)
    assert page.text_content(".sz-family-value").startswith(f"Value {value:+d} (exact")
    labelled = len(solved["turns"]) - (1 if any(m["turn"] == "pass" for m in solved["turns"]) else 0)
    assert page.locator("#sz-board .sz-value-label").count() == labelled
    if name == "star":           # the cell names the picture writes give way to the values
        assert page.locator("#sz-board .names text").count() >= labelled > 0
        hidden = page.eval_on_selector_all(
            "#sz-board .names text", "els => els.filter(e => getComputedStyle(e).visibility === 'hidden')"
            ".map(e => e.dataset.name).sort()")
        assert hidden == sorted(m["turn"] for m in solved["turns"] if m["turn"] != "pass")
    page.click("#sz-annotate")                 # the line shown: the variation's turns
    page.wait_for_selector(".sz-annotation li", timeout=60000)
    judged = page.eval_on_selector_all(".sz-annotation li", "els => els.map(e => e.textContent)")
    assert [j.split(" ")[0].rstrip("?!") for j in judged] == [t for t, _ in variation[:-1]]
    said = page.text_content("#sz-annotate-out")     # each side's counts, as the list has them
    for side in (s.lower() for s in sides):
        mine = [j.split(": ")[1].split(" ")[0] for j in judged if j.split(":")[0].endswith(" " + side)]
        counts = [mine.count(v) for v in ("inaccuracy", "mistake", "blunder")]
        words = [f"{n} {one if n == 1 else many}" for n, one, many in zip(
            counts, ("inaccuracy", "mistake", "blunder"), ("inaccuracies", "mistakes", "blunders"))]
        assert f"{side}: {', '.join(words)}." in said, (side, said)


# A Stargazers game whose round 8 Blue turn (after turn 15) can place 39 only after 48: a
# Blue stone on 39 is inspired only through one on 48.
ORDERED_GAME = ('[Game "stargazers"] 1. 11 47,7 2. 24,13 45,42 3. 46,31 20,40 4. 10,6 29,2 '
                '5. 26,30 43,3 6. 35,21 19,14 7. 33,4 8,9 8. 44,37 15,28 9. 25,32 48,23 10. 39,16')


def test_a_stargazers_turn_is_placed_in_the_order_clicked(server, page):
    """In the middle of a recorded Stargazers game, a turn of two placements is played
    in the order clicked, as the rules place them: 48 then 39 (39 is inspired only
    through 48) is played, again after undo; 39 first is refused saying why and naming
    what may go before it; the game's own turn clicked in the other order is the
    game's turn, not a variation."""
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-source", ORDERED_GAME)
    page.click("#sz-load")
    page.wait_for_selector('body[data-game="stargazers"][data-at="19"]')
    page.click('#sz-turns button.sz-turn[data-turn="15"]')      # back into the game
    page.wait_for_selector('body[data-at="15"]')
    assert page.text_content("#sz-status").endswith("Blue to move.")
    for _ in range(2):                                             # and again after undo
        place(page, ["48", "39"])
        page.wait_for_selector('body[data-at="16"]')
        assert "After 48,39 (round 8, blue)" in page.text_content("#sz-status")
        assert page.text_content("#sz-msg") == "Played 48,39: a variation beside 15,28, which stays in the game."
        page.click("#sz-undo")
        page.wait_for_selector('body[data-at="15"]')
    place(page, ["39"])                                            # not first: refused
    assert page.text_content("#sz-msg") == ("39 cannot be the turn's first placement: a blue stone there "
                                            "would not be inspired yet. It can be the second, after 48.")
    assert page.get_attribute("#sz-msg", "class").endswith("sz-bad")
    place(page, ["28", "15"])                                      # the game's turn, other order
    page.wait_for_selector('body[data-at="16"]')
    assert page.text_content("#sz-msg") == "Played 15,28, as the game goes on."
    assert bare_turns(page, "#sz-turns .sz-variation button.sz-turn") == []


def test_a_stargazers_position_in_the_middle_of_a_turn_is_played_on(server, page):
    """A Stargazers position where Red has placed one of two stones opens on the board,
    the status line saying that one placement is left in the turn, and a click finishes
    Red's turn; then Blue's turn of two clicks (the first one's stone placed, the status
    line says so), and undo."""
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-source", "stargazers:12-star:1-2:r=9,30:b=16,23")
    page.click("#sz-load")
    # (data-at is 0 already on the Stars' Zone board the page opened with)
    page.wait_for_selector('body[data-game="stargazers"] #sz-status:text-is('
                           '"Stargazers. Red to move: one placement left in the turn.")')
    place(page, ["40"])
    page.wait_for_selector('body[data-at="1"]')
    assert page.text_content("#sz-status").endswith("After 40 (round 2, red). Blue to move.")
    place(page, ["24"])
    assert page.text_content("#sz-status").endswith(
        "After 40 (round 2, red). Blue to move: one placement left in the turn, its first stone on 24.")
    page.keyboard.press("Escape")                  # the first click taken back: the turn whole again
    assert page.text_content("#sz-status").endswith("Blue to move.")
    place(page, ["24", "25"])
    page.wait_for_selector('body[data-at="2"]')
    assert "After 24,25 (round 2, blue). Red to move." in page.text_content("#sz-status")
    page.click("#sz-undo")
    page.wait_for_selector('body[data-at="1"]')
    assert bare_turns(page, "#sz-turns > button.sz-turn") == ["40"]



def test_a_stargazers_live_evaluation_shows_its_engines_work(server, page):
    """Early in a Stargazers game the live evaluation says what the game's engine is at
    and how far it is while it searches, as it does for Stars' Zone's engine (the tree
    search's iterations so far, of those planned), then its answer with the work done."""
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-limit", "1")
    page.fill("#sz-source", ORDERED_GAME.split(" 3. ")[0])
    page.click("#sz-load")
    page.wait_for_selector('body[data-game="stargazers"][data-at="4"]')
    page.wait_for_selector('#sz-live-out[data-state="running"]:has(p.sz-busy:text-is("The engine is '
                           'searching ...")) p.sz-info:text-matches("^[1-9][0-9,]* of [0-9,]+ '
                           'iterations \\.\\.\\.$")', timeout=30000)
    page.wait_for_selector('#sz-live-out[data-state="done"] p.sz-info:text-matches("^[0-9,]+ '
                           'iterations, done\\.$")', timeout=30000)

def test_place_turns_by_clicking(server, page):
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    place(page, ["44", "66"])                  # stone, then neutral
    page.wait_for_selector('body[data-at="1"]')
    place(page, ["64", "64"])                  # stone, then itself: no neutral
    page.wait_for_selector('body[data-at="2"]')
    assert page.eval_on_selector_all("button.sz-turn", "els => els.map(e => e.textContent)") == ["1. 44n66", "64"]
    place(page, ["44"])                        # occupied: refused on the page
    assert "occupied" in page.text_content("#sz-msg")
    page.click("#sz-potential")
    page.wait_for_selector(".sz-map svg", timeout=30000)
    assert "red: potential 16" in page.text_content("#sz-potential-out")


def test_paste_a_game_and_annotate_it(server, page):
    from szsolver.formats.notation import position_string
    from szsolver.formats.record import GameRecord, game_string
    game = example_game()
    record = game_string(GameRecord({"Position": position_string(game.positions[-7])}, game.turns[-6:]))
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-source", record)
    page.click("#sz-load")
    page.wait_for_selector('body[data-at="6"]')
    page.click("#sz-annotate")
    page.wait_for_selector(".sz-chart svg", timeout=60000)
    items = page.eval_on_selector_all("ol.sz-annotation li", "els => els.map(e => e.textContent)")
    assert len(items) == 6 and items[1].startswith("78n35?! blue: inaccuracy (proved)")
    said = page.text_content("#sz-annotate-out")
    assert "blue: 1 inaccuracy, 0 mistakes, 0 blunders; 2 of 3 judged turns optimal (67%: 2 of 3 proved)." in said, said
    # the verdicts marked in the turn list, the proved ones solid; the legend
    assert page.text_content('#sz-turns button[data-turn="2"] .sz-mark.sz-proved') == "?!"
    assert page.locator("#sz-turns .sz-mark").count() == 1
    assert "?? blunder" in page.text_content(".sz-legend-verdicts")
    assert "100 = one point of score" in page.text_content("#sz-annotate-out")
    # a point of the chart goes to its turn
    page.click('.sz-chart circle[data-step="3"]', force=True)
    page.wait_for_selector('body[data-at="3"]')
    assert page.get_attribute(".sz-chart line#cursor", "x1") == \
        page.get_attribute('.sz-chart circle[data-step="3"]', "cx")
    page.click("ol.sz-annotation li:nth-child(5)")
    page.wait_for_selector('body[data-at="5"]')
    assert page.locator("#sz-turns .sz-mark").count() == 1         # the same line: kept
    shot(page, "analysis-annotation.png")


def open_static_page(browser, tmp_path, gen, date, viewport=None):
    path = tmp_path / "daily.html"
    path.write_text(daily_html(gen, date), encoding="utf-8")
    ctx = browser.new_context(viewport=viewport or {"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    pg.goto(path.as_uri())
    pg.wait_for_selector("body[data-ready]")
    return ctx, pg, errors


def test_static_daily_page_from_a_file(browser, tmp_path):
    gen = daily(DATE)
    ctx, pg, errors = open_static_page(browser, tmp_path, gen, DATE)
    assert "sz-easy-d20261123" in pg.text_content("#sz-info")
    g = gen.puzzle.geometry
    mine = solution_points(gen)
    place(pg, mine[:-1])
    assert pg.text_content("#sz-count") == "Place 1 more star (15 of 16)."
    assert "place 1 more star:" in pg.text_content("#sz-board svg .caption")    # the picture's caption too
    pg.click("#sz-hint-btn")
    assert pg.text_content("#sz-hint")
    place(pg, mine[-1:])
    pg.wait_for_selector('body[data-solved="1"]')
    assert pg.text_content("#sz-streak") == "Daily streak: 1 day. Come back tomorrow!"
    assert pg.locator("#sz-next").count() == 0         # the static page links nowhere
    shot(pg, "daily-static.png")
    pg.click("#sz-reset")
    pg.click("#sz-confirm-yes")
    pg.wait_for_selector('body[data-solved=""]')
    pg.click("#sz-reveal")
    pg.click("#sz-confirm-yes")
    pg.wait_for_selector('body[data-solved="1"]')
    assert pg.text_content("#sz-msg") == "The solution is shown."
    assert stars_shown(pg) == sorted(mine) == sorted(set(stars_to_points(g, gen.solution)) - {
        g.coord_text(q) for q, _ in gen.puzzle.givens})
    ctx.close()
    assert not errors, errors


def test_undo_and_redo(server, page):
    """u and r (and the buttons) step back and forth through every placement, mark,
    Clear and Reveal."""
    gen = puzzle_from_id("sz-easy-3")
    mine = solution_points(gen)
    page.goto(server + "/puzzle/sz-easy-3")
    page.wait_for_selector("body[data-ready]")
    assert page.is_disabled("#sz-undo") and page.is_disabled("#sz-redo")
    place(page, mine[:2])
    page.click(f'#sz-board .sz-point[data-point="{mine[2]}"]', button="right", force=True)   # a mark
    assert stars_shown(page) == sorted(mine[:2]) and page.locator(".sz-empty-mark").count() == 1
    page.keyboard.press("u")                  # the mark
    assert page.locator(".sz-empty-mark").count() == 0 and stars_shown(page) == sorted(mine[:2])
    page.keyboard.press("u")                  # the second star
    assert stars_shown(page) == [mine[0]]
    page.keyboard.press("r")
    page.keyboard.press("r")
    assert stars_shown(page) == sorted(mine[:2]) and page.locator(".sz-empty-mark").count() == 1
    assert page.is_disabled("#sz-redo")
    page.click("#sz-reset")
    page.click("#sz-confirm-yes")
    page.wait_for_selector('body[data-placed="0"]')          # the dialog answers in a task of its own
    assert stars_shown(page) == [] and page.locator(".sz-empty-mark").count() == 0
    page.click("#sz-undo")                    # Clear undone
    assert stars_shown(page) == sorted(mine[:2]) and page.locator(".sz-empty-mark").count() == 1
    page.click("#sz-reveal")
    page.click("#sz-confirm-yes")
    page.wait_for_selector('body[data-solved="1"]')
    page.click("#sz-undo")                    # Reveal undone
    page.wait_for_selector('body[data-solved=""]')
    assert stars_shown(page) == sorted(mine[:2])
    page.click("#sz-redo")
    page.wait_for_selector('body[data-solved="1"]')
    stored = json.loads(page.evaluate("localStorage.getItem('szsolver:puzzle:sz-easy-3')"))
    assert stored["revealed"] is True and sorted(stored["stars"]) == sorted(mine)


def test_reveal_and_clear_ask_first(server, page):
    gen = puzzle_from_id("sz-easy-4")
    mine = solution_points(gen)
    page.goto(server + "/puzzle/sz-easy-4")
    page.wait_for_selector("body[data-ready]")
    place(page, mine[:1])
    page.click("#sz-reveal")
    page.wait_for_selector("#sz-confirm[open]")
    assert page.text_content("#sz-confirm-text") == "Show the solution? (Undo takes it back.)"
    page.click("#sz-confirm-no")
    page.wait_for_selector("#sz-confirm:not([open])", state="attached")
    assert stars_shown(page) == mine[:1]         # nothing revealed
    page.click("#sz-reset")
    page.wait_for_selector("#sz-confirm[open]")
    page.keyboard.press("Escape")                # Escape is "no" too
    page.wait_for_selector("#sz-confirm:not([open])", state="attached")
    assert stars_shown(page) == mine[:1]
    page.click("#sz-reveal")                     # now yes: one move more than the star
    page.click("#sz-confirm-yes")
    page.wait_for_selector('body[data-solved="1"]')
    assert page.get_attribute("body", "data-moves") == "2"


def test_solved_as_the_last_star_goes_down_with_the_streak(server, page):
    """The day's puzzle, the day before solved already: the last star solves it (no
    Check), the streak is 2 days and the next puzzle is offered."""
    gen = daily(DATE)
    mine = solution_points(gen)
    page.goto(server + f"/puzzle/daily?date={DATE}")
    page.wait_for_selector("body[data-ready]")
    page.evaluate("localStorage.setItem('szsolver:daily-solved', JSON.stringify(['2026-11-21', '2026-11-22']))")
    place(page, mine[:-1])
    assert page.get_attribute("body", "data-solved") == ""
    assert page.text_content("#sz-msg") == ""
    place(page, mine[-1:])
    page.wait_for_selector('body[data-solved="1"]')
    assert page.text_content("#sz-streak") == "Daily streak: 3 days in a row."
    assert page.get_attribute("#sz-next", "href") == "/puzzle/sz-fiendish-d20261122"         # the day before: a Sunday
    assert json.loads(page.evaluate("localStorage.getItem('szsolver:daily-solved')")) == \
        ["2026-11-21", "2026-11-22", DATE]
    shot(page, "puzzle.png")


def _a_wrong_beam(gen):
    """(given, star): a point whose star the given would see in a direction its
    pattern has no beam (basic rule: the first point that way not blocked)."""
    p = gen.puzzle
    g = p.geometry
    for q, pat in p.givens:
        for d in range(g.n_directions):
            ray = [x for x in g.rays[q][d] if not p.blocked >> x & 1]
            if not pat >> d & 1 and ray:
                return g.coord_text(q), g.coord_text(ray[0]), g.direction_names[d]
    raise AssertionError("no given with a blank direction")


def test_mistakes_are_drawn_on_the_board(server, page):
    """A star a given must not see: the beam between them and both stars are marked
    in red, and one line says why in words (no pattern codes)."""
    gen = puzzle_from_id("sz-easy-5")
    given, star, direction = _a_wrong_beam(gen)
    page.goto(server + "/puzzle/sz-easy-5")
    page.wait_for_selector("body[data-ready]")
    place(page, [star])
    page.wait_for_selector('body[data-mistakes="1"]')
    assert sorted(page.eval_on_selector_all("[data-wrong]", "els => els.map(e => e.dataset.wrong)")) == sorted([given, star])
    assert page.locator(f'[data-wrong-beam="{min(given, star, key=lambda n: int(n))}-{max(given, star, key=lambda n: int(n))}"]').count() == 1
    assert page.text_content("#sz-msg") == f"Given {given} must not see a star {direction}, but it sees {star}."
    assert page.get_attribute("#sz-msg", "class") == "sz-msg sz-bad"
    shot(page, "puzzle-mistake.png")
    page.keyboard.press("u")
    page.wait_for_selector('body[data-mistakes="0"]')
    assert page.text_content("#sz-msg") == "" and page.locator("[data-wrong]").count() == 0


def test_the_static_page_says_what_the_server_page_says(server, browser, page, tmp_path):
    """The same moves on the day's puzzle, on the server's page and on the static page:
    the same words everywhere (the help, the legend, the caption, the summary, a
    given explained, solved)."""
    gen = daily(DATE)
    mine = solution_points(gen)
    given, star, _direction = _a_wrong_beam(gen)
    first_given = gen.puzzle.geometry.coord_text(gen.puzzle.givens[0][0])
    ctx, static, errors = open_static_page(browser, tmp_path, gen, DATE)
    page.goto(server + f"/puzzle/daily?date={DATE}")
    page.wait_for_selector("body[data-ready]")

    def words(pg):
        return {sel: pg.text_content(sel) for sel in (".sz-side .sz-help", "#sz-legend-text", "#sz-count",
                                                      "#sz-msg", "#sz-info", "#sz-board svg .caption")}
    seen = []
    for pg in (page, static):
        out = [words(pg)]
        place(pg, [star])
        pg.wait_for_selector('body:not([data-mistakes="0"])')
        out.append(words(pg))
        place(pg, [star, first_given])
        out.append(words(pg))
        place(pg, mine)
        pg.wait_for_selector('body[data-solved="1"]')
        out.append(words(pg))
        seen.append(out)
    assert seen[0] == seen[1]
    assert "must not see a star" in seen[0][1]["#sz-msg"] and "is a given star" in seen[0][2]["#sz-msg"]
    ctx.close()
    assert not errors, errors


def test_tap_mode_marks_on_a_phone(server, browser):
    gen = puzzle_from_id("sz-easy-2")
    mine = solution_points(gen)
    ctx, pg = on_a_phone(browser, server + "/puzzle/sz-easy-2", height=800)
    pg.tap(f'#sz-board .sz-point[data-point="{mine[0]}"]', force=True)
    pg.tap("#sz-mode")
    assert pg.get_attribute("#sz-mode", "aria-pressed") == "true"
    assert pg.text_content("#sz-mode") == "Tap: mark empty"
    pg.tap('#sz-board .sz-point[data-point="14"]', force=True)
    pg.tap(f'#sz-board .sz-point[data-point="{mine[0]}"]', force=True)     # the star becomes a mark
    stored = json.loads(pg.evaluate("localStorage.getItem('szsolver:puzzle:sz-easy-2')"))
    assert stored["stars"] == [] and sorted(stored["empty"]) == sorted(["14", mine[0]])
    shot(pg, "puzzle-phone.png")
    pg.tap("#sz-mode")
    pg.tap(f'#sz-board .sz-point[data-point="{mine[1]}"]', force=True)
    assert stars_shown(pg) == [mine[1]]
    ctx.close()


def test_the_hex_board_zooms_to_playable_targets_on_a_phone(server, browser):
    """At fit a hex point is a small target; zoomed in it is at least 32 px across and a
    tap places a star; a drag pans and places nothing."""
    ctx, pg = on_a_phone(browser, server + "/puzzle/hex-easy-1", height=800)
    size = lambda: pg.eval_on_selector('#sz-board .sz-point[data-point="16,16"]',  # noqa: E731
                                       "e => e.getBoundingClientRect().width")
    assert size() < 20
    # two fingers spread apart (touch events, as a phone sends them): a pinch zooms in
    box = pg.eval_on_selector("#sz-board svg", "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    cdp = ctx.new_cdp_session(pg)

    def fingers(kind, gap):
        points = [] if kind == "touchEnd" else [{"x": cx - gap, "y": cy, "id": 0}, {"x": cx + gap, "y": cy, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    fingers("touchStart", 20)
    for gap in range(30, 100, 10):
        fingers("touchMove", gap)
    fingers("touchEnd", 0)
    pinched = float(pg.get_attribute("#sz-board", "data-zoom"))
    assert pinched > 2
    assert stars_shown(pg) == []                        # a pinch places nothing
    for _ in range(6):
        pg.tap("#sz-zoom-in")
    assert size() >= 32
    view = pg.get_attribute("#sz-board svg", "viewBox")
    box = pg.eval_on_selector("#sz-board svg", "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }")
    pg.mouse.move(box[0] + box[2] / 2, box[1] + box[3] / 2)
    pg.mouse.down()
    pg.mouse.move(box[0] + box[2] / 2 - 120, box[1] + box[3] / 2 - 60, steps=6)
    pg.mouse.up()
    assert pg.get_attribute("#sz-board svg", "viewBox") != view
    assert stars_shown(pg) == []                        # the drag placed nothing
    name = pg.eval_on_selector("#sz-board svg", """svg => {
      const r = svg.getBoundingClientRect();
      const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return el.dataset.point; }""")
    pg.tap(f'#sz-board .sz-point[data-point="{name}"]')
    assert stars_shown(pg) == [name]
    shot(pg, "puzzle-hex-phone.png")
    ctx.close()


def test_the_hex_board_zooms_around_the_pointer(server, page):
    """ctrl + wheel (a trackpad's pinch) zooms about the point under the pointer, which
    stays under it; the plain wheel does not zoom (the page scrolls)."""
    page.goto(server + "/puzzle/hex-easy-1")
    page.wait_for_selector("body[data-ready]")
    box = page.locator('#sz-board .sz-point[data-point="10,12"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    under = """([x, y]) => document.elementFromPoint(x, y).dataset.point"""
    page.mouse.move(x, y)
    page.mouse.wheel(0, 200)
    assert page.get_attribute("#sz-board", "data-zoom") is None
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_selector("#sz-board.sz-zoomed")
    box = page.locator('#sz-board .sz-point[data-point="10,12"]').bounding_box()
    assert page.evaluate(under, [x, y]) == "10,12" and box["width"] >= 32


def test_api_page(server, page):
    page.goto(server + "/api")
    assert page.locator("table.sz-api tr").count() >= 12
    shot(page, "api.png")
    page.goto(server + "/")
    assert page.locator(".sz-grades a").count() >= 100
    shot(page, "home.png")


def test_keys_act_once_after_the_board_is_redrawn(server, page):
    """Every step redraws the board: a key still acts once (its listeners are not
    stacked), so Enter after stepping picks a stone and waits for the neutral."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    page.focus("#sz-board")
    for k in range(1, 7):
        page.keyboard.press("]")
        page.wait_for_selector(f'body[data-at="{k}"]')
    n = len(example_game().turns)
    assert page.text_content("#sz-turn-no") == f"6 / {n}"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.text_content(".sz-sr").startswith("point ")     # read out to screen readers
    assert page.get_attribute("#sz-board svg", "aria-label").startswith("game board")
    page.keyboard.press("Enter")
    assert "now click a point for a neutral" in page.text_content("#sz-msg")
    assert page.text_content("#sz-turn-no") == f"6 / {n}"      # nothing played yet
    page.keyboard.press("Escape")
    assert page.text_content("#sz-turn-no") == f"6 / {n}"


def test_an_answer_is_not_shown_on_another_position(server, page):
    """A tool's answer that comes back after the board moved on is dropped, and
    stepping clears the answers about the position left; a tool's button waits for
    its answer."""
    example_at(page, server, 25)
    page.click("#sz-values")
    assert page.is_disabled("#sz-values")          # one request at a time
    page.click('button.sz-turn[data-turn="28"]')
    page.wait_for_selector('body[data-at="28"]')
    page.wait_for_selector("#sz-values:enabled", timeout=30000)
    assert page.locator("table.sz-values").count() == 0
    assert page.locator(".sz-value-label").count() == 0
    page.click("#sz-values")
    page.wait_for_selector("table.sz-values", timeout=30000)
    page.click("#sz-prev")
    page.wait_for_selector('body[data-at="27"]')
    assert page.locator("table.sz-values").count() == 0      # it was about position 28


def test_every_turn_beyond_the_solver_shows_the_engines_estimates(server, page):
    """16 turns left: the engine's candidate turns, marked estimated, on the board too."""
    example_at(page, server, 16)
    page.fill("#sz-limit", "1")
    page.click("#sz-values")
    assert page.is_disabled("#sz-values")          # the request went out
    # the answer, or the error it got instead (a 1 s limit: the job's deadline is 11 s)
    page.wait_for_selector("table.sz-estimates, #sz-values-out .sz-bad", timeout=30000)
    assert page.locator("#sz-values-out .sz-bad").count() == 0, page.text_content("#sz-values-out")
    estimated = page.text_content("#sz-values-out .sz-estimated")
    assert "not proved" in estimated
    # one proved range, the tighter of the solver's and the engine's, on both lines
    first = page.locator("#sz-values-out p").all_inner_texts()[0]
    bounds = re.compile(r"([+-]?\d+) <= value <= ([+-]?\d+)")
    assert first.startswith("Not proved") and bounds.findall(first) == bounds.findall(estimated)
    cells = page.inner_text("table.sz-estimates tr.sz-best").split()
    assert cells[1].startswith("~") and int(cells[2]) > 0
    assert page.locator(".sz-value-label.sz-estimate").count() >= 1


def test_a_tools_button_is_not_moved_away_by_the_live_evaluation_during_a_click(server, page):
    """The live evaluation's panel is above the tools' buttons; the press that leaves
    the time limit's box restarts it at once (the box's change), so it shrank to
    "Evaluating ..." between the press on a tool's button and the release, the release
    missed the button, and the tool never started. The panel keeps the room of its
    whole answer."""
    example_at(page, server, 16)
    # the live evaluation shows its work: more lines than "Evaluating ..."
    page.wait_for_selector('#sz-live-out[data-state="running"], #sz-live-out[data-state="done"]')
    page.fill("#sz-limit", "1")
    page.click("#sz-values")                       # the press restarts the live evaluation
    assert page.is_disabled("#sz-values")          # and the click still started the tool
    page.wait_for_selector("table.sz-values", timeout=30000)


# Each time the live evaluation's answer changes: its state and the top of what is under
# it (a turn's button, Promote), read in the page as the change happens.
WATCH_UNDER_THE_LIVE_PANEL = """() => {
    const out = document.querySelector('#sz-live-out');
    const seen = [];
    const look = () => seen.push([out.dataset.state,
        document.querySelector('#sz-turns button.sz-turn').getBoundingClientRect().top,
        document.querySelector('#sz-promote').getBoundingClientRect().top]);
    new MutationObserver(look).observe(out, { attributes: true, childList: true, subtree: true });
    window.szUnderLive = seen;
}"""


def test_what_is_under_the_live_evaluation_stays_put_as_its_answer_comes(server, page):
    """A step shows "Evaluating ..." in the live evaluation's panel, then its answer as it
    streams, then the last: the panel keeps the room of its whole answer all along, so
    the turns and buttons under it do not move (a click aimed at one of them as the
    answer comes lands on it)."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector('body[data-ready][data-at="0"]')
    page.click('button.sz-turn[data-turn="1"]')     # "After ..." in the status line from here on
    page.wait_for_selector('body[data-at="1"]')
    page.fill("#sz-limit", "1")
    page.dispatch_event("#sz-limit", "change")
    page.wait_for_selector('#sz-live-out[data-state="done"]', timeout=30000)
    page.evaluate(WATCH_UNDER_THE_LIVE_PANEL)
    page.click("#sz-next")
    page.wait_for_selector('body[data-at="2"] #sz-live-out[data-state="done"]', timeout=30000)
    seen = page.evaluate("window.szUnderLive")
    states = [s for s, _, _ in seen]
    assert states[0] == "waiting" and "running" in states and states[-1] == "done", states
    assert len({(turn, promote) for _, turn, promote in seen}) == 1, seen


CUT_SHORT = "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"


def test_on_a_phone_a_tap_shows_the_live_evaluations_rows_whole(server, browser):
    """A row of the live evaluation too long for a phone's screen (the expected line)
    is cut short to keep the panel's room; a tap on the panel shows every row whole,
    another cuts them again. (After turn 22 the engine's line holds three neutrals:
    "Expected line: 58 57 25n15 35n43 53n75 73 45" at 1 s.)"""
    ctx, pg = on_a_phone(browser, server + "/analysis?example=1")
    pg.tap("#sz-tab-analysis")
    pg.fill("#sz-limit", "1")
    pg.tap("#sz-tab-turns")
    pg.tap('button.sz-turn[data-turn="22"]')
    pg.wait_for_selector('body[data-at="22"] #sz-live-out[data-state="done"]', timeout=30000)
    cut = pg.eval_on_selector_all("#sz-live-out > p", CUT_SHORT)
    assert "Expected line" in [t.split(":")[0] for t in cut], cut
    pg.tap("#sz-live-out")
    assert pg.eval_on_selector_all("#sz-live-out > p", CUT_SHORT) == []
    pg.tap("#sz-live-out")
    assert pg.eval_on_selector_all("#sz-live-out > p", CUT_SHORT) == cut
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    ctx.close()

def health(server) -> dict:
    import urllib.request
    with urllib.request.urlopen(server + "/api/health", timeout=10) as r:
        return json.load(r)["jobs"]


def one_more_cancelled(server, before, idle=True) -> dict:
    """/api/health's jobs once a job more than ``before`` counts was cancelled (and,
    with ``idle``, none runs), or after 10 s, checked: that one cancelled, none done
    since."""
    for _ in range(100):
        after = health(server)
        if after["cancelled"] > before["cancelled"] and (after["running"] == 0 or not idle):
            break
        time.sleep(0.1)
    assert after["cancelled"] == before["cancelled"] + 1 and after["done"] == before["done"], after
    return after


def live_off(pg, server):
    """The live evaluation turned off, and the server idle and settled: no job running
    or waiting, and its counts still for a moment (a job an earlier test's closed page
    gave up may be counted cancelled a little after it stops running)."""
    pg.uncheck("#sz-live")
    pg.wait_for_selector('#sz-live-out[data-state="off"]', state="attached")
    last = None
    for _ in range(100):
        now = health(server)
        if now == last and now["running"] == 0 and now["waiting"] == 0:
            break
        last = now
        time.sleep(0.2)


def test_stepping_away_stops_the_servers_work(server, page):
    """The value of every turn of an opening position (a 10 s solve) asked, then the
    board steps on: the page gives its request up, and the server stops the job."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    live_off(page, server)
    page.fill("#sz-limit", "10")
    before = health(server)
    page.click("#sz-values")
    for _ in range(100):
        if health(server)["running"] > before["running"]:
            break
        time.sleep(0.1)
    page.click("#sz-next")
    page.wait_for_selector('body[data-at="1"]')
    page.wait_for_selector("#sz-values:enabled")
    one_more_cancelled(server, before)
    assert page.locator("table.sz-values").count() == 0


def test_a_bad_position_in_the_address_leaves_a_working_board(server, browser):
    """The error is shown on the empty board, whose buttons work: no script error (the
    server's 400 answer is the one failed request)."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/analysis?position=garbage")
    pg.wait_for_selector("body[data-ready]")
    assert pg.get_attribute("#sz-msg", "class") == "sz-msg sz-bad"
    assert pg.text_content("#sz-msg").strip()
    assert pg.locator("#sz-board svg .sz-point").count() == 55      # the empty board
    for button in ("#sz-next", "#sz-last", "#sz-potential"):
        pg.click(button)
    pg.wait_for_selector(".sz-map svg", timeout=30000)
    ctx.close()
    assert not errors, errors


def test_hint_on_a_solved_puzzle_keeps_the_verdict(server, page):
    gen = puzzle_from_id("sz-easy-1")
    givens = {q for q, _ in gen.puzzle.givens}
    g = gen.puzzle.geometry
    page.goto(server + "/puzzle/sz-easy-1")
    page.wait_for_selector("body[data-ready]")
    place(page, [g.coord_text(q) for q in range(g.size) if gen.solution >> q & 1 and q not in givens])
    page.wait_for_selector('body[data-solved="1"]')
    page.click("#sz-hint-btn")
    page.wait_for_selector("#sz-hint:not(:empty)")
    assert page.text_content("#sz-hint") == "Solved: there is nothing left to find."
    assert page.text_content("#sz-msg") == "Solved! Every pattern appears exactly once."


# --- the analysis board: steps, keys, the address, variations, undo ----------------------------

def open_example(pg, server):
    """The example game at its start, and a list of the API requests the page sends."""
    asked = []
    pg.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    pg.goto(server + "/analysis?example=1")
    pg.wait_for_selector('body[data-ready][data-at="0"]')
    return asked


def turn_texts(pg, selector="#sz-turns > button.sz-turn"):
    return pg.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")


def test_keys_step_anywhere_on_the_page_and_fast_presses_are_not_lost(server, page):
    """The arrow keys, Home, End and [ ] step from anywhere but a text field, in the
    page's own script: ten quick presses land ten turns on, and no step asks the
    server anything. On the board the arrows move its keyboard cursor while that is
    shown (after Tab), and step after a click."""
    game = example_game()
    asked = open_example(page, server)
    before = len(asked)
    page.click("#sz-status")                   # the page, not the board, has the focus
    page.keyboard.press("End")
    page.wait_for_selector('body[data-at="32"]')
    page.keyboard.press("Home")
    page.wait_for_selector('body[data-at="0"]')
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    for _ in range(10):
        page.keyboard.press("]")
    page.wait_for_selector('body[data-at="20"]')
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("[")
    page.wait_for_selector('body[data-at="18"]')
    assert f"After {game.turns[17]}" in page.text_content("#sz-status")
    r, b = game.positions[17].scores()
    assert page.text_content("#sz-red-score") == str(r) and page.text_content("#sz-blue-score") == str(b)
    assert page.text_content("#sz-position") == str(game.positions[17])
    assert page.locator("#sz-board .sz-stones circle[r='0.4']").count() == 18 + 1 + sum(
        t.neutral >= 0 for t in game.turns[:18])
    # A text field keeps its keys.
    page.click("#sz-limit")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-at") == "18"
    # After a click on the board the arrows step; with the keyboard's cursor shown
    # they move it, and [ ] still step.
    page.click('#sz-board .sz-point[data-point="55"]', force=True)     # the centre: occupied
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('body[data-at="19"]')
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")           # back onto the board: the cursor shows
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-at") == "19"
    page.keyboard.press("]")
    page.wait_for_selector('body[data-at="20"]')
    # (the live evaluation asks about the positions the board rests on: not a step's work)
    steps_asked = [u for u in asked[before:] if "/api/evaluate?" not in u]
    assert steps_asked == [], steps_asked


def test_the_address_follows_the_turns_back_and_forward(server, page):
    """Each step writes the game and the turn into the address; Back and Forward go
    through the turns visited and stay on the page."""
    game = example_game()
    open_example(page, server)
    assert "turn=0" in page.url and "turns=" + ".".join(str(t) for t in game.turns) in page.url
    page.click("#sz-status")
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'body[data-at="{k}"]')
    assert page.url.endswith("turn=3")
    page.click('button.sz-turn[data-turn="12"]')
    page.wait_for_selector('body[data-at="12"]')
    page.go_back()
    page.wait_for_selector('body[data-at="3"]')
    page.go_back()
    page.wait_for_selector('body[data-at="2"]')
    page.go_forward()
    page.wait_for_selector('body[data-at="3"]')
    page.go_forward()
    page.wait_for_selector('body[data-at="12"]')
    assert "/analysis?" in page.url and page.text_content("#sz-turn-no") == "12 / 32"


def test_a_shared_link_opens_at_its_turn(server, page, browser):
    """The address of a turn, opened in another tab, shows that game at that turn
    (its tags too); a link written by hand opens as well, and one whose turns do not
    replay leaves the rules' message on the empty board."""
    game = example_game()
    open_example(page, server)
    page.click('button.sz-turn[data-turn="12"]')
    page.wait_for_selector('body[data-at="12"]')
    link = page.url
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    other = ctx.new_page()
    other.goto(link)
    other.wait_for_selector('body[data-ready][data-at="12"]')
    assert len(turn_texts(other)) == 32 and other.text_content("#sz-turn-no") == "12 / 32"
    assert other.text_content("#sz-position") == str(game.positions[11])
    assert '[Red "MY Tian"]' in other.input_value("#sz-record")
    other.goto(server + "/analysis?Rule=advanced&turns=44n66.64&turn=1")
    other.wait_for_selector('body[data-ready][data-at="1"]')
    assert other.text_content("#sz-position").endswith("B 3 4 advanced")
    assert turn_texts(other) == ["1. 44n66", "64"]
    other.goto(server + "/analysis?Rule=advanced&turns=44n66.64&turn=\u0661")     # Arabic-Indic 1
    other.wait_for_selector('body[data-ready][data-at="2"]')
    assert "turn must be a number (digits 0-9), got '\u0661'" in other.text_content("#sz-msg")
    other.goto(server + "/analysis?Rule=advanced&turns=44n66.64&turn=99")   # past the end
    other.wait_for_selector('body[data-ready][data-at="2"]')
    assert "turn 99 is past the line's end: its last turn, 2, is shown" in \
        other.text_content("#sz-msg")
    other.goto(server + "/analysis?example=1&turn=5")
    other.wait_for_selector('body[data-ready][data-at="5"]')
    assert other.text_content("#sz-position") == str(game.positions[4])
    other.goto(server + "/analysis?turns=44.44")
    other.wait_for_selector("body[data-ready]")
    assert "round 1, blue: illegal turn 44: point 44 is occupied" in other.text_content("#sz-msg")
    assert other.locator("#sz-board svg .sz-point").count() == 55
    ctx.close()


def empty_point(pos, but=()):
    g = pos.geometry
    return next(g.coord_text(p) for p in range(g.size) if pos.empty >> p & 1 and g.coord_text(p) not in but)


def test_a_turn_played_mid_game_is_a_variation_beside_the_game(server, page):
    """A turn played at turn 10 keeps the game's 32 turns and shows the new one in
    parentheses after the game's 11th; each can be gone to by a click; the record and
    the address follow the line shown; promoting the variation makes it the main
    line, deleting it leaves the game as it was."""
    game = example_game()
    open_example(page, server)
    page.click('button.sz-turn[data-turn="10"]')
    page.wait_for_selector('body[data-at="10"]')
    mine = empty_point(game.positions[9], but=(str(game.turns[10]).split("n")[0],))
    place(page, [mine, mine])
    page.wait_for_selector('body[data-at="11"]')
    assert "a variation beside" in page.text_content("#sz-msg")
    assert page.locator("#sz-board .sz-pending").count() == 0
    assert len(turn_texts(page)) == 32
    assert turn_texts(page, ".sz-variation button.sz-turn") == [f"6. {mine}"]
    assert "sz-at" in page.get_attribute(".sz-variation button.sz-turn", "class")
    assert page.text_content("#sz-turn-no") == "11 / 11"
    shot(page, "analysis-variation.png")
    assert f"turns={'.'.join(str(t) for t in game.turns[:10])}.{mine}&turn=11" in page.url
    record = page.input_value("#sz-record")
    assert "Result" not in record and record.rstrip().endswith(f"6. {mine}")
    page.click('#sz-turns > button.sz-turn[data-turn="20"]')        # the game's own line
    page.wait_for_selector('body[data-at="20"]')
    assert page.text_content("#sz-turn-no") == "20 / 32" and page.is_disabled("#sz-delete")
    page.go_back()
    page.wait_for_selector('body[data-at="11"]')
    assert page.text_content("#sz-position") != str(game.positions[10])
    page.reload()                              # the tab keeps the tree: the variation stays
    page.wait_for_selector('body[data-ready][data-at="11"]')
    assert len(turn_texts(page)) == 32
    assert "sz-at" in page.get_attribute(".sz-variation button.sz-turn", "class")
    page.click("#sz-promote")
    assert turn_texts(page)[10] == f"6. {mine}" and len(turn_texts(page)) == 11
    assert turn_texts(page, ".sz-variation button.sz-turn")[0] == f"6. {game.turns[10]}"
    assert page.is_disabled("#sz-promote")     # on the main line now: nothing to promote
    page.click(".sz-variation button.sz-turn")
    page.wait_for_selector('body[data-at="11"]')
    page.click("#sz-delete")
    page.wait_for_selector('body[data-at="10"]')
    assert turn_texts(page) == turn_texts(page)[:10] + [f"6. {mine}"]
    assert page.locator(".sz-variation").count() == 0


def test_undo_takes_back_the_last_turn_played(server, page):
    """u, ctrl+z and the Undo button take back the turns played on the board, last
    first, wherever the board is; the game's own turns are not taken back."""
    game = example_game()
    open_example(page, server)
    page.click('button.sz-turn[data-turn="30"]')
    page.wait_for_selector('body[data-at="30"]')
    assert page.is_disabled("#sz-undo")
    first = empty_point(game.positions[29], but=(str(game.turns[30]).split("n")[0],))
    place(page, [first, first])
    page.wait_for_selector('body[data-at="31"]')
    second = empty_point(game.positions[29], but=(first,))
    place(page, [second])                      # blue has neutrals left: the neutral next
    place(page, [second])
    page.wait_for_selector('body[data-at="32"]')
    page.click("#sz-first")                    # undo acts wherever the board is
    page.wait_for_selector('body[data-at="0"]')
    page.keyboard.press("u")
    page.wait_for_selector('body[data-at="31"]')
    assert page.text_content("#sz-msg") == f"Took back {second}."
    page.keyboard.press("Control+z")
    page.wait_for_selector('body[data-at="30"]')
    assert page.locator(".sz-variation").count() == 0 and len(turn_texts(page)) == 32
    assert page.is_disabled("#sz-undo")
    page.keyboard.press("u")
    assert page.text_content("#sz-msg") == "No turn played on the board to take back."
    assert page.get_attribute("body", "data-at") == "30" and len(turn_texts(page)) == 32
    # on the empty board: the button
    page.click("#sz-new")
    page.wait_for_selector('body[data-at="0"]')
    place(page, ["44", "44"])
    page.wait_for_selector('body[data-at="1"]')
    page.click("#sz-undo")
    page.wait_for_selector('body[data-at="0"]')
    assert turn_texts(page) == [] and "turns=" not in page.url
    page.go_back()                             # to the empty board as loaded: 44 stays taken back
    page.wait_for_selector('body[data-at="0"]')
    assert turn_texts(page) == [] and "turns=" not in page.url


# --- the analysis board: the live evaluation ----------------------------------------------------

def test_the_live_evaluation_shows_from_the_first_turn(server, page):
    """From the start position: the engine's estimate, its best turn ringed on the board
    (the turn the panel names), the bar beside the board, the bounds proved so far."""
    page.goto(server + "/analysis")
    page.wait_for_selector('body[data-ready][data-at="0"]')
    page.wait_for_selector("#sz-live-out .sz-eval-value", timeout=30000)
    assert "estimated" in page.text_content("#sz-live-out .sz-eval-value")
    page.wait_for_selector("g.sz-best-turn circle.sz-best-ring")
    # the estimate streams: the panel and the ring are read together, once the ring has
    # caught up with the panel's latest turn (a stale ring fails here)
    page.wait_for_function("""() => {
        const best = document.querySelector('#sz-live-out .sz-eval-best');
        const ring = document.querySelector('g.sz-best-turn circle.sz-best-ring');
        return best && ring && best.textContent.trim().split(/\\s+/)[2].split('n')[0]
            === ring.getAttribute('data-point');
    }""", timeout=10000)
    assert page.get_attribute("#sz-evalbar", "data-state") == "on"
    assert page.get_attribute("#sz-evalbar", "data-exact") == "0"
    assert "Proved:" in page.text_content("#sz-live-out")
    shot(page, "analysis-live.png")
    page.fill("#sz-limit", "50")               # past the server's cap: the cap, said
    page.dispatch_event("#sz-limit", "change")
    page.wait_for_selector("#sz-msg:has-text('at most 10: 10 s is used.')")
    assert page.input_value("#sz-limit") == "10"
    page.fill("#sz-limit", "0.5")              # a good value: the message is taken back
    assert page.text_content("#sz-msg") == ""


def test_a_live_evaluation_the_server_stops_keeps_what_it_had(server, page):
    """The server's limit reached (a busy machine: the fixed work outlasts it), the
    stream ends with its error: the panel keeps the last figures the search streamed,
    says they are where it stopped, and gives the server's words."""
    from szsolver.formats.notation import position_string
    from szsolver.web import tasks
    start = position_string(example_game().positions[0])
    seen = []
    tasks.evaluate_position({"position": start}, 0.2, report=seen.append)
    last = [d for d in seen if d.get("value") is not None][-1]
    body = (f"event: progress\ndata: {json.dumps(last)}\n\n"
            'event: error\ndata: {"error": "no answer within the server\'s limit of 20 s"}\n\n')
    page.route("**/api/evaluate?*", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream"}, body=body))
    page.goto(server + "/analysis")
    page.wait_for_selector('#sz-live-out[data-state="error"]', state="attached", timeout=30000)
    said = page.text_content("#sz-live-out")
    assert "estimated" in page.text_content("#sz-live-out .sz-eval-value")
    assert "no answer within the server's limit of 20 s. The figures above are where " \
        "the search had got to." in said, said


def test_a_step_closes_the_live_evaluation_and_the_server_stops_it(server, page):
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector('body[data-ready][data-at="0"]')
    page.wait_for_selector('#sz-live-out[data-state="running"] .sz-eval-value', timeout=30000)
    before = health(server)
    assert before["running"] >= 1
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('body[data-at="1"]')
    one_more_cancelled(server, before, idle=False)      # the next position's may run already
    # the position shown now is evaluated in its place
    page.wait_for_selector('#sz-live-out[data-state="running"] .sz-eval-value', timeout=30000)
    assert page.get_attribute("g.sz-best-turn circle.sz-best-ring", "data-point")


def test_the_live_evaluation_is_proved_near_the_end(server, page):
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    page.click('button.sz-turn[data-turn="28"]')
    page.wait_for_selector('#sz-live-out[data-state="done"][data-exact="1"]', timeout=30000)
    assert page.text_content("#sz-live-out .sz-eval-value") == "+199 proved"
    assert "Red wins by 2 points" in page.text_content("#sz-live-out")
    assert page.get_attribute("g.sz-best-turn circle.sz-best-ring", "data-point") == "38"
    assert page.get_attribute("#sz-evalbar", "data-exact") == "1"


def test_the_annotation_shows_its_progress_and_cancel_stops_it(server, page):
    """The whole example game: "k of 32 turns judged" as it goes, with the turn being
    judged (the proved last ones first); Cancel stops the server's job."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    live_off(page, server)
    before = health(server)
    page.click("#sz-annotate")
    page.wait_for_selector("#sz-annotate-out .sz-progress p:has-text('of 32 turns judged; ')",
                           timeout=30000)
    said = page.text_content("#sz-annotate-out .sz-progress p")
    assert re.match(r"\d+ of 32 turns judged; (solving|estimating) turn \d+ \.\.\.$", said), said
    page.wait_for_selector("#sz-annotate-out[data-done]", state="attached", timeout=30000)
    assert health(server)["running"] == 1
    page.click("#sz-annotate-cancel")
    page.wait_for_selector("#sz-annotate-out p:has-text('Annotation cancelled.')")
    one_more_cancelled(server, before)
    assert page.is_enabled("#sz-annotate")


# --- the analysis board: the layout -------------------------------------------------------------

RECT = "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; }"


def test_on_a_phone_the_panel_is_tabs_under_the_board(server, browser):
    """390 x 844: the players and the score above the board, the whole board on the
    first screen with the tabs under it, one pane shown at a time, nothing wider than
    the screen."""
    ctx, pg = on_a_phone(browser, server + "/analysis?example=1")
    pg.click("#sz-last")
    pg.wait_for_selector('body[data-at="32"]')
    assert pg.text_content("#sz-red-name") == "MY Tian" and pg.text_content("#sz-blue-name") == "Aza Reyyaiya"
    assert pg.text_content("#sz-result") == "Red wins 16-14"
    assert pg.text_content("#sz-red-score") == "16" and pg.text_content("#sz-status").endswith("Game over.")
    top, bottom, left, right = pg.eval_on_selector("#sz-board svg", RECT)
    assert 0 <= top and bottom <= 844 and 0 <= left and right <= 390 and right - left > 300
    assert pg.eval_on_selector(".sz-tabs", RECT)[0] < 844          # the tabs start on the first screen
    shot(pg, "analysis-phone.png")
    assert pg.is_visible("#sz-turns") and not pg.is_visible("#sz-check")
    pg.click("#sz-tab-analysis")
    assert pg.is_visible("#sz-check") and not pg.is_visible("#sz-turns")
    assert pg.get_attribute("#sz-tab-analysis", "aria-selected") == "true"
    pg.click("#sz-tab-game")
    assert pg.is_visible("#sz-position") and not pg.is_visible("#sz-check")
    pg.click("#sz-tab-turns")
    pg.click('button.sz-turn[data-turn="3"]')
    pg.wait_for_selector('body[data-at="3"]')
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    ctx.close()


def test_on_a_desktop_the_board_stays_in_view_while_the_panel_scrolls(server, page):
    """The panel beside the board scrolls on its own: at its end (the record) the
    board has not moved, whole in the window, and the page itself has not scrolled.
    A game without players' names calls them Red and Blue."""
    open_example(page, server)
    page.set_viewport_size({"width": 1280, "height": 720})
    board = page.eval_on_selector("#sz-board svg", RECT)
    assert 0 <= board[0] and board[1] <= 720
    page.click("#sz-pane-game summary")                    # the record, at the panel's end
    page.wait_for_selector("#sz-record", state="visible")
    assert page.eval_on_selector("#sz-side", "e => e.scrollTop") > 0
    assert page.eval_on_selector("#sz-board svg", RECT) == board
    assert page.evaluate("window.scrollY") == 0
    assert not page.is_visible(".sz-tabs")                 # every pane at once
    page.click("#sz-new")
    page.wait_for_selector('#sz-turn-no:text-is("0 / 0")')
    assert page.text_content("#sz-red-name") == "Red" and page.text_content("#sz-blue-name") == "Blue"
    assert page.text_content("#sz-result") == "Scores tied 0-0, neutrals left 5-5"
