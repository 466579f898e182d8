"""Benchmark: where the time of a study request goes, as ratios against a bare Flask endpoint.

Every request calls an app's WSGI callable directly with a hand-built environ (no server, no
socket, no test client, whose own overhead would blur the figures), all in this one process: the
study loop (GET /study, POST /study/answer, POST /study/rate), the app's framework floor (an
anonymous and a logged-in no-op route, added to this app object only), /healthz, and /ping on a
bare Flask app. Machines here are noisy, so each kind is reported as its median and p90 and as a
ratio to the bare /ping median measured in the same run, interleaved with the study requests.
"""

from __future__ import annotations

import argparse
import io
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from flask import Flask
from flask_login import current_user, login_required
from server import prepare_database
from sqlalchemy import select
from study_users import log_in, read_study_page, remember_cookies

ROOT = Path(__file__).resolve().parents[1]
PING, FLOOR = "GET /ping (bare Flask)", "GET /_cost/logged-in"
STUDY_KINDS = ("GET /study (card)", "GET /study (skill)", "POST /study/answer",
               "POST /study/answer 422", "POST /study/rate")
Times = dict[str, list[float]]


class WsgiClient:
    """Calls a WSGI callable directly and keeps the cookies it sets, as a browser would."""

    def __init__(self, app: Callable) -> None:
        self.app = app
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str,
                form: dict[str, str] | None = None) -> tuple[int, str]:
        body = urlencode(form).encode() if form is not None else b""
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
            "wsgi.run_once": False}
        if form is not None:
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
            environ["CONTENT_LENGTH"] = str(len(body))
        started: dict = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None) -> None:
            started["status"], started["headers"] = int(status[:3]), headers

        chunks = self.app(environ, start_response)
        text = b"".join(chunks).decode()
        getattr(chunks, "close", lambda: None)()  # as a WSGI server must
        remember_cookies(self.cookies, started["headers"])
        return started["status"], text


def timed(times: Times | None, client: WsgiClient, method: str, path: str,
          form: dict[str, str] | None = None, expect: tuple[int, ...] = (200,),
          kind: str | None = None) -> str:
    """One request, timed as ``kind`` ("METHOD path", plus the status if not ``expect[0]``)."""
    kind = kind or f"{method} {path}"
    start = time.perf_counter()
    status, text = client.request(method, path, form)
    elapsed = time.perf_counter() - start
    assert status in expect, f"{method} {path}: {status}, expected {expect}"
    if times is not None:
        times.setdefault(kind if status == expect[0] else f"{kind} {status}", []).append(elapsed)
    return text


def study_loop(client: WsgiClient, ping: WsgiClient, times: Times | None) -> bool:
    """Fetch -> (answer) -> rate, then one of each reference request; False if the queue is dry."""
    scratch: Times = {}
    shown = read_study_page(timed(scratch, client, "GET", "/study"))
    if shown is None:
        return False
    kind, form, answer = shown
    if times is not None:
        times.setdefault(f"GET /study ({kind})", []).extend(scratch["GET /study"])
    if answer is not None:
        # 422 (timed apart) would mean the typed answer did not parse and the page came back.
        timed(times, client, "POST", "/study/answer",
              {**form, "answer": answer, "hints_used": "0"}, expect=(200, 422))
        form["answer"] = answer
    timed(times, client, "POST", "/study/rate", {**form, "rating": "4"}, expect=(303,))
    timed(times, ping, "GET", "/ping", kind=PING)
    for path in ("/_cost/anonymous", "/_cost/logged-in", "/healthz"):
        timed(times, client, "GET", path)
    return True


def run_loops(clients: list[WsgiClient], active: list[int], ping: WsgiClient, loops: int,
              times: Times | None) -> int:
    """Round-robin over the active users; a user whose queue runs dry leaves ``active``."""
    done = 0
    while done < loops and active:
        user = active[done % len(active)]
        if study_loop(clients[user], ping, times):
            done += 1
        else:
            active.remove(user)
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--loops", type=int, default=1500)
    parser.add_argument("--warmup", type=int, default=200, help="untimed loops before measuring")
    args = parser.parse_args()
    instance = tempfile.mkdtemp(prefix="quizapp-costs-")
    try:
        prepare_database({"QUIZAPP_ENV": "production", "QUIZAPP_SECRET_KEY": secrets.token_hex(32),
                          "QUIZAPP_INSTANCE_PATH": instance,
                          "QUIZAPP_CONTENT_PATH": str(ROOT / "content"),
                          # scripted users rate faster than a person may; the check still runs
                          "QUIZAPP_RATING_LIMIT_PER_MINUTE": "100000",
                          "QUIZAPP_RATING_LIMIT_PER_HOUR": "1000000"}, args.users)
        from quizapp import create_app
        from quizapp.extensions import db
        from quizapp.models import Card
        from quizapp.web.rendering.fragments import render_card_answer

        app, bare = create_app(), Flask("bare")
        # Diagnostic routes on this app object only, before its first request.
        app.add_url_rule("/_cost/anonymous", "cost_anonymous", lambda: "ok")
        app.add_url_rule("/_cost/logged-in", "cost_logged_in",
                         login_required(lambda: str(current_user.id)))
        bare.add_url_rule("/ping", "ping", lambda: "ok")
        clients, ping = [WsgiClient(app) for _ in range(args.users)], WsgiClient(bare)
        for n, client in enumerate(clients):  # through the real login form
            log_in(client, n)
        active = list(range(args.users))
        run_loops(clients, active, ping, args.warmup, None)
        with app.test_request_context():  # fill the per-process card answer cache
            for card in db.session.scalars(select(Card)):
                render_card_answer(card)
        times: Times = {}
        done = run_loops(clients, active, ping, args.loops, times)
        with app.app_context():
            db.engine.dispose()  # close SQLite before its directory goes
    finally:
        shutil.rmtree(instance, ignore_errors=True)

    print(f"{done} of {args.loops} study loops over {args.users} users ({args.users - len(active)} "
          f"ran dry); {args.warmup} untimed warm-up loops before")
    if not done:
        sys.exit("nothing measured: every queue ran dry")
    base = statistics.median(times[PING])
    print(f"{'kind':<24} {'n':>6} {'median µs':>10} {'p90 µs':>9} {'/ bare ping':>12}")
    for kind in (*STUDY_KINDS, PING, "GET /_cost/anonymous", FLOOR, "GET /healthz"):
        if values := times.get(kind):
            median, p90 = statistics.median(values), sorted(values)[int(0.9 * (len(values) - 1))]
            print(f"{kind:<24} {len(values):>6} {median * 1e6:>10.0f} {p90 * 1e6:>9.0f} "
                  f"{median / base:>11.1f}x")
    study = [times[kind] for kind in STUDY_KINDS if kind in times]
    count = sum(len(values) for values in study)
    mean = sum(len(values) * statistics.median(values) for values in study) / count
    plain = sum(sum(values) for values in study) / count
    print(f"study-loop request (study+answer+rate; kind medians weighted by counts, n={count}): "
          f"{mean * 1e6:.0f} µs = {mean / base:.1f}x bare ping (plain mean {plain * 1e6:.0f} µs)")
    print(f"framework floor (logged-in no-op median / study-loop request): "
          f"{statistics.median(times[FLOOR]) / mean:.0%}")


if __name__ == "__main__":
    main()
