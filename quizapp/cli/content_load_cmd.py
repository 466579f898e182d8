"""`quizapp content load`: import the question bank and the puzzle skills into the database."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from quizapp import puzzles
from quizapp.content import ContentError, load_cards, load_concepts
from quizapp.extensions import db
from quizapp.services.bank_import import load_bank
from quizapp.services.errors import ServiceError


@click.command("load")
@click.option("--path", "path", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The content folder (default: QUIZAPP_CONTENT_PATH when set, else the "
                   "repo's content/), as `content check` does.")
@with_appcontext
def load(path: Path | None) -> None:
    """Import cards (keyed by id; edits update in place, removed cards are retired) and skills."""
    # The app's CONTENT_PATH is configured_content_root(), `content check`'s default too.
    root = path or Path(current_app.config["CONTENT_PATH"])
    try:
        cards = load_cards(root)
        concepts = load_concepts(root)
    except ContentError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        reports = load_bank(db.session, cards, concepts, puzzles.families(),
                            current_app.config["CLOCK"]())
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None
    for name, report in reports.items():
        click.echo(f"{name}: {report.summary()}")
