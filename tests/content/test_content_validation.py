"""Every card rule of content/README.md has a broken card that the validator must reject."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest
import yaml
from content_fixtures import card_text, line_of

from quizapp.content.limits import KEY_MAX, SOURCE_PATH_MAX, TAG_MAX, TITLE_MAX
from quizapp.content.loading import scan_bank
from quizapp.content.model import FREQUENCY, IMPORTANCE, LEVELS
from quizapp.content.parsing import FAST_YAML_MAX, SAFE_LOADER, parse_card
from quizapp.content.sample_imports import validate_sample_imports
from quizapp.content.validation import validate_card
from quizapp.models.bank import Card, Concept, Item, ItemConcept

VALID = card_text("small-card")
# Deeper than PyYAML's Python parser can recurse, and longer than FAST_YAML_MAX: libyaml's
# parser would read it (it nests a few thousand deep happily) and the title would be a list.
DEEP_YAML = "[" * 2500 + "]" * 2500


def swap(old: str, new: str, count: int = 1):
    """A mutation replacing ``old`` (which must occur) by ``new``."""

    def mutate(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    return mutate


def drop_line(needle: str):
    return swap(next(line + "\n" for line in VALID.splitlines() if needle in line), "")


# (case id, mutation, where the problem is reported: a line number or a needle in the broken
#  text, a fragment of the message)
CASES = [
    ("no-front-matter", swap("---\nid:", "id:"), 1, "must start with a '---' line"),
    ("front-matter-unclosed", swap("frequency: common\n---\n", "frequency: common\n"), 1,
     "not closed"),
    ("front-matter-bad-yaml", swap("title: A small test card", 'title: "A small" test card'),
     "title:", "not valid YAML"),
    ("front-matter-mixed", swap("id: small-card\n", "- just a list item\n"), "title:",
     "not valid YAML"),
    ("front-matter-list", lambda t: "---\n- a\n- b\n---\n" + t.split("---\n", 2)[2], 2,
     "must be a YAML mapping"),
    ("unknown-key", swap("level: junior\n", "level: junior\nauthor: someone\n"), "author:",
     "unknown front matter key 'author'"),
    ("key-twice", swap("level: junior\n", "level: junior\nlevel: senior\n"), "level: senior",
     "appears more than once"),
    ("bad-id", swap("id: small-card", "id: Small_Card"), "id:", "lower-case letters"),
    ("numeric-id", swap("id: small-card", "id: 42"), "id:", "lower-case letters"),
    ("empty-title", swap("title: A small test card", 'title: ""'), "title:", "title must be"),
    ("unknown-level", swap("level: junior", "level: expert"), "level:", "level 'expert'"),
    ("concepts-empty", swap("concepts: [stride, view]", "concepts: []"), "concepts:",
     "non-empty list"),
    ("concepts-not-list", swap("concepts: [stride, view]", "concepts: stride"), "concepts:",
     "non-empty list"),
    ("concept-unknown", swap("[stride, view]", "[stride, strides]"), "concepts:",
     "unknown concept 'strides'"),
    ("concept-twice", swap("[stride, view]", "[stride, stride]"), "concepts:", "listed twice"),
    ("unknown-importance", swap("importance: must-know", "importance: vital"), "importance:",
     "importance 'vital'"),
    ("unknown-frequency", swap("frequency: common", "frequency: always"), "frequency:",
     "frequency 'always'"),
    ("section-missing", drop_line("## Basics"), "## Solid", "missing section '## Basics'"),
    ("last-section-missing", lambda t: t.split("## Red flags")[0], -1,
     "missing section '## Red flags'"),
    ("section-unknown", swap("## Solid\n", "## Notes\nA note.\n\n## Solid\n"), "## Notes",
     "unknown section '## Notes'"),
    ("section-twice", lambda t: t + "\n## Basics\nAgain.\n", -2, "appears more than once"),
    ("section-out-of-order", swap("## Basics\nStorage elements skipped per step.\n\n## Solid\n"
                                  "A longer answer about strides.\n",
                                  "## Solid\nA longer answer about strides.\n\n## Basics\n"
                                  "Storage elements skipped per step.\n"),
     "## Basics", "out of order"),
    ("section-empty", swap("Storage elements skipped per step.\n", "\n"), "## Basics",
     "'## Basics' is empty"),
    ("text-outside-sections", swap("---\n\n## Question", "---\nstray words\n\n## Question"),
     "stray words", "outside any '##' section"),
    ("subsection-in-solid", swap("A longer answer about strides.\n",
                                 "A longer answer about strides.\n### Aside\nMore.\n"),
     "### Aside", "takes no '###' subsections"),
    ("go-deeper-level-missing", drop_line("### Senior"), "## Go deeper",
     "missing '### Senior'"),
    ("go-deeper-level-unknown", swap("### Senior", "### Staff"), "### Staff",
     "unknown level '### Staff'"),
    ("go-deeper-out-of-order", swap("### Middle\nMiddle text.\n### Senior\nSenior text.",
                                    "### Senior\nSenior text.\n### Middle\nMiddle text."),
     "### Middle", "out of level order"),
    ("go-deeper-level-empty", swap("Senior text.\n", ""), "### Senior", "is empty"),
    ("go-deeper-level-twice", swap("### Principal\n", "### Senior\nAgain.\n### Principal\n"),
     ("### Senior", 2), "appears twice"),
    ("go-deeper-preamble", swap("## Go deeper\n", "## Go deeper\nSome intro.\n"),
     "Some intro.", "text before the first level"),
    ("one-follow-up", swap("### Q: Second follow-up?\nSecond answer.\n", ""), "## Follow-ups",
     "at least 2"),
    ("follow-up-without-answer", swap("Second answer.\n", ""), "### Q: Second",
     "no answer"),
    ("follow-up-without-q", swap("### Q: Second follow-up?", "### Second follow-up?"),
     "### Second", "'### Q: the question'"),
    ("follow-up-empty-question", swap("### Q: Second follow-up?", "### Q:"), ("### Q:", 2),
     "'### Q: the question'"),
    ("follow-ups-preamble", swap("## Follow-ups\n", "## Follow-ups\nIntro.\n"), "Intro.",
     "text before the first '### Q:'"),
    ("one-red-flag", swap("- First red flag.\n", ""), "## Red flags", "at least 2"),
    ("red-flag-prose", lambda t: t + "Not a bullet.\n", "Not a bullet.",
     "holds only a bullet list"),
    ("red-flag-star-bullet", swap("- First red flag.", "* First red flag."), "* First",
     "holds only a bullet list"),
    ("red-flag-empty", lambda t: t + "-\n", -1, "empty red flag"),
    ("red-flag-subsection", lambda t: t + "### More\n- x\n", "### More",
     "takes no '###' subsections"),
    ("code-no-python", swap("```python\nimport torch\nprint(torch.arange(6).view(2, 3).stride())"
                            "\n```\n", ""), "## Code", "needs a ```python block"),
    ("code-no-output", swap("```output\n(3, 1)\n```\n", ""), "## Code",
     "needs a ```output block"),
    ("code-two-python", swap("```output\n", "```python\nprint(1)\n```\n\n```output\n"),
     ("```python", 2), "more than one ```python block"),
    ("code-two-outputs", swap("(3, 1)\n```\n", "(3, 1)\n```\n```output\n1\n```\n"),
     ("```output", 2), "more than one ```output block"),
    ("code-other-block", swap("```output\n", "```text\nnotes\n```\n\n```output\n"), "```text",
     "unexpected ```text block"),
    ("code-empty-python", swap("import torch\nprint(torch.arange(6).view(2, 3).stride())\n", ""),
     "```python", "```python block is empty"),
    ("code-empty-output", swap("(3, 1)\n", ""), "```output", "```output block is empty"),
    ("code-output-first", swap("```python\nimport torch\nprint(torch.arange(6).view(2, 3)"
                               ".stride())\n```\n\n```output\n(3, 1)\n```\n",
                               "```output\n(3, 1)\n```\n\n```python\nimport torch\nprint("
                               "torch.arange(6).view(2, 3).stride())\n```\n"),
     "```output", "must follow the ```python block"),
    ("code-subsection", swap("## Code\n", "## Code\n### Listing\n"), "### Listing",
     "takes no '###' subsections"),
    ("fence-unclosed", swap("(3, 1)\n```\n", "(3, 1)\n"), "```output", "not closed"),
    ("import-third-party", swap("import torch\n", "import torch\nimport pandas as pd\n"),
     "import pandas", "sample imports 'pandas': only torch, numpy and the standard library"),
    ("import-from-third-party", swap("import torch\n", "import torch\nfrom yaml import dump\n"),
     "from yaml", "sample imports 'yaml'"),
    ("import-relative", swap("import torch\n", "import torch\nfrom . import sibling\n"),
     "from . import", "sample imports '.'"),
    ("syntax-error", swap("print(torch.arange(6).view(2, 3).stride())",
                          "print(torch.arange(6).view(2, 3).stride()"), "print(torch",
     "syntax error"),
    # Bounded database columns (quizapp/models/bank.py): PostgreSQL refuses longer values.
    ("title-too-long", swap("title: A small test card", "title: " + "t" * (TITLE_MAX + 1)),
     "title:", f"title is {TITLE_MAX + 1} characters long, more than the {TITLE_MAX}"),
    ("concept-tag-too-long", swap("[stride, view]", f"[stride, {'c' * (TAG_MAX + 1)}]"),
     "concepts:", f"a concept tag is {TAG_MAX + 1} characters long"),
    ("title-nul-escape", swap("title: A small test card", 'title: "A small\\0 card"'), "title:",
     "title holds '\\x00', a character the database cannot store"),
    # libyaml's parser refuses the escape; PyYAML's own reads it and validation refuses it.
    ("title-lone-surrogate", swap("title: A small test card", 'title: "A \\ud800 card"'),
     "title:", "title holds '\\ud800'"),
    # libyaml's words leave out what they found; these are PyYAML's own, at any length.
    ("front-matter-tab", swap("level: junior\n", "level: junior\nx:\n\ty: 1\n"), "\ty: 1",
     "found character '\\t' that cannot start any token"),
    ("front-matter-unknown-alias", swap("level: junior", "level: *senior"), "level:",
     "found undefined alias 'senior'"),
    ("front-matter-unknown-escape", swap("title: A small test card", 'title: "A \\q card"'),
     "title:", "found unknown escape character 'q'"),
    # Input nested deeper than the parsers recurse is a problem, never a crash.
    ("front-matter-nested-too-deeply", swap("title: A small test card", "title: " + DEEP_YAML),
     1, "front matter is nested too deeply to read"),
    ("python-nested-too-deeply", swap("print(torch.arange", f"x = {'-' * 3000}1\nprint(torch.arange"),
     "```python", "python block is nested too deeply to read"),  # RecursionError
    ("python-parser-stack-overflow",  # MemoryError
     swap("print(torch.arange", f"x = {'-' * 100_000}1\nprint(torch.arange"), "```python",
     "python block is nested too deeply to read"),
]


def compute_line(text: str, where) -> int:
    if isinstance(where, int):
        return where if where > 0 else len(text.splitlines()) + 1 + where
    needle, occurrence = where if isinstance(where, tuple) else (where, 1)
    return line_of(text, needle, occurrence)


def problems_of(bank, text: str, name: str = "small-card.md") -> list:
    return scan_bank(bank({name: text})).problems


def test_a_sample_may_import_numpy(bank):
    """Cards about torch's NumPy interop call from_numpy on a real array (numpy is pinned)."""
    text = VALID.replace("import torch\n", "import numpy as np\nimport torch\nfrom numpy import "
                         "lib\n", 1)
    assert text != VALID
    assert problems_of(bank, text) == []


