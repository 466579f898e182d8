"""The ``quizapp`` command: Flask's commands (run, db, ...) plus the project's own."""

from __future__ import annotations

import os

from flask_migrate.cli import db as migrate_commands

from quizapp.cli.content_cmd import content
from quizapp.cli.content_load_cmd import load
from quizapp.cli.db_backup_cmd import backup_command, restore_command
from quizapp.cli.explain_cmd import explain
from quizapp.cli.failures import run_reporting_failures
from quizapp.cli.group import QuizappGroup
from quizapp.cli.puzzle_cmd import puzzle
from quizapp.cli.set_cmd import set_group
from quizapp.private_files import PRIVATE_UMASK

cli = QuizappGroup(help="quizapp: tensor-layout quizzes, puzzles and the explorer.")
cli.add_command(explain)
cli.add_command(puzzle)
cli.add_command(content)
cli.add_command(set_group)
content.add_command(load)
# Flask-Migrate's `db` group (upgrade, migrate, ...) gets the two beside its own.
migrate_commands.add_command(backup_command)
migrate_commands.add_command(restore_command)


def main() -> None:
    os.umask(PRIVATE_UMASK)  # the database and anything else it writes: this account's only
    run_reporting_failures(lambda: cli.main(prog_name="quizapp"), database_url=cli.database_url)
