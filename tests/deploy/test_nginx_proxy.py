"""deploy/nginx/nginx.conf run for real: Debian's nginx on loopback in front of gunicorn.

The slow-client attack (connections that send a request line, then one header every 2 s, more
of them than gunicorn has threads) stalls bare gunicorn, and leaves a normal request through
nginx answered within a second; nginx cuts the slow clients off at its header deadline. The
app behind it reads the client's address and scheme from the headers nginx sets
(QUIZAPP_PROXY_FIX_HOPS=1), never from the client's own.
Where nginx is not installed the tests skip, unless QUIZAPP_REQUIRE_NGINX=1 (set by .ci/run).
"""

from __future__ import annotations

import http.client
import os
import re
import select
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "nginx" / "nginx.conf"
THREADS = 2  # gunicorn: one worker with two threads
SLOW_CLIENTS = 8  # more than gunicorn has threads
HEADER_EVERY = 2.0  # seconds between two headers of a slow client
HEADER_DEADLINE = 10  # nginx's client_header_timeout in the config
CLIENT_ADDRESS = "127.0.0.3"  # the test's own source address, unlike nginx's 127.0.0.1
PROXY_ENV = {"QUIZAPP_ENV": "production", "QUIZAPP_PROXY_FIX_HOPS": "1",  # HTTPS: the default
             "QUIZAPP_SECRET_KEY": "k" * 40}


def find_nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found:
        return found
    message = "nginx not found: install Debian's nginx-light to run the proxy tests"
    if os.environ.get("QUIZAPP_REQUIRE_NGINX") == "1":
        pytest.fail(message + " (QUIZAPP_REQUIRE_NGINX=1)", pytrace=False)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def render_config(text: str, http_port: int, https_port: int, upstream: str) -> str:
    """The shipped file with its listen lines on loopback test ports and the upstream moved;
    each line must be there exactly once, so an edit of the file cannot go untested."""
    for line, replacement in (("listen 80;", f"listen 127.0.0.1:{http_port};"),
                              ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
                              ("server app:8000;", f"server {upstream};")):
        assert text.count(line) == 1, line
        text = text.replace(line, replacement)
    return text


def wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    for _ in range(300):
        assert process.poll() is None, log.read_text()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}: {log.read_text()}")


