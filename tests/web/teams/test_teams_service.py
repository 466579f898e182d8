"""services.teams on both databases: making teams, roles, join codes and their refusals,
throttled wrong codes, limits, and that leaving or deleting keeps everyone's own study."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from werkzeug.security import generate_password_hash

from quizapp.extensions import db
from quizapp.models import (
    Assignment,
    AssignmentMember,
    Item,
    PracticeSet,
    Review,
    SetAttempt,
    TeamJoinCode,
    TeamMember,
    Track,
    User,
)
from quizapp.services import account_data, teams
from quizapp.services.errors import (
    Conflict,
    Forbidden,
    LimitReached,
    LoginThrottled,
    NotFound,
    ServiceError,
)
from quizapp.services.login_limits import LoginLimits

NOW = datetime(2025, 3, 3, 9, tzinfo=UTC)
LIMIT = teams.JoinCodeLimit(per_address=3, window=timedelta(minutes=15))
ADDRESS = "203.0.113.7"


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.session


def make_user(session, name: str) -> User:
    user = User(username=name, password_hash=generate_password_hash("pw", method="pbkdf2:sha256:1"),
                created_at=NOW)
    session.add(user)
    session.commit()
    return user


def join(session, user, code: str, *, now=NOW, address=ADDRESS) -> teams.JoinResult:
    return teams.join_team(session, user, code, address, now, LIMIT)


def role_of(session, team_id: int, user: User) -> str | None:
    return session.scalar(select(TeamMember.role).where(TeamMember.team_id == team_id,
                                                        TeamMember.user_id == user.id))


@pytest.fixture
def crew(session):
    """A team of an owner, a lead and a member, and an outsider; the team's code."""
    owner, lead, member, outsider = (make_user(session, name)
                                     for name in ("olga", "leo", "mia", "oscar"))
    team = teams.create_team(session, owner, "Kernels", "Strides first", NOW)
    code = teams.create_join_code(session, owner, team.team_id, NOW).code
    for user in (lead, member):
        assert join(session, user, code).joined
    teams.set_role(session, owner, team.team_id, lead.id, teams.LEAD)
    return team.team_id, code, owner, lead, member, outsider


def test_a_new_team_has_its_maker_as_owner_and_lists_by_name(session):
    ada = make_user(session, "ada")
    second = teams.create_team(session, ada, "  zeta   team ", None, NOW)
    first = teams.create_team(session, ada, "Alpha", "Line one\r\n  line   two \n", NOW)
    assert second.team_name == "zeta team" and second.is_owner and second.is_lead
    listed = teams.list_user_teams(session, ada)
    assert [(t.name, t.role, t.members) for t in listed] == [
        ("Alpha", "owner", 1), ("zeta team", "owner", 1)]
    assert listed[0].description == "Line one\nline two"
    assert teams.load_membership(session, ada, first.team_id).role == teams.OWNER


@pytest.mark.parametrize("name, message", [
    ("   ", "Give the team a name."),
    ("x" * 81, "at most 80 characters; this one has 81"),
    ("bad\x07name", "control or unassigned characters"),
])
def test_team_names_are_checked_with_a_reason(session, name, message):
    ada = make_user(session, "ada")
    with pytest.raises(ServiceError, match=re.escape(message)):
        teams.create_team(session, ada, name, None, NOW)
    assert teams.list_user_teams(session, ada) == []


def test_an_account_is_in_at_most_twenty_teams(session, monkeypatch):
    ada, ben = make_user(session, "ada"), make_user(session, "ben")
    for number in range(teams.TEAMS_PER_USER_MAX):
        made = teams.create_team(session, ada, f"Team {number}", None, NOW)
    with pytest.raises(LimitReached, match="You are in 20 teams, the most one account"):
        teams.create_team(session, ada, "One too many", None, NOW)
    code = teams.create_join_code(session, ben, teams.create_team(
        session, ben, "Ben's", None, NOW).team_id, NOW).code
    with pytest.raises(LimitReached, match="20 teams"):
        join(session, ada, code)
    teams.delete_team(session, ada, made.team_id, f"Team {teams.TEAMS_PER_USER_MAX - 1}")
    assert join(session, ada, code).joined


