"""CSV cells a spreadsheet shows as text: formula injection neutralised (OWASP's advice)."""

from __future__ import annotations

# A spreadsheet reads a cell starting with one of these as a formula (or, for tab and carriage
# return, may shift it into one): such text from a person or from content gets a leading "'".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralize_cell(text: str | None) -> str:
    """Text a spreadsheet will show as text, never run as a formula.

    Spreadsheets trim leading spaces (and line breaks) before deciding that a cell is a
    formula, so " =1+1" is one too: the first character that is not whitespace decides.
    """
    if not text:
        return ""
    if text.startswith(FORMULA_STARTS) or text.lstrip().startswith(FORMULA_STARTS):
        return "'" + text
    return text
