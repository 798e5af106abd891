"""OR-Tools' cp_model loaded without pandas (szsolver.cpsat): the same module, which
solves, and whose pandas helpers still work once called."""
import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_cp_model_loads_without_pandas_and_solves():
    out = _run("""
        import sys
        from szsolver.cpsat import cp_model
        m = cp_model()
        assert m is sys.modules["ortools.sat.python.cp_model"] and m is cp_model()
        assert "pandas" not in sys.modules
        model = m.CpModel()
        x, y = model.new_int_var(0, 10, "x"), model.new_bool_var("y")
        model.add(x + 2 * y >= 7)
        model.maximize(3 * y - x)
        s = m.CpSolver()
        assert s.solve(model) == m.OPTIMAL
        print(s.value(x), s.value(y), "pandas" in sys.modules)
    """)
    assert out == "5 1 False"


def test_its_pandas_helpers_get_the_real_pandas():
    """cp_model reaching for pandas itself imports it; a program's own import of pandas
    gets the real module, whose objects cp_model accepts."""
    out = _run("""
        import sys
        from szsolver.cpsat import cp_model
        m = cp_model()
        try:
            m.CpModel().new_int_var_series("v", [0, 1], 0, 5)
        except TypeError as e:
            print("refused:", e)
        import pandas as pd
        assert hasattr(pd, "DataFrame") and sys.modules["pandas"] is pd
        xs = m.CpModel().new_bool_var_series("b", pd.Index(range(3), name="i"))
        print(type(xs).__name__, len(xs), m.pd.Series is pd.Series)
    """)
    assert out.splitlines() == ["refused: Non-index object is used as index", "Series 3 True"]


def test_pandas_loaded_first_or_a_failed_stand_in_import_plainly():
    out = _run("""
        import pandas, sys
        from szsolver.cpsat import cp_model
        print(cp_model().pd is pandas)
    """)
    assert out == "True"
    out = _run("""
        import sys
        import szsolver.cpsat as c
        def broken():
            raise RuntimeError("a newer OR-Tools")
        c._without_pandas = broken
        m = c.cp_model()
        print(m.CpModel is not None, "pandas" in sys.modules)
    """)
    assert out == "True True"
