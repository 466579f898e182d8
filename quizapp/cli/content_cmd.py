"""`quizapp content`: placeholder until its issue lands."""

import click


@click.group("content")
def content() -> None:
    raise click.ClickException("not built yet")
