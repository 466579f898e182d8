"""The `quizapp` command group: Flask's, with a --help that survives a bad configuration."""

from __future__ import annotations

import importlib.metadata
import os
import platform

import click
from alembic.util import CommandError
from flask import Flask
from flask.cli import FlaskGroup, ScriptInfo

from quizapp.app import create_app
from quizapp.cli.failures import TRACEBACK_VARIABLE, describe_failure, is_fixable
from quizapp.extensions import migrate

MIGRATIONS_VARIABLE = "QUIZAPP_MIGRATIONS_PATH"


class QuizappGroup(FlaskGroup):
    """Flask's command group, loading quizapp's app; --help survives a bad configuration, and
    the app it loaded is kept so a database failure can name the database."""

    def __init__(self, **extra: object) -> None:
        # No .env files: python-dotenv is not installed, and settings come from the environment.
        super().__init__(create_app=self.load_quizapp, load_dotenv=False,
                         add_version_option=False, **extra)
        # Flask adds -e/--env-file regardless (it only works with python-dotenv) and -A/--app,
        # which names an app to import: this group always builds quizapp's own.
        self.params = [param for param in self.params if param.name not in ("env_file", "app")]
        # Flask's --version names Flask's version alone; this one names quizapp's first.
        self.params.append(click.Option(
            ["--version"], is_flag=True, expose_value=False, is_eager=True,
            callback=print_versions, help="Show the versions of quizapp, Python and Flask."))
        self.app: Flask | None = None

    def load_quizapp(self) -> Flask:
        self.app = create_app()
        return self.app

    def database_url(self) -> str | None:
        """The URL of the app's database, once a command has loaded the app."""
        return self.app.config["SQLALCHEMY_DATABASE_URI"] if self.app is not None else None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Flask loads the app to list its commands (db) and prints the traceback of any failure
        but NoAppException; a failure the user can fix becomes one line above the help."""
        try:
            ctx.ensure_object(ScriptInfo).load_app()
        except Exception as exc:
            failure = exc
        else:
            return super().list_commands(ctx)
        if os.environ.get(TRACEBACK_VARIABLE) or not is_fixable(failure):
            return super().list_commands(ctx)  # Flask loads it again and shows the traceback
        click.echo(f"Error: {describe_failure(failure)} (commands that need the app, such as "
                   "db, are not listed)", err=True)
        return sorted(super(FlaskGroup, self).list_commands(ctx))  # the group's own commands


def print_versions(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"quizapp {importlib.metadata.version('quizapp')}\n"
               f"Python {platform.python_version()}\n"
               f"Flask {importlib.metadata.version('flask')}")
    ctx.exit()


@migrate.configure
def refuse_missing_migrations_folder(config):  # noqa: ANN001, ANN201 (alembic's Config)
    """`quizapp db ...` on a migrations folder that does not exist: name the folder and where
    it came from, instead of alembic's advice to run `db init` (wrong for an operator)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.info_name == "init":  # not the command line, or creating the folder
        return config
    folder = config.get_main_option("script_location")
    if folder and not os.path.isdir(folder):
        if ctx.params.get("directory"):
            source = "--directory"
        elif os.environ.get(MIGRATIONS_VARIABLE):
            source = MIGRATIONS_VARIABLE
        else:
            source = "the default, the checkout's migrations/"
        raise CommandError(f"the migrations folder {os.path.abspath(folder)} does not exist "
                           f"(from {source})")
    return config