def test_valid_card_has_no_problems(bank):
    scan = scan_bank(bank({"small-card.md": VALID}))
    assert scan.problems == []
    assert [card.id for card in scan.cards] == ["small-card"]


@pytest.mark.parametrize(("mutate", "where", "fragment"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_broken_card_is_reported_at_its_line(bank, mutate, where, fragment):
    broken = mutate(VALID)
    problems = problems_of(bank, broken)
    expected_line = compute_line(broken, where)
    matching = [p for p in problems if fragment in p.message]
    assert matching, [str(p) for p in problems]
    assert expected_line in [p.line for p in matching], [str(p) for p in problems]
    assert all(p.path.endswith("small-card.md") for p in problems)
    assert not scan_bank(bank({"small-card.md": broken})).cards


@pytest.mark.parametrize("key", ["id", "title", "level", "concepts", "importance", "frequency"])
def test_each_missing_key_is_reported(bank, key):
    broken = drop_line(f"{key}:")(VALID)
    problems = problems_of(bank, broken)
    assert any(p.line == 1 and f"missing '{key}'" in p.message for p in problems), problems


def test_file_name_must_match_id(bank):
    problems = problems_of(bank, VALID, name="another-name.md")
    assert [(p.line, "small-card.md" in p.message) for p in problems] == [(2, True)]


def test_heading_markers_inside_code_are_not_sections(bank):
    text = swap("import torch\n", "import torch\n## not a section\n### nor a subsection\n")(VALID)
    assert problems_of(bank, text) == []


def test_problem_prints_as_path_line_message(bank):
    broken = swap("level: junior", "level: expert")(VALID)
    (problem,) = problems_of(bank, broken)
    assert str(problem) == (f"{problem.path}:4: level 'expert' is not one of: "
                            "junior, middle, senior, principal")


def test_bounded_values_at_their_column_length_are_accepted(bank):
    long_id = "i" * KEY_MAX
    text = card_text(long_id).replace("title: A small test card", "title: " + "t" * TITLE_MAX)
    scan = scan_bank(bank({f"{long_id}.md": text}))
    assert scan.problems == []
    assert len(scan.cards[0].title) == TITLE_MAX


def test_id_longer_than_the_key_column_is_reported(bank):
    long_id = "i" * (KEY_MAX + 1)
    text = card_text(long_id)
    problems = problems_of(bank, text, name=f"{long_id}.md")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, "id:"), f"id is {KEY_MAX + 1} characters long, more than the {KEY_MAX} "
                               "its database column holds")]


