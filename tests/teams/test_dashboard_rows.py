"""The dashboard's member rows: figures per row and sorting, against computations of their own."""

from __future__ import annotations

import functools
import random
import zlib
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.teams import (
    DEFAULT_SORT,
    DONE,
    DUE,
    GONE,
    OPEN,
    OVERDUE,
    PAGE_SIZE,
    Member,
    Page,
    Sort,
    Step,
    StepResult,
    build_rows,
    canonicalize_sort,
    compute_common_dues,
    compute_page,
    sort_rows,
)

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
STEPS = (Step(11, 0, "set", "Strides set", 10, pass_mark=70),
         Step(12, 1, "questions", "View questions", 4),
         Step(13, 2, "skills", "Puzzles", 3),
         Step(14, 3, "set", "Deleted set", 5, available=False))


def make_team(rng: random.Random, size: int):
    members, results = [], {}
    for user_id in range(1, size + 1):
        name = rng.choice(["ana", "Bo", "cy", "dee", "Ed", "fay"]) + str(rng.randrange(3))
        active = None if rng.random() < 0.2 else T0 + timedelta(hours=rng.randrange(400))
        members.append(Member(user_id, name, rng.choice(["owner", "lead", "member"]),
                              last_active_at=active))
        for step in STEPS:
            if not step.available:
                results[user_id, step.id] = StepResult(step.id, GONE)
                continue
            if rng.random() < 0.15:
                continue  # no result yet: the step is open
            if step.kind == "set":
                best = None if rng.random() < 0.3 else rng.randrange(step.items + 1)
                status = DONE if best is not None and best * 100 >= 70 * step.items else (
                    rng.choice([OVERDUE, DUE, OPEN]))
                results[user_id, step.id] = StepResult(step.id, status, best_score=best,
                                                       attempts=0 if best is None else 1)
            else:
                reviewed = rng.randrange(step.items + 1)
                status = DONE if reviewed == step.items else rng.choice([OVERDUE, DUE, OPEN])
                results[user_id, step.id] = StepResult(step.id, status, reviewed=reviewed)
    return members, results


