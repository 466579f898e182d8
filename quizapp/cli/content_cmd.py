"""`quizapp content`: commands for the question bank in content/."""

from __future__ import annotations

import os
from pathlib import Path

import click

from quizapp import puzzles
from quizapp.cli.failures import require_torch
from quizapp.content import (
    ContentError,
    Problem,
    SampleRunnerError,
    check_bank,
    configured_content_root,
    load_concepts,
)
from quizapp.services.bank_import import compute_unknown_family_concepts


def canonicalize_root(path: Path | None) -> Path:
    """The content folder to use, shown relative to the working directory when it is below it."""
    root = path if path is not None else configured_content_root()
    relative = os.path.relpath(root.resolve())
    return Path(relative) if not relative.startswith("..") else root


def compute_family_concept_problems(root: Path) -> list[Problem]:
    """What `content load` would refuse beyond the files: a puzzle family (written in code)
    tagged with a concept this folder's concepts.yaml does not list."""
    try:
        concepts = load_concepts(root)
    except ContentError:
        return []  # the check already reports what is wrong with concepts.yaml itself
    return [Problem(str(root / "concepts.yaml"), 1, message)
            for message in compute_unknown_family_concepts(puzzles.families(), concepts)]


@click.group("content")
def content() -> None:
    """The question bank in content/ (cards, concept tags)."""


@content.command("check")
@click.option("--path", "path", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Content folder to check (default: QUIZAPP_CONTENT_PATH when set, else "
                   "the repo's content/), as `content load` does.")
@click.option("--no-run", "no_run", is_flag=True,
              help="Validate the files only; do not execute the code samples.")
def check(path: Path | None, no_run: bool) -> None:
    """Validate every card and run every code sample; exit status 1 on any problem.

    The puzzle families' concept tags are checked against concepts.yaml too, as `content
    load` checks them."""
    root = canonicalize_root(path)
    if not no_run:  # `make run` installs no torch; --no-run still validates every card
        require_torch("content check (without --no-run)")
    try:
        report = check_bank(root, run=not no_run)
    except SampleRunnerError as err:
        raise click.ClickException(str(err)) from None
    problems = sorted([*report.problems, *compute_family_concept_problems(root)])
    for problem in problems:
        click.echo(str(problem))
    count = len(problems)
    if no_run:
        ran = "samples not run (--no-run)"
    elif report.torch_version is None:
        ran = "no samples to run"
    else:
        ran = f"ran {report.samples_run} samples under torch {report.torch_version}"
    click.echo(f"{root}: {report.files} files, {report.cards} valid cards, {ran}; "
               f"{count} problem{'s' if count != 1 else ''}")
    if count:
        click.get_current_context().exit(1)
