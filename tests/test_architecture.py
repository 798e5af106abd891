"""The package's layout is its architecture: imports run one way (cli -> features ->
formats -> rules) and no module takes part in an import circle.

Every import counts, including the ones inside functions, because a lazy import is
still a dependency.
"""
import ast
import pathlib
import re
import subprocess
import sys

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "src" / "szsolver"

# Which layers each layer may import from (besides itself). The front door
# (szsolver/__init__.py, api), the entry point and the command line may use anything.
# errors, interrupt, limits, inputs (the reading of numbers and names) and cpsat (OR-Tools'
# loader) are the ground floor: every layer may use them; they use nothing but the errors
# (interrupt: the loader, for its CP-SAT solver; limits: inputs, to quote a value).
GROUND = {"errors", "interrupt", "limits", "inputs", "cpsat"}
ALLOWED = {
    "errors": set(),
    "cpsat": set(),                 # OR-Tools' cp_model, loaded without pandas
    "interrupt": {"cpsat"},
    "limits": {"errors", "inputs"},     # inputs.shown: a value as a message quotes it
    "inputs": {"errors"},
    "rules": GROUND,
    # the verdict scale and the words for values, of all three games
    "verdict": GROUND | {"rules"},
    "formats": GROUND | {"rules"},
    "endgame": GROUND | {"rules", "formats", "bounds"},   # bounds.value: the value's bounds
    "bounds": GROUND | {"rules", "formats"},
    "starmaps": GROUND | {"rules", "formats"},
    "engine": GROUND | {"rules", "formats", "endgame", "bounds"},
    "analysis": GROUND | {"rules", "verdict", "formats", "endgame", "bounds", "engine"},
    "batch": GROUND | {"rules", "verdict", "formats", "endgame", "bounds", "starmaps", "engine",
                       "analysis", "games"},
    "web": GROUND | {"rules", "verdict", "formats", "endgame", "bounds", "starmaps", "engine",
                     "analysis", "games"},
    # The registry of the family's games (Stars' Zone, Star, Stargazers): above each
    # game's own packages, below what serves them (the command line, web, batch).
    "games": GROUND | {"rules", "verdict", "formats", "endgame", "bounds", "engine",
                       "analysis", "star", "stargazers"},
    # The other games of the family: their own rules, solver and engine, on the shared
    # bit helpers, seeds, record and picture formats and the verdict scale.
    "stargazers": GROUND | {"rules", "verdict", "formats"},
    "star": GROUND | {"rules", "verdict", "formats"},
    # the puzzle room: the endgame puzzles on the exact solver (and the published
    # collections, as data); no feature imports a puzzle
    "puzzles": GROUND | {"rules", "formats", "endgame"},
}


def _modules():
    """(dotted name, path) of every Python and Cython file in the package (a compiled
    module's ``.pxd`` and ``.pyx`` give the same name)."""
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _imports(name: str, path: pathlib.Path) -> set[str]:
    """The szsolver modules that module ``name`` imports, anywhere in it."""
    found = set()
    for mod, names, _ in _import_statements(name, path):
        if names is None:                 # "import szsolver.x"
            found.add(mod)
            continue
        if not mod.endswith("."):         # not "from . import x": the module itself
            found.add(mod)
        # "from . import x" may name submodules; _graph keeps the longest module prefix
        found.update(f"{mod.rstrip('.')}.{n}" for n in names)
    return found


def _import_statements(name: str, path: pathlib.Path):
    """(absolute module, the names taken from it or None for a plain import, line) for
    every szsolver import of module ``name``, Python's and Cython's ``cimport`` alike.
    ``from . import x`` gives the package with a trailing dot: the names are what it
    takes, the package's ``__init__`` is not."""
    is_package = path.stem == "__init__"
    package = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("szsolver"):
                    yield a.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("szsolver"):
                yield mod + ("." if node.module is None else ""), \
                    [a.name for a in node.names], node.lineno