def test_source_path_longer_than_its_column_is_reported():
    source_path = "cards/" + "p" * SOURCE_PATH_MAX + ".md"
    problems = validate_card(parse_card(VALID), source_path, {"stride": "s", "view": "v"})
    assert (1, f"the file's path is {len(source_path)} characters long, more than the "
               f"{SOURCE_PATH_MAX} its database column holds") in problems


def test_limits_are_the_database_columns():
    assert KEY_MAX == Item.__table__.c.key.type.length
    assert TITLE_MAX == Item.__table__.c.title.type.length
    assert SOURCE_PATH_MAX == Card.__table__.c.source_path.type.length
    assert TAG_MAX == Concept.__table__.c.tag.type.length == ItemConcept.__table__.c.concept.type.length
    # The bounded columns the validator does not measure hold only these fixed words.
    for values, column in ((LEVELS, Item.__table__.c.level),
                           (IMPORTANCE, Card.__table__.c.importance),
                           (FREQUENCY, Card.__table__.c.frequency)):
        assert max(map(len, values)) <= column.type.length, column


def test_parse_card_never_raises_on_deep_nesting():
    assert len(DEEP_YAML) > FAST_YAML_MAX
    parsed = parse_card(f"---\ntitle: {DEEP_YAML}\n---\n")
    assert parsed.front is None
    assert parsed.problems == [(1, "front matter is nested too deeply to read")]


