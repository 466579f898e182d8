"""Browser fixtures: the app under a real WSGI server on loopback, Debian's chromium via Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from datetime import UTC, datetime

import pytest
from flask_migrate import upgrade
from webtest_support import MIGRATIONS, SeedSequence, concepts_for, make_card
from werkzeug.serving import make_server

from quizapp import create_app, puzzles
from quizapp.extensions import db
from quizapp.services.bank_import import load_bank

# Debian's chromium; QUIZAPP_CHROMIUM points elsewhere (used to check the skip path).
CHROMIUM = os.environ.get("QUIZAPP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


CARDS = [make_card("browser-one", title="Strides of a matrix"),
         make_card("browser-two", title="Offsets of a slice"),
         make_card("browser-three", title="Views of a transpose"),
         make_card("browser-four", title="Reshape or copy"),
         make_card("browser-five", title="Expand and zero strides")]


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is not installed (apt-get install chromium); browser tests need it"
        if os.environ.get("QUIZAPP_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " and QUIZAPP_REQUIRE_BROWSER=1", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def live_server(tmp_path):
    """The app on a temp SQLite DB, served by werkzeug's threaded WSGI server on 127.0.0.1."""
    seeds = SeedSequence(next_seed=4242)
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "PUZZLE_SEED_SOURCE": seeds})
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        load_bank(db.session, CARDS, concepts_for(CARDS, puzzles.families()),
                  puzzles.families(), datetime.now(UTC))
        db.session.remove()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{server.server_port}", "app": app, "seeds": seeds}
    server.shutdown()
    thread.join(timeout=10)
    with app.app_context():
        db.engine.dispose()
    shutil.rmtree(tmp_path, ignore_errors=True)


@pytest.fixture
def page(browser):
    context = browser.new_context()
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()
