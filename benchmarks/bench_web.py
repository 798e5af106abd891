"""Load test of ``szsolver serve`` on 127.0.0.1: many puzzle loads at once, then
solver requests at once while light requests keep being timed.

    python3 benchmarks/bench_web.py [--loads 200] [--solves 20] [--jobs 2]
    python3 benchmarks/bench_web.py --phase mixed [--seconds 40] [--cheap 8] [--analysts 3] [--hangups 2]

It starts the server itself on a free loopback port, sends a fixed number of
requests (nothing else, nowhere else), stops the server and prints, per phase, the
answers by status and the p50 / p99 / max latency. Bounded: every request has a
timeout and the whole run stops after --deadline seconds.

1. ``--loads`` concurrent puzzle loads: the page ``/puzzle/ID`` and the JSON
   ``/api/puzzles/ID`` alternately, over the published collection (after one
   warm-up load of each ID, as a running server would have them).
2. ``--solves`` concurrent ``POST /api/solve`` (all turns, 5 s limit) on late
   positions of the rulebook game (4 to 7 turns left), while a probe loads a puzzle
   every 100 ms: the probe's latencies show whether the server keeps answering.
3. ``--phase mixed`` (or ``all``): for ``--seconds``, at once, ``--cheap`` clients
   each loading a puzzle's JSON and scoring a position in turn, ``--analysts``
   clients each asking the solver for the value of every turn (2 s limit) again
   and again, and ``--hangups`` clients each sending a 10 s solve of an opening
   position and hanging up after 0.5 s, again and again. It prints the cheap
   requests' latencies, the analysts' answers by status, the jobs cancelled after
   a hang-up (from ``/api/health``), and the resident memory of the server and its
   job processes before and after, with the load average.

The client is a few lines of asyncio (one connection per request, as 200 separate
visitors would open): a full HTTP client library spends more CPU per request than
the server does, and on a 2-core machine it would measure itself. The server's CPU
time per request (from /proc, Linux) is printed as well.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time

import json
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def cpu_seconds(pid) -> float:
    """User + system CPU seconds of process ``pid`` (Linux /proc; NaN elsewhere)."""
    import os
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def rss_kib(pid) -> int:
    """Resident memory (KiB) of process ``pid`` and its descendants (Linux /proc)."""
    import os
    kids: dict = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += kids.get(p, [])
        try:
            with open(f"/proc/{p}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration, ValueError):
            pass
    return total


def health(host, port) -> dict:
    with urllib.request.urlopen(f"http://{host}:{port}/api/health", timeout=10) as r:
        return json.load(r)["jobs"]


def report(name, results):
    lat = [t for _s, t in results]
    by = {}
    for s, _t in results:
        by[s] = by.get(s, 0) + 1
    print(f"{name}: {len(results)} requests, status {dict(sorted(by.items(), key=str))}; latency "
          f"p50 {statistics.median(lat) * 1000:.0f} ms, p99 {pct(lat, 0.99) * 1000:.0f} ms, "
          f"max {max(lat) * 1000:.0f} ms")


async def timed(host, port, method, path, body=None, timeout=300.0):
    """(status, seconds) of one request on its own connection; the status is the name
    of the error when there is no answer."""
    t = time.perf_counter()
    try:
        async def go():
            reader, writer = await asyncio.open_connection(host, port)
            data = b"" if body is None else json.dumps(body).encode()
            head = (f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
            writer.write(head.encode() + data)
            answer = await reader.read()
            writer.close()
            return int(answer.split(b" ", 2)[1])
        status = await asyncio.wait_for(go(), timeout)
    except (OSError, asyncio.TimeoutError, ValueError, IndexError) as e:
        status = type(e).__name__
    return status, time.perf_counter() - t


async def hang_up(host, port, path, body, after):
    """Send a request, then close the connection after ``after`` seconds unanswered."""
    reader, writer = await asyncio.open_connection(host, port)
    data = json.dumps(body).encode()
    writer.write((f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(data)}\r\n\r\n").encode() + data)
    await asyncio.sleep(after)
    writer.close()


async def mixed(host, port, seconds, cheap, analysts, hangups, server_pid):
    """Phase 3 (see the module doc)."""
    from szsolver.formats.notation import position_string
    from szsolver.formats.record import example_game
    from szsolver.starmaps.generate import collection_index
    ids = sorted(collection_index())
    game = example_game()
    late = [position_string(p) for p in game.positions[-8:-4]]
    opening = "../....../......./...R..../....N..../....N.../......./....../.. B 4 5 basic"
    before, rss_before, load = health(host, port), rss_kib(server_pid), os.getloadavg()
    end = time.perf_counter() + seconds
    light, heavy, sent_hangups = [], [], [0]

    async def cheap_client(k):
        while time.perf_counter() < end:
            light.append(await timed(host, port, "GET", f"/api/puzzles/{ids[k % len(ids)]}", timeout=30))
            light.append(await timed(host, port, "POST", "/api/score", {"position": late[k % len(late)]},
                                     timeout=30))
            k += 1

    async def analyst(k):
        while time.perf_counter() < end:
            heavy.append(await timed(host, port, "POST", "/api/solve", {
                "position": late[k % len(late)], "all_turns": True, "time_limit": 2}, timeout=60))
            k += 1

    async def hanger():
        while time.perf_counter() < end:
            await hang_up(host, port, "/api/solve", {"position": opening, "time_limit": 10}, 0.5)
            sent_hangups[0] += 1
    await asyncio.gather(*(cheap_client(k) for k in range(cheap)), *(analyst(k) for k in range(analysts)),
                         *(hanger() for _ in range(hangups)))
    await asyncio.sleep(1.0)                 # the last hang-ups are noticed
    after, rss_after = health(host, port), rss_kib(server_pid)
    load_after = os.getloadavg()
    print(f"mixed load, {seconds:g} s: {cheap} cheap clients, {analysts} analysts, {hangups} clients "
          f"hanging up (load average before {load[0]:.2f}, after {load_after[0]:.2f})")
    report("  cheap requests (puzzle JSON, score)", light)
    report("  solver requests (all turns, 2 s)", heavy)
    cancelled = after["cancelled"] - before["cancelled"]
    print(f"  hung-up solves sent {sent_hangups[0]}, jobs cancelled {cancelled}, jobs still running "
          f"{after['running']}, waiting {after['waiting']}, refused busy "
          f"{after['busy'] - before['busy']}")
    print(f"  RSS of the server and its job processes: {rss_before / 1024:.0f} MiB before, "
          f"{rss_after / 1024:.0f} MiB after")


async def run(host, port, loads, solves, server_pid):
    from szsolver.formats.notation import position_string
    from szsolver.formats.record import example_game
    from szsolver.starmaps.generate import collection_index
    ids = sorted(collection_index())
    for pid in ids:                                   # warm-up: one load of each
        await timed(host, port, "GET", f"/puzzle/{pid}")
    paths = [(f"/puzzle/{ids[i % len(ids)]}" if i % 2 else f"/api/puzzles/{ids[i % len(ids)]}")
             for i in range(loads)]
    t, cpu = time.perf_counter(), cpu_seconds(server_pid)
    res = await asyncio.gather(*(timed(host, port, "GET", p) for p in paths))
    wall = time.perf_counter() - t
    cpu = cpu_seconds(server_pid) - cpu
    report(f"{loads} concurrent puzzle loads ({wall:.2f} s in all)", res)
    print(f"  server CPU: {cpu * 1000 / loads:.1f} ms per load")

    game = example_game()
    positions = [position_string(p) for p in game.positions[-8:-4]]   # 7..4 turns left
    stop = asyncio.Event()
    probes = []

    async def probe():
        k = 0
        while not stop.is_set():
            probes.append(await timed(host, port, "GET", f"/api/puzzles/{ids[k % len(ids)]}"))
            k += 1
            await asyncio.sleep(0.1)
    probe_task = asyncio.create_task(probe())
    t = time.perf_counter()
    res = await asyncio.gather(*(timed(host, port, "POST", "/api/solve", {
        "position": positions[i % len(positions)], "all_turns": True, "time_limit": 5})
        for i in range(solves)))
    wall = time.perf_counter() - t
    stop.set()
    await probe_task
    report(f"{solves} concurrent solver requests ({wall:.1f} s in all)", res)
    report("  puzzle loads meanwhile (one every 100 ms)", probes)
    with urllib.request.urlopen(f"http://{host}:{port}/api/health", timeout=10) as r:
        print(f"jobs: {json.load(r)['jobs']}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=200)
    ap.add_argument("--solves", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2, help="the server's --jobs")
    ap.add_argument("--deadline", type=float, default=600, help="stop after this many seconds")
    ap.add_argument("--phase", choices=("all", "bursts", "mixed"), default="all",
                    help="bursts: phases 1 and 2; mixed: phase 3")
    ap.add_argument("--seconds", type=float, default=40, help="length of the mixed phase")
    ap.add_argument("--cheap", type=int, default=8, help="cheap clients in the mixed phase")
    ap.add_argument("--analysts", type=int, default=3, help="solver clients in the mixed phase")
    ap.add_argument("--hangups", type=int, default=2, help="clients that hang up, mixed phase")
    a = ap.parse_args(argv)
    host, port = "127.0.0.1", free_port()
    base = f"http://{host}:{port}"
    server = subprocess.Popen([sys.executable, "-m", "szsolver", "serve", "--port", str(port),
                               "--jobs", str(a.jobs)], stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        time.sleep(2)                      # let its start-up work (today's puzzle) settle
        async def phases():
            if a.phase in ("all", "bursts"):
                await run(host, port, a.loads, a.solves, server.pid)
            if a.phase in ("all", "mixed"):
                await mixed(host, port, a.seconds, a.cheap, a.analysts, a.hangups, server.pid)
        asyncio.run(asyncio.wait_for(phases(), a.deadline))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
