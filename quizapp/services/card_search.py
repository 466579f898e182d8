"""Text search of the question bank: words in any order across a card's text, and a spelling hint."""

from __future__ import annotations

import difflib

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from quizapp.models import ItemConcept
from quizapp.services.search_text import WORD, compute_stem
from quizapp.services.study_items import CARD, ITEM


def _normalized(column):
    # As compute_search_words reads a query: lower case, "_" and "-" as spaces.
    return func.replace(func.replace(func.lower(column), "_", " "), "-", " ")


def _escape_like(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def compute_search_condition(words: list[str]):
    """Every word somewhere in the card: its text (search_text) or a concept tag."""
    terms = []
    for word in words:
        pattern = f"%{_escape_like(compute_stem(word))}%"
        in_tags = ITEM.c.id.in_(select(ItemConcept.item_id).where(
            _normalized(ItemConcept.concept).like(pattern, escape="\\")))
        terms.append(or_(CARD.c.search_text.like(pattern, escape="\\"), in_tags))
    return and_(*terms)


def compute_title_rank(words: list[str]):
    """0 for a card whose title holds every word, 1 otherwise: those come first."""
    in_title = and_(*(_normalized(ITEM.c.title).like(f"%{_escape_like(compute_stem(word))}%",
                                                     escape="\\")
                      for word in words))
    return case((in_title, 0), else_=1)


def suggest_search(session: Session, words: list[str]) -> str | None:
    """For a search that found nothing: the query with each word the bank's titles, questions
    and tags lack replaced by the closest one they have ("contigous" -> "contiguous"), or None
    when there is nothing close. Read only on an empty result."""
    vocabulary: set[str] = set()
    rows = session.execute(select(ITEM.c.title, CARD.c.question).join(
        CARD, CARD.c.item_id == ITEM.c.id).where(ITEM.c.retired.is_(False)))
    for title, question in rows:
        vocabulary.update(WORD.findall(f"{title} {question}".lower()))
    vocabulary.update(word for tag in session.scalars(select(ItemConcept.concept).distinct())
                      for word in WORD.findall(tag.lower()))
    fixed = [word if word in vocabulary or _found_anywhere(session, word) else
             next(iter(difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.75)), word)
             for word in words]
    return " ".join(fixed) if fixed != words else None


def _found_anywhere(session: Session, word: str) -> bool:
    """Whether some card has ``word`` (in an answer, say): a word that is there is kept."""
    found = (select(ITEM.c.id).select_from(ITEM.join(CARD, CARD.c.item_id == ITEM.c.id))
             .where(ITEM.c.retired.is_(False), compute_search_condition([word])).limit(1))
    return session.execute(found).first() is not None
