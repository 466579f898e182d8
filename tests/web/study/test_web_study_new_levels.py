"""Settings' "New items from level": the queue introduces new cards and puzzle skills of that
level and above only; items already started, a card's Study it now and a list still reach the
levels below."""

from __future__ import annotations

import re

from sqlalchemy import select
from webtest_support import SETTINGS, csrf_token, post_settings, rate_current, register, shown_key

from quizapp.extensions import db
from quizapp.models import Item, User

NEW_RE = re.compile(r"<strong>(\d+)</strong> new</span>")


def new_keys_in_order(client, limit: int = 50) -> list[str]:
    """Rate every new item the queue shows Easy, in turn: their keys."""
    keys = []
    while len(keys) < limit and (key := shown_key(page := client.get("/study").text)):
        if 'data-item-kind="skill"' in page:
            page = client.get("/study").text
        assert rate_current(client, 4, page).status_code == 303
        keys.append(key)
    return keys


def levels_of(app, keys: list[str]) -> list[str]:
    with app.app_context():
        level = dict(db.session.execute(select(Item.key, Item.level)).all())
    return [level[key] for key in keys]


def test_by_default_every_level_comes_junior_first(app, client, bank):
    register(client, "sam")
    assert NEW_RE.search(client.get("/study").text).group(1) == str(len(bank))
    levels = levels_of(app, new_keys_in_order(client))
    assert levels == sorted(levels, key=("junior", "middle", "senior").index)
    assert set(levels) == {"junior", "middle", "senior"}


def test_from_middle_the_queue_leaves_junior_items_out_and_counts_so(app, client, bank):
    register(client, "sam")
    assert post_settings(client, new_from_level="middle").status_code == 303
    above = [card.id for card in bank if card.level != "junior"]
    assert NEW_RE.search(client.get("/study").text).group(1) == str(len(above))
    assert sorted(new_keys_in_order(client)) == sorted(above)
    assert NEW_RE.search(client.get("/study").text).group(1) == "0"
    # The junior cards are still there, out of the queue: a card's Study it now reaches one.
    page = client.get("/study?card=alpha-stride").text
    assert shown_key(page) == "alpha-stride"


def test_puzzle_skills_follow_the_level_too(app, client, skill_bank):
    register(client, "sam")
    post_settings(client, new_from_level="principal")
    keys = new_keys_in_order(client, limit=6)
    assert keys and set(levels_of(app, keys)) == {"principal"}
    assert all(key.endswith("/principal") for key in keys)  # skills ("family/level") only here


def test_items_already_started_below_the_level_keep_coming_back(app, client, bank, clock):
    register(client, "sam")
    first = client.get("/study").text
    started = shown_key(first)
    assert levels_of(app, [started]) == ["junior"]
    rate_current(client, 1, first)  # Again: a learning step, a minute away
    post_settings(client, new_from_level="senior")
    clock.advance(minutes=2)
    assert shown_key(client.get("/study").text) == started


def test_a_level_not_on_the_list_is_refused_and_a_form_without_it_keeps_the_setting(
        app, client, bank):
    register(client, "sam")
    post_settings(client, new_from_level="senior")
    page = client.get("/settings").text
    assert re.search(r'<option selected value="senior">Senior and above</option>', page)
    for typed in ("expert", "", "Senior", "junior " * 10):
        refused = post_settings(client, page, new_from_level=typed)
        assert refused.status_code == 400, typed
        assert "Pick a level from the list." in refused.text
    # A NUL is refused before any form reads it (web.http.input_guard), as in every field.
    assert post_settings(client, page, new_from_level="senior\x00").status_code == 400
    older_form = {name: value for name, value in SETTINGS.items() if name != "new_from_level"}
    assert client.post("/settings", data={"csrf_token": csrf_token(page), **older_form,
                                          "new_per_day": "9"}).status_code == 303
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.new_per_day, user.new_from_level) == (9, "senior")


def test_the_empty_queue_says_new_items_come_only_from_the_chosen_levels(app, client, bank):
    register(client, "sam")
    post_settings(client, new_from_level="senior")
    new_keys_in_order(client)
    page = client.get("/study").text
    assert "All done for now" in page
    assert "New items come from senior and above only, as set in" in page
    other = app.test_client()
    register(other, "tess")  # every level: her empty queue has no such note
    new_keys_in_order(other)
    page = other.get("/study").text
    assert "All done for now" in page and "New items come from" not in page


def test_the_empty_queue_names_principal_alone_without_saying_only_twice(client, bank):
    register(client, "sam")
    post_settings(client, new_from_level="principal")  # the sample bank has no principal card
    page = client.get("/study").text
    assert "All done for now" in page
    assert "New items come from principal only, as set in" in page
    assert "only only" not in page


def test_stats_says_how_many_never_rated_items_the_chosen_levels_bring_in(app, client, bank):
    """Stats counted every never-rated item as new (6) while the study page, set to senior and
    above, had 1 to bring in and, once it was rated, none: nothing on Stats said why."""
    register(client, "sam")
    post_settings(client, new_from_level="senior")
    page = client.get("/study/stats").text
    assert re.search(r'stat-number">6</span><span class="stat-label">new, never rated', page)
    assert "Of these, 1 is of senior and above, the levels your daily study brings in" in page
    new_keys_in_order(client)
    assert "Of these, 0 are of senior and above" in client.get("/study/stats").text
    post_settings(client, new_from_level="junior")  # every level: no such line
    assert "Of these" not in client.get("/study/stats").text
