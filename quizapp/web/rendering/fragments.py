"""Rendered card answers, cached per card and content hash (the page shown most often)."""

from __future__ import annotations

from flask import Flask, current_app
from markupsafe import Markup

from quizapp.extensions import db
from quizapp.services import question_browser
from quizapp.services.items import BankCard, StudyItem

CARD_ANSWER_TEMPLATE = "study/_card_answer.html"
EXTENSION_KEY = "quizapp.card_answers"
# About 100 KiB of HTML per ten cards: a bank a hundred times today's size still fits.
CACHE_LIMIT = 10_000


def init_fragments(app: Flask) -> None:
    app.extensions[EXTENSION_KEY] = {}
    app.add_template_global(render_card_answer, "card_answer")


def render_card_answer(card: BankCard | StudyItem, *, linkable: bool = False) -> Markup:
    """The answer sections of ``card`` (Markdown, highlighted code, output, follow-ups), with
    ids on its parts when ``linkable`` (the question page: links to a part).

    The fragment reads only the card's own columns, and ``content_hash`` is computed from all of
    them (bank_import.compute_content_hash), so (key, hash) names one rendering; an edited card
    gets a new hash and is rendered afresh. With template auto-reload on (development), the
    template itself may change, so nothing is cached. The study page passes the StudyItem it
    read (no answer columns); the full card is loaded only when the fragment is rendered.
    """
    environment = current_app.jinja_env

    def render() -> Markup:
        # The template autoescapes and its Markdown filter sanitises with nh3.
        return Markup(environment.get_template(CARD_ANSWER_TEMPLATE).render(  # noqa: S704
            card=load_full_card(card), linkable=linkable))

    if environment.auto_reload:
        return render()
    cache: dict[tuple[str, str, bool], Markup] = current_app.extensions[EXTENSION_KEY]
    key = (card.key, card.content_hash, linkable)
    html = cache.get(key)
    if html is None:
        html = render()
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = html
    return html


def load_full_card(card: BankCard | StudyItem) -> BankCard:
    if isinstance(card, StudyItem):
        return question_browser.load_card(db.session, card.key)
    return card
