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
import shutil
import subprocess
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("starlette", reason="the web extras are not installed")
pytest.importorskip("uvicorn", reason="the web extras are not installed")

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


def place(pg, names):
    for n in names:
        pg.click(f'#sz-board .sz-point[data-point="{n}"]', force=True)


def test_solve_a_puzzle_by_clicking(server, page):
    gen = puzzle_from_id("sz-medium-3")
    givens = {q for q, _ in gen.puzzle.givens}
    g = gen.puzzle.geometry
    mine = [g.coord_text(q) for q in range(g.size) if gen.solution >> q & 1 and q not in givens]
    page.goto(server + "/puzzle/sz-medium-3")
    page.wait_for_selector("body[data-ready]")
    assert "grade: medium" in page.text_content("#sz-info")
    # A wrong star first: the check says so, and the hint says which.
    wrong = next(g.coord_text(q) for q in range(g.size)
                 if not (gen.solution | gen.puzzle.blocked) >> q & 1)
    place(page, [wrong])
    page.click("#sz-check")
    page.wait_for_selector("#sz-msg.sz-bad")
    assert "Not a solution" in page.text_content("#sz-msg")
    page.click("#sz-hint-btn")
    page.wait_for_selector("#sz-hint:not(:empty)")
    assert f"star at {wrong} is not part of the solution" in page.text_content("#sz-hint")
    place(page, [wrong])                       # removed again
    page.click("#sz-hint-btn")
    steps, _ = logic_steps(gen.puzzle)
    page.wait_for_selector("#sz-hint:has-text(':')")
    hint = page.text_content("#sz-hint")
    assert hint.startswith(steps[0]["technique"]) and steps[0]["text"] in hint
    shot(page, "puzzle.png")
    place(page, mine)
    assert page.text_content("#sz-count").startswith("16 of 16")
    page.click("#sz-check")
    page.wait_for_selector("#sz-msg.sz-good")
    assert "Correct" in page.text_content("#sz-msg")
    # Progress survives a reload.
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.text_content("#sz-count") == "16 of 16 stars - solved!"
    assert sorted(page.eval_on_selector_all("[data-star]", "els => els.map(e => e.dataset.star)")) == sorted(mine)


def test_keyboard_and_a_phone_sized_screen(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 800}, device_scale_factor=2,
                              is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    pg.goto(server + "/puzzle/sz-easy-2")
    pg.wait_for_selector("body[data-ready]")
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
    shot(pg, "puzzle-phone.png")
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
    assert page.text_content("#sz-red-score") == f"Red {r}" and page.text_content("#sz-blue-score") == f"Blue {b}"
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
    shot(page, "analysis.png")


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
    from szsolver.formats.record import Game, game_string
    game = example_game()
    record = game_string(Game({"Position": position_string(game.positions[-7])}, game.turns[-6:]))
    page.goto(server + "/analysis")
    page.wait_for_selector("body[data-ready]")
    page.fill("#sz-source", record)
    page.click("#sz-load")
    page.wait_for_selector('body[data-at="6"]')
    page.click("#sz-annotate")
    page.wait_for_selector(".sz-chart svg", timeout=60000)
    items = page.eval_on_selector_all("ol.sz-annotation li", "els => els.map(e => e.textContent)")
    assert len(items) == 6 and items[1].startswith("78n35?! blue: inaccuracy (proved)")
    assert "blue: 1 inaccuracy, 0 mistakes, 0 blunders" in page.text_content("#sz-annotate-out")


def test_static_daily_page_from_a_file(browser, tmp_path):
    gen = daily(DATE)
    path = tmp_path / "daily.html"
    path.write_text(daily_html(gen, DATE), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    pg.goto(path.as_uri())
    pg.wait_for_selector("body[data-ready]")
    assert "sz-easy-d20261123" in pg.text_content("#sz-info")
    givens = {q for q, _ in gen.puzzle.givens}
    g = gen.puzzle.geometry
    mine = [g.coord_text(q) for q in range(g.size) if gen.solution >> q & 1 and q not in givens]
    place(pg, mine[:-1])
    pg.click("#sz-check")
    pg.wait_for_selector("#sz-msg.sz-bad")
    assert "15 stars, a complete starmap needs 16" in pg.text_content("#sz-msg")
    pg.click("#sz-hint-btn")
    assert pg.text_content("#sz-hint")
    place(pg, mine[-1:])
    pg.click("#sz-check")
    pg.wait_for_selector("#sz-msg.sz-good")
    shot(pg, "daily-static.png")
    pg.click("#sz-reset")
    pg.click("#sz-reveal")
    assert sorted(pg.eval_on_selector_all("[data-star]", "els => els.map(e => e.dataset.star)")) == \
        sorted(mine) == sorted(set(stars_to_points(g, gen.solution)) - {g.coord_text(q) for q in givens})
    ctx.close()
    assert not errors, errors


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
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
    page.click('button.sz-turn[data-turn="25"]')
    page.wait_for_selector('body[data-at="25"]')
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


def health(server) -> dict:
    import urllib.request
    with urllib.request.urlopen(server + "/api/health", timeout=10) as r:
        return json.load(r)["jobs"]


def test_stepping_away_stops_the_servers_work(server, page):
    """The value of every turn of an opening position (a 10 s solve) asked, then the
    board steps on: the page gives its request up, and the server stops the job."""
    page.goto(server + "/analysis?example=1")
    page.wait_for_selector("body[data-ready]")
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
    for _ in range(100):
        after = health(server)
        if after["cancelled"] > before["cancelled"]:
            break
        time.sleep(0.1)
    assert after["cancelled"] == before["cancelled"] + 1 and after["done"] == before["done"], after
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
    page.click("#sz-check")
    page.wait_for_selector("#sz-msg.sz-good")
    page.click("#sz-hint-btn")
    page.wait_for_selector("#sz-hint:not(:empty)")
    assert page.text_content("#sz-hint") == "Solved: there is nothing left to find."
    assert "Correct" in page.text_content("#sz-msg")
