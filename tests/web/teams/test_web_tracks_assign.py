"""Assigning a track and working through it: the whole team (later joiners too) or chosen
members, per-person due dates, members' home and track pages (due, overdue, done), a set
step done at its pass mark by an attempt recorded for the team, a list step done once each
item is reviewed through the normal queue after the assignment started. Both databases."""

from __future__ import annotations

import re

import pytest
from sets_support import right_answer, shown_item, wrong_answer
from sqlalchemy import select
from tracks_support import (
    add_step,
    assign,
    create_track,
    join,
    make_crew,
    post,
    save_set,
    step_ids,
)
from webtest_support import counted_statements, csrf_token, rate_current, register, shown_key

from quizapp.extensions import db
from quizapp.models import Assignment, SetAttempt, TeamMember, User
from quizapp.services.track_standing import load_team_progress

# The sample bank's cards on views: beta-view (junior) and delta-reshape (middle), neither the
# queue's first new card (alpha-stride).
LIST = {"concept": "view"}


@pytest.fixture
def crew(app, skill_bank, clock):
    return make_crew(app, clock)


def build(crew, *, set_due: str = "", list_due: str = "", pass_mark: str = "100",
          **set_params) -> tuple[int, list[int]]:
    """A track of a two-card set (pass mark 100 %) and a two-card question list."""
    lead, team = crew["lead"], crew.team_id
    slug = save_set(lead, **set_params)
    track = create_track(lead, team)
    assert add_step(lead, team, track, "set", set_link=slug, pass_mark=pass_mark,
                    due=set_due).status_code == 303
    assert add_step(lead, team, track, "questions", due=list_due, **LIST).status_code == 303
    return track, step_ids(crew.app, track)


def home_status(client) -> list[str]:
    """The statuses of the assignments the home page lists."""
    return re.findall(r'data-assignment="[0-9]+" data-status="([a-z]+)"', client.get("/").text)


def take(client, slug: str, step: int, *, right: int) -> str:
    """Take the set from the step's link, answering the first ``right`` items rightly; the
    result page's text."""
    page = client.get(f"/sets/{slug}/take?step={step}")
    assert page.status_code == 200 and "data-step-claim" in page.text
    started = client.post(f"/sets/{slug}/take", data={"csrf_token": csrf_token(page.text),
                                                       "step": str(step)})
    assert started.status_code == 303
    url = started.location
    for position in range(2):
        shown = client.get(url).text
        kind, key, at = shown_item(shown)
        data = {"csrf_token": csrf_token(shown), "position": str(at)}
        good = position < right
        if kind == "card":
            data["grade"] = "knew" if good else "didnt"
        else:
            data["answer"] = right_answer(key) if good else wrong_answer(key)
        client.post(f"{url}/answer", data=data)
    return client.get(url).text


def undo_latest(client, page: str):
    """Press the status bar's Undo on ``page``, with the hidden fields it carries."""
    fields = dict(re.findall(r'<input (?:id="\w+" )?name="(review_id|review_token|then_list)" '
                             r'type="hidden" value="([^"]*)"', page))
    response = client.post("/study/undo", data={"csrf_token": csrf_token(page), **fields})
    assert response.status_code == 303, response.text


def last_active(app, crew, name: str):
    """The member's last work on the team's track, naive UTC (as SQLite reads it back)."""
    with app.app_context():
        at = db.session.scalar(select(TeamMember.last_active_at).where(
            TeamMember.team_id == crew.team_id, TeamMember.user_id == crew.ids[name]))
    return at.replace(tzinfo=None) if at else None


def set_slug(app, track: int) -> str:
    from quizapp.models import PracticeSet, TrackStep
    with app.app_context():
        return db.session.scalar(select(PracticeSet.slug).join(
            TrackStep, TrackStep.practice_set_id == PracticeSet.id)
            .where(TrackStep.track_id == track))


