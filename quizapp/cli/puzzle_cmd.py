"""`quizapp puzzle`: list families, play one generated puzzle, or verify oracles under torch."""

from __future__ import annotations

import secrets
import sys

import click
from click.core import ParameterSource

from quizapp.cli.failures import require_torch
from quizapp.puzzles import LEVELS, check, families, generate
from quizapp.puzzles.registry import FAMILIES, MAX_SEED
from quizapp.puzzles.rendering import LETTERS, fmt_answer
from quizapp.puzzles.verify import verify

MAX_TRIES = 3


def print_list() -> None:
    width = max(len(f["id"]) for f in families())
    for f in families():
        click.echo(f"{f['id']:<{width}}  {', '.join(f['levels']):<34}  {f['title']}")


def print_puzzle(puzzle: dict) -> None:
    click.echo(f"# {puzzle['id']}\n")
    click.echo(puzzle["prompt"] + "\n")
    click.echo("```python\n" + puzzle["code"] + "\n```")
    for letter, choice in zip(LETTERS, puzzle["choices"] or (), strict=False):
        click.echo(f"  ({letter}) {choice}")


def print_answer(puzzle: dict) -> None:
    click.echo(f"\nAnswer: {fmt_answer(puzzle['answer_kind'], puzzle['answer'])}\n")
    click.echo(puzzle["explanation"] + "\n")
    click.echo("Oracle (run it under torch to check the answer):\n")
    click.echo(puzzle["oracle"])


def ask(puzzle: dict) -> None:
    """Read answers from stdin until one can be parsed, then print the verdict and feedback."""
    stdin = sys.stdin
    for _ in range(MAX_TRIES):
        click.echo("\nYour answer: ", nl=False)
        line = stdin.readline()
        if not line:
            raise click.ClickException("no answer on stdin")
        if not stdin.isatty():
            click.echo()
        result = check(puzzle, line.strip())
        if result["error"] is None:
            click.echo("correct" if result["correct"] else "wrong")
            click.echo(result["feedback"])
            if not result["correct"]:
                click.echo(f"Answer: {fmt_answer(puzzle['answer_kind'], puzzle['answer'])}")
            return
        click.echo(result["error"])
    raise click.ClickException(f"no readable answer after {MAX_TRIES} tries")


def validate_family(family: str) -> None:
    if family not in FAMILIES:
        raise click.UsageError(f"unknown family {family!r}; see quizapp puzzle --list")


def run_verify(count: int, family: str | None, level: str | None, seed: int | None) -> None:
    """Every family and level from seed 0, or only the FAMILY, --level and --seed given."""
    if family is not None:
        validate_family(family)
        if level is not None and level not in FAMILIES[family].levels:
            raise click.UsageError(f"{family} has no {level} level; its levels are "
                                   f"{', '.join(FAMILIES[family].levels)}")
    if (seed or 0) + count - 1 > MAX_SEED:
        raise click.UsageError(f"--seed plus --count passes the largest seed, {MAX_SEED}")
    require_torch("--verify")
    summary = verify(count, families=None if family is None else [family],
                     first_seed=seed or 0, levels=None if level is None else [level])
    for mismatch in summary.mismatches[:20]:
        click.echo(
            f"MISMATCH {mismatch.puzzle_id}: answer {mismatch.expected}, torch {mismatch.got}",
            err=True,
        )
    click.echo(summary.line())
    if not summary.ok:
        raise SystemExit(1)


@click.command("puzzle")
@click.argument("family", required=False)
@click.option("--level", type=click.Choice(LEVELS), help="Level (default: the family's first).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), help="Seed (default: a random one).")
@click.option("--answer", "show_answer", is_flag=True, help="Print answer, explanation, oracle.")
@click.option("--list", "list_families", is_flag=True, help="List the puzzle families.")
@click.option("--verify", "verify_oracles", is_flag=True, help="Check oracles under torch.")
@click.option(
    "--count",
    type=click.IntRange(1, 100_000),
    default=20,
    show_default=True,
    help="Puzzles per family and level for --verify (of FAMILY and --level when given, "
         "seeds from --seed on).",
)
def puzzle(
    family: str | None,
    level: str | None,
    seed: int | None,
    show_answer: bool,
    list_families: bool,
    verify_oracles: bool,
    count: int,
) -> None:
    """Play a generated stride puzzle: FAMILY with --level and --seed.

    Without --answer the prompt is printed and an answer is read from stdin. With --verify,
    every family's oracles run under torch (only FAMILY's, --level's, from --seed, if given).
    """
    if list_families:
        if family is not None or level or seed is not None or verify_oracles or show_answer:
            raise click.UsageError("--list takes nothing else: it lists every family")
        print_list()
        return
    if verify_oracles:
        if show_answer:
            raise click.UsageError("--answer is for playing one puzzle, not with --verify")
        run_verify(count, family, level, seed)
        return
    if click.get_current_context().get_parameter_source("count") is not ParameterSource.DEFAULT:
        raise click.UsageError("--count is the number of puzzles per level for --verify")
    if family is None:
        raise click.UsageError("give a FAMILY (see --list), or use --list or --verify")
    validate_family(family)
    level = level or FAMILIES[family].levels[0]
    seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
    try:
        data = generate(family, level, seed)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    print_puzzle(data)
    if show_answer:
        print_answer(data)
    else:
        ask(data)