def test_row_figures_match_a_count_of_their_own():
    rng = random.Random(27)
    members, results = make_team(rng, 60)
    rows = build_rows(STEPS, members, results)
    assert [row.member for row in rows] == members
    for row in rows:
        mine = [results.get((row.member.user_id, step.id)) for step in STEPS]
        statuses = [r.status if r else OPEN for r in mine]
        assert [cell.result.status for cell in row.cells] == statuses
        done = statuses.count(DONE)
        counted = 3  # the deleted set's step is never counted
        assert row.done_count == done and row.counted == counted
        assert row.completion == int(100 * done / counted + 1e-9)
        assert row.overdue_count == statuses.count(OVERDUE)
        set_result = mine[0]
        if set_result is None or set_result.best_score is None:
            assert row.mean_score is None
        else:
            assert row.mean_score == set_result.best_score * 10  # 10 items: percent exactly
        lists = row.cells[1]
        assert lists.percent == (mine[1].reviewed * 100 // 4 if mine[1] else 0)


def test_steps_are_columns_in_track_order_whatever_order_they_come_in():
    rows = build_rows(list(reversed(STEPS)), [Member(1, "a", "member")], {})
    assert [cell.step.id for cell in rows[0].cells] == [11, 12, 13, 14]
    assert [cell.result.status for cell in rows[0].cells] == [OPEN, OPEN, OPEN, GONE]


def compare_by(value, descending):
    """An independent comparator: by value (empty last either way), then name, then id."""
    def compare(a, b):
        va, vb = value(a), value(b)
        if (va is None) != (vb is None):
            return 1 if va is None else -1
        if va is not None and va != vb:
            lower = -1 if va < vb else 1
            return -lower if descending else lower
        ka = (a.member.username.casefold(), a.member.user_id)
        kb = (b.member.username.casefold(), b.member.user_id)
        return (ka > kb) - (ka < kb)
    return functools.cmp_to_key(compare)


VALUES = {
    "member": lambda row: row.member.username.lower(),
    "role": lambda row: ["owner", "lead", "member"].index(row.member.role),
    "done": lambda row: row.done_count,  # every row counts 3 steps: same order as percent
    "overdue": lambda row: sum(c.result.status == OVERDUE for c in row.cells),
    "score": lambda row: row.mean_score,
    "recall": lambda row: row.recall,
    "active": lambda row: row.member.last_active_at,
    "step-12": lambda row: 1.0 if row.cells[1].result.status == DONE
    else row.cells[1].result.reviewed / 4,
}


@pytest.mark.parametrize("column", sorted(VALUES))
@pytest.mark.parametrize("descending", [False, True])
def test_sorting_any_column_either_way_is_stable_with_blanks_last(column, descending):
    rng = random.Random(zlib.crc32(f"{column}{descending}".encode()))
    members, results = make_team(rng, 80)
    recall = {m.user_id: (None if rng.random() < 0.2 else rng.choice([0.5, 0.75, 0.9]))
              for m in members}
    rows = build_rows(STEPS, members, results, recall)
    rng.shuffle(rows)
    expected = sorted(rows, key=compare_by(VALUES[column], descending))
    got = sort_rows(rows, Sort(column, descending))
    assert [r.member.user_id for r in got] == [r.member.user_id for r in expected]
    # The same rows in another order come out the same: nothing depends on the input order.
    rng.shuffle(rows)
    assert sort_rows(rows, Sort(column, descending)) == got


def test_the_default_is_names_a_to_z():
    rows = build_rows(STEPS, [Member(2, "zed", "member"), Member(1, "Amy", "lead"),
                              Member(3, "bob", "owner")], {})
    assert DEFAULT_SORT == Sort("member", False)
    assert [r.member.username for r in sort_rows(rows)] == ["Amy", "bob", "zed"]


@pytest.mark.parametrize(("text", "expected"), [
    ("done", Sort("done")), ("-overdue", Sort("overdue", True)), ("step-12", Sort("step-12")),
    ("-step-13", Sort("step-13", True)), (None, DEFAULT_SORT), ("", DEFAULT_SORT),
    ("password", DEFAULT_SORT), ("step-99", DEFAULT_SORT), ("step-x", DEFAULT_SORT),
    ("step-１２", DEFAULT_SORT), ("--done", DEFAULT_SORT), ("-" + "d" * 100, DEFAULT_SORT),
])
def test_canonicalize_sort(text, expected):
    assert canonicalize_sort(text, [11, 12, 13, 14]) == expected


def test_a_header_link_toggles_its_own_column_and_starts_others_ascending():
    assert Sort("done").toggled("done") == Sort("done", True)
    assert Sort("done", True).toggled("done") == Sort("done")
    assert Sort("done", True).toggled("member") == Sort("member")
    assert Sort("overdue", True).text == "-overdue"


def test_an_unknown_status_is_refused():
    with pytest.raises(ValueError, match="unknown step status"):
        StepResult(1, "finished")


@pytest.mark.parametrize(("count", "text", "expected"), [
    (0, None, Page(1, 1, 0, 0)), (25, None, Page(1, 1, 0, 25)), (26, "2", Page(2, 2, 25, 26)),
    (200, "8", Page(8, 8, 175, 200)), (200, "9", Page(8, 8, 175, 200)),
    (200, "0", Page(1, 8, 0, 25)), (200, "-2", Page(1, 8, 0, 25)), (200, "x", Page(1, 8, 0, 25)),
    (200, "３", Page(1, 8, 0, 25)), (200, "9" * 40, Page(1, 8, 0, 25)),
])
def test_pages_of_twenty_five_members(count, text, expected):
    assert compute_page(count, text) == expected


def test_every_row_is_on_exactly_one_page():
    for count in (1, 49, 50, 51, 199, 200, 201):
        pages = compute_page(count, None).pages
        covered = [i for n in range(1, pages + 1)
                   for i in range(compute_page(count, str(n)).start, compute_page(count, str(n)).stop)]
        assert covered == list(range(count)) and pages == -(-count // PAGE_SIZE)


def test_a_step_heading_names_the_due_time_most_members_have():
    later = T0 + timedelta(days=3)
    results = {(1, 11): StepResult(11, DUE, due_at=T0), (2, 11): StepResult(11, DUE, due_at=T0),
               (3, 11): StepResult(11, DUE, due_at=later), (1, 12): StepResult(12, DUE, later),
               (2, 12): StepResult(12, DUE, T0)}
    rows = build_rows(STEPS, [Member(n, f"m{n}", "member") for n in (1, 2, 3)], results)
    # A tie goes to the earlier time; a step nobody has a time for has none.
    assert compute_common_dues(rows) == {11: T0, 12: T0, 13: None, 14: None}
