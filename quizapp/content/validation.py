"""The card rules of content/README.md: each ``validate_*`` returns (line, message) problems."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Collection
from pathlib import PurePosixPath

from quizapp.content.limits import (
    KEY_MAX,
    SOURCE_PATH_MAX,
    TAG_MAX,
    TITLE_MAX,
    Problems,
    validate_column_text,
)
from quizapp.content.model import (
    FREQUENCY,
    FRONT_MATTER_KEYS,
    IMPORTANCE,
    LEVELS,
    SECTIONS,
    Card,
    FollowUp,
)
from quizapp.content.parsing import Heading, ParsedCard
from quizapp.content.sample_imports import validate_sample_imports

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
GO_DEEPER_TITLES = tuple(level.capitalize() for level in LEVELS)
FOLLOW_UP_PREFIX = "Q:"
MIN_FOLLOW_UPS = 2
MIN_RED_FLAGS = 2
_BULLET_RE = re.compile(r"^-(?:\s+(.*))?$")


# A value quoted in a problem is cut short: YAML aliases can nest a list millions of entries
# deep in a few lines (``concepts: *a7``), and its full repr took 37 s and filled the screen.
_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel, _SHORT_REPR.maxlist, _SHORT_REPR.maxdict = 2, 4, 4
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 80


def describe_value(value: object) -> str:
    """``repr(value)``, bounded in depth and length (see _SHORT_REPR)."""
    return _SHORT_REPR.repr(value)


def validate_front_matter(parsed: ParsedCard, concepts: Collection[str] | None) -> Problems:
    """Required keys only, each with an allowed value (concept tags: see validate_concept_tags)."""
    front, lines = parsed.front, parsed.key_lines
    if front is None:
        return []  # the parser already reported why
    problems: Problems = []
    for key in FRONT_MATTER_KEYS:
        if key not in front:
            problems.append((1, f"front matter is missing '{key}'"))
    for key in front:
        if key not in FRONT_MATTER_KEYS:
            allowed = ", ".join(FRONT_MATTER_KEYS)
            problems.append((lines.get(str(key), 1),
                             f"unknown front matter key {describe_value(key)} (allowed: {allowed})"))

    def line(key: str) -> int:
        return lines.get(key, 1)

    if "id" in front and not (isinstance(front["id"], str) and ID_RE.match(front["id"])):
        problems.append((line("id"), f"id {describe_value(front['id'])} must be lower-case letters and digits "
                                     "joined by single dashes"))
    elif "id" in front:  # the id is the item's key
        problems += validate_column_text(front["id"], "id", KEY_MAX, line("id"))
    if "title" in front and not (isinstance(front["title"], str) and front["title"].strip()):
        problems.append((line("title"), "title must be a non-empty string"))
    elif "title" in front:  # stored stripped, as compute_card does
        problems += validate_column_text(front["title"].strip(), "title", TITLE_MAX, line("title"))
    for key, allowed in (("level", LEVELS), ("importance", IMPORTANCE), ("frequency", FREQUENCY)):
        if key in front and front[key] not in allowed:
            problems.append((line(key), f"{key} {describe_value(front[key])} is not one of: {', '.join(allowed)}"))
    if "concepts" in front:
        problems += validate_concept_tags(front["concepts"], concepts, line("concepts"))
    return problems


def validate_concept_tags(tags: object, concepts: Collection[str] | None, line: int) -> Problems:
    """A non-empty list of distinct tags, each listed in concepts.yaml; ``concepts`` None: that
    file could not be read, which is its own problem, so no tag is reported as unknown."""
    if not isinstance(tags, list) or not tags:
        return [(line, "concepts must be a non-empty list of tags from concepts.yaml")]
    problems: Problems = []
    seen: set[str] = set()
    for tag in tags:
        if isinstance(tag, str) and len(tag) > TAG_MAX:  # concept tags are String(TAG_MAX)
            problems += validate_column_text(tag, "a concept tag", TAG_MAX, line)
        elif not isinstance(tag, str) or (concepts is not None and tag not in concepts):
            problems.append((line, f"unknown concept {describe_value(tag)} (add it to concepts.yaml first)"))
        elif tag in seen:
            problems.append((line, f"concept '{tag}' is listed twice"))
        if isinstance(tag, str):  # str() of a list nested by aliases took as long as its repr
            seen.add(tag)
    return problems


def validate_section_layout(parsed: ParsedCard) -> Problems:
    """Every section present exactly once, known, in the README's order."""
    problems: Problems = []
    seen: dict[str, int] = {}
    furthest = -1
    for heading in parsed.sections:
        if heading.title not in SECTIONS:
            problems.append((heading.line, f"unknown section '## {heading.title}' "
                                           f"(expected: {', '.join(SECTIONS)})"))
            continue
        if heading.title in seen:
            problems.append((heading.line, f"section '## {heading.title}' appears more than once "
                                           f"(first at line {seen[heading.title]})"))
            continue
        seen[heading.title] = heading.line
        index = SECTIONS.index(heading.title)
        if index < furthest:
            problems.append((heading.line, f"section '## {heading.title}' is out of order "
                                           f"(expected: {', '.join(SECTIONS)})"))
        furthest = max(furthest, index)
    for position, name in enumerate(SECTIONS):
        if name not in seen:
            later = [seen[n] for n in SECTIONS[position + 1:] if n in seen]
            line = min(later) if later else max(parsed.line_count, 1)
            problems.append((line, f"missing section '## {name}'"))
    return problems