def test_a_whole_team_assignment_reaches_every_member_and_later_joiners(app, crew, clock):
    track, _ = build(crew)
    assert assign(crew["lead"], crew.team_id, track, to="team", due="2025-03-10").status_code == 303
    for name in ("member", "member2"):
        assert home_status(crew[name]) == ["due"], name
        page = crew[name].get(f"/teams/{crew.team_id}/tracks/{track}")
        assert page.status_code == 200 and "0 of 2 steps done" in page.text
    # Leads and the owner build and follow the track; it is not theirs to do.
    assert home_status(crew["lead"]) == [] and home_status(crew["owner"]) == []
    # Someone joining later has it from when they joined.
    late = app.test_client()
    register(late, "latecomer")
    with app.app_context():
        late_id = db.session.scalar(select(User.id).where(User.username == "latecomer"))
    join(app, crew.team_id, late_id, clock.advance(days=1))
    assert home_status(late) == ["due"]
    assert "Assigned to you since 2025-03-04 09:00" in late.get(
        f"/teams/{crew.team_id}/tracks/{track}").text
    # The team page's section lists the member's own track; a lead's lists every track.
    team_page = late.get(f"/teams/{crew.team_id}").text
    assert "Your track" in team_page and "Onboarding" in team_page
    assert "New track" in crew["lead"].get(f"/teams/{crew.team_id}").text


def test_an_assignment_to_chosen_members_is_theirs_alone(app, crew):
    track, _ = build(crew)
    assert assign(crew["lead"], crew.team_id, track, to="chosen",
                  people=[crew.ids["member"]]).status_code == 303
    assert home_status(crew["member"]) == ["open"]
    assert home_status(crew["member2"]) == []
    assert crew["member2"].get(f"/teams/{crew.team_id}/tracks/{track}").status_code == 404
    # Nobody gets one track twice; a whole-team assignment waits for the chosen one to go.
    twice = assign(crew["lead"], crew.team_id, track, to="chosen", people=[crew.ids["member"]])
    assert twice.status_code == 400 and "member has this track already" in twice.text
    whole = assign(crew["lead"], crew.team_id, track, to="team")
    assert whole.status_code == 400 and "This track is assigned already" in whole.text
    outsider = assign(crew["lead"], crew.team_id, track, to="chosen",
                      people=[crew.ids["outsider"]])
    assert outsider.status_code == 400 and "not in this team" in outsider.text
    nobody = assign(crew["lead"], crew.team_id, track, to="chosen")
    assert nobody.status_code == 400 and "Pick the members" in nobody.text
    with app.app_context():
        assert len(db.session.scalars(select(Assignment)).all()) == 1


def test_an_empty_track_cannot_be_assigned(app, crew):
    track = create_track(crew["lead"], crew.team_id)
    refused = assign(crew["lead"], crew.team_id, track, to="team")
    assert refused.status_code == 400 and "Add a step to the track before" in refused.text


def test_steps_fall_overdue_and_a_persons_own_date_moves_theirs(app, crew, clock):
    track, _ = build(crew, set_due="2025-03-04", list_due="2025-03-06")
    assign(crew["lead"], crew.team_id, track, to="team", due="2025-03-07")
    with app.app_context():
        assignment = db.session.scalar(select(Assignment.id))
    # Three more days for member2: every step of theirs moves by three days.
    extended = post(crew["lead"],
                    f"/teams/{crew.team_id}/tracks/{track}/assignments/{assignment}/people/"
                    f"{crew.ids['member2']}/due", due="2025-03-10")
    assert extended.status_code == 303
    clock.advance(days=2)  # 5 March, 09:00: the set step was due at the end of the 4th
    assert home_status(crew["member"]) == ["overdue"]
    assert home_status(crew["member2"]) == ["due"]
    page = crew["member2"].get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert "2025-03-07 23:59" in page  # the set step, moved from the 4th
    # Taking the extension back gives member2 the team's dates again.
    post(crew["lead"], f"/teams/{crew.team_id}/tracks/{track}/assignments/{assignment}/people/"
                       f"{crew.ids['member2']}/due", due="")
    assert home_status(crew["member2"]) == ["overdue"]