def _tree(path: pathlib.Path) -> ast.Module:
    """The module's syntax tree; for Cython, the tree of its import statements alone
    (``cimport`` read as ``import``, a name list in parentheses over several lines
    read whole), each at its own line number."""
    source = path.read_text(encoding="utf-8")
    if path.suffix not in (".pyx", ".pxd"):
        return ast.parse(source)
    lines = [ln.split("#")[0].strip() for ln in source.splitlines()]
    body, i = [], 0
    while i < len(lines):
        first, statement = i, lines[i]
        i += 1
        if not statement.startswith(("from ", "import ", "cimport ")):
            continue
        # a name list in parentheses (or after a backslash) goes on over the next lines
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) \
                and i < len(lines):
            statement = statement.rstrip("\\") + " " + lines[i]
            i += 1
        statement = re.sub(r"(^|\s)cimport\s", r"\1import ", statement)
        try:
            nodes = ast.parse(statement).body
        except SyntaxError:
            # prose in a docstring that begins with "from"; an import of ours must read
            assert not re.match(r"(from|import)\s+(szsolver|\.)", statement), \
                f"{path.name}:{first + 1}: an import the test cannot read: {statement!r}"
            continue
        for node in nodes:
            node.lineno = first + 1
        body.extend(nodes)
    return ast.Module(body=body, type_ignores=[])


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _graph():
    # a compiled module's .pxd (its C declarations, with their cimports) and .pyx are one
    graph = {}
    for name, path in _modules():
        graph.setdefault(name, set()).update(_imports(name, path))
    for name, found in graph.items():
        deps = set()
        for mod in found:
            # keep the longest prefix that is a module of ours
            while mod and mod not in graph:
                mod = mod.rpartition(".")[0]
            if mod and mod != name:
                deps.add(mod)
        graph[name] = deps
    return graph


def test_layers_import_only_downwards():
    wrong = []
    for name, deps in _graph().items():
        layer = _layer(name)
        if layer not in ALLOWED:
            continue  # the front door, __main__, cli
        for dep in deps:
            other = _layer(dep)
            if other is None or other == layer:
                if other is None and dep != "szsolver":
                    continue
                if dep == "szsolver":
                    wrong.append(f"{name} -> {dep} (the front door)")
                continue
            if other not in ALLOWED[layer]:
                wrong.append(f"{name} -> {dep}")
    assert not wrong, "imports against the layering:\n" + "\n".join(sorted(wrong))


def test_cython_cimports_count():
    """A compiled module's cimports are dependencies too, a name list in parentheses
    over several lines included, and a ``.pxd``'s as much as its ``.pyx``'s."""
    graph = _graph()
    assert "szsolver.rules._core" in graph["szsolver.endgame._leaves"]    # "(...,\n ...)"
    assert "szsolver.rules._core" in graph["szsolver.endgame._common"]    # a .pxd alone
    assert "szsolver.endgame._common" in graph["szsolver.endgame._tt"]    # .pxd beside .pyx
    assert "szsolver.rules.text" in graph["szsolver.rules._core"]         # Python's, in a .pyx



def test_one_home_for_the_compiled_random_stream():
    """xorshift64* is written once (``rules/_random.pxd``) and cimported by the compiled
    searches that draw from it."""
    graph = _graph()
    for user in ("szsolver.engine._mcts", "szsolver.starmaps._complete"):
        assert "szsolver.rules._random" in graph[user], user
    homes = [path.name for _, path in _modules() if path.suffix in (".pyx", ".pxd")
             and "2685821657736338717" in path.read_text(encoding="utf-8")]
    assert homes == ["_random.pxd"], homes

def test_no_private_name_crosses_packages():
    """A name with a leading underscore is its own module's business: a piece another
    package needs is public, its docstring stating the contract. (A compiled module's C
    declarations, cimported from its ``.pxd`` by their own public names, are such a
    contract; which package may drive ``endgame._search`` is tested below.)"""
    wrong = []
    for name, path in _modules():
        for mod, names, line in _import_statements(name, path):
            mod = mod.rstrip(".")
            if names is None or _layer(mod) == _layer(name):
                continue
            wrong.extend(f"{name}:{line} takes {n} from {mod}" for n in names
                         if n.startswith("_") and not n.startswith("__"))
    assert not wrong, "private names used across packages:\n" + "\n".join(sorted(wrong))