def validate_plain_section(heading: Heading) -> Problems:
    """Question, Basics and Solid: non-empty Markdown without subsections."""
    problems: Problems = [(child.line, f"'## {heading.title}' takes no '###' subsections")
                          for child in heading.children]
    if not heading.text():
        problems.append((heading.line, f"section '## {heading.title}' is empty"))
    return problems


def validate_code_section(heading: Heading) -> Problems:
    """Exactly one python block followed by one output block; imports limited to torch + stdlib."""
    problems: Problems = [(child.line, "'## Code' takes no '###' subsections")
                          for child in heading.children]
    by_kind: dict[str, list] = {"python": [], "output": []}
    for fence in heading.fences:
        if fence.info in by_kind:
            by_kind[fence.info].append(fence)
        else:
            problems.append((fence.line, f"unexpected ```{fence.info} block in '## Code' "
                                         "(only one ```python and one ```output block)"))
    for kind, fences in by_kind.items():
        if not fences:
            problems.append((heading.line, f"'## Code' needs a ```{kind} block"))
        for extra in fences[1:]:
            problems.append((extra.line, f"'## Code' holds more than one ```{kind} block"))
        if fences and not fences[0].text.strip():
            problems.append((fences[0].line, f"the ```{kind} block is empty"))
    if by_kind["python"] and by_kind["output"]:
        python, output = by_kind["python"][0], by_kind["output"][0]
        if output.line < python.line:
            problems.append((output.line, "the ```output block must follow the ```python block"))
        if python.closed:
            problems += validate_sample_imports(python.text, python.line)
    return problems


def validate_go_deeper(heading: Heading) -> Problems:
    """One non-empty ``###`` subsection per level, in level order."""
    problems: Problems = []
    if heading.first_text_line() is not None:
        problems.append((heading.first_text_line(), "text before the first level in '## Go deeper'"))
    seen: list[str] = []
    for child in heading.children:
        if child.title not in GO_DEEPER_TITLES:
            problems.append((child.line, f"unknown level '### {child.title}' in '## Go deeper' "
                                         f"(expected: {', '.join(GO_DEEPER_TITLES)})"))
        elif child.title in seen:
            problems.append((child.line, f"'### {child.title}' appears twice in '## Go deeper'"))
        else:
            if seen and GO_DEEPER_TITLES.index(child.title) < GO_DEEPER_TITLES.index(seen[-1]):
                problems.append((child.line, f"'### {child.title}' is out of level order"))
            seen.append(child.title)
            if not child.text():
                problems.append((child.line, f"'### {child.title}' in '## Go deeper' is empty"))
    for title in GO_DEEPER_TITLES:
        if title not in seen:
            problems.append((heading.line, f"'## Go deeper' is missing '### {title}'"))
    return problems