def test_a_set_step_is_done_by_an_attempt_for_the_team_at_its_pass_mark(app, crew, clock):
    track, (set_step, _) = build(crew, pass_mark="100")
    assign(crew["lead"], crew.team_id, track, to="team")
    slug = set_slug(app, track)
    member = crew["member"]
    take(member, slug, set_step, right=1)
    page = member.get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert "Your best: <strong data-best>1 of 2 (50 %)</strong>" in page
    assert f'data-step="{set_step}" data-status="open"' in page
    # The same set taken outside the track does not count for it.
    plain = member.get(f"/sets/{slug}/take")
    member.post(f"/sets/{slug}/take", data={"csrf_token": csrf_token(plain.text)})
    result = take(member, slug, set_step, right=2)
    assert "Take it again" in result and f'name="step" type="hidden" value="{set_step}"' in result
    assert f'href="/teams/{crew.team_id}/tracks/{track}">Back to your track' in result
    page = member.get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert f'data-step="{set_step}" data-status="done"' in page
    with app.app_context():
        recorded = db.session.execute(select(SetAttempt.team_id, SetAttempt.step_id).where(
            SetAttempt.user_id == crew.ids["member"]).order_by(SetAttempt.id)).all()
    assert recorded == [(crew.team_id, set_step), (None, None), (crew.team_id, set_step)]
    assert last_active(app, crew, "member") == clock().replace(tzinfo=None)
    assert last_active(app, crew, "member2") is None


def test_a_list_step_is_done_once_each_item_is_reviewed_after_it_was_assigned(app, crew, clock):
    track, (_, list_step) = build(crew)
    member = crew["member"]
    # Reviewed before the assignment: it does not count.
    before = member.get("/study?card=beta-view")
    rate_current(member, 3, before.text)
    clock.advance(minutes=5)
    assign(crew["lead"], crew.team_id, track, to="team")
    added = post(member, f"/teams/{crew.team_id}/tracks/{track}/steps/{list_step}/reviews")
    assert added.status_code == 303
    assert last_active(app, crew, "member") == clock().replace(tzinfo=None)
    page = member.get(added.location).text
    assert "Added 1 item to your reviews" in page
    assert "1 item you have studied already keep their schedule" in page
    assert '<span data-reviewed>0 of 2</span>' in page
    # The queue brings the added card first.
    shown = member.get("/study").text
    assert shown_key(shown) == "delta-reshape"
    rate_current(member, 3, shown)
    page = member.get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert '<span data-reviewed>1 of 2</span>' in page
    assert f'data-step="{list_step}" data-status="open"' in page
    again = member.get("/study?card=beta-view")
    rate_current(member, 3, again.text)
    page = member.get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert f'data-step="{list_step}" data-status="done"' in page
    assert '<span data-reviewed>2 of 2</span>' in page
    # Undoing that rating takes its review back: the step is open again.
    undo_latest(member, member.get("/study").text)
    page = member.get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert '<span data-reviewed>1 of 2</span>' in page


def test_a_set_taken_for_a_step_not_assigned_records_nothing(app, crew):
    track, (set_step, _) = build(crew)
    slug = set_slug(app, track)
    other = save_set(crew["lead"], seed="6", title="Another")
    assign(crew["lead"], crew.team_id, track, to="chosen", people=[crew.ids["member"]])
    for name, path, step in (("member2", slug, str(set_step)), ("outsider", slug, str(set_step)),
                             ("member", other, str(set_step)), ("member", slug, "99999"),
                             ("member", slug, "1x"), ("member", slug, "9" * 30)):
        client = crew[name]
        assert client.get(f"/sets/{path}/take?step={step}").status_code == 404, name
        page = client.get(f"/sets/{path}/take")
        response = client.post(f"/sets/{path}/take", data={
            "csrf_token": csrf_token(page.text), "step": step})
        assert response.status_code == 404, (name, step)
        assert "That step is not in a track assigned to you." in response.text
    with app.app_context():
        assert db.session.scalars(select(SetAttempt)).all() == []


