"""Importing the bank: keyed by card id, edits update in place, removed cards are retired."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import func, select
from webtest_support import make_card, rate_current, register

from quizapp.extensions import db
from quizapp.models import Card, Item, Review, ReviewState
from quizapp.services.bank_import import compute_skill_rows, import_cards, load_bank, sync_skills
from quizapp.services.errors import ServiceError


def cards_by_key(app) -> dict[str, Card]:
    with app.app_context():
        return {card.key: card for card in db.session.scalars(select(Card))}


def test_first_import_adds_every_card(app, bank):
    assert set(cards_by_key(app)) == {card.id for card in bank}
    with app.app_context():
        alpha = db.session.scalar(select(Card).where(Card.key == "alpha-stride"))
        assert alpha.question == bank[0].question and alpha.code_output == "(3, 1)\n"
        assert alpha.follow_ups[0] == {"question": "Why?", "answer": "Because."}
        assert alpha.go_deeper[0] == ["junior", "J."]
        assert alpha.concept_tags == ["shape", "stride"]


def test_changed_text_updates_the_card_and_keeps_review_history(app, client, bank, clock):
    register(client, "reader")
    assert rate_current(client, 3).status_code == 303  # reviews alpha-stride, the first new card
    with app.app_context():
        state_before = db.session.scalar(select(ReviewState))
        snapshot = (state_before.id, state_before.state, state_before.due, state_before.version)
        item_id = state_before.item_id
    edited = [dataclasses.replace(bank[0], question="A reworded question.",
                                  concepts=("stride",)), *bank[1:]]
    clock.advance(hours=1)
    with app.app_context():
        report = import_cards(db.session, edited, clock())
        assert report.updated == ["alpha-stride"]
        assert sorted(report.unchanged) == sorted(card.id for card in bank[1:])
        card = db.session.get(Item, item_id)
        assert card.key == "alpha-stride" and card.question == "A reworded question."
        assert card.concept_tags == ["stride"]
        state = db.session.scalar(select(ReviewState))
        assert (state.id, state.state, state.due, state.version) == snapshot
        assert db.session.scalar(select(func.count()).select_from(Review)) == 1


def test_removed_cards_are_retired_not_deleted_and_come_back(app, client, bank, clock):
    register(client, "reader")
    rate_current(client, 3)
    with app.app_context():
        report = import_cards(db.session, bank[1:], clock())
        assert report.retired == ["alpha-stride"]
        retired = db.session.scalar(select(Card).where(Card.key == "alpha-stride"))
        assert retired.retired and retired.retired_at == clock()
        assert db.session.scalar(select(func.count()).select_from(Review)) == 1
    # Retired cards leave the study queue but their page still opens.
    study = client.get("/study").text
    assert 'data-item-key="alpha-stride"' not in study
    # The latest rating was of it: the status bar no longer promises it comes back.
    assert "has since left the question bank, so it will not come back" in study
    assert "comes back in" not in study
    assert client.get("/questions/alpha-stride").status_code == 200
    assert "retired" in client.get("/questions/alpha-stride").text
    with app.app_context():
        report = import_cards(db.session, bank, clock())
        assert report.restored == ["alpha-stride"]
        # Counted once, as restored: the counts add up to the cards imported.
        assert "alpha-stride" not in report.unchanged + report.updated
        assert len(report.unchanged) == len(bank) - 1 and report.updated == []
        assert not db.session.scalar(select(Card).where(Card.key == "alpha-stride")).retired


def test_unchanged_import_is_a_no_op(app, bank, clock):
    with app.app_context():
        report = import_cards(db.session, bank, clock())
    assert sorted(report.unchanged) == sorted(card.id for card in bank)
    assert not (report.added or report.updated or report.retired)


def test_duplicate_ids_and_empty_banks_are_refused(app, bank, clock):
    with app.app_context():
        with pytest.raises(ServiceError, match="twice"):
            import_cards(db.session, [bank[0], bank[0]], clock())
        with pytest.raises(ServiceError, match="refusing"):
            import_cards(db.session, [], clock())
        db.session.rollback()
        assert db.session.scalar(select(func.count()).select_from(Card)) == len(bank)


def test_a_family_tagged_with_an_unknown_concept_is_refused_and_nothing_lands(app, bank, clock):
    families = [{"id": "fresh-strides", "title": "Fresh strides", "levels": ["junior"],
                 "concepts": ["stride", "bogus-tag"]}]
    changed = dataclasses.replace(bank[0], title="A new title")
    with app.app_context():
        with pytest.raises(ServiceError, match="'fresh-strides' is tagged with bogus-tag"):
            load_bank(db.session, [changed, *bank[1:]], {"stride": "How far apart."}, families,
                      clock())
        assert db.session.scalar(select(Item).where(Item.key == "fresh-strides/junior")) is None
        assert db.session.scalar(select(Card.title).where(Card.key == bank[0].id)) == bank[0].title


def test_new_order_goes_by_level_then_importance(app, bank):
    with app.app_context():
        keys = list(db.session.scalars(select(Item.key).order_by(Item.new_order)))
    assert keys[:3] == ["alpha-stride", "gamma-offset", "beta-view"]  # must-know before should-know
    assert keys.index("delta-reshape") > keys.index("beta-view")
    assert keys[-1] == "zeta-channels"


def test_skills_are_one_per_family_and_level_and_interleave_with_cards(app, bank, clock):
    families = [{"id": "fresh-strides", "title": "Fresh strides", "levels": ["junior", "middle"],
                 "concepts": ["stride"]}]
    assert [row["key"] for row in compute_skill_rows(families)] == [
        "fresh-strides/junior", "fresh-strides/middle"]
    with app.app_context():
        from quizapp.services.bank_import import renumber_new_order

        report = sync_skills(db.session, families, clock())
        renumber_new_order(db.session)
        db.session.commit()
        assert report.added == ["fresh-strides/junior", "fresh-strides/middle"]
        keys = list(db.session.scalars(select(Item.key).order_by(Item.new_order)))
    assert keys[3] == "fresh-strides/junior"  # after the first three junior cards
    assert keys.index("fresh-strides/middle") > keys.index("delta-reshape")


def test_a_new_card_is_added_without_disturbing_others(app, bank, clock):
    with app.app_context():
        report = import_cards(db.session, [*bank, make_card("eta-new")], clock())
    assert report.added == ["eta-new"]
    assert "eta-new" in cards_by_key(app)
