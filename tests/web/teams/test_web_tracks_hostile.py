"""Every field of the track forms fed hostile values by a lead, on both databases: never a 500,
and some bodies reach the use case (so the forms do not just refuse everything)."""

from __future__ import annotations

import pytest
from test_web_hostile_inputs import HOSTILE
from tracks_support import make_crew, save_set
from webtest_support import csrf_token

from quizapp.extensions import db
from quizapp.models import User
from quizapp.services import tracks as service

TRACK = "/teams/{team}/tracks/{track}"
# Per route: the fields varied one at a time, the well-formed body they go into, and the
# statuses that show a body got through the form to the use case.
FORMS = {
    "/teams/{team}/tracks": ([("title",), ("description",)],
                             {"title": "T", "description": ""}, {303}),
    TRACK + "/edit": ([("title",), ("description",)], {"title": "T", "description": ""}, {303}),
    TRACK + "/steps": ([("kind",), ("set_link",), ("title",), ("pass_mark",), ("due",)],
                       {"kind": "set", "set_link": "{slug}", "title": "", "pass_mark": "50",
                        "due": ""}, {303}),
    TRACK + "/steps#questions": ([("list_link",), ("level",), ("concept",), ("importance",),
                                  ("q",), ("due",)],
                                 {"kind": "questions", "level": "junior"}, {303}),
    TRACK + "/steps#skills": ([("skills",), ("title",), ("due",)],
                              {"kind": "skills", "skills": "tolist/junior"}, {303}),
    TRACK + "/steps/{step}/edit": ([("title",), ("pass_mark",), ("due",)],
                                   {"title": "S", "pass_mark": "", "due": ""}, {303}),
    # Only "up" and "down" move a step: every hostile direction is refused as damaged.
    TRACK + "/steps/{step}/move": ([("direction",)], {"direction": "up"}, {400}),
    TRACK + "/assignments": ([("to",), ("people",), ("due",)],
                             {"to": "chosen", "people": "{member}", "due": ""}, {303}),
    TRACK + "/assignments/{assignment}/edit": ([("due",)], {"due": ""}, {303}),
    TRACK + "/assignments/{assignment}/people/{member}/due": ([("due",)], {"due": ""}, {303}),
}


@pytest.mark.parametrize("route", list(FORMS))
def test_hostile_values_in_the_track_forms_never_cause_a_500(app, skill_bank, clock, route):
    crew = make_crew(app, clock)
    lead = crew["lead"]
    slug = save_set(lead)
    fields, form, through = FORMS[route]
    statuses = set()
    token = csrf_token(lead.get(f"/teams/{crew.team_id}/tracks/new").text)  # the session's
    with app.app_context():  # one track for every body: none of these routes deletes
        user = db.session.get(User, crew.ids["lead"])
        track = service.create_track(db.session, user, crew.team_id, "T", None, clock())
        step = service.add_skills_step(db.session, user, crew.team_id, track,
                                       ["tolist/junior"], title="S", due_at=None)
        service.add_skills_step(db.session, user, crew.team_id, track, ["shape_after/junior"],
                                title="S2", due_at=None)
        assignment = service.assign_track(
            db.session, user, crew.team_id, track, whole_team=False,
            user_ids=[crew.ids["member2"]], due_at=None, now=clock())
    ids = {"team": crew.team_id, "track": track, "step": step, "slug": slug,
           "assignment": assignment,
           "member": crew.ids["member2"] if "people" in route else crew.ids["member"]}
    for group in fields:
        for value in HOSTILE:
            body = {name: text.format(**ids) for name, text in form.items()}
            body.update({name: value for name in group})
            body["csrf_token"] = token
            response = lead.post(route.split("#")[0].format(**ids), data=body)
            assert response.status_code < 500, (route, group, value[:40])
            statuses.add(response.status_code)
    assert statuses & through, statuses
