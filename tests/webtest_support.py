"""Helpers for the web and browser tests: a settable clock, recorded puzzle seeds, sample cards,
the migrations folder, form posting with CSRF, and counting the SQL a request runs."""

from __future__ import annotations

import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import event, select

from quizapp.content import Card as ContentCard
from quizapp.content import FollowUp
from quizapp.extensions import db
from quizapp.models import Review

CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
TOKEN_RE = re.compile(r'id="token" name="token" type="hidden" value="([^"]+)"')
ITEM_KEY_RE = re.compile(r'data-item-key="([^"]+)"')
PASSWORD = "correct horse battery"
MIGRATIONS = str(Path(__file__).resolve().parents[1] / "migrations")


# An answer of each kind that the checker reads (right or wrong): a puzzle's result page.
READABLE = {"tuple": "(4, 1)", "int": "3", "bool": "yes", "choice": "A", "choices": "A",
            "text": "[[0, 1], [2, 3]]"}


@dataclass
class FakeClock:
    """Stands in for the app's CLOCK; tests move time forward explicitly."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


@dataclass
class SeedSequence:
    """Stands in for PUZZLE_SEED_SOURCE: 1000, 1001, ... whatever it is asked for (so every
    page shows a new puzzle), and records what it gave out."""

    next_seed: int = 1000
    given: list[int] = field(default_factory=list)

    def __call__(self, *_shown: int) -> int:
        self.given.append(self.next_seed)
        self.next_seed += 1
        return self.given[-1]


def make_card(card_id: str, *, level: str = "junior", importance: str = "must-know",
              frequency: str = "common", concepts: tuple[str, ...] = ("stride",),
              question: str | None = None, title: str | None = None) -> ContentCard:
    return ContentCard(
        id=card_id, title=title or f"Question {card_id}", level=level, concepts=concepts,
        importance=importance, frequency=frequency,
        question=question or f"What does **{card_id}** ask?",
        basics=f"Basics of {card_id}.", solid=f"Solid answer for {card_id}.",
        code="import torch\nprint(torch.arange(6).view(2, 3).stride())\n",
        code_output="(3, 1)\n",
        go_deeper=(("junior", "J."), ("middle", "M."), ("senior", "S."), ("principal", "P.")),
        follow_ups=(FollowUp("Why?", "Because."), FollowUp("And then?", "Then this.")),
        red_flags=("Saying views copy.", "Saying strides are bytes."),
        source_path=f"cards/{card_id}.md")


def csrf_token(html: str) -> str:
    match = CSRF_RE.search(html)
    assert match, "page has no CSRF token"
    return match.group(1)


def study_token(html: str) -> str:
    match = TOKEN_RE.search(html)
    assert match, "page has no study token"
    return match.group(1)


def register(client, username: str, password: str = PASSWORD):
    page = client.get("/register")
    return client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": username, "password": password,
        "confirm": password})


def register_in_browser(page, base: str, username: str, password: str = PASSWORD) -> None:
    """Fill and submit the register form in a Playwright page; it lands on /study."""
    page.goto(f"{base}/register")
    page.fill("#username", username)
    page.fill("#password", password)
    page.fill("#confirm", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


def login(client, username: str, password: str = PASSWORD, **extra):
    page = client.get("/login")
    return client.post("/login", data={
        "csrf_token": csrf_token(page.text), "username": username, "password": password, **extra})


def logout(client):
    page = client.get("/questions")
    return client.post("/logout", data={"csrf_token": csrf_token(page.text)})


def rate_current(client, rating: int, page_html: str | None = None, **fields: str):
    """Rate whatever the study page (or ``page_html``) shows; ``fields`` are posted too."""
    html = page_html if page_html is not None else client.get("/study").text
    return client.post("/study/rate", data={
        "csrf_token": csrf_token(html), "token": study_token(html), "rating": str(rating),
        **fields})


def reach_first_skill(client) -> str:
    """Rate the cards before the first puzzle skill Easy; return the study page showing it."""
    for _ in range(8):
        page = client.get("/study").text
        if 'data-item-kind="skill"' in page:
            return page
        rate_current(client, 4, page)
    raise AssertionError("no skill within the first items")


def shown_key(html: str) -> str | None:
    """The key of the item a study page shows (None on an empty queue)."""
    match = ITEM_KEY_RE.search(html)
    return match.group(1) if match else None


@contextmanager
def executed_statements(app):
    """The SQL statements the app runs inside the block, each with its parameters."""
    executed: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, *_args) -> None:
        executed.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield executed
    finally:
        event.remove(engine, "before_cursor_execute", record)


@contextmanager
def counted_statements(app):
    """The SQL statements the app runs inside the block (their text, filled in at its end)."""
    statements: list[str] = []
    with executed_statements(app) as executed:
        yield statements
    statements.extend(statement for statement, _ in executed)


# The study-settings form as a newly registered user has it.
SETTINGS = {"desired_retention": "0.9", "new_per_day": "20", "reviews_per_day": "200",
            "maximum_interval_days": "36500", "new_from_level": "junior", "time_zone": "UTC", "keyboard_shortcuts": "y", "keyboard_shortcuts_shown": "1"}


def post_settings(client, page_html: str | None = None, **fields: str):
    """Post the study-settings form of a signed-in client: SETTINGS with ``fields`` changed."""
    html = page_html if page_html is not None else client.get("/settings").text
    return client.post("/settings", data={"csrf_token": csrf_token(html), **SETTINGS, **fields})


def change_password(client, current: str, new: str = "a brand new secret"):
    """Post the password form of a signed-in client."""
    page = client.get("/settings")
    return client.post("/settings/password", data={
        "csrf_token": csrf_token(page.text), "current": current, "new": new, "confirm": new})


def post_in_parallel(app, posts: list[dict[str, str]], path: str = "/login",
                     cookies: dict[str, str] | None = None) -> list[int]:
    """Each form in ``posts`` from its own client (holding ``cookies``), all released at once;
    the status codes."""
    clients = [app.test_client() for _ in posts]
    for client in clients:
        for name, value in (cookies or {}).items():
            client.set_cookie(name, value)
    tokens = [csrf_token(client.get("/login").text) for client in clients]
    barrier = threading.Barrier(len(posts))
    statuses: list[int] = []

    def worker(client, token: str, data: dict[str, str]) -> None:
        barrier.wait()
        statuses.append(client.post(path, data={"csrf_token": token, **data}).status_code)

    threads = [threading.Thread(target=worker, args=args)
               for args in zip(clients, tokens, posts, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == len(posts), "a request did not finish"
    return statuses


def stored_ratings(app) -> list[int]:
    """Every rating in the app's database (a live server's), in id order."""
    with app.app_context():
        ratings = [review.rating for review in db.session.scalars(select(Review).order_by(Review.id))]
        db.session.remove()
    return ratings


def concepts_for(cards, families=()) -> dict[str, str]:
    """A concepts.yaml for a test bank: every tag its cards and puzzle families use."""
    tags = {tag for card in cards for tag in card.concepts}
    tags |= {tag for family in families for tag in family["concepts"]}
    return {tag: f"About {tag}." for tag in sorted(tags)}
