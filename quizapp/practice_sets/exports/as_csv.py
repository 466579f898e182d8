"""The set as CSV for Anki and other flashcard tools: front, back, tags; UTF-8, every cell quoted.

The first lines are Anki's file headers (``#separator:Comma`` ...): without them Anki guesses
the separator and takes the "::" of the tags for one. Other tools skip lines starting with #
or take ``#columns:Front,Back,Tags`` as the header row. The text is the items' Markdown, not
HTML (``#html:false``): Anki shows it as written, line breaks kept.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from quizapp.markup.spreadsheet import neutralize_cell
from quizapp.practice_sets.exports.text import compute_back, compute_front, compute_tags
from quizapp.practice_sets.items import SetItem
from quizapp.practice_sets.params import SetParams

ANKI_HEADERS = ("#separator:Comma", "#html:false", "#tags column:3")
COLUMNS = ("Front", "Back", "Tags")


def export_csv(params: SetParams, items: Sequence[SetItem]) -> bytes:
    """RFC 4180 CSV (CRLF line ends), one row per item, formula-like cells neutralised."""
    del params  # the rows say everything a flashcard tool reads
    buffer = io.StringIO()
    for header in ANKI_HEADERS:
        buffer.write(header + "\r\n")
    buffer.write("#columns:" + ",".join(COLUMNS) + "\r\n")
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    for item in items:
        writer.writerow([neutralize_cell(compute_front(item)), neutralize_cell(compute_back(item)),
                         neutralize_cell(" ".join(compute_tags(item)))])
    return buffer.getvalue().encode("utf-8")