@dataclass
class Stack:
    gunicorn_port: int
    https_port: int
    http_port: int
    database: Path


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    nginx = find_nginx()
    # A folder other accounts may enter: as root, nginx's workers run as www-data.
    folder = Path(tempfile.mkdtemp(prefix="quizapp-nginx-"))
    folder.chmod(0o755)
    try:
        instance, prefix = folder / "instance", folder / "nginx"
        (prefix / "certs").mkdir(parents=True)
        env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(folder),
               "QUIZAPP_INSTANCE_PATH": str(instance), "GUNICORN_WORKERS": "1",
               "GUNICORN_THREADS": str(THREADS), **PROXY_ENV}
        subprocess.run([str(Path(sys.executable).parent / "quizapp"), "db", "upgrade",
                        "--directory", str(ROOT / "migrations")], env=env, cwd=folder,
                       check=True, capture_output=True, timeout=120)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
                        "/CN=localhost", "-keyout", str(prefix / "certs" / "privkey.pem"),
                        "-out", str(prefix / "certs" / "fullchain.pem")],
                       check=True, capture_output=True, timeout=60)
        gunicorn_port, http_port, https_port = free_port(), free_port(), free_port()
        gunicorn_log = folder / "gunicorn.log"
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
             "--bind", f"127.0.0.1:{gunicorn_port}", "quizapp:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=gunicorn_log.open("w"))
        try:
            wait_for_port(gunicorn_port, gunicorn, gunicorn_log)
            (prefix / "nginx.conf").write_text(render_config(
                CONFIG.read_text(), http_port, https_port, f"127.0.0.1:{gunicorn_port}"))
            nginx_log = folder / "nginx.log"
            proxy = subprocess.Popen(
                [nginx, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-e", "stderr",
                 "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=nginx_log.open("w"))
            try:
                wait_for_port(https_port, proxy, nginx_log)
                yield Stack(gunicorn_port, https_port, http_port, instance / "quizapp.db")
            finally:
                stop(proxy)
        finally:
            stop(gunicorn)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
    return context


def connect(port: int, tls: bool, timeout: float) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                    source_address=(CLIENT_ADDRESS, 0))
    return tls_context().wrap_socket(sock, server_hostname="localhost") if tls else sock


def open_slow_clients(port: int, tls: bool, opened: list[float] | None = None,
                      ) -> list[socket.socket]:
    """SLOW_CLIENTS connections, each having sent a request line and one header (when each
    was connected goes to ``opened``)."""
    clients = []
    for _ in range(SLOW_CLIENTS):
        if opened is not None:
            opened.append(time.monotonic())
        client = connect(port, tls, 5)
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        clients.append(client)
    return clients


def trickle(clients: list[socket.socket], until: float) -> dict[int, float]:
    """Send each open client another header every HEADER_EVERY seconds until ``until``; return
    when each one was closed by the server (time.monotonic()), by index."""
    closed: dict[int, float] = {}
    while len(closed) < len(clients) and time.monotonic() < until:
        for index, client in enumerate(clients):
            if index in closed:
                continue
            try:
                client.sendall(b"X-Slow: 1\r\n")
            except OSError:
                closed[index] = time.monotonic()
        waiting = [client for index, client in enumerate(clients) if index not in closed]
        readable, _, _ = select.select(waiting, [], [], HEADER_EVERY) if waiting else ([], [], [])
        for client in readable:
            client.setblocking(False)
            try:
                client.recv(4096)  # nginx closes without an answer, or sends one: either ends it
            except (ssl.SSLWantReadError, BlockingIOError):
                continue  # a TLS record with no data in it (a session ticket)
            except OSError:
                pass
            finally:
                client.settimeout(5)
            closed[clients.index(client)] = time.monotonic()
    return closed


def timed_request(port: int, tls: bool, timeout: float, path: str = "/healthz",
                  ) -> tuple[int | None, float]:
    """A normal GET: its status (None: no answer within ``timeout``) and the seconds it took."""
    start = time.monotonic()
    if tls:
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout,
                                           context=tls_context(), source_address=(CLIENT_ADDRESS, 0))
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                          source_address=(CLIENT_ADDRESS, 0))
    try:
        conn.request("GET", path, headers={"Host": "localhost"})
        status = conn.getresponse().status
    except TimeoutError:
        status = None
    finally:
        conn.close()
    return status, time.monotonic() - start


def close_all(clients: list[socket.socket]) -> None:
    for client in clients:
        client.close()


def wait_until_answered(port: int) -> None:
    for _ in range(50):
        if timed_request(port, False, 2)[0] == 200:
            return
    raise AssertionError("gunicorn did not recover after the slow clients left")


def test_slow_clients_stall_bare_gunicorn(stack):
    """What the proxy is for: without it the same attack takes every thread."""
    assert timed_request(stack.gunicorn_port, False, 5)[0] == 200
    clients = open_slow_clients(stack.gunicorn_port, tls=False)
    try:
        trickle(clients, time.monotonic() + HEADER_EVERY)
        status, _ = timed_request(stack.gunicorn_port, False, 3)
        assert status is None, "bare gunicorn answered during the attack: the test shows nothing"
    finally:
        close_all(clients)
    wait_until_answered(stack.gunicorn_port)


