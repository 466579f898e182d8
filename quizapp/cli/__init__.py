"""The ``quizapp`` command: Flask's commands (run, db, ...) plus the project's own."""

from __future__ import annotations

from flask.cli import FlaskGroup

from quizapp.app import create_app
from quizapp.cli.content_cmd import content
from quizapp.cli.content_load_cmd import load
from quizapp.cli.explain_cmd import explain
from quizapp.cli.failures import run_reporting_failures
from quizapp.cli.puzzle_cmd import puzzle

cli = FlaskGroup(create_app=create_app, help="quizapp: tensor-layout quizzes, puzzles and the explorer.")
cli.add_command(explain)
cli.add_command(puzzle)
cli.add_command(content)
content.add_command(load)


def main() -> None:
    run_reporting_failures(lambda: cli.main(prog_name="quizapp"))
