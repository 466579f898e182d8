"""load_cards / load_concepts: typed immutable cards, and ContentError listing every problem."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from content_fixtures import CONCEPTS_YAML, card_text, line_of

from quizapp.content import (
    FREQUENCY,
    IMPORTANCE,
    LEVELS,
    Card,
    ContentError,
    FollowUp,
    load_cards,
    load_concepts,
)
from quizapp.content.limits import TAG_MAX
from quizapp.content.loading import MAX_FILE_BYTES, scan_bank, scan_concepts


def test_load_cards_returns_typed_immutable_cards(bank):
    root = bank({"small-card.md": card_text("small-card")})
    (card,) = load_cards(root)
    assert isinstance(card, Card)
    assert card.id == "small-card"
    assert card.title == "A small test card"
    assert (card.level, card.importance, card.frequency) == ("junior", "must-know", "common")
    assert card.concepts == ("stride", "view")
    assert card.question == "What does the stride of a dimension count?"
    assert card.basics == "Storage elements skipped per step."
    assert card.solid == "A longer answer about strides."
    assert card.code == "import torch\nprint(torch.arange(6).view(2, 3).stride())"
    assert card.code_output == "(3, 1)"
    assert card.go_deeper == tuple((level, f"{level.capitalize()} text.") for level in LEVELS)
    assert card.follow_ups == (FollowUp("First follow-up?", "First answer."),
                               FollowUp("Second follow-up?", "Second answer."))
    assert card.red_flags == ("First red flag.", "Second red flag\ncontinued on an indented line.")
    assert card.source_path == "cards/small-card.md"
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.title = "changed"  # type: ignore[misc]


def test_cards_come_back_sorted_by_file_name(bank):
    root = bank({f"{name}.md": card_text(name) for name in ("b-card", "c-card", "a-card")})
    assert [card.id for card in load_cards(root)] == ["a-card", "b-card", "c-card"]


def test_contract_constants():
    assert LEVELS == ("junior", "middle", "senior", "principal")
    assert IMPORTANCE == ("must-know", "should-know", "nice-to-know")
    assert FREQUENCY == ("rare", "occasional", "common", "very-common")


def test_content_error_lists_every_problem_with_file_and_line(bank):
    broken = card_text("broken").replace("level: junior", "level: expert")
    root = bank({"broken.md": broken, "fine.md": card_text("fine"),
                 "worse.md": card_text("worse").replace("## Basics", "## Basic")})
    with pytest.raises(ContentError) as caught:
        load_cards(root)
    lines = [str(problem) for problem in caught.value.problems]
    assert any(line.endswith("cards/broken.md:4: level 'expert' is not one of: junior, middle, "
                             "senior, principal") for line in lines), lines
    assert any("cards/worse.md:" in line and "unknown section '## Basic'" in line
               for line in lines), lines
    assert not any("fine.md" in line for line in lines)
    assert str(caught.value).splitlines()[1:] == lines


def test_duplicate_ids_are_reported_at_the_second_file(bank):
    root = bank({"one.md": card_text("one"), "two.md": card_text("one")})
    problems = scan_bank(root).problems
    duplicate = [p for p in problems if "already used by" in p.message]
    assert len(duplicate) == 1
    assert duplicate[0].path.endswith("two.md") and duplicate[0].line == 2
    assert "one.md:2" in duplicate[0].message


def test_only_markdown_files_belong_in_cards(bank, tmp_path):
    root = bank({"small-card.md": card_text("small-card"), "notes.txt": "hello"})
    (root / "cards" / ".hidden.swp").write_text("editor state")
    problems = scan_bank(root).problems
    assert [p.path.endswith("notes.txt") for p in problems] == [True]


def test_missing_cards_folder_is_a_problem(tmp_path):
    (tmp_path / "concepts.yaml").write_text(CONCEPTS_YAML)
    with pytest.raises(ContentError, match="cards folder does not exist"):
        load_cards(tmp_path)


def test_unreadable_and_oversized_files_are_problems(bank):
    root = bank({"small-card.md": card_text("small-card")})
    (root / "cards" / "latin1.md").write_bytes(b"---\nid: caf\xe9\n---\n")
    (root / "cards" / "huge.md").write_text("x" * (MAX_FILE_BYTES + 1))
    messages = {p.path.rsplit("/", 1)[-1]: p.message for p in scan_bank(root).problems}
    assert "not valid UTF-8" in messages["latin1.md"]
    assert "larger than" in messages["huge.md"]


def test_load_concepts_reads_tags_and_descriptions(bank):
    root = bank({})
    assert load_concepts(root) == {"stride": "Steps through storage.",
                                   "view": "Views that share memory."}


@pytest.mark.parametrize(("concepts", "fragment", "line"), [
    ("stride: [unclosed\n", "not valid YAML", 2),
    ("- stride\n- view\n", "must map each tag", 1),
    ("stride: Steps.\nBad_Tag: Something.\n", "tag 'Bad_Tag'", 2),
    ("stride: Steps.\nview:\n", "needs a one-line description", 2),
    ("", "must map each tag", 1),
    ("stride: " + "[" * 500 + "]" * 500 + "\n", "concepts.yaml is nested too deeply to read", 1),
    (f"stride: Steps.\n{'t' * (TAG_MAX + 1)}: Long.\n",
     f"is {TAG_MAX + 1} characters long, more than the {TAG_MAX}", 2),
    ('stride: Steps.\nview: "Nul\\0 here."\n', "the description of 'view' holds '\\x00'", 2),
])
def test_malformed_concepts_file_raises(bank, concepts, fragment, line):
    root = bank({}, concepts=concepts)
    with pytest.raises(ContentError) as caught:
        load_concepts(root)
    (problem,) = caught.value.problems
    assert fragment in problem.message and problem.line == line
    assert problem.path.endswith("concepts.yaml")


def test_missing_concepts_file_raises(tmp_path):
    with pytest.raises(ContentError, match="cannot read file"):
        load_concepts(tmp_path)


def test_cards_are_checked_against_the_bank_concepts(bank):
    text = card_text("small-card")
    root = bank({"small-card.md": text}, concepts="stride: Steps through storage.\n")
    (problem,) = scan_bank(root).problems
    assert "unknown concept 'view'" in problem.message
    assert problem.line == line_of(text, "concepts:")


def test_a_leading_byte_order_mark_is_ignored(bank):
    root = bank({}, concepts="\ufeff" + CONCEPTS_YAML)
    (root / "cards" / "small-card.md").write_bytes(b"\xef\xbb\xbf" + card_text().encode())
    scan = scan_bank(root)
    assert scan.problems == []
    assert [card.id for card in scan.cards] == ["small-card"]


def test_nul_character_in_a_card_file_is_a_problem(bank):
    text = card_text().replace("First answer.", "First\x00 answer.")
    (problem,) = scan_bank(bank({"small-card.md": text})).problems
    assert problem.message == "file contains a NUL character"
    assert problem.line == line_of(text, "First\x00")


def test_symbolic_link_out_of_the_content_folder_is_refused(bank, tmp_path):
    root = bank({"small-card.md": card_text()})
    outside = tmp_path / "elsewhere" / "secret-card.md"
    outside.parent.mkdir()
    outside.write_text(card_text("secret-card"))
    (root / "cards" / "secret-card.md").symlink_to(outside)
    scan = scan_bank(root)
    (problem,) = scan.problems
    assert problem.path.endswith("secret-card.md") and problem.line == 1
    assert problem.message == (f"refused: a symbolic link to {outside.resolve()}, "
                               "outside the content folder")
    assert [card.id for card in scan.cards] == ["small-card"]


def test_symbolic_link_within_the_content_folder_is_read(bank):
    root = bank({})
    (root / "drafts").mkdir()
    (root / "drafts" / "small-card.md").write_text(card_text())
    (root / "cards" / "small-card.md").symlink_to(root / "drafts" / "small-card.md")
    assert [card.id for card in load_cards(root)] == ["small-card"]


def test_symbolic_link_for_concepts_out_of_the_content_folder_is_refused(bank, tmp_path):
    root = bank({"small-card.md": card_text()})
    outside = tmp_path / "concepts.yaml"
    outside.write_text(CONCEPTS_YAML)
    (root / "concepts.yaml").unlink()
    (root / "concepts.yaml").symlink_to(outside)
    with pytest.raises(ContentError, match="refused: a symbolic link to .*concepts.yaml"):
        load_concepts(root)


@pytest.mark.parametrize("entries", [{}, {"notes.txt": "not a card"}])
def test_empty_cards_folder_is_a_problem(bank, entries):
    root = bank(entries)
    with pytest.raises(ContentError) as caught:
        load_cards(root)
    problems = [p for p in caught.value.problems if "no cards given" in p.message]
    assert [(p.path, p.line) for p in problems] == [(str(root / "cards"), 1)]


@pytest.mark.parametrize(("concepts", "fragment"), [
    (CONCEPTS_YAML + "view: [broken\n", "not valid YAML"),
    ("- stride\n- view\n", "must map each tag"),
])
def test_an_unreadable_concepts_file_is_reported_alone_not_as_unknown_tags(bank, concepts,
                                                                         fragment):
    root = bank({f"card-{n}.md": card_text(f"card-{n}") for n in range(3)}, concepts=concepts)
    (problem,) = scan_bank(root).problems
    assert problem.path.endswith("concepts.yaml") and fragment in problem.message
    assert "\n" not in problem.message


def test_a_yaml_error_in_concepts_is_one_line_naming_where_it_started(bank):
    root = bank({}, concepts=CONCEPTS_YAML + "shape: [unclosed\n")
    (problem,) = scan_concepts(root).problems
    assert (problem.line, problem.message) == (
        5, "not valid YAML: expected ',' or ']', but got '<stream end>' (while parsing a flow "
           "sequence that starts at line 4)")


def test_a_missing_concepts_file_is_reported_alone(bank):
    root = bank({"small-card.md": card_text()})
    (root / "concepts.yaml").unlink()
    with pytest.raises(ContentError) as caught:
        load_cards(root)
    (problem,) = caught.value.problems
    assert problem.path.endswith("concepts.yaml") and "cannot read file" in problem.message


def test_a_tag_whose_concepts_entry_is_wrong_is_reported_at_that_entry_only(bank):
    root = bank({"small-card.md": card_text()}, concepts="stride: Steps.\nview:\n")
    (problem,) = scan_bank(root).problems
    assert problem.path.endswith("concepts.yaml") and problem.line == 2
    assert "needs a one-line description" in problem.message


def test_links_that_lead_nowhere_and_folders_say_what_is_wrong(bank):
    root = bank({"small-card.md": card_text()})
    cards = root / "cards"
    (cards / "loop-a.md").symlink_to("loop-b.md")
    (cards / "loop-b.md").symlink_to("loop-a.md")
    (cards / "self.md").symlink_to("self.md")
    (cards / "dangling.md").symlink_to("nothere.md")
    (cards / "dir.md").mkdir()
    (cards / "subloop").symlink_to(".")
    messages = {Path(p.path).name: p.message for p in scan_bank(root).problems}
    assert messages == {
        "loop-a.md": "symbolic link loop",
        "loop-b.md": "symbolic link loop",
        "self.md": "symbolic link loop",
        "dangling.md": f"broken symbolic link (its target {cards.resolve() / 'nothere.md'} "
                       "does not exist)",
        "dir.md": "is a directory, not a card file",
        "subloop": "is a directory, not a card file",
    }


def test_a_concepts_file_that_links_to_itself_is_a_link_loop(bank):
    root = bank({"small-card.md": card_text()})
    (root / "concepts.yaml").unlink()
    (root / "concepts.yaml").symlink_to("concepts.yaml")
    (problem,) = scan_bank(root).problems
    assert problem.path.endswith("concepts.yaml") and problem.message == "symbolic link loop"


def test_a_broken_link_out_of_the_content_folder_is_reported_as_broken(bank, tmp_path):
    root = bank({"small-card.md": card_text()})
    (root / "cards" / "gone.md").symlink_to(tmp_path / "elsewhere" / "gone.md")
    scan = scan_bank(root)
    (problem,) = scan.problems
    assert problem.message.startswith("broken symbolic link")
    assert [card.id for card in scan.cards] == ["small-card"]
