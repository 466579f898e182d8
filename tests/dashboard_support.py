"""A team with a track for the dashboard's tests: rows written through the models (the
team's own services are tested with them), the work done through the real use cases."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from html.parser import HTMLParser

from sqlalchemy import select
from webtest_support import rate_current, register, shown_key

from quizapp.extensions import db
from quizapp.models import Assignment, Team, TeamMember, Track, TrackStep, User
from quizapp.practice_sets import SetParams
from quizapp.services import practice_sets, set_reviews
from quizapp.services.accounts import load_account

LIST_KEYS = ("alpha-stride", "beta-view", "gamma-offset")


@dataclass
class Built:
    team_id: int
    track_id: int
    set_step: int
    list_step: int
    users: dict[str, int]
    clients: dict[str, object]
    set_refs: tuple


def user_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == name))


def build_team(app, clock, roles=(("olive", "owner"), ("leah", "lead"), ("mia", "member"),
                                  ("otto", None)), list_keys=LIST_KEYS) -> Built:
    """Owner olive, lead leah, member mia and outsider otto (each signed in on a client of
    their own); a track of a 4-card set (pass mark 75) and a question list (``list_keys``),
    due in a week, assigned to the whole team a day after the start."""
    clients, users = {}, {}
    for name, _ in roles:
        clients[name] = app.test_client()
        assert register(clients[name], name).status_code in (302, 303)
        users[name] = user_id(app, name)
    with app.app_context():
        now = clock()
        team = Team(name="Core <infra>", description=None, created_at=now)
        db.session.add(team)
        db.session.flush()
        for name, role in roles:
            if role:
                db.session.add(TeamMember(team_id=team.id, user_id=users[name], role=role,
                                          joined_at=now))
        owner = load_account(db.session, users[roles[0][0]])
        saved = practice_sets.create_set(db.session, owner, SetParams(count=4, seed=7, puzzles=0),
                                         now, lambda: "dash-set-slug")
        track = Track(team_id=team.id, title="Onboarding", description=None, created_at=now,
                      created_by=users[roles[0][0]])
        db.session.add(track)
        db.session.flush()
        set_step = TrackStep(track_id=track.id, position=0, kind="set", title="Set: strides",
                             practice_set_id=saved.id, pass_mark=75,
                             item_keys=[[r.kind, r.key] for r in saved.refs], due_at=None)
        list_step = TrackStep(track_id=track.id, position=1, kind="questions",
                              title="=Views", practice_set_id=None, pass_mark=None,
                              item_keys=[["card", key] for key in list_keys],
                              filter_query="concept=view", due_at=None)
        db.session.add_all([set_step, list_step])
        clock.advance(days=1)
        db.session.add(Assignment(track_id=track.id, whole_team=True,
                                  due_at=clock() + timedelta(days=7), created_at=clock()))
        db.session.commit()
        return Built(team.id, track.id, set_step.id, list_step.id, users, clients, saved.refs)


def take_set(app, clock, built: Built, name: str, grades, *, for_step: bool = True) -> None:
    """``name`` takes the track's set (recorded for the step unless ``for_step`` is False),
    grading its items as given, and finishes."""
    with app.app_context():
        saved = practice_sets.load_set(db.session, "dash-set-slug")
        attempt_id = practice_sets.start_attempt(
            db.session, saved, built.users[name], clock(),
            team_id=built.team_id if for_step else None,
            step_id=built.set_step if for_step else None)
        items = practice_sets.resolve_items(db.session, saved.refs)
        for position, grade in enumerate(grades):
            attempt = practice_sets.load_attempt(db.session, saved, attempt_id, built.users[name])
            outcome = practice_sets.answer_item(db.session, attempt, items[position], position,
                                                grade=grade, now=clock())
            assert outcome.counted, outcome
        attempt = practice_sets.load_attempt(db.session, saved, attempt_id, built.users[name])
        practice_sets.finish_attempt(db.session, attempt, clock())


def review_cards(app, clock, client, name: str, ratings: dict[str, int]) -> None:
    """``name`` queues the cards and rates each as given, through the study page."""
    with app.app_context():
        user = load_account(db.session, user_id(app, name))
        set_reviews.add_items_to_reviews(db.session, user, [("card", k) for k in ratings],
                                         clock())
    for key, rating in ratings.items():
        page = client.get("/study").text
        assert shown_key(page) == key, (shown_key(page), key)
        assert rate_current(client, rating, page).status_code == 303


class _Tables(HTMLParser):
    """Every table of a page: its id and its rows, each a list of its cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str | None, list[list[str]]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append((dict(attrs).get("id"), []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th") and self.tables:
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def read_tables(html: str) -> list[tuple[str | None, list[list[str]]]]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables
