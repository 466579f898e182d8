"""Browser fixtures: the app under a real WSGI server on loopback, Debian's chromium via Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask_migrate import upgrade
from werkzeug.serving import make_server

from quizapp import create_app, puzzles
from quizapp.content import Card, FollowUp
from quizapp.extensions import db
from quizapp.services.bank_import import load_bank

# Debian's chromium; QUIZAPP_CHROMIUM points elsewhere (used to check the skip path).
CHROMIUM = os.environ.get("QUIZAPP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MIGRATIONS = str(Path(__file__).resolve().parents[2] / "migrations")


@dataclass
class SeedSequence:
    """The app's puzzle seed source, recorded so a test knows which puzzle was shown."""

    next_seed: int = 4242
    given: list[int] = field(default_factory=list)

    def __call__(self) -> int:
        self.given.append(self.next_seed)
        self.next_seed += 1
        return self.given[-1]


def make_card(card_id: str, title: str) -> Card:
    return Card(
        id=card_id, title=title, level="junior", concepts=("stride",), importance="must-know",
        frequency="common", question=f"Explain **{title.lower()}**.",
        basics="A short answer.", solid="A longer answer.",
        code="import torch\nprint(torch.arange(6).view(2, 3).stride())\n", code_output="(3, 1)\n",
        go_deeper=(("junior", "J."), ("middle", "M."), ("senior", "S."), ("principal", "P.")),
        follow_ups=(FollowUp("Why?", "Because."), FollowUp("Then?", "Then.")),
        red_flags=("One.", "Two."), source_path=f"cards/{card_id}.md")


CARDS = [make_card("browser-one", "Strides of a matrix"),
         make_card("browser-two", "Offsets of a slice"),
         make_card("browser-three", "Views of a transpose"),
         make_card("browser-four", "Reshape or copy"),
         make_card("browser-five", "Expand and zero strides")]


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
    seeds = SeedSequence()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "PUZZLE_SEED_SOURCE": seeds})
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        load_bank(db.session, CARDS, {"stride": "How far apart elements are."},
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
