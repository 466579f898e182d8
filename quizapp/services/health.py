"""Health check use case: can the database answer a query?"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from quizapp.models import Item


def check_database(session: Session) -> tuple[bool, str]:
    """(ok, detail): a real query against a migrated table, so a missing schema is unhealthy."""
    try:
        # The item table alone: the Item entity would join card and skill to count rows.
        count = session.scalar(select(func.count()).select_from(Item.__table__))
    except SQLAlchemyError as exc:
        session.rollback()
        return False, type(exc).__name__
    return True, f"{count} items"
