"""`quizapp explain`: placeholder until its issue lands."""

import click


@click.command("explain")
def explain() -> None:
    raise click.ClickException("not built yet")
