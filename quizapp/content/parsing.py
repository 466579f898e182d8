"""Split a card file into YAML front matter and `##`/`###` headings, keeping every line number."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

FRONT_MATTER_DELIMITER = "---"
_KEY_RE = re.compile(r"^([A-Za-z0-9_-]+)\s*:")
_SECTION_RE = re.compile(r"^##(?:\s+(.*?))?\s*$")
_SUBSECTION_RE = re.compile(r"^###(?:\s+(.*?))?\s*$")
# CommonMark fences: up to three spaces of indent, three or more backticks, an info word.
_FENCE_OPEN_RE = re.compile(r"^ {0,3}(`{3,})\s*([^`\s]*)[^`]*$")
# What the YAML and Python parsers raise on input nested deeper than they can follow
# (``[[[[...`` or ``- - - -...1``): a problem with the file, never a crash.
NESTING_ERRORS = (RecursionError, MemoryError)
# What PyYAML's safe constructor lets out, not as a YAMLError, on a value it resolved to a type
# it then cannot build: a plain ``2024-02-30`` (a date), ``!!int abc``, ``!!bool maybe``,
# ``!!timestamp soon``, an integer longer than Python converts (4,300 digits).
VALUE_ERRORS = (ValueError, TypeError, KeyError, AttributeError, OverflowError)
# PyYAML's safe loader on libyaml's parser where the wheel has it (it does on Linux): the
# pure-Python parser took 11 of 22 s reading 5,000 cards (bench/content_load.py). libyaml's
# composer recurses in C with no bound (a front matter nested ~40,000 deep overflowed an 8 MB
# stack, killing the process), so only a text too short to nest that deep is given to it; a
# longer one goes to the pure-Python parser, whose RecursionError is a problem (NESTING_ERRORS).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_YAML_MAX = 4096


def load_front_matter(text: str) -> object:
    """The YAML of a card's front matter, read by the safe loader that suits its length."""
    if len(text) <= FAST_YAML_MAX and SAFE_LOADER is not yaml.SafeLoader:
        try:
            return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 (the safe one)
        except yaml.YAMLError:
            # libyaml's messages leave out what they found ("found character that cannot start
            # any token", "found undefined alias"): a refused text is read again by PyYAML's
            # own parser, whose problem names it (a tab, the alias), as before libyaml.
            pass
    return yaml.safe_load(text)


@dataclass
class Fence:
    """A fenced code block: its info word (``python``, ``output``), first line and text."""

    info: str
    line: int
    lines: list[str] = field(default_factory=list)
    closed: bool = False

    @property
    def text(self) -> str:
        """The code between the fences, one line per line of the file."""
        return "\n".join(self.lines)


@dataclass
class Heading:
    """A ``##`` or ``###`` heading with the lines under it and its ``###`` children."""

    title: str
    line: int
    body: list[tuple[int, str]] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    children: list[Heading] = field(default_factory=list)

    def text(self) -> str:
        """The body as Markdown, without leading and trailing blank lines."""
        lines = [text.rstrip() for _, text in self.body]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines)

    def first_text_line(self) -> int | None:
        """Line number of the first non-blank body line, if any."""
        return next((n for n, text in self.body if text.strip()), None)


@dataclass
class ParsedCard:
    """What a card file says before any rule is applied; ``problems`` are (line, message)."""

    front: dict | None
    key_lines: dict[str, int]
    sections: list[Heading]
    problems: list[tuple[int, str]]
    line_count: int


def parse_front_matter(lines: list[str]) -> tuple[dict | None, dict[str, int], int, list]:
    """Read the YAML between the opening and closing ``---``; returns the first body line index."""
    problems: list[tuple[int, str]] = []
    if not lines or lines[0].rstrip() != FRONT_MATTER_DELIMITER:
        problems.append((1, "a card must start with a '---' line that opens its YAML front matter"))
        return None, {}, 0, problems
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == FRONT_MATTER_DELIMITER), None)
    if end is None:
        problems.append((1, "front matter is not closed by a '---' line"))
        return None, {}, len(lines), problems
    key_lines: dict[str, int] = {}
    for index in range(1, end):
        match = _KEY_RE.match(lines[index])
        if not match:
            continue
        key = match.group(1)
        if key in key_lines:
            problems.append((index + 1, f"front matter key '{key}' appears more than once"))
        else:
            key_lines[key] = index + 1
    try:
        front = load_front_matter("\n".join(lines[1:end]))
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = 2 + mark.line if mark is not None else 1
        reason = getattr(err, "problem", None) or str(err).splitlines()[0]
        problems.append((line, f"front matter is not valid YAML: {reason}"))
        return None, key_lines, end + 1, problems
    except NESTING_ERRORS:
        problems.append((1, "front matter is nested too deeply to read"))
        return None, key_lines, end + 1, problems
    except VALUE_ERRORS as err:
        reason = (str(err).splitlines() or [type(err).__name__])[0][:120]
        problems.append((1, f"front matter has a value YAML cannot read ({reason}); put it in "
                            "quotes to keep it as text"))
        return None, key_lines, end + 1, problems
    if front is None:
        front = {}
    if not isinstance(front, dict):
        problems.append((2, "front matter must be a YAML mapping of keys to values"))
        return None, key_lines, end + 1, problems
    return front, key_lines, end + 1, problems


def parse_headings(lines: list[str], start: int) -> tuple[list[Heading], list[tuple[int, str]]]:
    """Group the lines from ``start`` (0-based) under ``##`` sections and ``###`` subsections.

    Heading markers inside fenced code blocks are ordinary text.
    """
    sections: list[Heading] = []
    problems: list[tuple[int, str]] = []
    current: Heading | None = None
    fence: Fence | None = None
    fence_ticks = 0
    for index in range(start, len(lines)):
        number, text = index + 1, lines[index]
        if fence is not None:
            if re.match(rf"^ {{0,3}}`{{{fence_ticks},}}\s*$", text):
                fence.closed = True
                fence = None
            else:
                fence.lines.append(text)
            if current is not None:
                current.body.append((number, text))
            continue
        section = _SECTION_RE.match(text)
        subsection = _SUBSECTION_RE.match(text)
        if section:
            current = Heading(title=section.group(1) or "", line=number)
            sections.append(current)
            continue
        if subsection and sections:
            current = Heading(title=subsection.group(1) or "", line=number)
            sections[-1].children.append(current)
            continue
        if current is None:
            if text.strip():
                problems.append((number, "text outside any '##' section"))
            continue
        opening = _FENCE_OPEN_RE.match(text)
        if opening:
            fence_ticks = len(opening.group(1))
            fence = Fence(info=opening.group(2).lower(), line=number)
            current.fences.append(fence)
        current.body.append((number, text))
    if fence is not None:
        problems.append((fence.line, "code block is not closed by a line of backticks"))
    return sections, problems


def parse_card(text: str) -> ParsedCard:
    """Parse one card file; never raises on bad input, it records problems instead."""
    lines = text.splitlines()
    front, key_lines, body_start, problems = parse_front_matter(lines)
    sections, heading_problems = parse_headings(lines, body_start)
    return ParsedCard(
        front=front,
        key_lines=key_lines,
        sections=sections,
        problems=problems + heading_problems,
        line_count=len(lines),
    )