def test_no_import_circles():
    graph = _graph()
    index, low, stack, on_stack, circles = {}, {}, [], set(), []
    counter = [0]

    def strongconnect(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    # A package's __init__ re-exporting its own modules is not a circle of concerns.
    real = [c for c in circles if not _only_package_face(c, graph)]
    assert not real, "import circles: " + "; ".join(" <-> ".join(c) for c in real)


def _only_package_face(component, graph) -> bool:
    """True when the circle runs only through the front door ``szsolver`` itself
    (its submodules import ``szsolver.errors`` etc., which loads ``szsolver``)."""
    return "szsolver" in component and all(
        "szsolver" not in graph[m] for m in component if m != "szsolver")


def test_the_command_line_loads_no_heavy_module_before_a_command_needs_it():
    code = ("import sys, szsolver.cli\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'numpy')\n"
            "               or m.startswith(('szsolver.endgame', 'szsolver.bounds',\n"
            "                                'szsolver.starmaps', 'szsolver.engine')))\n"
            "print(' '.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_only_the_endgame_package_drives_its_searcher():
    """The compiled search's driver side (``endgame._search``: the Searcher, its abort
    reasons) is used by the endgame package's modules alone; a driver elsewhere (check,
    the deep solve) schedules the proof steps of ``endgame.prover`` instead of probing
    with copies of its own. (The engine's playouts cimport the exact last turns of
    ``endgame._leaves``: C, below the driver.)"""
    wrong = [f"{name} -> {dep}" for name, deps in _graph().items()
             if not name.startswith("szsolver.endgame.")
             for dep in deps if dep == "szsolver.endgame._search"]
    assert not wrong, "endgame._search used outside endgame/:\n" + "\n".join(sorted(wrong))


def test_one_builder_of_the_exact_answer():
    """Every driver of the exact search (the serial solve, its threads, ``check``, the
    deep solve over Dask) answers through ``endgame.prover.solve_result``: no module
    but the prover builds a Stars' Zone ``SolveResult`` itself."""
    wrong = []
    for name, path in _modules():
        if path.suffix != ".py" or name == "szsolver.endgame.prover":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = {a.asname or a.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module
                 and node.module.endswith(("endgame.prover", "endgame.solver", "prover"))
                 for a in node.names if a.name == "SolveResult"}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in local):
                wrong.append(f"{name}:{node.lineno}")
    assert not wrong, "a SolveResult built outside the prover:\n" + "\n".join(wrong)


def test_the_deep_solve_builds_its_answer_through_the_prover():
    """``batch/deep.py`` schedules the prover's steps (MTD(f)'s loop, the probe, the
    best turns, the PV, the answer) as jobs; it keeps no proof step of its own and
    does not drive the compiled search."""
    deps = _graph()["szsolver.batch.deep"]
    assert "szsolver.endgame.prover" in deps and "szsolver.endgame._search" not in deps
    tree = ast.parse((PACKAGE / "batch" / "deep.py").read_text(encoding="utf-8"))
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "prover"}
    assert {"narrow", "probe", "keeps", "best_turns", "pv", "solve_result",
            "refuted_alike", "Budget"} <= used, used
    defined = {node.name for node in ast.walk(tree)
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not defined & {"_line", "_keeps", "_prove_child", "Budget", "Window"}, defined


def test_the_command_line_web_and_batch_reach_the_games_only_through_the_registry():
    """The command line, the web app and batch work are written once against the
    registry of games (``szsolver.games``): no module of theirs imports a game's own
    package (Star's, Stargazers') or a game's entry behind the registry; what a game
    offers, they learn from the registry."""
    entries = {"szsolver.games.star", "szsolver.games.stargazers", "szsolver.games.stars_zone"}
    graph = _graph()
    wrong = [f"{name} -> {dep}" for name, deps in graph.items()
             if name.startswith(("szsolver.cli", "szsolver.web", "szsolver.batch"))
             for dep in deps if dep in entries or _layer(dep) in ("star", "stargazers")]
    assert not wrong, "past the registry:\n" + "\n".join(sorted(wrong))
    for front in ("szsolver.cli.games", "szsolver.web.app", "szsolver.web.tasks",
                  "szsolver.batch.units"):
        assert "szsolver.games" in graph[front], front
    assert not [m for m in graph if m.startswith("szsolver.cli.game_")], \
        "a command line module of one game's own"