def validate_follow_ups(heading: Heading) -> Problems:
    """At least two ``### Q: ...`` entries, each with a non-empty answer."""
    problems: Problems = []
    if heading.first_text_line() is not None:
        problems.append((heading.first_text_line(), "text before the first '### Q:' in '## Follow-ups'"))
    for child in heading.children:
        question = child.title.removeprefix(FOLLOW_UP_PREFIX).strip()
        if not child.title.startswith(FOLLOW_UP_PREFIX) or not question:
            problems.append((child.line, "a follow-up heading reads '### Q: the question'"))
        elif not child.text():
            problems.append((child.line, "follow-up has no answer"))
    if len(heading.children) < MIN_FOLLOW_UPS:
        problems.append((heading.line, f"'## Follow-ups' needs at least {MIN_FOLLOW_UPS} "
                                       f"'### Q:' entries (found {len(heading.children)})"))
    return problems


def split_red_flags(heading: Heading) -> tuple[list[str], Problems]:
    """Bullet items (with indented continuation lines) and any line that is not part of one."""
    items: list[list[str]] = []
    problems: Problems = [(child.line, "'## Red flags' takes no '###' subsections")
                          for child in heading.children]
    for number, text in heading.body:
        bullet = _BULLET_RE.match(text)
        if bullet:
            items.append([(bullet.group(1) or "").strip()])
            if not items[-1][0]:
                problems.append((number, "empty red flag"))
        elif text.strip() and text[:1].isspace() and items:
            items[-1].append(text.strip())
        elif text.strip():
            problems.append((number, "'## Red flags' holds only a bullet list ('- ...')"))
    return ["\n".join(lines) for lines in items], problems


def validate_red_flags(heading: Heading) -> Problems:
    """At least two non-empty bullet items and nothing else."""
    items, problems = split_red_flags(heading)
    if len(items) < MIN_RED_FLAGS:
        problems.append((heading.line, f"'## Red flags' needs at least {MIN_RED_FLAGS} "
                                       f"bullet items (found {len(items)})"))
    return problems


SECTION_VALIDATORS = {
    "Question": validate_plain_section,
    "Basics": validate_plain_section,
    "Solid": validate_plain_section,
    "Code": validate_code_section,
    "Go deeper": validate_go_deeper,
    "Follow-ups": validate_follow_ups,
    "Red flags": validate_red_flags,
}


def validate_card(parsed: ParsedCard, source_path: str,
                  concepts: Collection[str] | None) -> Problems:
    """Every per-file rule; cross-file rules (unique ids) live in the loader."""
    problems = list(parsed.problems)
    problems += validate_front_matter(parsed, concepts)
    problems += validate_column_text(source_path, "the file's path", SOURCE_PATH_MAX, 1)
    front = parsed.front or {}
    card_id = front.get("id")
    if isinstance(card_id, str) and ID_RE.match(card_id):
        expected = f"{card_id}.md"
        if PurePosixPath(source_path).name != expected:
            problems.append((parsed.key_lines.get("id", 1), f"a card with id '{card_id}' must live "
                                                            f"in a file named '{expected}'"))
    problems += validate_section_layout(parsed)
    checked: set[str] = set()
    for heading in parsed.sections:
        if heading.title in SECTION_VALIDATORS and heading.title not in checked:
            checked.add(heading.title)
            problems += SECTION_VALIDATORS[heading.title](heading)
    return problems


def compute_card(parsed: ParsedCard, source_path: str) -> Card:
    """Build the immutable Card of a file that passed ``validate_card``."""
    front = parsed.front or {}
    by_title = {heading.title: heading for heading in reversed(parsed.sections)}
    code = by_title["Code"]
    fences = {fence.info: fence for fence in reversed(code.fences)}
    go_deeper = {child.title: child.text() for child in by_title["Go deeper"].children}
    red_flags, _ = split_red_flags(by_title["Red flags"])
    return Card(
        id=front["id"],
        title=front["title"].strip(),
        level=front["level"],
        concepts=tuple(front["concepts"]),
        importance=front["importance"],
        frequency=front["frequency"],
        question=by_title["Question"].text(),
        basics=by_title["Basics"].text(),
        solid=by_title["Solid"].text(),
        code=fences["python"].text,
        code_output=fences["output"].text,
        go_deeper=tuple((level, go_deeper[level.capitalize()]) for level in LEVELS),
        follow_ups=tuple(
            FollowUp(question=child.title.removeprefix(FOLLOW_UP_PREFIX).strip(), answer=child.text())
            for child in by_title["Follow-ups"].children
        ),
        red_flags=tuple(red_flags),
        source_path=source_path,
    )