@pytest.mark.parametrize("value", [
    "2024-02-30",  # a plain date, resolved as one, that does not exist
    "!!int abc", "!!float abc", "!!bool maybe", "!!timestamp soon",
    "1" * 4400,  # longer than Python converts to an int
])
@pytest.mark.parametrize("padding", [0, FAST_YAML_MAX])  # either loader
def test_a_value_yaml_cannot_build_is_a_problem_not_a_crash(bank, value, padding):
    broken = VALID.replace("frequency: common", f"frequency: {value}\n# {'p' * padding}")
    problems = problems_of(bank, broken)
    assert [(p.line, p.message.split(" (")[0]) for p in problems] == [
        (1, "front matter has a value YAML cannot read")], [str(p) for p in problems]
    assert "put it in quotes" in problems[0].message


def test_front_matter_nested_past_libyaml_stack_is_a_problem_not_a_crash(tmp_path):
    """libyaml recurses in C without a bound: 60,000 levels overflowed the stack and killed the
    process (a segfault, no message). In a child process, so a crash fails only this test."""
    card = tmp_path / "deep.md"
    card.write_text("---\ntitle: " + "[" * 60_000 + "]" * 60_000 + "\n---\n")
    script = ("import sys; from pathlib import Path; from quizapp.content.parsing import parse_card;"
              "print(parse_card(Path(sys.argv[1]).read_text()).problems)")
    run = subprocess.run([sys.executable, "-c", script, str(card)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, (run.returncode, run.stderr[-500:])
    assert run.stdout.strip() == "[(1, 'front matter is nested too deeply to read')]"


def test_a_card_front_matter_is_read_by_libyaml_where_the_wheel_has_it():
    """The speed of `content load` on a large bank rests on it (bench/content_load.py)."""
    assert yaml.__with_libyaml__ and SAFE_LOADER is yaml.CSafeLoader


NESTED_IMPORTS = """\
import os
def f():
    import a0.b
    class C:
        from . import x
    try:
        import a1
    except ValueError:
        import a2
    else:
        import a3
    finally:
        import a4
    match f:
        case 1:
            import a5
        case _ if f:
            from a6 import w
    for i in f:
        import a7
    else:
        import a8
    with f:
        import a9
    while f:
        pass
    else:
        import b0
    async def g():
        async with f:
            import b1
        async for x in f:
            import b2
try:
    pass
except* ValueError:
    import b3
x = [lambda: __import__("b4")]
"""


def test_a_forbidden_import_is_found_in_every_kind_of_block():
    """Imports are looked for among statements only (not every node): each place a statement can
    sit is covered, in ast.walk's order (a call to __import__ is not an import statement)."""
    found = [message.split("'")[1] for _, message in validate_sample_imports(NESTED_IMPORTS, 10)]
    walked = [alias.name if isinstance(node, ast.Import) else "." * node.level + (node.module or "")
              for node in ast.walk(ast.parse(NESTED_IMPORTS))
              if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names[:1]]
    assert found == [name for name in walked if name != "os"]
    assert sorted(found) == sorted(["a0.b", ".", *(f"a{n}" for n in range(1, 10)),
                                    *(f"b{n}" for n in range(4))])


ALIAS_BOMB = ("a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
              + "".join(f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]\n" for n in range(1, 8)))


@pytest.mark.parametrize("key", ["concepts", "id", "level"])
def test_a_value_nested_millions_deep_by_aliases_is_quoted_short(key):
    """Nine lists of nine, seven times over: 4.8 million entries in eight lines. The problem
    quoted the whole value (37 s and millions of characters); it is cut short now."""
    text = VALID.replace("---\n", "---\n" + ALIAS_BOMB, 1)
    text = re.sub(rf"^{key}:.*$", f"{key}: *a7", text, count=1, flags=re.M)
    parsed = parse_card(text)
    problems = validate_card(parsed, "small-card.md", None)
    about = [message for _, message in problems if "unknown front matter key" not in message]
    assert any(key in message and "[[[" in message for message in about), about
    assert sum(len(message) for message in about) < 2_500, about
