"""Text search of the question bank: terms in any order across a card's text, and a spelling hint."""

from __future__ import annotations

import difflib

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from quizapp.models import ItemConcept
from quizapp.services.store.search_text import compute_term_pattern, compute_words
from quizapp.services.store.study_items import CARD, ITEM

Term = tuple[str, ...]
# A suggestion replaces a word the bank lacks by one it has that reads nearly the same: close
# (difflib's ratio), with the same first letter and about as long, so that "noncontiguous" is
# not offered its opposite nor "tensorflow" "tensor".
SUGGEST_CUTOFF = 0.8
SUGGEST_LENGTH_SLACK = 2


def compute_search_condition(terms: list[Term]):
    """Every term somewhere in the card's text or concept tags (both in search_text)."""
    return and_(*(CARD.c.search_text.like(compute_term_pattern(term)) for term in terms))


def compute_title_rank(terms: list[Term]):
    """0 for a card whose title holds every term, 1 otherwise: those come first."""
    in_title = and_(*(CARD.c.search_title.like(compute_term_pattern(term)) for term in terms))
    return case((in_title, 0), else_=1)


def count_matching(session: Session, terms: list[Term]) -> int:
    """Active cards holding every term, whatever their level, concept or importance."""
    return session.scalar(
        select(func.count()).select_from(ITEM.join(CARD, CARD.c.item_id == ITEM.c.id))
        .where(ITEM.c.retired.is_(False), compute_search_condition(terms))) or 0


def suggest_search(session: Session, terms: list[Term]) -> str | None:
    """For a search that found nothing: the query with each word no card has replaced by the
    nearest word of the bank's titles, questions and tags ("contigous" -> "contiguous"), or
    None when nothing reads close enough. Read only on an empty result."""
    vocabulary: set[str] = set()
    rows = session.execute(select(ITEM.c.title, CARD.c.question).join(
        CARD, CARD.c.item_id == ITEM.c.id).where(ITEM.c.retired.is_(False)))
    for title, question in rows:
        vocabulary.update(compute_words(f"{title} {question}"))
    vocabulary.update(word for tag in session.scalars(select(ItemConcept.concept).distinct())
                      for word in compute_words(tag))
    # Each word of the query is looked up at most once (a query is at most 12 terms of 6).
    unknown = {word for term in terms for word in term if word not in vocabulary}
    missing = {word for word in unknown if not count_matching(session, [(word,)])}
    fixed = [tuple(_nearest(word, vocabulary) if word in missing else word for word in term)
             for term in terms]
    return " ".join("_".join(term) for term in fixed) if fixed != terms else None


def _nearest(word: str, vocabulary: set[str]) -> str:
    candidates = [known for known in vocabulary if known[:1] == word[:1]
                  and abs(len(known) - len(word)) <= SUGGEST_LENGTH_SLACK]
    return next(iter(difflib.get_close_matches(word, candidates, n=1, cutoff=SUGGEST_CUTOFF)),
                word)
