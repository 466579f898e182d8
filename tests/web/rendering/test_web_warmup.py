"""A gunicorn worker's warm-up: every current card rendered ahead, templates compiled, heap frozen."""

from __future__ import annotations

import gc
import logging

import pytest
from flask import Flask
from webtest_support import register, shown_key

import quizapp.gunicorn_config as gunicorn_config
from quizapp import create_app
from quizapp.extensions import db
from quizapp.services.bank_import import import_cards
from quizapp.web.rendering import fragments, warmup
from quizapp.web.rendering.fragments import EXTENSION_KEY


@pytest.fixture
def freezes(monkeypatch):
    """gc.freeze() and the collector's new thresholds recorded instead of done: the test
    process's heap stays collectable as before. A warmed worker's record is WARMED."""
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *limits: calls.append(limits))
    return calls


WARMED = ["freeze", (warmup.YOUNG_THRESHOLD, *gc.get_threshold()[1:])]


def cached_keys(app) -> set[tuple[str, bool]]:
    return {(key, linkable) for key, _hash, linkable in app.extensions[EXTENSION_KEY]}


def test_every_current_card_is_rendered_both_ways_before_the_heap_is_frozen(
        app, bank, clock, freezes, monkeypatch):
    with app.app_context():  # the last card leaves the bank: retired, not rendered
        import_cards(db.session, bank[:-1], clock())
    seen_at_freeze = []
    monkeypatch.setattr(gc, "freeze", lambda: seen_at_freeze.append(cached_keys(app)))
    monkeypatch.setattr(gc, "set_threshold", lambda *limits: None)
    warmup.warm_worker(app)
    expected = {(card.id, linkable) for card in bank[:-1] for linkable in (False, True)}
    assert seen_at_freeze == [expected]
    assert ("zeta-channels", False) not in cached_keys(app)
    assert "study/card.html" in {name for _loader, name in app.jinja_env.cache.keys()}


def test_a_warm_worker_shows_a_card_without_rendering_its_answer(app, client, bank, freezes,
                                                                  monkeypatch):
    warmup.warm_worker(app)
    assert freezes == WARMED

    def refuse(card):
        raise AssertionError(f"{card.key} was rendered again: the warm-up cached another key")

    monkeypatch.setattr(fragments, "load_full_card", refuse)
    register(client, "warm")
    page = client.get("/study").text
    assert shown_key(page) == "alpha-stride" and "Basics of alpha-stride." in page
    assert "Basics of beta-view." in client.get("/questions/beta-view").text


def test_a_database_without_the_schema_leaves_cards_to_first_use_and_says_so(
        tmp_path, empty_database_url, freezes, caplog):
    config = {"SQLALCHEMY_DATABASE_URI": empty_database_url} if empty_database_url else {}
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), **config})
    try:
        with caplog.at_level(logging.WARNING):
            warmup.warm_worker(app)
    finally:
        with app.app_context():
            db.engine.dispose()
    assert "cards not rendered ahead, the database could not be read" in caplog.text
    assert app.extensions[EXTENSION_KEY] == {}
    assert freezes == WARMED  # the worker still starts, frozen


def test_with_templates_reloading_nothing_is_cached(make_app, bank, freezes, monkeypatch):
    # The fragment cache is off while templates reload, so rendering ahead would be wasted:
    # the warm-up must not render a card at all (an empty cache alone would not show it).
    rendered = []
    monkeypatch.setattr(warmup, "render_card_answer", lambda card, **_: rendered.append(card))
    app = make_app(TEMPLATES_AUTO_RELOAD=True)
    warmup.warm_worker(app)
    assert app.extensions[EXTENSION_KEY] == {}
    assert rendered == [] and freezes == WARMED


def test_a_card_that_fails_to_render_is_logged_and_the_worker_still_starts(
        app, bank, freezes, monkeypatch, caplog):
    def broken(card, *, linkable=False):
        raise ValueError(f"cannot render {card.key}")

    monkeypatch.setattr(warmup, "render_card_answer", broken)
    with caplog.at_level(logging.ERROR):
        warmup.warm_worker(app)
    assert "warm-up failed; this worker renders on first use instead" in caplog.text
    assert "cannot render alpha-stride" in caplog.text
    assert freezes == WARMED


def test_other_apps_gunicorn_may_serve_are_left_alone(freezes):
    warmup.warm_worker(lambda environ, start_response: [])  # gunicorn's page for a failed load
    warmup.warm_worker(Flask("bare"))  # bench/server.py's bare endpoint
    assert freezes == []


def test_gunicorn_warms_each_worker_with_its_own_app(monkeypatch):
    warmed = []
    monkeypatch.setattr(gunicorn_config, "warm_worker", warmed.append)

    class Worker:
        wsgi = object()

    gunicorn_config.post_worker_init(Worker())
    assert warmed == [Worker.wsgi]
