"""Builds the Cython extensions (src/szsolver/**/_*.pyx); metadata lives in pyproject.toml."""
import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
# popcnt is in every x86-64 CPU since 2008; without it popcount is a library call
# on the scoring hot path.
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
# A debug build (SZSOLVER_DEBUG=1) keeps the search's assertions (CYTHON_DEBUG_ASSERT).
DEBUG = bool(os.environ.get("SZSOLVER_DEBUG"))


def _module_name(path: str) -> str:
    return os.path.splitext(os.path.relpath(path, SRC))[0].replace(os.sep, ".")


extensions = [
    Extension(
        _module_name(path),
        [os.path.relpath(path, HERE)],
        extra_compile_args=["-O1" if DEBUG else "-O3", *ARCH_FLAGS],
        define_macros=[("SZSOLVER_DEBUG", "1")] if DEBUG else [],
    )
    for path in sorted(glob.glob(os.path.join(SRC, "szsolver", "**", "_*.pyx"), recursive=True))
]

# The package lives in src/ (so a clone's root never shadows the installed, compiled
# package); the published puzzle collections ship as package data of szsolver.puzzles.
PACKAGES = find_packages("src")

setup(
    package_dir={"": "src"},
    packages=PACKAGES,
    package_data={"": ["*.pxd", "*.pyx"], "szsolver": ["data/*"], "szsolver.puzzles": ["*.json"],
                  "szsolver.stargazers": ["boards/*.json"],
                  "szsolver.web": ["static/*", "templates/*"]},
    include_package_data=False,
    ext_modules=cythonize(
        extensions,
        include_path=[SRC],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
        annotate=bool(os.environ.get("SZSOLVER_ANNOTATE")),
    ),
)
