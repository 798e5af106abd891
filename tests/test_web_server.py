"""``szsolver serve`` as a real process on 127.0.0.1 (uvicorn, the job processes):
what only a real server and real connections show. A client that hangs up has its
analysis stopped, another website's requests are refused on the wire, and the
server leaves no temporary folder behind when it stops.
"""
import json
import os
import signal
import socket
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web extras are not installed")
pytest.importorskip("uvicorn", reason="the web extras are not installed")

# one worker of a parallel run (-n, --dist loadgroup) runs them all: one server
pytestmark = pytest.mark.xdist_group("web server")


@pytest.fixture(scope="module")
def server(start_server, tmp_path_factory):
    """(base address, process, its TMPDIR)."""
    tmp = tmp_path_factory.mktemp("tmpdir")
    proc, base = start_server("--jobs", "1", env={"TMPDIR": str(tmp)})
    yield base, proc, tmp
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def health(base) -> dict:
    with urllib.request.urlopen(base + "/api/health", timeout=10) as r:
        return json.load(r)["jobs"]


def wait_for(check, seconds=30.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    return check()


def raw_post(base, path, body: bytes, headers=()) -> socket.socket:
    """A POST sent on a connection of its own, left open; the socket."""
    host, port = base.rsplit("/", 1)[1].split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    head = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}", "Content-Type: application/json",
            f"Content-Length: {len(body)}", *headers]
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    return sock


def test_an_annotation_whose_client_hangs_up_is_stopped(server):
    """The whole example game to annotate (most of a minute of work), its client gone
    once it runs: the job is cancelled, its process gone, nothing keeps running."""
    base, _proc, _tmp = server
    def idle():                          # today's puzzle (made at start-up) done, nothing else
        h = health(base)
        return h if h["started"] >= 1 and h["running"] == h["waiting"] == 0 else None
    before = wait_for(idle, 90)
    sock = raw_post(base, "/api/annotate", json.dumps({"example": True}).encode())
    assert wait_for(lambda: health(base)["running"] == 1), health(base)
    sock.close()
    after = wait_for(idle)
    assert after is not None, health(base)
    assert after["cancelled"] == before["cancelled"] + 1 and after["done"] == before["done"]
    assert after["waiting"] == 0


def test_another_websites_requests_are_refused(server):
    """As a browser would send them from another page: a text/plain post (no preflight)
    and a page name pointed at 127.0.0.1 (DNS rebinding)."""
    base, _proc, _tmp = server
    body = json.dumps({"position": "x"}).encode()
    req = urllib.request.Request(base + "/api/solve", body, {"Content-Type": "text/plain"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 415
    req = urllib.request.Request(base + "/api/solve", body, {"Content-Type": "application/json",
                                                             "Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 403
    req = urllib.request.Request(base + "/", headers={"Host": "evil.example:" + base.rsplit(":", 1)[1]})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 421


def test_stopping_removes_the_temporary_folder(server):
    """multiprocessing keeps the forkserver's socket in a folder of its own under
    TMPDIR; the server removes it as it ends (its fast exit skips multiprocessing's
    own clean-up)."""
    _base, proc, tmp = server
    assert [p.name for p in tmp.iterdir() if p.name.startswith("pymp-")]   # while it runs
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(30)
    assert proc.returncode == 130
    assert list(tmp.iterdir()) == []


def test_sigterm_removes_the_temporary_folder_too(start_server, tmp_path):
    """SIGTERM (kill, a service manager) stops the server as Ctrl-C does, its temporary
    folder removed (uvicorn raises the signal again after its shutdown, which ended the
    process before the clean-up); the process still ends as SIGTERM's."""
    proc, _base = start_server("--jobs", "1", env={"TMPDIR": str(tmp_path)})
    try:
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("pymp-")]
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == -signal.SIGTERM
    assert list(tmp_path.iterdir()) == []


def test_port_0_serves_on_the_port_it_prints():
    """--port 0 lets the system pick a free port; the address printed is the one
    served, and the server's own pages are same-origin there (it printed port 0)."""
    import re
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "szsolver", "serve", "--port", "0",
                             "--jobs", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True, text=True)
    try:
        line = proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m and int(m.group(1)) > 0, line
        base = f"http://127.0.0.1:{m.group(1)}"
        assert wait_for(lambda: _answers(base), 60)
        req = urllib.request.Request(base + "/api/score", data=json.dumps(
            {"position": "../....../......./......../....N..../......../......./....../.. R 5 5 basic"}
        ).encode(), headers={"Content-Type": "application/json", "Origin": base})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert json.load(r)["red"]["score"] == 0
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(30)


def _answers(base) -> bool:
    try:
        health(base)
        return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False
