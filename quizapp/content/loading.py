"""Read content/ (concepts.yaml and cards/*.md) into Cards, collecting every problem found."""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from quizapp.content.limits import TAG_MAX, validate_column_text
from quizapp.content.model import Card, ContentError, Problem
from quizapp.content.parsing import NESTING_ERRORS, parse_card
from quizapp.content.samples import Sample
from quizapp.content.validation import ID_RE, compute_card, validate_card

CONTENT_PATH_VARIABLE = "QUIZAPP_CONTENT_PATH"
CARDS_DIR = "cards"
CONCEPTS_FILE = "concepts.yaml"
CARD_SUFFIX = ".md"
MAX_FILE_BYTES = 256 * 1024  # a card is a few kilobytes; anything near this is a mistake


@dataclass
class BankScan:
    """Everything read from a content folder, including cards of files that had problems."""

    cards: list[Card] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: int = 0


def default_content_root() -> Path:
    """The repo's content/ next to the quizapp package, else ./content."""
    beside_package = Path(__file__).resolve().parents[2] / "content"
    if (beside_package / CONCEPTS_FILE).is_file():
        return beside_package
    return Path.cwd() / "content"


def configured_content_root(environ: Mapping[str, str] = os.environ) -> Path:
    """The bank `content check` and `content load` use when given no path: QUIZAPP_CONTENT_PATH
    when set (empty counts as unset), else ``default_content_root()``."""
    return Path(environ.get(CONTENT_PATH_VARIABLE) or default_content_root())


def read_text(path: Path, shown: str) -> tuple[str | None, list[Problem]]:
    """A file's UTF-8 text (a leading byte order mark dropped), or the problem that stops it."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None, [Problem(shown, 1, f"file is larger than {MAX_FILE_BYTES} bytes")]
        text = path.read_text(encoding="utf-8-sig")  # editors on Windows may add a BOM
    except UnicodeDecodeError as err:
        return None, [Problem(shown, 1, f"file is not valid UTF-8: {err.reason}")]
    except OSError as err:
        return None, [Problem(shown, 1, f"cannot read file: {err.strerror or err}")]
    if "\x00" in text:  # PostgreSQL cannot store NUL in a text column
        line = text.count("\n", 0, text.index("\x00")) + 1
        return None, [Problem(shown, line, "file contains a NUL character")]
    return text, []


def describe_broken_link(path: Path) -> str | None:
    """What is wrong with ``path`` when it is a symbolic link that leads to no file: a loop, or a
    target that does not exist; None for anything else."""
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "symbolic link loop"
        if err.errno == errno.ENOENT:
            return f"broken symbolic link (its target {path.resolve()} does not exist)"
    return None  # the target exists (or cannot be examined: reading it will say why)


def validate_inside_root(path: Path, root: Path, shown: str) -> list[Problem]:
    """A symbolic link may only point inside the content folder (content/README.md "Rules")."""
    target = path.resolve()
    if target.is_relative_to(root.resolve()):
        return []
    return [Problem(shown, 1, f"refused: a symbolic link to {target}, outside the content folder")]


def validate_concept_entry(tag: object, description: object, line: int) -> list[tuple[int, str]]:
    """One ``tag: description`` line of concepts.yaml, as the concept table can store it."""
    if not isinstance(tag, str) or not ID_RE.match(tag):
        return [(line, f"tag {tag!r} must be lower-case words joined by dashes")]
    if not isinstance(description, str) or not description.strip():
        return [(line, f"tag '{tag}' needs a one-line description")]
    return (validate_column_text(tag, f"tag '{tag}'", TAG_MAX, line)
            + validate_column_text(description, f"the description of '{tag}'", None, line))


@dataclass
class ConceptScan:
    """concepts.yaml as read: the usable tags, every tag it names, and its problems."""

    concepts: dict[str, str] = field(default_factory=dict)
    # Every tag the file names, usable or not (a card may use one whose entry is wrong: the
    # entry's problem says so); None when the file could not be read as a mapping at all.
    named: frozenset[str] | None = None
    problems: list[Problem] = field(default_factory=list)


def describe_yaml_error(err: yaml.YAMLError, shown: str) -> Problem:
    """PyYAML's error in one line, at the line where the parser gave up."""
    mark = getattr(err, "problem_mark", None)
    reason = getattr(err, "problem", None) or str(err).splitlines()[0]
    context, start = getattr(err, "context", None), getattr(err, "context_mark", None)
    if context and start is not None:
        reason += f" ({context} that starts at line {start.line + 1})"
    return Problem(shown, mark.line + 1 if mark else 1, f"not valid YAML: {reason}")


