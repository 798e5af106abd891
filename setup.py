"""Builds the Cython extensions (szsolver/_*.pyx); metadata lives in pyproject.toml."""
import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
# popcnt is in every x86-64 CPU since 2008; without it popcount is a library call
# on the scoring hot path.
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
extensions = [
    Extension(
        "szsolver." + os.path.splitext(os.path.basename(path))[0],
        [os.path.relpath(path, HERE)],
        extra_compile_args=["-O3", *ARCH_FLAGS],
    )
    for path in sorted(glob.glob(os.path.join(HERE, "szsolver", "_*.pyx")))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
        annotate=bool(os.environ.get("SZSOLVER_ANNOTATE")),
    ),
)
