"""The real oracle: quizapp's .apkg and CSV imported into a fresh collection by Anki's own library.

Anki updates a note it already has only from a package dated later (its "if newer" rule), so
the re-export after an edit is dated two seconds later, as a real one would be.
"""

from __future__ import annotations

import dataclasses

import pytest
from anki.collection import (
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
    ImportCsvRequest,
)
from click.testing import CliRunner
from set_bank_support import CONTENT, params, real_bank

from quizapp.cli.set_cmd import set_group
from quizapp.practice_sets import CARD, build_bank, generate, rebuild_items
from quizapp.practice_sets.exports import MODEL_NAME, compute_guid, export_apkg, export_csv
from quizapp.practice_sets.exports.anki import FIELDS, compute_fields
from quizapp.practice_sets.exports.text import compute_tags

NOW = 1_800_000_000.0


@pytest.fixture
def collection(tmp_path):
    col = Collection(str(tmp_path / "collection.anki2"))
    yield col
    col.close()


def import_package(col: Collection, path) -> tuple[int, int, int]:
    log = col.import_anki_package(ImportAnkiPackageRequest(
        package_path=str(path), options=ImportAnkiPackageOptions(merge_notetypes=True))).log
    return len(log.new), len(log.updated), len(log.duplicate)


def notes_by_guid(col: Collection) -> dict:
    return {note.guid: note for note in (col.get_note(nid) for nid in col.find_notes(""))}


def a_set():
    p = params(count=10, puzzles=5, seed=21, title="Oracle set")
    return p, generate(p, real_bank())


def test_the_notes_fields_and_tags_are_in_anki(collection, tmp_path):
    p, items = a_set()
    path = tmp_path / "set.apkg"
    path.write_bytes(export_apkg(p, items, now=NOW))
    assert import_package(collection, path) == (10, 0, 0)
    assert collection.note_count() == 10
    notes = notes_by_guid(collection)
    assert set(notes) == {compute_guid(item) for item in items}
    for item in items:
        note = notes[compute_guid(item)]
        assert note.note_type()["name"] == MODEL_NAME
        assert [f["name"] for f in note.note_type()["flds"]] == list(FIELDS)
        assert note.fields == compute_fields(item)
        assert note["Key"] == f"{item.kind}:{item.key}"
        assert note["Answer"] and item.title
        if item.kind == CARD:
            assert note["Code"].count("<pre") == 2  # the sample and what it prints
        else:
            assert note["Code"] == "" and "<pre" in note["Question"]
        assert sorted(note.tags) == sorted(compute_tags(item))
    assert "quizapp::Oracle set" in [d.name for d in collection.decks.all_names_and_ids()]
    deck = collection.decks.id_for_name("quizapp::Oracle set")
    assert len(collection.find_cards(f"did:{deck}")) == 10
    assert collection.decks.get(deck)["desc"] == "Seed 21 · 10 items (5 puzzles)"


def test_importing_the_same_package_again_adds_nothing(collection, tmp_path):
    p, items = a_set()
    path = tmp_path / "set.apkg"
    path.write_bytes(export_apkg(p, items, now=NOW))
    import_package(collection, path)
    new, updated, duplicate = import_package(collection, path)
    assert (new, updated, duplicate) == (0, 0, 10)
    assert collection.note_count() == 10
    again = tmp_path / "again.apkg"  # generated anew: the same notes
    again.write_bytes(export_apkg(*a_set(), now=NOW))
    assert import_package(collection, again) == (0, 0, 10)


def test_a_set_exported_again_after_a_card_edit_updates_that_note_only(collection, tmp_path):
    p, items = a_set()
    first = tmp_path / "first.apkg"
    first.write_bytes(export_apkg(p, items, now=NOW))
    import_package(collection, first)
    before = {guid: list(note.fields) for guid, note in notes_by_guid(collection).items()}
    edited_card = next(item for item in items if item.kind == CARD)
    bank = real_bank()
    cards = [dataclasses.replace(card, answer=card.answer + "\n\nEdited in the bank.")
             if card.id == edited_card.key else card for card in bank.cards]
    rebuilt = rebuild_items([item.ref for item in items], build_bank(cards, bank.concepts))
    second = tmp_path / "second.apkg"
    second.write_bytes(export_apkg(p, rebuilt, now=NOW + 2))
    new, updated, _ = import_package(collection, second)
    assert new == 0 and collection.note_count() == 10
    assert updated == 10  # Anki logs every newer note as updated; only one has changed:
    after = {guid: list(note.fields) for guid, note in notes_by_guid(collection).items()}
    changed = [guid for guid in after if after[guid] != before[guid]]
    assert changed == [compute_guid(edited_card)]
    assert "Edited in the bank." in after[compute_guid(edited_card)][FIELDS.index("Answer")]


def test_the_csv_imports_into_anki_with_its_tags_and_once(collection, tmp_path):
    p, items = a_set()
    path = tmp_path / "set.csv"
    path.write_bytes(export_csv(p, items))
    metadata = collection.get_csv_metadata(path=str(path), delimiter=None)
    assert list(metadata.column_labels) == ["Front", "Back", "Tags"]
    assert metadata.tags_column == 3 and not metadata.is_html
    log = collection.import_csv(ImportCsvRequest(path=str(path), metadata=metadata)).log
    assert (len(log.new), collection.note_count()) == (10, 10)
    notes = [collection.get_note(nid) for nid in collection.find_notes("")]
    fronts = {note.fields[0]: note for note in notes}
    for item in items:
        first_line = item.prompt.strip().splitlines()[0].replace("<", "&lt;").replace(
            ">", "&gt;")
        note = next(n for front, n in fronts.items() if front.startswith(first_line[:40]))
        assert sorted(note.tags) == sorted(compute_tags(item))
    log = collection.import_csv(ImportCsvRequest(path=str(path), metadata=metadata)).log
    assert len(log.new) == 0 and collection.note_count() == 10


def test_the_command_lines_packages_are_the_same_notes_to_anki(collection, tmp_path):
    paths = [tmp_path / "first.apkg", tmp_path / "second.apkg"]
    for path in paths:
        result = CliRunner().invoke(
            set_group, ["generate", "--count", "8", "--seed", "31", "--format", "apkg", "-o",
                        str(path)], env={"QUIZAPP_CONTENT_PATH": str(CONTENT)})
        assert result.exit_code == 0, result.output
    assert import_package(collection, paths[0]) == (8, 0, 0)
    fields = {guid: list(note.fields) for guid, note in notes_by_guid(collection).items()}
    new, _, _ = import_package(collection, paths[1])
    assert new == 0 and collection.note_count() == 8
    assert {guid: list(n.fields) for guid, n in notes_by_guid(collection).items()} == fields