def scan_concepts(root: Path) -> ConceptScan:
    """Read ``root/concepts.yaml`` (never raises)."""
    path = root / CONCEPTS_FILE
    shown = str(path)
    broken = describe_broken_link(path)
    if broken:
        return ConceptScan(problems=[Problem(shown, 1, broken)])
    problems = validate_inside_root(path, root, shown) if path.is_file() else []
    text, read_problems = (None, []) if problems else read_text(path, shown)
    problems += read_problems
    if text is None:
        return ConceptScan(problems=problems)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        return ConceptScan(problems=[describe_yaml_error(err, shown)])
    except NESTING_ERRORS:
        return ConceptScan(problems=[Problem(shown, 1, "concepts.yaml is nested too deeply to read")])
    if not isinstance(data, dict) or not data:
        return ConceptScan(problems=[
            Problem(shown, 1, "concepts.yaml must map each tag to a one-line description")])
    lines = {line.split(":", 1)[0].strip(): number
             for number, line in enumerate(text.splitlines(), start=1)
             if line[:1].strip() and not line.startswith("#") and ":" in line}
    scan = ConceptScan(named=frozenset(str(tag) for tag in data), problems=problems)
    for tag, description in data.items():
        found = validate_concept_entry(tag, description, lines.get(str(tag), 1))
        scan.problems += [Problem(shown, line, message) for line, message in found]
        if not found:
            scan.concepts[tag] = description.strip()
    return scan


def load_concepts(path: str | Path) -> dict[str, str]:
    """Tag -> description from ``<path>/concepts.yaml``; raises ContentError if it is malformed."""
    scan = scan_concepts(Path(path))
    if scan.problems:
        raise ContentError(scan.problems)
    return scan.concepts


def describe_non_card(entry: Path) -> str | None:
    """Why an entry of the cards folder is not a card file, or None if it is one."""
    if entry.is_dir():
        return "is a directory, not a card file"
    if not entry.is_file():
        return "is not a regular file, not a card file"
    if entry.suffix != CARD_SUFFIX:
        return "not a card: cards are files named '<id>.md'"
    return None


def list_card_files(root: Path) -> tuple[list[Path], list[Problem]]:
    """The ``*.md`` files in ``<root>/cards``; other visible entries there are problems."""
    folder = root / CARDS_DIR
    if not folder.is_dir():
        message = describe_broken_link(folder) or "the cards folder does not exist"
        return [], [Problem(str(folder), 1, message)]
    files, problems = [], []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        wrong = describe_broken_link(entry) or describe_non_card(entry)
        if wrong:
            problems.append(Problem(str(entry), 1, wrong))
            continue
        refused = validate_inside_root(entry, root, str(entry))
        problems += refused
        if not refused:
            files.append(entry)
    if not files:  # `content load` refuses an empty bank (it would retire every card)
        problems.append(Problem(str(folder), 1, "no cards given: the cards folder holds no "
                                                "'<id>.md' file to load"))
    return files, problems


def scan_bank(path: str | Path) -> BankScan:
    """Parse and validate every card file under ``path`` without raising."""
    root = Path(path)
    scan = BankScan()
    concepts = scan_concepts(root)
    scan.problems = list(concepts.problems)
    files, listing_problems = list_card_files(root)
    scan.problems += listing_problems
    first_use: dict[str, Problem] = {}
    for file in files:
        scan.files += 1
        shown = str(file)
        source_path = file.relative_to(root).as_posix()
        text, read_problems = read_text(file, shown)
        scan.problems += read_problems
        if text is None:
            continue
        parsed = parse_card(text)
        problems = [Problem(shown, line, message)
                    for line, message in validate_card(parsed, source_path, concepts.named)]
        card_id = (parsed.front or {}).get("id")
        if isinstance(card_id, str):
            here = Problem(shown, parsed.key_lines.get("id", 1), "")
            if card_id in first_use:  # ids are what review history points at: never shared
                first = first_use[card_id]
                problems.append(Problem(shown, here.line, f"id '{card_id}' is already used by "
                                                          f"{first.path}:{first.line}"))
            else:
                first_use[card_id] = here
        scan.problems += problems
        if problems:
            continue
        card = compute_card(parsed, source_path)
        scan.cards.append(card)
        code = next(s for s in parsed.sections if s.title == "Code")
        python = next(f for f in code.fences if f.info == "python")
        scan.samples.append(Sample(shown, python.line, card.code, card.code_output))
    return scan


def load_cards(path: str | Path) -> list[Card]:
    """Every card under ``<path>/cards``, sorted by file name; raises ContentError on any problem."""
    scan = scan_bank(path)
    if scan.problems:
        raise ContentError(scan.problems)
    return scan.cards
