"""`quizapp puzzle`: placeholder until its issue lands."""

import click


@click.command("puzzle")
def puzzle() -> None:
    raise click.ClickException("not built yet")
