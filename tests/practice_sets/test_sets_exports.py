"""The exports: JSON, CSV, Markdown and the Anki note fields, byte for byte where it matters."""

from __future__ import annotations

import csv
import io
import json
import tempfile
import zipfile

import genanki
import pytest
from set_bank_support import make_card, params, real_bank, small_bank

from quizapp.markup.spreadsheet import neutralize_cell
from quizapp.practice_sets import CARD, PUZZLE, build_bank, generate
from quizapp.practice_sets.exports import (
    FORMATS,
    MODEL_ID,
    compute_deck_id,
    compute_guid,
    export_apkg,
    export_csv,
    export_json,
    export_markdown,
    export_set,
)
from quizapp.practice_sets.exports.anki import FIELDS, compute_fields

NOW = 1_800_000_000.0


def a_set(**fields):
    p = params(**{"count": 12, "puzzles": 6, "seed": 11, **fields})
    return p, generate(p, real_bank())


def csv_rows(data: bytes) -> tuple[list[str], list[list[str]]]:
    text = data.decode("utf-8")
    lines = text.split("\r\n")
    headers = [line for line in lines if line.startswith("#")][:4]
    body = text.split("\r\n", 4)[4]
    return headers, list(csv.reader(io.StringIO(body, newline="")))


def test_json_holds_seed_parameters_and_every_item():
    p, items = a_set(levels=("junior", "middle"), title="Strides", time_limit=20)
    document = json.loads(export_json(p, items))
    assert document["seed"] == 11 and document["format"] == "quizapp-practice-set"
    assert document["parameters"] == {
        "count": 12, "puzzles": 6, "levels": ["junior", "middle"], "concepts": [],
        "families": [], "title": "Strides", "time_limit_minutes": 20}
    assert [(i["kind"], i["key"]) for i in document["items"]] == [
        (i.kind, i.key) for i in items]
    for entry, item in zip(document["items"], items, strict=True):
        assert {k: entry[k] for k in ("level", "prompt", "answer", "explanation")} == {
            "level": item.level, "prompt": item.prompt, "answer": item.answer,
            "explanation": item.explanation}
        assert entry["concepts"] == list(item.concepts)


def test_text_exports_are_the_same_bytes_for_the_same_set():
    for export in (export_json, export_csv, export_markdown):
        first = export(*a_set())
        assert export(*a_set()) == first
        assert export(*a_set(seed=12)) != first


def test_csv_has_anki_headers_three_quoted_columns_and_tags():
    p, items = a_set()
    data = export_csv(p, items)
    headers, rows = csv_rows(data)
    assert headers == ["#separator:Comma", "#html:false", "#tags column:3",
                       "#columns:Front,Back,Tags"]
    assert len(rows) == len(items) and all(len(row) == 3 for row in rows)
    body = data.decode().split("\r\n", 4)[4]
    assert body.startswith('"')  # every cell quoted, the tags (which need no quotes) too:
    assert body.count(',"quizapp quizapp::') == len(items) == body.count('"\r\n')
    for row, item in zip(rows, items, strict=True):
        assert item.prompt.strip() in row[0]
        assert set(row[2].split()) >= {"quizapp", f"quizapp::{item.kind}",
                                       f"quizapp::level::{item.level}"}
        assert {f"quizapp::concept::{c}" for c in item.concepts} <= set(row[2].split())
        if item.kind == PUZZLE:
            assert item.code in row[0] and item.answer in row[1]
        else:
            assert item.answer.strip() in row[1] and item.code in row[1]


@pytest.mark.parametrize("text", ["=1+1", " =HYPERLINK(\"x\")", "\n\t+cmd", "  @SUM(A1)",
                                  "-2", "\u00a0=1"])
def test_a_cell_whose_first_visible_character_starts_a_formula_is_neutralised(text):
    assert neutralize_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["a=b", " x = 1", "(2, 3)", ""])
def test_other_cells_are_left_as_they_are(text):
    assert neutralize_cell(text) == text


def test_csv_neutralises_formulas_from_the_bank():
    bank = build_bank([make_card(1, question=' =HYPERLINK("http://x")', answer="@SUM(A1)")],
                      set())
    p = params(count=1, puzzles=0)
    _, rows = csv_rows(export_csv(p, generate(p, bank)))
    assert rows[0][0] == "'=HYPERLINK(\"http://x\")"  # trimmed, then guarded
    assert rows[0][1].startswith("'@SUM(A1)")


def test_markdown_gives_the_questions_then_the_answer_key():
    p, items = a_set(title="Warm-up", time_limit=30)
    text = export_markdown(p, items).decode("utf-8")
    questions, key = text.split("\n## Answer key\n")
    assert text.startswith("# Warm-up\n\nSeed 11 · 12 items (6 puzzles) · time limit: 30 "
                           "minutes\n\n## Questions\n")
    for number, item in enumerate(items, 1):
        assert f"### {number}. " in questions and f"### {number}. " in key
        assert item.prompt.strip() in questions
        if item.kind == CARD:
            assert item.answer.strip() not in questions
        assert item.answer.strip() in key and f"`{item.kind}:{item.key}`" in key


