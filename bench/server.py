"""Benchmark: the study loop under gunicorn beside a bare Flask endpoint served the same way.

Two phases on loopback, both servers (same gunicorn settings) in the same run:
  throughput  N users, no think time: requests/s and p50/p99 latency at saturation;
  paced       N users who think between requests (as people do): p50/p99/max at a realistic load.
Each phase alternates the two servers in short segments (bare, app, app, bare, ...), so load
from elsewhere on the machine falls on both alike; server CPU per request is printed as well,
and the share of the machine's CPU its hypervisor took for others in each phase (steal).
Simulated users log in once (scrypt; timed and reported on their own, before any segment), then
loop: fetch the next item -> answer (puzzles) -> rate. Every 10th rating (--double-click-every) is
sent twice (a double click); that request is served, so it is timed and counted like the others.
At the end the reviews in the database must equal the ratings the server accepted: none lost,
none doubled.
No warm-up is excluded: the first segment starts on cold workers.
The p99 target (50 ms at 50 users) is read on the paced phase; a closed loop without think time
measures queueing (latency ~ users / throughput), for the bare endpoint as for the app.
A third server, the app plus one logged-in route that does nothing, runs in the throughput phase
(--no-floor skips it): its ratio to the bare endpoint is the ceiling for any logged-in page of this
stack (session cookie, Flask-Login's user row, the SQLAlchemy session), before the page's own work.
Last line: the throughput ratio. Bounded: each segment stops after its share of the duration or
--max-loops loops per user; everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path

from flask import Flask
from study_users import PASSWORD, run_process

ROOT = Path(__file__).resolve().parents[1]
bare_app = Flask("bare")  # gunicorn serves this as "server:bare_app"


@bare_app.get("/ping")
def ping() -> str:
    return "ok"


def floor_app():
    """The app with one more route, logged in and doing nothing (gunicorn: "server:floor_app()")."""
    from flask_login import current_user, login_required

    from quizapp import create_app

    app = create_app()
    app.add_url_rule("/_floor", "bench_floor", login_required(lambda: current_user.username))
    return app


def load_average() -> str:
    """Other work on the machine skews every figure; the report says how busy it was."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare_database(env: dict[str, str], users: int) -> None:
    """Migrate, load the real bank and skills, create the users (in this process, before timing)."""
    os.environ.update(env)
    from flask_migrate import upgrade

    from quizapp import create_app, puzzles
    from quizapp.content import load_cards, load_concepts
    from quizapp.extensions import db
    from quizapp.services.accounts import register
    from quizapp.services.bank_import import load_bank

    app = create_app()
    now = datetime.now(UTC)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        content = ROOT / "content"
        load_bank(db.session, load_cards(content), load_concepts(content), puzzles.families(), now)
        for n in range(users):
            user = register(db.session, f"bench{n}", PASSWORD, now,
                            hash_method=app.config["PASSWORD_HASH_METHOD"])
            user.new_per_day = 10_000
            db.session.commit()
        db.engine.dispose()


def count_reviews(env: dict[str, str]) -> dict[str, int]:
    """Reviews stored per user, and how many (user, item, version) were stored twice."""
    from sqlalchemy import create_engine, func, select

    from quizapp.models import Review, User

    url = env.get("QUIZAPP_DATABASE_URL") or (
        f"sqlite:///{Path(env['QUIZAPP_INSTANCE_PATH']) / 'quizapp.db'}")
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(User.username, func.count(Review.id))
                                .outerjoin(Review, Review.user_id == User.id)
                                .group_by(User.username)).all()
            twice = (select(Review.user_id).group_by(Review.user_id, Review.item_id,
                                                     Review.version_after)
                     .having(func.count() > 1).subquery())
            doubled = conn.execute(select(func.count()).select_from(twice)).scalar_one()
    finally:
        engine.dispose()
    counts = dict(rows)
    counts["<doubled>"] = doubled
    return counts


def start_gunicorn(target: str, env: dict[str, str], workers: int, threads: int,
                   ready_path: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    # Both servers get the app's production settings (quizapp/gunicorn_config.py: the gthread
    # worker); the flags below override its worker and thread counts.
    command = [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
               "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--threads", str(threads),
               "--chdir", str(ROOT / "bench"), "--log-level", "warning", "--keep-alive", "30",
               "--no-control-socket", target]
    proc = subprocess.Popen(command, env={**os.environ, **env})
    deadline = time.monotonic() + 120  # a busy machine starts workers slowly
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{ready_path}", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{target} did not start")


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU of a gunicorn master and its workers (Linux /proc; 0 elsewhere)."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for process in [pid, *map(int, children)]:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return 0.0
    return total


