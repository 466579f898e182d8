"""A server worker's start: its caches filled before the first request, then its heap frozen.

Measured under bench/server.py (notes in README "Benchmarks"): a worker that starts cold renders
each card's Markdown, code and answer on the first request that shows it, 12-25 ms of CPU where
a warm page costs 5 ms, and the 50 users of a study session meet the same new cards together,
so several threads render one card at once. The first request also compiled the templates it
used (130-150 ms). And the cyclic garbage collector's full passes walked the ~100,000 objects
that importing the app leaves (modules, functions, SQLAlchemy's and Jinja's structures): 80-180 ms
pauses, with every thread of the worker stopped. gunicorn calls ``warm_worker`` once per worker
(quizapp.gunicorn_config.post_worker_init), before the worker takes a request.
"""

from __future__ import annotations

import gc

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from quizapp.extensions import db
from quizapp.markup.markdown import render_markdown
from quizapp.services import question_browser
from quizapp.web.rendering.fragments import EXTENSION_KEY, render_card_answer

# A collection of the youngest objects every 20,000 new ones instead of every 700. A page
# building tens of thousands of short-lived rows (a team's dashboard) ran ~100 collections,
# each walking whatever of the page was still alive: 51 ms of a 330 ms page, 170 ms of the
# dashboard's CSV (bench/teams.py); with this, 25 and 70 ms. The cost is memory: at most
# 20,000 unreachable cycles wait a little longer to be freed.
YOUNG_THRESHOLD = 20_000


def compile_templates(app: Flask) -> int:
    """Every template parsed and compiled once (Jinja keeps them; it would on first use)."""
    names = app.jinja_env.list_templates(filter_func=lambda name: name.endswith(".html"))
    for name in names:
        app.jinja_env.get_template(name)
    return len(names)


def render_cards(app: Flask) -> int:
    """The parts of every current card a page renders: its question, its answer as the study
    page shows it and as the question page does (with an id on each part)."""
    with app.test_request_context():
        cards = question_browser.list_current_cards(db.session)
        for card in cards:
            render_markdown(card.question)
            render_card_answer(card)
            render_card_answer(card, linkable=True)
    return len(cards)  # leaving the context removes the session (Flask-SQLAlchemy's teardown)


def warm_caches(app: Flask) -> None:
    """Templates compiled and cards rendered; a database that cannot be read (not migrated yet,
    or down) leaves the cards to be rendered on first use, as without this, and says why."""
    templates = compile_templates(app)
    if app.jinja_env.auto_reload:  # development: nothing is cached (fragments.render_card_answer)
        app.logger.info("warm-up: %d templates compiled; cards not rendered (templates reload)",
                        templates)
        return
    try:
        cards = render_cards(app)
    except SQLAlchemyError as exc:
        app.logger.warning("warm-up: cards not rendered ahead, the database could not be read: %s",
                           str(exc).splitlines()[0])
        return
    app.logger.info("warm-up: %d templates compiled, %d cards rendered", templates, cards)


def warm_worker(app: object) -> None:
    """Fill the caches of a worker's quizapp app, then freeze what is on the heap.

    gc.freeze() moves every object alive now into a generation the collector never walks: the
    app's modules and caches live as long as the worker, so walking them found nothing to free.
    Objects made by requests are collected as before, the youngest less often
    (YOUNG_THRESHOLD). Anything else gunicorn serves with these
    settings (the app's error page when it failed to load, the benchmark's bare Flask app) is
    left as it is. A warm-up that fails is logged and the worker serves cold, as it did without
    one: the pages it could not render ahead fail or not on first use, not the server's start.
    """
    if not isinstance(app, Flask) or EXTENSION_KEY not in app.extensions:
        return
    try:
        warm_caches(app)
    except Exception:
        app.logger.exception("warm-up failed; this worker renders on first use instead")
    gc.collect()  # the warm-up's own garbage, so it is not frozen with the rest
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