def test_markdown_fences_hold_code_with_backticks():
    bank = build_bank([make_card(1, code="s = '```'\nprint(s)", code_output="```")], set())
    p = params(count=1, puzzles=0)
    text = export_markdown(p, generate(p, bank)).decode()
    assert "````python\ns = '```'\nprint(s)\n````" in text
    assert "````\n```\n````" in text


def test_markdown_marks_a_retired_card():
    bank = build_bank([make_card(1, retired=True)], set())
    from quizapp.practice_sets import ItemRef, rebuild_items
    items = rebuild_items([ItemRef(CARD, "card-001")], bank)
    text = export_markdown(params(count=1, puzzles=0), items).decode()
    assert "retired from the bank" in text


def test_anki_fields_escape_text_and_sanitise_markdown():
    card = make_card(1, question="Is <script>alert(1)</script> [x](javascript:alert(1)) safe?",
                     answer="Use `a < b` & <b>bold</b>", explanation="See **this**.",
                     code="x = torch.empty(2, 3)\nprint(x.stride())", code_output="(3, 1) <ok>")
    p = params(count=1, puzzles=0)
    (item,) = generate(p, build_bank([card], set()))
    question, answer, explanation, code, key = compute_fields(item)
    assert "<script" not in question and "&lt;script&gt;" in question
    assert "href" not in question  # markdown-it refuses the javascript: link; nh3 would too
    assert "<code>a &lt; b</code> &amp; &lt;b&gt;bold&lt;/b&gt;" in answer
    assert "<strong>this</strong>" in explanation
    assert 'style="color:' in code and "class=" not in code  # colours inline, no app CSS
    assert "(3, 1) &lt;ok&gt;" in code
    assert key == "card:card-001"


def test_anki_puzzle_fields_put_the_code_and_options_in_the_question():
    p, items = a_set(count=8, puzzles=8, families=("storage_index", "view_possible"))
    for item in items:
        question, answer, _, code, key = compute_fields(item)
        assert code == "" and key == f"puzzle:{item.key}"
        assert 'style="' in question  # the highlighted puzzle code
        for choice in item.choices:
            assert choice.replace("<", "&lt;") in question


def test_every_guid_comes_from_the_key_alone():
    bank = small_bank()
    p = params(count=8, puzzles=4)
    items = generate(p, bank)
    edited = generate(p, small_bank(question="Edited?", answer="Edited."))
    for old, new in zip(items, edited, strict=True):
        assert compute_guid(old) == compute_guid(new) == genanki.guid_for(
            "quizapp", old.kind, old.key)
    assert len({compute_guid(i) for i in items}) == len(items)


def test_the_deck_id_is_fixed_per_set_and_in_ankis_range():
    assert compute_deck_id("slug-a") == compute_deck_id("slug-a") != compute_deck_id("slug-b")
    assert 2**30 <= compute_deck_id("slug-a") < 2**31 and 2**30 <= MODEL_ID < 2**31


def test_the_package_is_written_without_a_temporary_file(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refuse)
    p, items = a_set()
    data = export_apkg(p, items, now=NOW)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        assert sorted(package.namelist()) == ["collection.anki2", "media"]
        assert package.read("media") == b"{}"
        assert package.read("collection.anki2").startswith(b"SQLite format 3\x00")


def test_the_package_is_the_same_for_the_same_set_and_time():
    p, items = a_set()
    assert export_apkg(p, items, now=NOW) == export_apkg(p, items, now=NOW)


def test_the_note_type_keeps_its_fields():
    # Anki makes a second note type when these change: extend only, never rename or reorder.
    assert FIELDS == ("Question", "Answer", "Explanation", "Code", "Key")
    assert MODEL_ID == 1_736_204_417


def test_formats_name_their_files():
    assert {name: (f.extension, f.media_type.split(";")[0]) for name, f in FORMATS.items()} == {
        "json": ("json", "application/json"), "csv": ("csv", "text/csv"),
        "md": ("md", "text/markdown"), "apkg": ("apkg", "application/apkg")}


def test_export_set_dispatches_on_the_format_name():
    p, items = a_set()
    assert export_set("json", p, items, now=NOW) == export_json(p, items)
    assert export_set("csv", p, items, now=NOW) == export_csv(p, items)
    assert export_set("md", p, items, now=NOW) == export_markdown(p, items)
    assert export_set("apkg", p, items, now=NOW, deck_key="s") == export_apkg(
        p, items, now=NOW, deck_key="s")
    with pytest.raises(KeyError):
        export_set("pdf", p, items, now=NOW)