def machine_cpu_ticks() -> tuple[int, int]:
    """All CPU ticks of the machine so far and those stolen by the hypervisor (/proc/stat's
    first line: user, nice, system, idle, iowait, irq, softirq, steal; (0, 0) elsewhere)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return 0, 0
    return sum(fields), fields[7] if len(fields) == 8 else 0


def run_schedule(ports: dict[str, int], pids: dict[str, int], users: int,
                 schedule: list[tuple[str, float, float]], max_loops: int,
                 processes: int, double_every: int = 10
                 ) -> tuple[list[dict], list[float], list[float]]:
    """Run the schedule with N users over client processes; per segment: outcomes and CPU."""
    context = get_context("fork")
    slices = [s for s in (list(range(i, users, processes)) for i in range(processes)) if s]
    barrier, results = context.Barrier(len(slices) + 1), context.Queue()
    workers = [context.Process(target=run_process, args=(
        ports, s, schedule, max_loops, barrier, results, double_every)) for s in slices]
    for worker in workers:
        worker.start()
    # The barrier opens once before each segment and once after the last: sampling both servers
    # there gives each segment's server CPU (the idle server's share is ~0).
    snapshots, ticks = [], []
    for _ in range(len(schedule) + 1):
        barrier.wait(timeout=600)
        snapshots.append({kind: server_cpu_seconds(pid) for kind, pid in pids.items()})
        ticks.append(machine_cpu_ticks())
    cpu = [snapshots[i + 1][kind] - snapshots[i][kind] for i, (kind, _, _) in enumerate(schedule)]
    parts = [results.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    segments = []
    for index in range(len(schedule)):
        pieces = [p["segments"][index] for p in parts]
        segments.append({
            "elapsed": max(p["ended"] for p in pieces) - min(p["started"] for p in pieces),
            "outcomes": [o for p in pieces for o in p["outcomes"]],
            "ticks": tuple(b - a for a, b in zip(ticks[index], ticks[index + 1], strict=True))})
    logins = sorted(x for p in parts for x in p["logins"])
    return segments, cpu, logins


def summarize(segments: list[dict], cpu: list[float]) -> dict:
    """One figure set over several segments of the same kind (their times and requests add)."""
    elapsed = sum(s["elapsed"] for s in segments)
    latencies = sorted(x for s in segments for o in s["outcomes"] for x in o["latencies"])
    count = len(latencies)
    return {"rps": count / elapsed, "count": count,
            "p50": latencies[count // 2] * 1000 if latencies else 0.0,
            "p99": latencies[int(count * 0.99)] * 1000 if latencies else 0.0,
            "max": latencies[-1] * 1000 if latencies else 0.0,
            "cpu_ms": 1000 * sum(cpu) / count if count else 0.0,
            "results": [o for s in segments for o in s["outcomes"]]}


def print_stats(label: str, stats: dict) -> None:
    print(f"{label:<36} {stats['rps']:8.1f} req/s   p50 {stats['p50']:6.1f} ms   "
          f"p99 {stats['p99']:6.1f} ms   max {stats['max']:6.1f} ms   "
          f"server CPU {stats['cpu_ms']:5.2f} ms/req   "
          f"({stats['count']} requests)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=float, default=12.0,
                        help="seconds of the throughput phase, per server")
    parser.add_argument("--paced-duration", type=float, default=20.0,
                        help="seconds of the paced phase per server (~1000 latencies for a p99)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="each phase alternates the servers this many times (ABBA order), "
                             "so a change in background load hits both alike")
    parser.add_argument("--think-ms", type=float, default=1000.0, help="pause in the paced phase")
    parser.add_argument("--max-loops", type=int, default=300)
    parser.add_argument("--double-click-every", type=lambda text: max(1, int(text)), default=10,
                        metavar="N",
                        help="every Nth rating of a user is sent twice (1: every one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--database-url", help="an empty database to use instead of a new SQLite "
                        "file, e.g. postgresql+psycopg://user@host/db (migrated by the run)")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip the logged-in no-op server (the framework's ceiling)")
    args = parser.parse_args()
    instance = tempfile.mkdtemp(prefix="quizapp-bench-")
    # Production settings on loopback: the simulated clients speak plain HTTP, so the Secure
    # cookies and HSTS that production has by default are turned off as for a loopback server.
    env = {"QUIZAPP_ENV": "production", "QUIZAPP_HTTPS": "0",
           "QUIZAPP_SECRET_KEY": secrets.token_hex(32), "QUIZAPP_INSTANCE_PATH": instance, "QUIZAPP_CONTENT_PATH": str(ROOT / "content"),
           # Simulated users rate faster than a person may (services/rating_limits.py); the
           # check still runs on every rating, so its cost is measured.
           "QUIZAPP_RATING_LIMIT_PER_MINUTE": "100000", "QUIZAPP_RATING_LIMIT_PER_HOUR": "1000000"}
    if args.database_url:
        env["QUIZAPP_DATABASE_URL"] = args.database_url
    prepare_database(env, args.users)
    app_proc, app_port = start_gunicorn("quizapp:create_app()", env, args.workers, args.threads,
                                        "/healthz")
    bare_proc, bare_port = start_gunicorn("server:bare_app", env, args.workers, args.threads,
                                          "/ping")
    servers = {"app": app_proc, "bare": bare_proc}
    ports = {"app": app_port, "bare": bare_port}
    if not args.no_floor:
        servers["floor"], ports["floor"] = start_gunicorn(
            "server:floor_app()", env, args.workers, args.threads, "/healthz")
    database = (args.database_url.split("://")[0] + " (--database-url)" if args.database_url
                else f"SQLite (WAL) synchronous="
                     f"{(os.environ.get('QUIZAPP_SQLITE_SYNCHRONOUS') or 'FULL').upper()} at "
                     f"{instance}")
    print(f"gunicorn: {args.workers} workers x {args.threads} threads each; {args.users} users; "
          f"{database}; load average before: {load_average()}")
    phase_specs = {"throughput": (args.duration, 0.0), "paced": (args.paced_duration,
                                                                 args.think_ms / 1000)}
    schedule, labels = [], []
    for phase, (duration, think) in phase_specs.items():
        kinds = ["bare", "app"] + (["floor"] if "floor" in servers and not think else [])
        for round_index in range(args.rounds):
            order = kinds if round_index % 2 == 0 else kinds[::-1]
            for kind in order:
                schedule.append((kind, duration / args.rounds, think))
                labels.append((phase, kind))
    try:
        segments, cpu, logins = run_schedule(
            ports, {kind: proc.pid for kind, proc in servers.items()},
            args.users, schedule, args.max_loops, args.client_processes,
            args.double_click_every)
    finally:
        for proc in servers.values():
            proc.terminate()
            proc.wait(timeout=30)
    phases = {}
    names = {"bare": "bare /ping", "app": "study loop", "floor": "logged-in no-op"}
    for phase, (_, think) in phase_specs.items():
        for kind in names:
            chosen = [i for i, label in enumerate(labels) if label == (phase, kind)]
            if not chosen:
                continue
            stats = summarize([segments[i] for i in chosen], [cpu[i] for i in chosen])
            phases[(phase, kind)] = stats
            label = f"{phase} {names[kind]}"
            if think:
                label += f" (think {args.think_ms:.0f} ms)"
            print_stats(label, stats)
    stolen = []
    for phase in phase_specs:
        chosen = [segments[i]["ticks"] for i, label in enumerate(labels) if label[0] == phase]
        total = sum(t for t, _ in chosen)
        stolen.append(f"{phase} {100 * sum(s for _, s in chosen) / total:.1f}%" if total else
                      f"{phase} unknown")
    # A virtual machine's CPU taken by its host for others: it slows every request alike and
    # is outside the app, so a run with much of it says more about the machine than the code.
    print(f"CPU time stolen by the hypervisor: {', '.join(stolen)}")
    app_results = [r for phase in phase_specs for r in phases[(phase, "app")]["results"]]
    print(f"logins (scrypt, once per user, before any timed segment): {len(logins)}, "
          f"p50 {logins[len(logins) // 2] * 1000:.0f} ms, "
          f"p99 {logins[int(len(logins) * 0.99)] * 1000:.0f} ms, max {logins[-1] * 1000:.0f} ms")
    accepted: dict[str, int] = {}
    for r in app_results:
        accepted[r["user"]] = accepted.get(r["user"], 0) + r["accepted"]
    stored = count_reviews(env)
    duplicates = sum(r["duplicates"] for r in app_results)
    ran_dry = sum(r["ran_dry"] for r in app_results)
    lost_or_doubled = sum(abs(stored.get(u, 0) - n) for u, n in accepted.items())
    print(f"reviews: {sum(accepted.values())} accepted, {sum(stored[u] for u in accepted)} in the "
          f"database, {duplicates} double clicks sent, {stored['<doubled>']} doubled, "
          f"{lost_or_doubled} lost or extra")
    shutil.rmtree(instance, ignore_errors=True)
    ratio = phases[("throughput", "app")]["rps"] / phases[("throughput", "bare")]["rps"]
    paced_p99 = phases[("paced", "app")]["p99"]
    cpu_ratio = phases[("throughput", "bare")]["cpu_ms"] / phases[("throughput", "app")]["cpu_ms"]
    print(f"server CPU per request, bare / study loop: {cpu_ratio:.2f} (less sensitive to other "
          f"load on the machine than requests/s)")
    if floor := phases.get(("throughput", "floor")):
        bare = phases[("throughput", "bare")]
        print(f"ceiling for a logged-in page (logged-in no-op / bare): throughput "
              f"{floor['rps'] / bare['rps']:.2f}, server CPU per request "
              f"{bare['cpu_ms'] / floor['cpu_ms']:.2f}; study loop / logged-in no-op: "
              f"{phases[('throughput', 'app')]['rps'] / floor['rps']:.2f}")
    print(f"targets: paced study p99 {paced_p99:.1f} ms (< 50: "
          f"{'met' if paced_p99 < 50 else 'not met'}); throughput ratio >= 0.40: "
          f"{'met' if ratio >= 0.40 else 'not met'}; load average after: {load_average()}")
    print(f"throughput ratio study loop / bare endpoint: {ratio:.2f}")
    if ran_dry:
        print(f"VOID: {ran_dry} times a user's queue ran dry during a study segment, so those "
              f"figures include empty pages; shorten --duration or lower --max-loops")
    if lost_or_doubled or stored["<doubled>"] or ran_dry:
        sys.exit(1)


if __name__ == "__main__":
    main()