def test_a_step_whose_set_was_deleted_shows_so_and_is_not_counted(app, crew):
    track, (set_step, list_step) = build(crew)
    assign(crew["lead"], crew.team_id, track, to="team")
    slug = set_slug(app, track)
    assert post(crew["lead"], f"/sets/{slug}/delete").status_code == 303
    page = crew["member"].get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert f'data-step="{set_step}" data-status="gone"' in page
    assert "0 of 1 step done" in page
    assert "Set deleted: this step cannot be taken" in crew["lead"].get(
        f"/teams/{crew.team_id}/tracks/{track}").text


def test_a_lead_who_assigns_the_track_to_themselves_sees_their_own_progress(app, crew):
    track, _ = build(crew)
    assign(crew["lead"], crew.team_id, track, to="chosen", people=[crew.ids["lead"]])
    assert home_status(crew["lead"]) == ["open"]
    manage = crew["lead"].get(f"/teams/{crew.team_id}/tracks/{track}").text
    assert "Add a step" in manage and "Your own progress on it" in manage
    mine = crew["lead"].get(f"/teams/{crew.team_id}/tracks/{track}?view=mine")
    assert mine.status_code == 200 and "0 of 2 steps done" in mine.text
    # The owner, who does not have it, has no own view of it.
    assert crew["owner"].get(f"/teams/{crew.team_id}/tracks/{track}?view=mine").status_code == 404


def test_the_teams_standing_takes_as_many_queries_for_more_members(app, crew, clock):
    track, _ = build(crew)
    assign(crew["lead"], crew.team_id, track, to="team")

    def count() -> tuple[int, int]:
        with counted_statements(app) as statements, app.app_context():
            rows = load_team_progress(db.session, crew.team_id, clock())
        return len(rows), len(statements)

    before = count()
    for n in range(3):
        newcomer = app.test_client()
        register(newcomer, f"newcomer{n}")
        with app.app_context():
            user_id = db.session.scalar(select(User.id).where(User.username == f"newcomer{n}"))
        join(app, crew.team_id, user_id, clock())
        rate_current(newcomer, 3, newcomer.get("/study?card=beta-view").text)
    after = count()
    assert (before[0], after[0]) == (2, 5)
    assert after[1] == before[1] <= 7  # the holders, then compute_progress's at most six


def test_a_refused_due_date_is_shown_again_as_typed_in_its_own_field(app, crew, clock):
    """The clock reads 3 March 2025: a day that has passed is refused, and the page shows the
    field that was sent with what was typed in it, the others with their stored dates."""
    track, _ = build(crew)
    assign(crew["lead"], crew.team_id, track, to="team", due="2025-03-07")
    with app.app_context():
        assignment = db.session.scalar(select(Assignment.id))
    base = f"/teams/{crew.team_id}/tracks/{track}/assignments/{assignment}"
    member2 = crew.ids["member2"]
    refused = post(crew["lead"], f"{base}/edit", due="2025-02-01")
    assert refused.status_code == 400 and "2025-02-01 has passed" in refused.text
    assert f'id="adue-{assignment}" name="due" type="date" value="2025-02-01"' in refused.text
    refused = post(crew["lead"], f"{base}/people/{member2}/due", due="2025-02-02")
    assert refused.status_code == 400 and "2025-02-02 has passed" in refused.text
    assert (f'id="pdue-{assignment}-{member2}" name="due" type="date" value="2025-02-02"'
            in refused.text)
    assert f'id="adue-{assignment}" name="due" type="date" value="2025-03-07"' in refused.text
    member = crew.ids["member"]
    assert f'id="pdue-{assignment}-{member}" name="due" type="date" value=""' in refused.text
    with app.app_context():  # nothing was saved
        assert db.session.scalar(select(Assignment.due_at)).date().isoformat() == "2025-03-07"
