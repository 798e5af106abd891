"""The page templates and the front end's files (package data under ``szsolver/web``).

Templates are HTML with ``$name`` fields (:class:`string.Template`); every value put
in is either escaped by the caller or is markup the package made. The scripts are
plain ES modules served as they are; :func:`inline_script` joins a module and the
modules it imports into one inline script for the static page (a page opened from
a ``file://`` address may not load modules): each module becomes a function scope
that returns its exports, and each ``import {a, b} from './x.js'`` a destructuring
of those. The modules keep to that form: one-line imports of named exports,
``export function`` / ``export const`` declarations.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from string import Template

_IMPORT_RE = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*'\./([\w-]+\.js)';\s*$", re.M)
_EXPORT_RE = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)",
                        re.M)


def static_dir() -> str:
    """The directory of the front end's files (served under /static/)."""
    return str(files("szsolver.web") / "static")


@lru_cache(maxsize=None)
def static_text(name: str) -> str:
    """A front-end file's text, by its plain name (``puzzle.js``, ``style.css``)."""
    if not re.fullmatch(r"[\w-]+\.(js|css)", name):
        raise ValueError(f"not a front-end file name: {name!r}")
    return (files("szsolver.web") / "static" / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    return Template((files("szsolver.web") / "templates" / name).read_text(encoding="utf-8"))


def render(name: str, **fields) -> str:
    """Template ``name`` with ``fields`` filled in (all must be given)."""
    return _template(name).substitute(**fields)


def _var(name: str) -> str:
    return "__mod_" + re.sub(r"\W", "_", name)


def _order(entry: str) -> list[str]:
    """``entry`` and the modules it imports, each after the ones it needs."""
    seen: list[str] = []

    def visit(name, path):
        if name in path:
            raise ValueError(f"import cycle through {name}")
        if name in seen:
            return
        for m in _IMPORT_RE.finditer(static_text(name)):
            visit(m.group(2), path + (name,))
        seen.append(name)
    visit(entry, ())
    return seen


@lru_cache(maxsize=None)
def inline_script(entry: str) -> str:
    """``<script>`` holding module ``entry`` and what it imports (see the module doc)."""
    parts = []
    for name in _order(entry):
        src = static_text(name)
        exports = _EXPORT_RE.findall(src)
        body = _IMPORT_RE.sub(lambda m: f"const {{{m.group(1)}}} = {_var(m.group(2))};", src)
        body = re.sub(r"^export\s+", "", body, flags=re.M)
        if re.search(r"^\s*(import|export)\b", body, re.M):
            raise ValueError(f"{name}: an import or export the inliner does not handle")
        parts.append(f"// --- {name}\nconst {_var(name)} = (() => {{\n{body}\n"
                     f"return {{{', '.join(exports)}}};\n}})();")
    code = "\n".join(parts).replace("</script", "<\\/script")
    return f'<script type="module">\n{code}\n</script>'


def inline_style() -> str:
    return "<style>\n" + static_text("style.css").replace("</style", "<\\/style") + "\n</style>"


def linked_style() -> str:
    return '<link rel="stylesheet" href="/static/style.css">'


def linked_script(entry: str) -> str:
    return f'<script type="module" src="/static/{entry}"></script>'
