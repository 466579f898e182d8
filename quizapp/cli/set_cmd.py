"""`quizapp set generate`: a practice set from the bank in content/, written as a file.

Works without a database. Every problem a person can fix (an unknown level, concept or family,
a count the bank cannot fill, a bad seed, a path that cannot be written) is one line and exit
status 2, and nothing is left half-written: the file is written beside the target and renamed
over it only when complete.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

import click

from quizapp.content import ContentError, configured_content_root, load_cards, load_concepts
from quizapp.practice_sets import (
    Bank,
    NotEnoughItems,
    SetParamsError,
    build_bank,
    canonicalize_params,
    card_from_content,
    draw_seed,
    generate,
)
from quizapp.practice_sets.exports import FORMATS, export_set

EXIT_USAGE = 2
OPTION_NAMES = {"levels": "--level", "concepts": "--concept", "families": "--family",
                "count": "--count", "puzzles": "--puzzles", "seed": "--seed",
                "title": "--title", "time_limit": "--time-limit", "params": "the parameters"}


class SetCommandError(click.ClickException):
    """One line, ``Error: ...``, and exit status 2."""

    exit_code = EXIT_USAGE


class OneLineCommand(click.Command):
    """click's usage errors (a missing option, a value for none) as one line too, without the
    usage text click prints above them."""

    def make_context(self, info_name, args, parent=None, **extra):  # noqa: ANN001, ANN201
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as err:
            raise SetCommandError(err.format_message()) from None


def load_bank(root: Path) -> Bank:
    try:
        cards = load_cards(root)
        concepts = load_concepts(root)
    except ContentError as err:
        count = len(err.problems)
        first = err.problems[0] if err.problems else "unknown problem"
        raise SetCommandError(
            f"the question bank at {root} has {count} problem{'s' if count != 1 else ''} "
            f"(first: {first}); see quizapp content check") from None
    return build_bank((card_from_content(card) for card in cards), concepts)


def compute_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def describe_os_error(err: OSError, path: str) -> str:
    reason = err.strerror or type(err).__name__
    return f"cannot write {path}: {reason}"


def write_atomically(path: str, data: bytes) -> None:
    """``data`` at ``path``, or nothing new there at all: a temporary file in the same folder,
    renamed over the target once written and flushed to disk."""
    target = Path(path)
    folder = target.parent
    try:
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed below, or removed)
            dir=folder, prefix=f".{target.name}.", suffix=".part", delete=False)
    except OSError as err:
        raise SetCommandError(describe_os_error(err, path)) from None
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, 0o666 & ~compute_umask())
        os.replace(handle.name, target)
    except OSError as err:
        Path(handle.name).unlink(missing_ok=True)
        raise SetCommandError(describe_os_error(err, path)) from None
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


@click.group("set")
def set_group() -> None:
    """Generated practice sets: seeded, shareable, exported to JSON, CSV, Markdown or Anki."""


@set_group.command("generate", cls=OneLineCommand)
@click.option("--level", "levels", multiple=True, metavar="LEVEL",
              help="Only this level (junior, middle, senior, principal); repeat for more.")
@click.option("--concept", "concepts", multiple=True, metavar="TAG",
              help="Only items about this concept (content/concepts.yaml); repeat for more.")
@click.option("--family", "families", multiple=True, metavar="FAMILY",
              help="Puzzles of this family only (quizapp puzzle --list); repeat for more.")
@click.option("--count", required=True, metavar="N", help="Number of items, 1-100.")
@click.option("--puzzles", default=None, metavar="P",
              help="How many of them are puzzles, 0 to N (default: half, or all when "
                   "--family is given).")
@click.option("--seed", default=None, metavar="S",
              help="Any integer; the same seed and options give the same set. Drawn and "
                   "shown when left out.")
@click.option("--title", default=None, help="The set's title.")
@click.option("--time-limit", "time_limit", default=None, metavar="MINUTES",
              help="Time limit, 1-240 minutes, recorded with the set.")
@click.option("--format", "format_name", required=True, metavar="json|csv|md|apkg",
              help="What to write: JSON, CSV for flashcard tools, Markdown, an Anki package.")
@click.option("-o", "--output", "output", required=True, metavar="PATH",
              help="The file to write (- for standard output).")
def generate_command(levels: tuple[str, ...], concepts: tuple[str, ...],
                     families: tuple[str, ...], count: str, puzzles: str | None,
                     seed: str | None, title: str | None, time_limit: str | None,
                     format_name: str, output: str) -> None:
    """Generate a practice set from the bank in content/ (or QUIZAPP_CONTENT_PATH) and write
    it to PATH. The same options give byte-identical JSON, CSV and Markdown, and the same
    Anki notes."""
    if format_name not in FORMATS:
        raise SetCommandError(f"unknown format {format_name!r}; the formats are "
                              f"{', '.join(FORMATS)}")
    root = configured_content_root()
    bank = load_bank(root)
    drawn = seed is None
    if drawn:
        seed = str(draw_seed(random.SystemRandom()))
    try:
        params = canonicalize_params(
            count=count, seed=seed, known_concepts=bank.concepts, levels=levels,
            concepts=concepts, families=families, puzzles=puzzles, title=title,
            time_limit=time_limit)
        items = generate(params, bank)
    except SetParamsError as err:
        raise SetCommandError(f"{OPTION_NAMES.get(err.field, err.field)}: {err}") from None
    except NotEnoughItems as err:
        raise SetCommandError(f"the bank cannot fill {params.count} items: {err} "
                              f"(at most {err.available} with these options)") from None
    data = export_set(format_name, params, items, now=time.time())
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_atomically(output, data)
    made = sum(item.kind == "puzzle" for item in items)
    again = f" (drawn: pass --seed {params.seed} to make it again)" if drawn else ""
    where = "standard output" if output == "-" else output
    click.echo(f"{len(items)} items ({made} puzzles), seed {params.seed}{again}, written to "
               f"{where} as {format_name}", err=True)
