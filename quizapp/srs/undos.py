"""Which study pages an undo has made out of date."""

from __future__ import annotations


def predates_undo(page_undos: int, item_id: int, undos: int,
                  last_undo_item_id: int | None) -> bool:
    """Whether a puzzle page shown after ``page_undos`` undos is out of date by an undo since
    (the user has made ``undos``, the latest of ``last_undo_item_id``). Undoing an item's first
    rating deletes its state, so its versions start again and a page of any version may look
    current; an undo of another item changes nothing on the page. After two or more undos, or
    one from before the item was stored (None), it is not known which items they took back, so
    such a page is refused (docs/decisions/0002-undo-and-puzzle-pages.md)."""
    if undos == page_undos:
        return False
    return undos != page_undos + 1 or last_undo_item_id in (None, item_id)
