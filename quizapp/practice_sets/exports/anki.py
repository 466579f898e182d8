"""The set as an Anki package (.apkg) written with genanki, entirely in memory.

One deck per set; quizapp's own note type with fixed ids; every note's GUID from its item's
stable key (never from its text), so importing an updated set updates its notes. Fields are
HTML: text escaped, Markdown sanitised by the app's pipeline with the code colours inline,
since Anki has none of the app's CSS. genanki's Package.write_to_file builds the collection
in a temporary file it never deletes; here it goes to an in-memory SQLite database instead.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import sqlite3
import zipfile
from collections.abc import Sequence
from html import escape

import genanki

from quizapp.markup.inline_html import (
    render_markdown_inline_styled,
    render_python_inline_styled,
    render_text_block,
)
from quizapp.practice_sets.exports.as_json import compute_parameters
from quizapp.practice_sets.exports.text import (
    compute_front,
    compute_set_title,
    compute_summary,
    compute_tags,
)
from quizapp.practice_sets.items import CARD, SetItem
from quizapp.practice_sets.params import SetParams

# Chosen once in [2**30, 2**31), as genanki advises, and never to change: Anki knows the note
# type by it. Its fields and template may only ever be extended compatibly (an incompatible
# change makes Anki create a second note type and the notes conflict).
MODEL_ID = 1_736_204_417
MODEL_NAME = "quizapp practice item"
FIELDS = ("Question", "Answer", "Explanation", "Code", "Key")
GUID_NAMESPACE = "quizapp"
DECK_NAME_ROOT = "quizapp"
DECK_ID_BASE = 2**30
CSS = """\
.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45;
        color: #1f2328; background-color: #ffffff; text-align: left; }
.quizapp-key { margin-top: 1.5em; font-size: 12px; color: #59636e; }
.quizapp-label { font-size: 14px; color: #59636e; }
.quizapp-explanation { margin-top: 1em; }
pre { overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d1d9e0; padding: 0.2em 0.5em; }
.align-left { text-align: left; } .align-center { text-align: center; }
.align-right { text-align: right; }
"""
QUESTION_TEMPLATE = '<div class="quizapp-question">{{Question}}</div>'
ANSWER_TEMPLATE = """\
{{FrontSide}}
<hr id="answer">
<div class="quizapp-answer">{{Answer}}</div>
{{#Explanation}}<div class="quizapp-explanation">{{Explanation}}</div>{{/Explanation}}
{{#Code}}<div class="quizapp-code">{{Code}}</div>{{/Code}}
<div class="quizapp-key">{{Key}}</div>"""

MODEL = genanki.Model(
    MODEL_ID, MODEL_NAME, fields=[{"name": name} for name in FIELDS],
    templates=[{"name": "quizapp item", "qfmt": QUESTION_TEMPLATE, "afmt": ANSWER_TEMPLATE}],
    css=CSS)


def compute_guid(item: SetItem) -> str:
    """The note's GUID, from the item's kind and key alone."""
    return genanki.guid_for(GUID_NAMESPACE, item.kind, item.key)


def compute_deck_key(params: SetParams) -> str:
    """What names a set made from parameters alone (the command line's): seed and parameters."""
    return json.dumps({"seed": params.seed, **compute_parameters(params)}, sort_keys=True)


def compute_deck_id(deck_key: str) -> int:
    """A fixed deck id in [2**30, 2**31) for the set ``deck_key`` names."""
    digest = hashlib.sha256(f"quizapp-deck/{deck_key}".encode()).digest()
    return DECK_ID_BASE + int.from_bytes(digest[:8], "big") % DECK_ID_BASE


def compute_deck_name(params: SetParams) -> str:
    """"quizapp::<title>": the title's own "::" would nest decks, so it becomes ":"."""
    title = compute_set_title(params)
    while "::" in title:
        title = title.replace("::", ":")
    return f"{DECK_NAME_ROOT}::{title.strip(': ') or params.seed}"


def compute_fields(item: SetItem) -> list[str]:
    """The note's HTML fields, in FIELDS order."""
    question = render_markdown_inline_styled(compute_front(item))
    if item.retired:
        question = '<p class="quizapp-label"><em>Retired from the bank</em></p>' + question
    answer = render_markdown_inline_styled(item.answer)
    explanation = render_markdown_inline_styled(item.explanation) if item.explanation else ""
    code = ""
    if item.kind == CARD and item.code:
        code = render_python_inline_styled(item.code)
        if item.code_output:
            code += "<p>Output:</p>" + render_text_block(item.code_output)
    return [question, answer, explanation, code, escape(f"{item.kind}:{item.key}")]


def compute_note(item: SetItem) -> genanki.Note:
    return genanki.Note(model=MODEL, fields=compute_fields(item), tags=compute_tags(item),
                        guid=compute_guid(item), sort_field=item.title)


def export_apkg(params: SetParams, items: Sequence[SetItem], *, now: float,
                deck_key: str | None = None) -> bytes:
    """The .apkg bytes. ``now`` (seconds since the epoch) dates the notes: Anki updates a note
    it has only from a newer one, so pass the clock, never a constant. ``deck_key`` names the
    set for its deck id (a saved set's slug); by default its seed and parameters."""
    deck = genanki.Deck(compute_deck_id(deck_key or compute_deck_key(params)),
                        compute_deck_name(params),
                        description=escape(compute_summary(params, items)))
    for item in items:
        deck.add_note(compute_note(item))
    connection = sqlite3.connect(":memory:")
    try:
        genanki.Package(deck).write_to_db(connection.cursor(), now,
                                          itertools.count(int(now * 1000)))
        connection.commit()
        collection = connection.serialize()
    finally:
        connection.close()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as package:
        package.writestr(zipfile.ZipInfo("collection.anki2", date_time=(1980, 1, 1, 0, 0, 0)),
                         collection)
        package.writestr(zipfile.ZipInfo("media", date_time=(1980, 1, 1, 0, 0, 0)), "{}")
    return buffer.getvalue()