def test_behind_nginx_slow_clients_leave_a_normal_request_answered_at_once(stack):
    assert timed_request(stack.https_port, True, 5)[0] == 200
    opened: list[float] = []
    clients = open_slow_clients(stack.https_port, tls=True, opened=opened)
    try:
        closed_early = trickle(clients, time.monotonic() + HEADER_EVERY)
        assert not closed_early  # they are still trickling
        status, seconds = timed_request(stack.https_port, True, 5)
        assert status == 200 and seconds < 1.0, (status, seconds)
        # nginx drops each of them at its header deadline, however often they send a header.
        closed = trickle(clients, opened[-1] + HEADER_DEADLINE + 4)
        assert len(closed) == SLOW_CLIENTS, closed
        lived = [closed[index] - opened[index] for index in range(SLOW_CLIENTS)]
        assert all(HEADER_DEADLINE - 1 < seconds < HEADER_DEADLINE + 3 for seconds in lived), lived
    finally:
        close_all(clients)


def test_the_app_sees_the_client_address_and_https_from_nginx_only(stack):
    """A failed login through nginx is counted against the client's address (127.0.0.3, not
    the one it sent in X-Forwarded-For, nor nginx's own 127.0.0.1), and the app knows the
    request came over HTTPS: Flask-WTF's strict referrer check applies (only to HTTPS)."""
    def post_login(referrer: str) -> tuple[int, str]:
        conn = http.client.HTTPSConnection("127.0.0.1", stack.https_port, timeout=10,
                                           context=tls_context(), source_address=(CLIENT_ADDRESS, 0))
        try:
            spoof = {"Host": f"localhost:{stack.https_port}", "X-Forwarded-For": "203.0.113.9",
                     "X-Forwarded-Proto": "http"}
            conn.request("GET", "/login", headers=spoof)
            page = conn.getresponse()
            cookie = page.getheader("Set-Cookie").split(";", 1)[0]
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                              page.read().decode()).group(1)
            body = f"csrf_token={token}&username=nobody&password=wrong-password"
            conn.request("POST", "/login", body=body, headers={
                **spoof, "Cookie": cookie, "Referer": referrer,
                "Content-Type": "application/x-www-form-urlencoded"})
            answer = conn.getresponse()
            return answer.status, answer.read().decode()
        finally:
            conn.close()

    status, page = post_login(f"http://localhost:{stack.https_port}/login")
    assert status == 400, page  # the CSRF check's: the referrer is not this HTTPS origin
    status, _ = post_login(f"https://localhost:{stack.https_port}/login")
    assert status == 401
    with sqlite3.connect(stack.database) as conn:
        addresses = [row[0] for row in conn.execute("SELECT address FROM login_attempt")]
    assert addresses == [CLIENT_ADDRESS]


def test_plain_http_leads_to_https(stack):
    conn = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=5)
    try:
        conn.request("GET", "/questions?level=junior", headers={"Host": "quiz.example.org"})
        answer = conn.getresponse()
        assert (answer.status, answer.getheader("Location")) == (
            301, "https://quiz.example.org/questions?level=junior")
    finally:
        conn.close()


def test_compose_puts_the_tested_config_in_front_of_an_unpublished_app():
    import yaml

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app, proxy = compose["services"]["app"], compose["services"]["proxy"]
    assert app["environment"]["QUIZAPP_PROXY_FIX_HOPS"] == "1"
    assert "ports" not in app and app["expose"] == ["8000"]  # only nginx reaches gunicorn
    assert "server app:8000;" in CONFIG.read_text()  # compose's service name and the image's port
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    nginx_image = (ROOT / proxy["build"] / "Dockerfile").read_text()
    assert "COPY nginx.conf /etc/nginx/quizapp.conf" in nginx_image
    assert '"-p", "/var/lib/nginx/", "-c", "/etc/nginx/quizapp.conf"' in nginx_image
    # The config's certs/ under that prefix is where compose mounts the certificates.
    assert "./deploy/certs:/var/lib/nginx/certs:ro" in proxy["volumes"]
    assert "ssl_certificate certs/fullchain.pem;" in CONFIG.read_text()
