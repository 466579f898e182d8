"""Request bodies: broken, stalled and over-long chunked bodies get the app's 4xx (in-process and
under gunicorn), and a GET of a chain at the explorer's own limit reaches the app."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import select
from webtest_support import csrf_token, register
from werkzeug.exceptions import RequestTimeout

from quizapp.engine import MAX_CHARS as EXPR_MAX
from quizapp.extensions import db
from quizapp.models import User
from quizapp.web.http.request_body import BODY_SECONDS, BROKEN_BODY, STALLED_BODY, GuardedBody

ROOT = Path(__file__).resolve().parents[3]


class BrokenStream(io.RawIOBase):
    """What gunicorn's chunked reader does with bad framing: raise its own error."""

    def readable(self) -> bool:
        return True

    def readinto(self, _buffer) -> int:
        raise RuntimeError("Invalid chunk size: 'zz'")  # stands in for gunicorn's errors

    def seek(self, _offset: int, _whence: int = 0) -> int:  # the test client measures it
        return 0

    def tell(self) -> int:
        return 0


def chunked(client, path: str, stream, content_type: str):
    return client.post(path, input_stream=stream, content_type=content_type,
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""})


def test_a_body_the_server_cannot_read_is_a_400_with_words(client):
    page = chunked(client, "/login", BrokenStream(), "application/x-www-form-urlencoded")
    assert page.status_code == 400 and "chunked framing is broken" in page.text
    api = chunked(client, "/api/explain", BrokenStream(), "application/json")
    assert api.status_code == 400 and api.json["error"] == BROKEN_BODY


def test_a_chunked_body_over_the_limit_is_refused_not_cut_short(app, client):
    """werkzeug cut a chunked body at 64 KiB and used the rest: a settings post whose fields
    came first was saved. Now the whole post is refused and the settings stay."""
    register(client, "pat")
    page = client.get("/settings").text
    form = (f"csrf_token={csrf_token(page)}&new_per_day=33&reviews_per_day=200&"
            f"desired_retention=0.9&time_zone=UTC&keyboard_shortcuts=y&pad=").encode()
    body = form + b"x" * (64 * 1024)
    refused = chunked(client, "/settings", io.BytesIO(body), "application/x-www-form-urlencoded")
    assert refused.status_code == 413 and "the limit is 64 KiB" in refused.text
    with app.app_context():
        assert db.session.scalar(select(User.new_per_day).where(User.username == "pat")) == 20
    api = chunked(client, "/api/explain", io.BytesIO(b'{"expr": "x"' + b" " * 70_000 + b"}"),
                  "application/json")
    assert api.status_code == 413 and "64 KiB" in api.json["error"]
    small = chunked(client, "/api/explain", io.BytesIO(b'{"expr": "torch.arange(6)"}'),
                    "application/json")
    assert small.status_code == 200 and small.json["error"] is None


class LoopingReader:
    """Reads as gunicorn's body reader does: recv again and again until it has ``size``."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def read(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                break
            data += chunk
        return data


def trickle(sock: socket.socket, every: float, count: int) -> threading.Thread:
    def send() -> None:
        for _ in range(count):
            time.sleep(every)
            try:
                sock.sendall(b"x")
            except OSError:
                return
    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def test_a_body_trickling_in_is_ended_at_its_deadline_with_a_408():
    """A byte every 0.2 s keeps each recv short, so only a deadline over the whole read ends
    it (a client doing this held a gunicorn thread for as long as it liked)."""
    server, client = socket.socketpair()
    server.settimeout(5)  # without the deadline the read would wait for its 1,000 bytes
    with server, client:
        trickle(client, 0.2, 20)
        started = time.monotonic()
        body = GuardedBody(LoopingReader(server), server, started + 0.6)
        with pytest.raises(RequestTimeout) as stalled:
            body.read(1000)
        assert stalled.value.description == STALLED_BODY
        assert 0.5 < time.monotonic() - started < 2.0
    with pytest.raises(RequestTimeout):  # past the deadline, no read is even tried
        GuardedBody(io.BytesIO(b"abc"), object(), time.monotonic() - 1).read(2)


def test_a_body_that_arrives_in_time_is_read_whole():
    server, client = socket.socketpair()
    with server, client:
        client.sendall(b"abc")
        assert GuardedBody(LoopingReader(server), server, time.monotonic() + 5).read(3) == b"abc"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def send_raw(port: int, request: bytes, wait: float = 15.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as conn:
        conn.sendall(request)
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith((b"}", b"</html>")):
            data = conn.recv(65536)
            if not data:
                break
            reply += data
        return reply


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """The app under gunicorn with the shipped settings (testing mode: no database needed)."""
    tmp = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "quizapp:create_app()"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(tmp / "error.log", "wb"),  # noqa: SIM115
        env={"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing", "HOME": str(tmp),
             "QUIZAPP_INSTANCE_PATH": str(tmp)})
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port, tmp / "error.log"
    server.terminate()
    server.wait(timeout=30)


def test_under_gunicorn_broken_chunks_are_a_400_without_a_traceback(gunicorn):
    port, error_log = gunicorn
    for path, kind in (("/login", "application/x-www-form-urlencoded"),
                       ("/api/explain", "application/json")):
        for framing in (b"zz\r\nabc\r\n0\r\n\r\n", b"2\r\nabcdef\r\n0\r\n\r\n"):
            reply = send_raw(port, (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
                "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode() + framing)
            assert reply.startswith(b"HTTP/1.1 400"), (path, framing, reply[:200])
            assert b"chunked framing is broken" in reply
    assert "Traceback" not in error_log.read_text()


def test_under_gunicorn_a_chain_at_the_limit_sent_by_get_reaches_the_app(gunicorn):
    port, _ = gunicorn
    chain = "torch.tensor([" + ",".join(["[0]"] * 600) + "])"
    chain = chain[: EXPR_MAX - 1] + "]"  # at the limit; every bracket and comma takes 3 bytes
    assert len(chain) == EXPR_MAX and len(quote(chain)) > 4094
    for path in ("/api/explain", "/explorer"):
        reply = send_raw(port, (f"GET {path}?expr={quote(chain)} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                "Connection: close\r\n\r\n").encode())
        assert not reply.startswith(b"HTTP/1.1 414"), reply[:200]
        assert reply.startswith((b"HTTP/1.1 200", b"HTTP/1.1 400", b"HTTP/1.1 422")), reply[:200]


def test_under_gunicorn_a_trickling_body_gets_a_408_and_the_server_answers_meanwhile(gunicorn):
    port, _ = gunicorn
    slow = socket.create_connection(("127.0.0.1", port), timeout=30)
    with slow:
        slow.sendall(b"POST /api/explain HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        sender = trickle(slow, 1.0, 25)
        started = time.monotonic()
        assert send_raw(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              b"Connection: close\r\n\r\n").startswith(b"HTTP/1.1")
        reply = slow.recv(4096)
        assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
        assert BODY_SECONDS - 1 < time.monotonic() - started < BODY_SECONDS + 5
        sender.join(timeout=30)