def test_a_team_has_at_most_its_size_limit(session, crew, monkeypatch):
    team_id, code, *_people, outsider = crew
    monkeypatch.setattr(teams, "TEAM_SIZE_MAX", 3)
    with pytest.raises(LimitReached, match="“Kernels” has 3 members, the most a team can have"):
        join(session, outsider, code)
    assert role_of(session, team_id, outsider) is None


def test_codes_are_eight_characters_without_look_alikes(session):
    codes = {teams.new_join_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(re.fullmatch("[23456789ABCDEFGHJKMNPQRSTVWXYZ]{8}", code) for code in codes)
    assert not set("01ILOU") & set(teams.JOIN_CODE_ALPHABET)
    assert teams.canonicalize_join_code(" k7pm-3qxd ") == "K7PM3QXD"
    assert teams.canonicalize_join_code("K7PM3QX0") is None  # 0 is no code character
    assert teams.canonicalize_join_code("K7PM3QX") is None


def test_a_code_lasts_fourteen_days_by_default(session, crew):
    team_id, code, owner, *_rest, outsider = crew
    view = teams.load_join_code(session, team_id, NOW)
    assert view is not None and view.code == code and view.problem is None
    assert view.expires_at == NOW + timedelta(days=14)
    last_moment = NOW + timedelta(days=14, seconds=-1)
    found, member = teams.look_up_code(session, outsider, code, ADDRESS, last_moment, LIMIT)
    assert (found.team_name, member) == ("Kernels", False)
    with pytest.raises(teams.JoinCodeRefused, match="This join code expired on 2025-03-17"):
        join(session, outsider, code, now=NOW + timedelta(days=14))
    assert role_of(session, team_id, outsider) is None


def test_a_new_code_replaces_the_old_and_revoking_stops_it(session, crew):
    team_id, old, owner, lead, _member, outsider = crew
    new = teams.create_join_code(session, lead, team_id, NOW, days=3, max_uses=5)
    assert new.code != old and new.max_uses == 5
    assert new.expires_at == NOW + timedelta(days=3)
    with pytest.raises(teams.JoinCodeRefused, match="This join code was revoked"):
        join(session, outsider, old)
    assert teams.revoke_join_code(session, owner, team_id, NOW)
    assert not teams.revoke_join_code(session, owner, team_id, NOW)  # nothing left to revoke
    with pytest.raises(teams.JoinCodeRefused, match="revoked"):
        join(session, outsider, new.code)
    assert teams.load_join_code(session, team_id, NOW).problem.startswith("This join code was")


def test_a_code_with_a_number_of_uses_is_used_up(session, crew):
    team_id, _code, owner, *_rest, outsider = crew
    limited = teams.create_join_code(session, owner, team_id, NOW, max_uses=1).code
    late = make_user(session, "late")
    assert join(session, outsider, limited).joined
    with pytest.raises(teams.JoinCodeRefused, match="has been used up: it could be used once"):
        join(session, late, limited)
    assert session.scalar(select(TeamJoinCode.uses).where(TeamJoinCode.code == limited)) == 1


@pytest.mark.parametrize("days, uses, message", [
    (0, None, "from 1 to 365 days"), (366, None, "from 1 to 365 days"),
    (14, 0, "from 1 to 1,000 times"), (14, 1001, "from 1 to 1,000 times"),
])
def test_code_settings_out_of_range_are_refused(session, crew, days, uses, message):
    team_id, code, owner, *_rest = crew
    with pytest.raises(ServiceError, match=message):
        teams.create_join_code(session, owner, team_id, NOW, days=days, max_uses=uses)
    assert teams.load_join_code(session, team_id, NOW).code == code  # the old one still works


def test_a_wrong_code_and_a_malformed_one_say_so(session, crew):
    *_rest, outsider = crew
    with pytest.raises(NotFound, match="No team has the join code ABCD-EFGH"):
        join(session, outsider, "abcd-efgh")
    with pytest.raises(NotFound, match="A join code is 8 letters and digits"):
        join(session, outsider, "hello")


def test_joining_twice_changes_nothing(session, crew):
    team_id, code, _owner, _lead, member, _outsider = crew
    uses = session.scalar(select(TeamJoinCode.uses).where(TeamJoinCode.code == code))
    again = join(session, member, code)
    assert (again.joined, again.team_name) == (False, "Kernels")
    assert session.scalar(select(TeamJoinCode.uses).where(TeamJoinCode.code == code)) == uses
    assert role_of(session, team_id, member) == teams.MEMBER
    # Even once the code stopped working, a member is told they are in, not refused.
    teams.revoke_join_code(session, _owner, team_id, NOW)
    assert not join(session, member, code).joined
    assert teams.look_up_code(session, member, code, ADDRESS, NOW, LIMIT)[1] is True


def test_a_drawn_code_already_taken_is_drawn_again(session, crew):
    team_id, code, owner, *_rest = crew
    draws = iter([code, "ZZZZ2222"])
    made = teams.create_join_code(session, owner, team_id, NOW, draw=lambda: next(draws))
    assert made.code == "ZZZZ2222"
    assert teams.load_join_code(session, team_id, NOW).code == "ZZZZ2222"


def test_wrong_codes_are_throttled_per_address(session, crew):
    team_id, code, owner, *_rest, outsider = crew
    for n in range(LIMIT.per_address):
        with pytest.raises(NotFound):
            join(session, outsider, f"WXYZ{n + 2}ABC")
    with pytest.raises(LoginThrottled, match="Too many wrong join codes .* Try again in 15 "
                                             "minutes") as refused:
        join(session, outsider, code)  # even the right code, from this address
    assert refused.value.retry_after == LIMIT.window
    assert join(session, outsider, code, address="198.51.100.2").joined  # another address
    later = NOW + LIMIT.window + timedelta(seconds=1)
    assert not join(session, outsider, code, now=later).joined  # the window has passed


def test_real_codes_that_no_longer_work_are_not_counted_as_guesses(session, crew):
    team_id, code, owner, *_rest, outsider = crew
    teams.create_join_code(session, owner, team_id, NOW)  # revokes ``code``
    for _ in range(LIMIT.per_address + 2):
        with pytest.raises(teams.JoinCodeRefused):
            join(session, outsider, code)
    current = teams.load_join_code(session, team_id, NOW).code
    assert join(session, outsider, current).joined


def test_load_membership_and_require_lead(session, crew):
    team_id, _code, owner, lead, member, outsider = crew
    assert teams.require_lead(session, owner, team_id).is_owner
    assert teams.require_lead(session, lead, team_id).role == teams.LEAD
    with pytest.raises(Forbidden, match="Only the team's owner and leads"):
        teams.require_lead(session, member, team_id)
    for user, team in ((outsider, team_id), (owner, team_id + 1000)):
        with pytest.raises(NotFound, match="no such team, or you are not a member"):
            teams.load_membership(session, user, team)
    page = teams.load_team_page(session, member, team_id, NOW)
    assert [(m.username, m.role) for m in page.members] == [
        ("olga", "owner"), ("leo", "lead"), ("mia", "member")]
    assert page.code is None  # a member does not see the code
    assert teams.load_team_page(session, lead, team_id, NOW).code is not None


def test_the_owner_promotes_and_demotes_and_nobody_else_does(session, crew):
    team_id, _code, owner, lead, member, outsider = crew
    with pytest.raises(Forbidden, match="Only the team's owner"):
        teams.set_role(session, lead, team_id, member.id, teams.LEAD)
    with pytest.raises(Forbidden):
        teams.set_role(session, member, team_id, member.id, teams.LEAD)
    with pytest.raises(NotFound):
        teams.set_role(session, outsider, team_id, member.id, teams.LEAD)
    with pytest.raises(ServiceError, match="hand the team over"):
        teams.set_role(session, owner, team_id, member.id, teams.OWNER)
    with pytest.raises(ServiceError, match="That is you"):
        teams.set_role(session, owner, team_id, owner.id, teams.MEMBER)
    with pytest.raises(NotFound, match="not a member of this team"):
        teams.set_role(session, owner, team_id, outsider.id, teams.LEAD)
    assert teams.set_role(session, owner, team_id, member.id, teams.LEAD) == "mia"
    assert teams.set_role(session, owner, team_id, lead.id, teams.MEMBER) == "leo"
    assert (role_of(session, team_id, member), role_of(session, team_id, lead)) == (
        "lead", "member")


def test_who_may_remove_whom(session, crew):
    team_id, code, owner, lead, member, outsider = crew
    with pytest.raises(Forbidden, match="Nobody can remove the team's owner"):
        teams.remove_member(session, lead, team_id, owner.id)
    with pytest.raises(Forbidden):
        teams.remove_member(session, member, team_id, lead.id)
    with pytest.raises(NotFound):
        teams.remove_member(session, outsider, team_id, member.id)
    other_lead = make_user(session, "lena")
    join(session, other_lead, code)
    teams.set_role(session, owner, team_id, other_lead.id, teams.LEAD)
    with pytest.raises(Forbidden, match="Only the team's owner can remove a lead"):
        teams.remove_member(session, lead, team_id, other_lead.id)
    assert teams.remove_member(session, lead, team_id, member.id) == "mia"
    assert teams.remove_member(session, owner, team_id, other_lead.id) == "lena"
    assert [m.username for m in teams.list_members(session, team_id)] == ["olga", "leo"]


def test_handing_over_keeps_exactly_one_owner(session, crew):
    team_id, _code, owner, lead, member, outsider = crew
    with pytest.raises(Forbidden):
        teams.hand_over(session, lead, team_id, member.id)
    with pytest.raises(NotFound):
        teams.hand_over(session, owner, team_id, outsider.id)
    assert teams.hand_over(session, owner, team_id, member.id) == "mia"
    owners = session.scalars(select(TeamMember.user_id).where(
        TeamMember.team_id == team_id, TeamMember.role == teams.OWNER)).all()
    assert owners == [member.id] and role_of(session, team_id, owner) == teams.LEAD
    with pytest.raises(Forbidden):  # the old owner is a lead now
        teams.hand_over(session, owner, team_id, lead.id)
    assert teams.leave_team(session, owner, team_id) == "Kernels"


def test_the_owner_cannot_leave_and_is_told_what_to_do(session, crew):
    team_id, _code, owner, lead, member, outsider = crew
    with pytest.raises(Conflict, match="hand it over to another member first"):
        teams.leave_team(session, owner, team_id)
    with pytest.raises(NotFound):
        teams.leave_team(session, outsider, team_id)
    assert teams.leave_team(session, lead, team_id) == "Kernels"
    assert teams.leave_team(session, member, team_id) == "Kernels"
    with pytest.raises(Conflict, match="delete it instead, as you are its only member"):
        teams.leave_team(session, owner, team_id)


def test_deleting_needs_the_owner_and_the_name_typed(session, crew):
    team_id, _code, owner, lead, *_rest = crew
    with pytest.raises(Forbidden):
        teams.delete_team(session, lead, team_id, "Kernels")
    with pytest.raises(ServiceError, match="Type the team's name, Kernels, to confirm"):
        teams.delete_team(session, owner, team_id, "kernels")
    assert teams.delete_team(session, owner, team_id, " Kernels ") == "Kernels"
    assert session.scalar(select(func.count()).select_from(TeamMember)) == 0


def test_leaving_or_deleting_keeps_everyones_own_study(session, bank, crew):
    team_id, _code, owner, lead, member, _outsider = crew
    item_id = session.scalar(select(Item.id).limit(1))
    practice = PracticeSet(slug="s" * 22, owner_id=owner.id, title="Strides", parameters={},
                           seed=1, item_keys=[], created_at=NOW)
    session.add(practice)
    session.flush()
    for user in (lead, member):
        session.add(Review(user_id=user.id, item_id=item_id, reviewed_at=NOW, rating=3,
                           was_new=True, state_after={}, due_after=NOW, version_after=1,
                           fsrs_log={}))
        session.add(SetAttempt(set_id=practice.id, user_id=user.id, started_at=NOW,
                               team_id=team_id, score=2))
    session.commit()
    teams.leave_team(session, lead, team_id)
    teams.delete_team(session, owner, team_id, "Kernels")
    session.expire_all()
    assert session.scalar(select(func.count()).select_from(Review)) == 2
    attempts = session.execute(select(SetAttempt.user_id, SetAttempt.team_id,
                                      SetAttempt.score)).all()
    assert sorted(attempts) == sorted([(lead.id, None, 2), (member.id, None, 2)])


def test_an_owner_must_hand_over_or_delete_before_deleting_the_account(session, crew):
    team_id, _code, owner, lead, member, _outsider = crew
    second = teams.create_team(session, owner, "Another", None, NOW)

    def delete(user):
        return account_data.delete_account(session, user, "pw", user.username,
                                           address=ADDRESS, now=NOW, limits=LoginLimits())

    with pytest.raises(teams.OwnsTeams,
                       match="You own the teams “Another”, “Kernels”. Hand each over"):
        delete(owner)
    assert session.get(User, owner.id) is not None
    teams.hand_over(session, owner, team_id, lead.id)
    teams.delete_team(session, owner, second.team_id, "Another")
    delete(owner)
    assert session.get(User, owner.id) is None
    assert [m.username for m in teams.list_members(session, team_id)] == ["leo", "mia"]
    delete(member)  # a member's account goes with its memberships
    assert [m.username for m in teams.list_members(session, team_id)] == ["leo"]


def test_a_hand_over_checked_on_a_stale_read_changes_nothing(session, crew, monkeypatch):
    """Two hand-overs at once: the second read the owner before the first committed. Its
    owner row is a lead's by the time it writes, so it is refused and nothing changes."""
    team_id, _code, owner, lead, member, _outsider = crew
    teams.hand_over(session, owner, team_id, lead.id)
    stale = teams.Membership(team_id=team_id, team_name="Kernels", user_id=owner.id,
                             role=teams.OWNER)
    monkeypatch.setattr(teams, "require_owner", lambda *_args: stale)
    with pytest.raises(Conflict, match="You are no longer this team's owner"):
        teams.hand_over(session, owner, team_id, member.id)
    assert [(m.username, m.role) for m in teams.list_members(session, team_id)] == [
        ("leo", "owner"), ("olga", "lead"), ("mia", "member")]


def test_leaving_or_being_removed_ends_ones_chosen_assignments_of_that_team(session, crew):
    team_id, _code, owner, lead, member, outsider = crew
    other = teams.create_team(session, outsider, "Other", None, NOW)
    teams.create_join_code(session, outsider, other.team_id, NOW)
    tracks = [Track(team_id=team, title="Onboarding", created_at=NOW)
              for team in (team_id, other.team_id)]
    session.add_all(tracks)
    session.flush()
    assignments = [Assignment(track_id=track.id, whole_team=False, created_at=NOW)
                   for track in tracks]
    session.add_all(assignments)
    session.flush()
    session.add_all([AssignmentMember(assignment_id=assignments[0].id, user_id=user.id)
                     for user in (lead, member)]
                    + [AssignmentMember(assignment_id=assignments[1].id, user_id=member.id)])
    session.commit()
    teams.leave_team(session, lead, team_id)
    teams.remove_member(session, owner, team_id, member.id)
    left = session.execute(select(AssignmentMember.assignment_id, AssignmentMember.user_id)).all()
    assert left == [(assignments[1].id, member.id)]  # another team's assignment stays


def test_a_team_handed_over_after_the_check_stops_the_account_deletion(session, crew,
                                                                     monkeypatch):
    """The deletion's first check ran before a hand-over to the account committed: the
    delete itself still refuses, so the team keeps its (new) owner."""
    team_id, _code, owner, lead, *_rest = crew
    teams.hand_over(session, owner, team_id, lead.id)
    checks = iter([None])  # the first check passes, as it did before the hand-over

    def stale_then_true(*args):
        if next(checks, "again") == "again":
            return teams.validate_account_deletable(*args)
        return None

    monkeypatch.setattr(account_data, "validate_account_deletable", stale_then_true)
    with pytest.raises(teams.OwnsTeams, match="You own the team “Kernels”"):
        account_data.delete_account(session, lead, "pw", "leo", address=ADDRESS, now=NOW,
                                    limits=LoginLimits())
    assert session.get(User, lead.id) is not None
    assert role_of(session, team_id, lead) == teams.OWNER
