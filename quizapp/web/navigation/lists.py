"""A question list's query string: read from a request or a carried text, written back, named.

The list page, a card's way back (?from=) and a studied list ("Study these", ?list=) all read
and write it, so it lives below the areas that link to each other.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlencode

from flask_login import current_user

from quizapp.services import paging, question_browser

# A question list's query string, as a card's way back (?from=) and a studied list (then_list)
# carry it.
LIST_QUERY_MAX = 400
# The list's own query parameters: a card opened from a filtered list carries them (?from=),
# so its way back returns to that list, not to every question.
LIST_KEYS = ("level", "concept", "importance", "mine", "q", "sort", "page")
TEXT_MAX_IN_QUERY = 200
WHITESPACE_CONTROLS = str.maketrans("\t\n\r\v\f", "     ")


def compute_list_query(pairs) -> dict[str, str]:
    """The list parameters among ``pairs`` (name, value), non-empty and bounded; the rest is
    dropped, so a crafted ``from`` can only lead to a question list."""
    kept: dict[str, str] = {}
    for name, value in pairs:
        # A tab or line break is a space, as the list page's search reads it; any other control
        # character drops the value: a NUL read out of a nested query string (?list=, ?from=)
        # is past the request's own NUL check, and PostgreSQL refuses it.
        value = value.translate(WHITESPACE_CONTROLS)
        if (name in LIST_KEYS and value.strip() and len(value) <= TEXT_MAX_IN_QUERY
                and not any(unicodedata.category(char) == "Cc" for char in value)):
            kept.setdefault(name, value)
    return kept


def compute_studied_list(pairs) -> tuple[dict[str, str], str]:
    """A list as "Study these" names it (``/study?list=``, carried by the rating and Undo
    forms): its parameters among ``pairs`` without the page number, and their query string,
    or "all" for the whole bank."""
    kept = compute_list_query(pairs)
    kept.pop("page", None)
    return kept, urlencode(kept) or "all"


def read_studied_list(text: str) -> tuple[dict[str, str], str]:
    """compute_studied_list of a carried list's query string (bounded)."""
    return compute_studied_list(parse_qsl(text[:LIST_QUERY_MAX]))


def compute_list_args(filters: question_browser.CardFilters) -> dict[str, str]:
    """The list's filters and order as query parameters (the set ones), without the page: what
    its pager and "Did you mean" links keep."""
    pairs = (("level", filters.level), ("concept", filters.concept),
             ("importance", filters.importance), ("mine", filters.mine), ("q", filters.text),
             ("sort", filters.sort))
    return {name: value for name, value in pairs if value}


def describe_filters(filters: question_browser.CardFilters) -> list[str]:
    """The list's filters in words, as its title and a studied list's note name it:
    ["senior", "channels last", "due now"] (the search text apart)."""
    mine = question_browser.MINE.get(filters.mine, "").lower() if filters.mine else ""
    words = (filters.level, filters.concept.replace("-", " "),
             filters.importance.replace("-", " "), mine)
    return [word for word in words if word]


def name_filters(filters: question_browser.CardFilters) -> str:
    """A list's filters and search in words, as the studied list's note and the list page's
    folded filters name them: "senior, due now; search “view”" ("" for the whole bank)."""
    text = " ".join(filters.text.split())
    parts = (", ".join(describe_filters(filters)), f"search “{text}”" if text else "")
    return "; ".join(part for part in parts if part)


def compute_filters(args: Mapping[str, str]) -> question_browser.CardFilters:
    """The list's filters in ``args`` (its query parameters), as the list page reads them."""
    return question_browser.CardFilters(
        # The lists show "Senior", "channels last" and "Should know": a typed URL may too.
        level=args.get("level", "").strip().lower(),
        concept=args.get("concept", "").strip().lower().replace(" ", "-"),
        importance=args.get("importance", "").strip().lower().replace(" ", "-"),
        text=args.get("q", ""),
        page=paging.read_page_number(args.get("page", "1")),
        sort=args.get("sort", "").strip().lower(),
        # Read for a signed-in person only: a shared link with it lists every card to others.
        mine=args.get("mine", "").strip().lower() if current_user.is_authenticated else "")
