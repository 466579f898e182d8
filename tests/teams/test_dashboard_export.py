"""The dashboard CSV: one row per member and step, read back with the csv module."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

from quizapp.markup.spreadsheet import FORMULA_STARTS
from quizapp.teams import (
    CSV_HEADER,
    DONE,
    OVERDUE,
    Member,
    Readiness,
    Step,
    StepResult,
    Tally,
    build_rows,
    compute_csv_rows,
    format_csv,
)

T0 = datetime(2026, 3, 1, 9, 30, 15, 123, tzinfo=UTC)
STEPS = (Step(1, 0, "set", "=HYPERLINK(\"http://x\")", 10, pass_mark=70),
         Step(2, 1, "questions", "Views", 4))


def read(text):
    return list(csv.reader(io.StringIO(text)))


def test_one_row_per_member_and_step_with_every_cell_neutralised():
    members = [Member(7, "ana", "member", last_active_at=T0),
               Member(8, "-2+3", "lead", due_at=T0 + timedelta(days=3)),
               Member(9, "@bob", "member")]
    results = {(7, 1): StepResult(1, DONE, due_at=T0, best_score=8, attempts=2),
               (7, 2): StepResult(2, OVERDUE, due_at=T0, reviewed=3),
               (8, 1): StepResult(1, OVERDUE, best_score=None)}
    rows = build_rows(STEPS, members, results)
    accuracy = {(7, 1): Tally(8, 10), (7, 2): Tally(2, 5)}
    recall = {(7, 2): Readiness(at=T0, items=4, studied=3, recall=0.614, by_concept={})}
    text = format_csv(compute_csv_rows(rows, accuracy, recall))
    assert "\r\n" in text
    table = read(text)
    assert tuple(table[0]) == CSV_HEADER
    body = [dict(zip(CSV_HEADER, row, strict=True)) for row in table[1:]]
    assert len(body) == len(members) * len(STEPS)
    assert [(r["member"], r["step"]) for r in body] == [
        ("ana", "1"), ("ana", "2"), ("'-2+3", "1"), ("'-2+3", "2"), ("'@bob", "1"),
        ("'@bob", "2")]
    for row in body:
        for value in row.values():
            assert not value.startswith(FORMULA_STARTS), row
        assert row["step_title"] in ("'=HYPERLINK(\"http://x\")", "Views")
    ana_set, ana_list = body[0], body[1]
    assert ana_set["status"] == "done" and ana_set["best_score"] == "8"
    assert ana_set["best_percent"] == "80" and ana_set["pass_mark"] == "70"
    assert ana_set["attempts"] == "2" and ana_set["reviewed"] == ""
    assert ana_set["right_answers"] == "8" and ana_set["accuracy_percent"] == "80"
    assert ana_set["due_utc"] == "2026-03-01T09:30:15Z"
    assert ana_set["last_active_utc"] == "2026-03-01T09:30:15Z"
    assert ana_list["reviewed"] == "3" and ana_list["items"] == "4"
    assert ana_list["best_score"] == "" and ana_list["status"] == "overdue"
    assert ana_list["predicted_recall_percent"] == "61" and ana_list["studied_items"] == "3"
    assert ana_list["answers"] == "5" and ana_list["accuracy_percent"] == "40"
    bob = body[4]
    assert bob["status"] == "open" and bob["best_percent"] == "" and bob["answers"] == "0"
    assert bob["accuracy_percent"] == "" and bob["predicted_recall_percent"] == ""


def test_every_text_cell_keeps_the_guard_once_read_per_member_and_step():
    from quizapp.markup.spreadsheet import neutralize_cell

    steps = (Step(1, 0, "set", " =1+1", 3, pass_mark=50), Step(2, 1, "questions", "\tx", 2),
             Step(3, 2, "skills", "fine", 1))
    members = [Member(1, " @a", "+r", last_active_at=T0), Member(2, "b", "member"),
               Member(3, "=c", "lead", due_at=T0)]
    results = {(1, 1): StepResult(1, DONE, due_at=T0, best_score=2, attempts=1)}
    rows = build_rows(steps, members, results)
    recall = {(1, 2): Readiness(at=T0, items=2, studied=1, recall=0.5, by_concept={})}
    table = list(compute_csv_rows(rows, {(1, 1): Tally(2, 3)}, recall))
    assert len(table) == 9
    for line in table:
        assert line == tuple(neutralize_cell(value) for value in line)  # nothing left to guard
    assert [(line[0], line[1], line[3]) for line in table[:3]] == [
        ("' @a", "'+r", "' =1+1"), ("' @a", "'+r", "'\tx"), ("' @a", "'+r", "fine")]
    assert [line[0] for line in table[3:]] == ["b"] * 3 + ["'=c"] * 3
