"""Run work units on a Dask client, write results as they arrive, resume.

Contracts:

* Every unit is submitted with a key made from its name and a token of its function
  and arguments, ``pure`` and with Dask ``retries``: a unit lost with its worker runs
  again (same arguments, same answer) and is written once.
* Results are written as they arrive: :class:`JsonLines` appends one line and flushes
  it; :class:`Directory` writes one file per unit, atomically (a temporary file, then
  ``os.replace``), so a file that exists is complete.
* Resuming: the units whose record is already in the output are skipped (not
  submitted at all), when the record was made from the same input: a unit that reads
  text (a position line, a game record) stores the SHA-256 of that text in its record
  (``source_sha256``), and a record of other text (the input changed since, or a file
  that was never this run's) is dropped and the unit done again. A unit whose answer
  depends on options (a solve's limits, an annotation's budgets) stores them in its
  record (``options``); a record made under other options is done again under this
  run's, unless the unit's ``settled`` says no option changes it (a solve proved
  exact and complete: a larger limit proves nothing more; one a limit stopped is
  tried again; ``keep`` may then keep the earlier record where it proved more). A torn
  last line of a JSON-lines file (a run killed mid-write) is dropped and that unit done
  again. A JSON-lines file of another input's results (:func:`_another_inputs`) is
  refused before any work, never dropped.
* When every unit is done, a JSON-lines file is rewritten (atomically) in input order,
  one record per unit: the finished file is the same whatever the order of arrival,
  the number of workers or the number of runs it took.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable

from ..errors import InputError
from ..formats.sources import write_text_file


@dataclass
class Unit:
    """One piece of work: ``func(*args)`` on a worker; ``key`` names it in the output
    (the input line number, the file name); ``source``: the text it reads, if any (its
    record is done only for that text); ``options``: the options its answer depends
    on, if any (its record is done only under them, unless ``settled(record)`` says
    that record holds whatever the options: see the module doc)."""
    key: object
    func: Callable
    args: tuple = ()
    source: str | None = None
    options: dict | None = None
    settled: Callable[[dict], bool] | None = None
    #: ``keep(earlier, new)``: the record to write when this unit is done again under
    #: other options (an earlier record of the same input proved more: it stays)
    keep: Callable[[dict, dict], dict] | None = None

    @property
    def fingerprint(self) -> str | None:
        if self.source is None:
            return None
        return hashlib.sha256(self.source.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class RunReport:
    total: int
    skipped: int                     # done by an earlier run
    computed: list = field(default_factory=list)   # keys computed by this run, in arrival order
    seconds: float = 0.0
    errors: list = field(default_factory=list)     # ... of them, those whose record is an error
    again: list = field(default_factory=list)      # ... of them, those an earlier run did under
                                                   # other options (its record not settled)
    unsettled: list = field(default_factory=list)  # units whose record (this run's or kept) is
                                                   # not settled, errors aside
    kept: list = field(default_factory=list)       # ... of the again, those whose earlier
                                                   # record stayed (``Unit.keep``)

    @property
    def units_per_second(self) -> float:
        return len(self.computed) / self.seconds if self.seconds > 0 else 0.0


class JsonLines:
    """A JSON-lines output file: one record (a JSON object) per line, identified by its
    ``field`` (e.g. ``line``, the input line number)."""

    def __init__(self, path: str, field: str):
        self.path = path
        self.field = field
        self._records: dict = {}
        self._file = None

    def done(self) -> dict:
        """The records already in the file, by key. Lines that are not complete records
        (a torn last line) are dropped from the file."""
        self._records = {}
        if not os.path.exists(self.path):
            return {}
        with open(self.path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.split("\n")
        torn = False
        for k, ln in enumerate(lines):
            if not ln.strip():
                continue
            try:
                rec = json.loads(ln)
                key = rec[self.field]
            except (ValueError, TypeError, KeyError):
                torn = True
                continue
            if k == len(lines) - 1:      # no newline after it: written in part, maybe
                torn = True
                continue
            self._records.setdefault(key, rec)
        if torn:
            self._rewrite(list(self._records))
        return dict(self._records)

    def forget(self, keys) -> None:
        """Drop the records of ``keys`` (made from other input) from the file."""
        for k in keys:
            self._records.pop(k, None)
        self._rewrite(list(self._records))

    def write(self, key, record: dict) -> None:
        if key in self._records:       # a unit written once, whatever happens
            return
        if self._file is None:
            self._file = open(self.path, "a", encoding="utf-8")
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()
        self._records[key] = record

    def finish(self, order: list) -> None:
        """Rewrite the file in ``order`` (all units done)."""
        self.close()
        self._rewrite(order)

    def _rewrite(self, order: list) -> None:
        write_text_file(self.path, "".join(json.dumps(self._records[k], ensure_ascii=False) + "\n"
                                         for k in order if k in self._records))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class Directory:
    """An output directory: one ``KEY.json`` file per unit, written atomically."""

    def __init__(self, path: str):
        self.path = path

    def file(self, key) -> str:
        return os.path.join(self.path, f"{key}.json")

    def done(self) -> dict:
        """The records already in the directory, by key (files that are no JSON left
        out)."""
        os.makedirs(self.path, exist_ok=True)
        records = {}
        for name in os.listdir(self.path):
            if name.startswith(".") or not name.endswith(".json"):
                continue
            try:
                with open(os.path.join(self.path, name), encoding="utf-8") as f:
                    records[name[:-len(".json")]] = json.load(f)
            except (OSError, ValueError):
                continue
        return records

    def forget(self, keys) -> None:
        pass                # each unit's file is replaced whole when it is written

    def write(self, key, record: dict) -> None:
        write_text_file(self.file(key), json.dumps(record, indent=1, ensure_ascii=False) + "\n")

    def finish(self, order: list) -> None:
        pass

    def close(self) -> None:
        pass


def _another_inputs(path: str, existing: dict, units: list[Unit]) -> None:
    """InputError (one line, exit 2, before any work) when the results file ``path``
    holds another input's results, which this run would drop: records of lines this
    input does not have, or (two or more) records none of which is of this input's
    text. A resumed run, or one whose input was edited in places, goes on."""
    keys = {str(u.key) for u in units}
    extra = sorted((k for k in existing if str(k) not in keys), key=str)
    ours = {str(u.key): u.fingerprint for u in units if u.source is not None}
    mine = [k for k, r in existing.items() if str(k) in ours and isinstance(r, dict)
            and r.get("source_sha256") == ours[str(k)]]
    if extra or (ours and len(existing) >= 2 and not mine):
        why = (f"{len(extra)} of its {len(existing)} records are of lines this input does not "
               "have" if extra else f"none of its {len(existing)} records is of this input")
        raise InputError(f"{path} holds the results of another input ({why}): give another "
                         "file name, or remove it")


def run_units(client, units: list[Unit], out, *, retries: int = 3, progress=None,
              on_result=None, window: int | None = None) -> RunReport:
    """Run the ``units`` not yet in ``out`` on ``client``; write each result to ``out``
    as it arrives; put ``out`` in input order at the end. ``progress(done, total)``
    after each result; ``on_result(key, record)`` too (tests use it to kill a worker).
    At most ``window`` units are in flight (default 8 per worker thread), so a huge
    input never sits in the scheduler at once. An exception raised by a unit (a bug,
    not bad input: units return bad input as a record) stops the run; what was written
    stays, and a re-run resumes."""
    from dask.base import tokenize
    from distributed import as_completed
    start = time.perf_counter()
    keys = [u.key for u in units]
    if len(set(keys)) != len(keys):
        raise ValueError("two units with one key")
    existing = out.done()
    done = {str(k): r for k, r in existing.items()}
    if isinstance(out, JsonLines):
        _another_inputs(out.path, existing, units)

    def same_input(u: Unit) -> bool:
        r = done.get(str(u.key))
        if r is None:
            return False
        return u.source is None or (isinstance(r, dict)
                                    and r.get("source_sha256") == u.fingerprint)

    def still_done(u: Unit) -> bool:
        if not same_input(u):
            return False
        r = done[str(u.key)]
        return (u.options is None or not isinstance(r, dict) or r.get("options") == u.options
                or (u.settled is not None and bool(u.settled(r))))
    stale = [u.key for u in units if str(u.key) in done and not still_done(u)]
    if stale:
        out.forget([k for k in existing if str(k) in {str(s) for s in stale}])
    todo = [u for u in units if not still_done(u)]
    report = RunReport(total=len(units), skipped=len(units) - len(todo),
                       again=[u.key for u in todo if same_input(u)])
    if window is None:
        window = 8 * max(1, sum(client.nthreads().values()))
    finished = len(units) - len(todo)
    if progress:
        progress(finished, len(units))
    pending = iter(todo)
    owner = {}
    final = {str(u.key): done[str(u.key)] for u in units
             if u.settled is not None and still_done(u) and isinstance(done[str(u.key)], dict)}

    def submit(u: Unit):
        name = getattr(u.func, "__name__", "unit")
        fut = client.submit(u.func, *u.args, key=f"szsolver-{name}-{u.key}-"
                            f"{tokenize(u.func.__module__, name, u.args)}",
                            pure=True, retries=retries)
        owner[fut.key] = u
        return fut

    try:
        first = [submit(u) for _, u in zip(range(window), pending)]
        stream = as_completed(first)
        for fut in stream:
            u = owner.pop(fut.key)
            record = fut.result()
            if u.source is not None and isinstance(record, dict):
                record = {**record, "source_sha256": u.fingerprint}
            if u.options is not None and isinstance(record, dict):
                record = {**record, "options": u.options}
            if u.keep is not None and isinstance(record, dict) and same_input(u) \
                    and isinstance(done[str(u.key)], dict):
                chosen = u.keep(done[str(u.key)], record)
                if chosen is not record:
                    report.kept.append(u.key)
                record = chosen
            out.write(u.key, record)
            if u.settled is not None and isinstance(record, dict):
                final[str(u.key)] = record
            fut.release()
            report.computed.append(u.key)
            if isinstance(record, dict) and "error" in record:
                report.errors.append(u.key)
            finished += 1
            if progress:
                progress(finished, len(units))
            if on_result:
                on_result(u.key, record)
            nxt = next(pending, None)
            if nxt is not None:
                stream.add(submit(nxt))
        out.finish(keys)
        report.unsettled = [u.key for u in units if str(u.key) in final
                            and "error" not in final[str(u.key)]
                            and not u.settled(final[str(u.key)])]
    finally:
        out.close()
        report.seconds = time.perf_counter() - start
    return report
