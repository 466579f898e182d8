"""Reading thousands of plain column rows at once, past the ORM's per-row work."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVarTuple

from sqlalchemy import Row, Select
from sqlalchemy.orm import Session

Columns = TypeVarTuple("Columns")


def read_rows(session: Session, statement: Select[*Columns]) -> Sequence[Row[*Columns]]:
    """Every row of ``statement`` (columns, not entities), fetched in one call on the session's
    connection: the ORM's result handling, and a fetch per row when a Core result is iterated,
    cost a team's dashboard more than its queries (tens of thousands of rows). The session
    still owns the transaction; nothing is flushed first, so callers only read."""
    return session.connection().execute(statement).all()
