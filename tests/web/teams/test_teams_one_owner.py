"""Exactly one owner per team, held by the database as well as by services.teams: a second
owner row is refused, and hand-overs (one after another or at once) leave one owner."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy import select
from test_teams_service import crew, role_of, session  # noqa: F401 (fixtures)

from quizapp.extensions import db
from quizapp.models import TeamMember, User
from quizapp.services import teams
from quizapp.services.errors import Conflict

NOW = datetime(2025, 3, 3, 9, tzinfo=UTC)


def owners(store, team_id: int) -> list[int]:
    store.rollback()  # read what is committed
    return list(store.scalars(select(TeamMember.user_id).where(
        TeamMember.team_id == team_id, TeamMember.role == teams.OWNER)))


def test_the_database_refuses_a_second_owner(session, crew):  # noqa: F811
    team_id, _code, owner, lead, _member, outsider = crew
    session.add(TeamMember(team_id=team_id, user_id=outsider.id, role=teams.OWNER,
                           joined_at=NOW))
    with pytest.raises(sa.exc.IntegrityError):
        session.commit()
    session.rollback()
    with pytest.raises(sa.exc.IntegrityError):  # nor by promoting a lead behind the services
        session.execute(sa.update(TeamMember).where(
            TeamMember.team_id == team_id, TeamMember.user_id == lead.id)
            .values(role=teams.OWNER))
    session.rollback()
    assert owners(session, team_id) == [owner.id]
    assert role_of(session, team_id, lead) == teams.LEAD
    assert role_of(session, team_id, outsider) is None
    other = teams.create_team(session, outsider, "Another", None, NOW)  # one owner per team
    assert owners(session, other.team_id) == [outsider.id]


def test_a_hand_over_demotes_first_so_the_index_lets_it_through(session, crew):  # noqa: F811
    team_id, _code, owner, lead, member, _outsider = crew
    assert teams.hand_over(session, owner, team_id, member.id) == "mia"
    assert owners(session, team_id) == [member.id]
    assert teams.hand_over(session, member, team_id, lead.id) == "leo"
    assert owners(session, team_id) == [lead.id]
    assert [(m.username, m.role) for m in teams.list_members(session, team_id)] == [
        ("leo", "owner"), ("mia", "lead"), ("olga", "lead")]


def test_hand_overs_at_once_leave_one_owner(app, session, crew, monkeypatch):  # noqa: F811
    """The owner hands the team to two people at the same moment (two tabs): both pass the
    owner check before either writes; one hand-over wins, the other is refused."""
    team_id, _code, owner, lead, member, _outsider = crew
    checked = threading.Barrier(2)
    load_other_member = teams.load_other_member

    def load_then_wait(*args):
        found = load_other_member(*args)
        checked.wait(timeout=30)
        return found

    monkeypatch.setattr(teams, "load_other_member", load_then_wait)
    outcomes: dict[int, str] = {}

    def hand_to(new_owner: int) -> None:
        with app.app_context():
            try:
                me = db.session.get(User, owner.id)
                outcomes[new_owner] = teams.hand_over(db.session, me, team_id, new_owner)
            except Conflict as exc:
                outcomes[new_owner] = exc.message
            finally:
                db.session.remove()

    threads = [threading.Thread(target=hand_to, args=(who,)) for who in (lead.id, member.id)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(outcomes) == 2, outcomes
    won = [who for who, said in outcomes.items() if said in ("leo", "mia")]
    lost = [who for who, said in outcomes.items() if said == "You are no longer this team's owner."]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert owners(session, team_id) == won
    assert role_of(session, team_id, owner) == teams.LEAD
    assert role_of(session, team_id, lead if lost == [lead.id] else member) == (
        teams.LEAD if lost == [lead.id] else teams.MEMBER)
