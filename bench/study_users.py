"""Simulated users for bench/server.py: a cookie-keeping HTTP client and the study loop."""

from __future__ import annotations

import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection, RemoteDisconnected
from urllib.parse import urlencode

CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
TOKEN_RE = re.compile(r'id="token" name="token" type="hidden" value="([^"]+)"')
KIND_RE = re.compile(r'data-item-kind="(\w+)"')
ANSWER_KIND_RE = re.compile(r'data-answer-kind="(\w+)"')
# What a simulated user types for each answer kind: well-formed, so every answer is judged
# (right or wrong does not matter here); "text" answers are what tolist() prints.
TYPED = {"tuple": "(4, 1)", "int": "3", "bool": "yes", "choice": "A", "choices": "A",
         "text": "[[0, 1], [2, 3]]"}
PASSWORD = "bench password 123"


class Client:
    """One keep-alive connection with a cookie jar."""

    def __init__(self, port: int) -> None:
        self.conn = HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        except (RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closed this keep-alive connection while it sat idle (a long segment
            # of the other server): reconnect and send again, as browsers do.
            self.conn.close()
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        text = response.read().decode()
        remember_cookies(self.cookies, response.getheaders())
        return response.status, text


def remember_cookies(cookies: dict[str, str], headers: list[tuple[str, str]]) -> None:
    """Keep each Set-Cookie's name and value, as a browser's cookie jar would."""
    for header, value in headers:
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            cookies[name] = rest.split(";", 1)[0]


def read_study_page(page: str) -> tuple[str, dict[str, str], str | None] | None:
    """(item kind, the form fields to post back, the answer to type for a puzzle), or None when
    the page shows no item (the queue is empty)."""
    token, kind = TOKEN_RE.search(page), KIND_RE.search(page)
    if not token or not kind:
        return None
    form = {"csrf_token": CSRF_RE.search(page).group(1), "token": token.group(1)}
    answer = None
    if kind.group(1) == "skill":
        answer = TYPED.get(ANSWER_KIND_RE.search(page).group(1), "1")
    return kind.group(1), form, answer


def log_in(client: Client, n: int) -> float:
    start = time.perf_counter()
    _, page = client.request("GET", "/login")
    status, _ = client.request("POST", "/login", {
        "csrf_token": CSRF_RE.search(page).group(1), "username": f"bench{n}", "password": PASSWORD})
    assert status == 302, f"login failed for bench{n}: {status}"
    return time.perf_counter() - start


def run_user(client: Client, kind: str, n: int, deadline: float, think: float,
             max_loops: int, segment: int, loops_before: int, double_every: int = 10) -> dict:
    """One simulated user's loops until the deadline; returns latencies (s) and rating counts.

    ``loops_before`` counts the user's loops in earlier segments, so every ``double_every``th
    loop of the whole run (not of each segment) ends with a double click.
    """
    latencies: list[float] = []
    accepted = duplicates = 0
    # People are not in step: each user starts at a random point of a think period and
    # thinks 0.5x-1.5x the mean each time (seeded per user and segment, so runs repeat).
    rng = random.Random(n * 1000 + segment)
    if think:
        time.sleep(rng.uniform(0, think))

    def timed(method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        start = time.perf_counter()
        result = client.request(method, path, form)
        latencies.append(time.perf_counter() - start)
        if think:
            time.sleep(think * rng.uniform(0.5, 1.5))
        return result

    if kind in ("bare", "floor"):  # one request, again and again (no think time here)
        path = "/ping" if kind == "bare" else "/_floor"
        while time.monotonic() < deadline and len(latencies) < 3 * max_loops:
            status, _ = timed("GET", path)
            assert status == 200, f"GET {path}: {status}"
        return {"latencies": latencies, "accepted": 0, "duplicates": 0, "user": None, "loops": 0,
                "ran_dry": False}
    loops, ran_dry = 0, False
    while time.monotonic() < deadline and loops < max_loops:
        loops += 1
        status, page = timed("GET", "/study")
        shown = read_study_page(page) if status == 200 else None
        if shown is None:
            # Nothing left to study: the run measured empty pages from here on, so the empty
            # page is not counted and the report says the run is void (bench/server.py).
            latencies.pop()
            ran_dry = True
            break
        _kind, form, answer = shown
        if answer is not None:
            timed("POST", "/study/answer", {**form, "answer": answer, "hints_used": "0"})
            form["answer"] = answer
        status, _ = timed("POST", "/study/rate", {**form, "rating": "4"})
        if status == 303:
            accepted += 1
        if (loops_before + loops) % double_every == 0:  # a double click: must not count twice
            status, _ = timed("POST", "/study/rate", {**form, "rating": "4"})
            assert status == 303, f"double click got {status}"
            duplicates += 1
    return {"latencies": latencies, "accepted": accepted, "duplicates": duplicates,
            "user": f"bench{n}", "loops": loops, "ran_dry": ran_dry}


def run_process(ports: dict[str, int], users: list[int], schedule: list[tuple[str, float, float]],
                max_loops: int, barrier, results, double_every: int = 10) -> None:
    """Log every user in once, then run each segment of the schedule in step with the others.

    Every process (and the parent, which samples server CPU) meets at the barrier before each
    segment and once after the last, so segments of both servers alternate in time.
    """
    clients = {kind: {n: Client(port) for n in users} for kind, port in ports.items()}
    logins = {n: log_in(clients["app"][n], n) for n in users}
    if "floor" in clients:  # logged in there too; only the app's logins are reported
        for n in users:
            log_in(clients["floor"][n], n)
    segments, loops_done = [], dict.fromkeys(users, 0)
    for segment, (kind, duration, think) in enumerate(schedule):
        barrier.wait(timeout=600)
        started = time.monotonic()
        deadline = started + duration
        with ThreadPoolExecutor(max_workers=len(users)) as pool:
            futures = [pool.submit(run_user, clients[kind][n], kind, n, deadline, think, max_loops,
                                   segment, loops_done[n], double_every) for n in users]
            outcomes = [future.result() for future in futures]
        for n, outcome in zip(users, outcomes, strict=True):
            loops_done[n] += outcome["loops"]
        segments.append({"started": started, "ended": time.monotonic(), "outcomes": outcomes})
    barrier.wait(timeout=600)
    results.put({"logins": list(logins.values()), "segments": segments})
