"""The lead's dashboard of a 200-member team on a 20-step track after a year of reviews (SQLite).

A database is built in a temporary folder: the real bank, 200 members and their lead, a track
of 20 steps (8 practice sets of 10 items, 6 lists of 8 cards, 6 of 4 puzzle skills) assigned to
the whole team 60 days ago, and a year of each member's reviews of 120 items (the track's and
others) scheduled by FSRS, with an attempt at every set step for most members. Then, in one
process and interleaved, the lead's pages are served through the app: the dashboard (default
order, and sorted by a step), its CSV, and a plain study page (GET /study) as the baseline.
Each is printed as the median milliseconds per page and as a multiple of the study page, with
the target of 300 ms per dashboard page (the CSV, a download of every member at once, is
printed beside them).

    python bench/teams.py [--members 200] [--rounds 15] [--seed 27]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 300.0
ITEMS_PER_MEMBER = 120
HISTORIES = 400  # distinct FSRS review histories, dealt to the (member, item) pairs
PASSWORD = "bench password 123"
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def simulate_histories(rng: random.Random, now: datetime) -> list[list[dict]]:
    """Review histories of one item over the past year: first seen on a random day, then
    rated whenever FSRS says it is due (give or take a day), mostly Good, sometimes Again."""
    from quizapp import srs

    histories = []
    for _ in range(HISTORIES):
        moment = now - timedelta(days=rng.uniform(20, 365))
        state, version, history = srs.new_state(moment), 0, []
        last = None
        while moment < now:
            rating = rng.choices([1, 2, 3, 4], weights=[10, 10, 70, 10])[0]
            result = srs.review(state, rating, moment)
            version += 1
            history.append({"at": moment, "rating": rating, "before": None if last is None
                            else state, "due_before": None if last is None else last,
                            "last_before": history[-1]["at"] if history else None,
                            "after": result.state, "due": result.due, "version": version,
                            "log": result.log, "was_new": last is None,
                            "was_review": last is not None and not srs.is_learning(state)})
            state, last = result.state, result.due
            moment = result.due + timedelta(hours=rng.uniform(0, 30))
        histories.append(history)
    return histories


def build(instance: str, members: int, seed: int) -> dict:
    """The database; what the timed part needs (the team's id, a step's id)."""
    os.environ.update({
        "QUIZAPP_ENV": "production", "QUIZAPP_SECRET_KEY": secrets.token_hex(32),
        "QUIZAPP_HTTPS": "0",  # the test client speaks plain HTTP: cookies without Secure
        "QUIZAPP_INSTANCE_PATH": instance, "QUIZAPP_CONTENT_PATH": str(ROOT / "content")})
    from flask_migrate import upgrade
    from sqlalchemy import insert, select

    from quizapp import create_app, puzzles, srs
    from quizapp.content import load_cards, load_concepts
    from quizapp.extensions import db
    from quizapp.models import (
        Assignment,
        Item,
        Review,
        ReviewState,
        SetAnswer,
        SetAttempt,
        Team,
        TeamMember,
        Track,
        TrackStep,
        User,
    )
    from quizapp.practice_sets import SetParams
    from quizapp.services import practice_sets
    from quizapp.services.accounts import register
    from quizapp.services.bank_import import load_bank
    from quizapp.services.set_reviews import compute_ref_keys

    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    app = create_app()
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        content = ROOT / "content"
        load_bank(db.session, load_cards(content), load_concepts(content), puzzles.families(),
                  now - timedelta(days=400))
        lead = register(db.session, "lead", PASSWORD, now - timedelta(days=400),
                        hash_method=app.config["PASSWORD_HASH_METHOD"])
        db.session.commit()
        # Members never log in here: a cheap hash keeps building 200 of them quick.
        db.session.execute(insert(User), [
            {"username": f"member{n:03d}", "password_hash": "pbkdf2:sha256:1$x$0",
             "created_at": now - timedelta(days=400)} for n in range(members)])
        user_ids = [lead.id, *db.session.scalars(
            select(User.id).where(User.username.like("member%")).order_by(User.id))]
        team = Team(name="Platform onboarding", description=None,
                    created_at=now - timedelta(days=90))
        db.session.add(team)
        db.session.flush()
        db.session.execute(insert(TeamMember), [
            {"team_id": team.id, "user_id": uid, "role": "owner" if uid == lead.id else "member",
             "joined_at": now - timedelta(days=90)} for uid in user_ids])
        track = Track(team_id=team.id, title="Strides and views", description=None,
                      created_at=now - timedelta(days=61), created_by=lead.id)
        db.session.add(track)
        db.session.flush()
        cards = db.session.execute(select(Item.id, Item.key).where(Item.kind == "card")
                                   .order_by(Item.key)).all()
        skills = db.session.execute(select(Item.id, Item.key).where(Item.kind == "skill")
                                    .order_by(Item.key)).all()
        steps, saved_sets = [], []
        for position in range(20):
            due = now + timedelta(days=rng.randint(-20, 30))
            if position % 5 in (0, 2) and len(saved_sets) < 8:
                saved = practice_sets.create_set(
                    db.session, lead, SetParams(count=10, seed=rng.randrange(10**9), puzzles=4),
                    now - timedelta(days=61), lambda: secrets.token_urlsafe(16))
                saved_sets.append(saved)
                steps.append(TrackStep(track_id=track.id, position=position, kind="set",
                                       title=f"Set {len(saved_sets)}", practice_set_id=saved.id,
                                       pass_mark=70, due_at=due,
                                       item_keys=[[r.kind, r.key] for r in saved.refs]))
            elif position % 2:
                chosen = rng.sample(cards, 8)
                steps.append(TrackStep(track_id=track.id, position=position, kind="questions",
                                       title=f"Questions {position}", due_at=due,
                                       item_keys=[["card", key] for _, key in chosen]))
            else:
                chosen = rng.sample(skills, 4)
                steps.append(TrackStep(track_id=track.id, position=position, kind="skills",
                                       title=f"Skills {position}", due_at=due,
                                       item_keys=[["skill", key] for _, key in chosen]))
        db.session.add_all(steps)
        db.session.add(Assignment(track_id=track.id, whole_team=True, due_at=now
                                  + timedelta(days=30), created_at=now - timedelta(days=60)))
        db.session.commit()

        by_key = {("card", key): item_id for item_id, key in cards}
        by_key.update({("skill", key): item_id for item_id, key in skills})
        track_items = sorted({by_key[tuple(key)] for step in steps
                              for key in (compute_ref_keys([tuple(k) for k in step.item_keys])
                                          if step.kind == "set" else step.item_keys)
                              if tuple(key) in by_key})
        others = [item_id for item_id in by_key.values() if item_id not in set(track_items)]
        histories = simulate_histories(rng, now)
        reviews = 0
        for uid in user_ids:
            items = track_items + rng.sample(others, max(0, ITEMS_PER_MEMBER - len(track_items)))
            review_rows, state_rows = [], []
            for item_id in items:
                if rng.random() < 0.1:
                    continue  # never studied
                history = rng.choice(histories)
                for entry in history:
                    review_rows.append({
                        "user_id": uid, "item_id": item_id, "reviewed_at": entry["at"],
                        "rating": entry["rating"], "duration_ms": 8000, "answer": None,
                        "correct": None, "puzzle_seed": None, "was_new": entry["was_new"],
                        "was_review": entry["was_review"], "state_before": entry["before"],
                        "due_before": entry["due_before"],
                        "last_reviewed_before": entry["last_before"],
                        "state_after": entry["after"], "due_after": entry["due"],
                        "version_after": entry["version"], "fsrs_log": entry["log"]})
                final = history[-1]
                state_rows.append({"user_id": uid, "item_id": item_id, "state": final["after"],
                                   "stability": srs.state_stability(final["after"]),
                                   "due": final["due"], "version": final["version"],
                                   "reps": len(history), "learning": False,
                                   "last_reviewed_at": final["at"]})
            db.session.execute(insert(Review), review_rows)
            db.session.execute(insert(ReviewState), state_rows)
            reviews += len(review_rows)
            for step, saved in zip([s for s in steps if s.kind == "set"], saved_sets,
                                   strict=True):
                if uid == lead.id or rng.random() < 0.15:
                    continue
                started = now - timedelta(days=rng.uniform(1, 55))
                answers = [rng.random() < 0.7 for _ in saved.refs]
                attempt_id = db.session.execute(insert(SetAttempt).values(
                    set_id=saved.id, user_id=uid, started_at=started,
                    finished_at=started + timedelta(minutes=20), score=sum(answers),
                    team_id=team.id, step_id=step.id).returning(SetAttempt.id)).scalar_one()
                db.session.execute(insert(SetAnswer), [
                    {"attempt_id": attempt_id, "position": position, "answer": "knew",
                     "correct": right, "answered_at": started + timedelta(minutes=position)}
                    for position, right in enumerate(answers)])
            db.session.commit()
        list_step = next(step.id for step in steps if step.kind == "questions")
        db.engine.dispose()
    return {"team": team.id, "step": list_step, "users": len(user_ids), "reviews": reviews,
            "track_items": len(track_items)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=15, help="timed requests of each page")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    instance = tempfile.mkdtemp(prefix="quizapp-teams-")
    try:
        started = time.perf_counter()
        built = build(instance, args.members, args.seed)
        setup = time.perf_counter() - started
        from quizapp import create_app
        from quizapp.extensions import db
        from quizapp.web.rendering.warmup import warm_worker

        app = create_app()
        warm_worker(app)  # as gunicorn's workers start: caches filled, the heap frozen
        client = app.test_client()
        form = client.get("/login").text
        token = CSRF_RE.search(form).group(1)
        assert client.post("/login", data={"csrf_token": token, "username": "lead",
                                           "password": PASSWORD}).status_code == 302
        base = f"/teams/{built['team']}/dashboard"
        pages = {"GET /study (baseline)": "/study",
                 "GET dashboard": base,
                 "GET dashboard ?sort=-step": f"{base}?sort=-step-{built['step']}",
                 "GET dashboard ?sort=recall": f"{base}?sort=recall",
                 "GET dashboard.csv": f"/teams/{built['team']}/dashboard.csv"}
        times: dict[str, list[float]] = {label: [] for label in pages}
        cpus: dict[str, list[float]] = {label: [] for label in pages}
        sizes = {}
        for round_ in range(args.rounds + 2):  # the first two are warm-up, untimed
            for label, path in pages.items():
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(path)
                elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
                assert response.status_code == 200, (path, response.status_code)
                sizes[label] = len(response.data)
                if round_ >= 2:
                    times[label].append(elapsed)
                    cpus[label].append(cpu)
        with app.app_context():
            db.engine.dispose()
    finally:
        shutil.rmtree(instance, ignore_errors=True)
    print(f"{built['users']} accounts ({args.members} members and their lead), a 20-step track "
          f"of {built['track_items']} items, {built['reviews']:,} reviews over a year; built in "
          f"{setup:.0f} s; median of {args.rounds} requests each, interleaved")
    # Wall time counts waiting for a core on a shared machine; CPU time is what this
    # single-threaded work costs, as a quiet machine would show it.
    study = statistics.median(times["GET /study (baseline)"])
    study_cpu = statistics.median(cpus["GET /study (baseline)"])
    print(f"{'page':<28} {'wall ms':>8} {'p90 ms':>7} {'x study':>8} {'cpu ms':>7} "
          f"{'x study':>8} {'KiB':>6}")
    for label, values in times.items():
        median, cpu = statistics.median(values), statistics.median(cpus[label])
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        print(f"{label:<28} {median * 1000:>8.1f} {p90 * 1000:>7.1f} {median / study:>7.1f}x "
              f"{cpu * 1000:>7.1f} {cpu / study_cpu:>7.1f}x {sizes[label] / 1024:>6.0f}")
    # The target is the pages'; the CSV (every member at once, with a recall per step) is a
    # download, printed beside them with its own figures.
    dashboards = [label for label in times if "dashboard" in label and ".csv" not in label]
    worst = max(dashboards, key=lambda label: statistics.median(times[label]))
    wall, cpu = statistics.median(times[worst]), statistics.median(cpus[worst])
    print(f"slowest dashboard page ({worst}): wall {wall * 1000:.0f} ms, cpu {cpu * 1000:.0f} ms "
          f"against the target of {TARGET_MS:.0f} ms ({wall * 1000 / TARGET_MS:.2f} and "
          f"{cpu * 1000 / TARGET_MS:.2f} of it)")


if __name__ == "__main__":
    main()
