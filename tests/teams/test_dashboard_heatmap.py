"""The accuracy heat map: tallies counted here another way, and the SVG read back as XML."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from quizapp.teams import Outcome, Tally, compute_accuracy, compute_bucket, render_heatmap_svg

SVG = "{http://www.w3.org/2000/svg}"
CONCEPTS = ("stride", "view", "reshape", "storage-offset")


def random_outcomes(rng, members, n):
    """Outcomes of one answer (right or not) and of several answers on one item."""
    outcomes = []
    for _ in range(n):
        total = rng.choice([1, 1, 2, 5])
        outcomes.append(Outcome(
            rng.choice(members)[0],
            tuple(rng.sample(CONCEPTS + ("outside-track",), rng.randrange(1, 3))),
            sum(rng.random() < 0.6 for _ in range(total)), total))
    return outcomes


def test_tallies_match_a_count_of_their_own():
    rng = random.Random(3)
    members = [(i, f"m{i}") for i in range(1, 9)]
    outcomes = random_outcomes(rng, members, 400) + [Outcome(99, ("stride",), True)]
    grid = compute_accuracy(members, CONCEPTS, outcomes)
    right, total = Counter(), Counter()
    for o in outcomes:
        for concept in set(o.concepts):
            total[o.user_id, concept] += o.total
            right[o.user_id, concept] += o.right
    assert grid.concepts == tuple(sorted(CONCEPTS))
    for user_id, _ in members:
        for concept in CONCEPTS:
            tally = grid.tally(user_id, concept)
            assert (tally.right, tally.total) == (right[user_id, concept], total[user_id, concept])
    assert grid.tally(99, "stride") == Tally()  # not a member: left out
    assert all(concept != "outside-track" for _, concept in grid.cells)


@pytest.mark.parametrize(("percent", "css"), [
    (None, "hm-none"), (0, "hm-b0"), (39, "hm-b0"), (40, "hm-b1"), (59, "hm-b1"),
    (60, "hm-b2"), (74, "hm-b2"), (75, "hm-b3"), (89, "hm-b3"), (90, "hm-b4"), (100, "hm-b4")])
def test_buckets(percent, css):
    assert compute_bucket(percent) == css


def test_percent_rounds_down():
    assert Tally(2, 3).percent == 66 and Tally(0, 0).percent is None and Tally(1, 1).percent == 100


def test_the_svg_writes_every_figure_as_text_with_a_title_and_a_description():
    rng = random.Random(5)
    members = [(1, "ana"), (2, "<script>alert(1)</script>"), (3, "a-very-long-member-name-x")]
    grid = compute_accuracy(members, CONCEPTS, random_outcomes(rng, members, 60))
    svg = render_heatmap_svg(grid, title="Accuracy & more", table_id="accuracy-table")
    root = ET.fromstring(svg)  # well-formed: names are escaped
    assert root.get("role") == "img" and root.get("aria-labelledby") == "hm-title hm-desc"
    assert root.find(f"{SVG}title").text == "Accuracy & more"
    assert "accuracy-table" in root.find(f"{SVG}desc").text
    cells = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}text") is not None]
    assert len(cells) == len(members) * len(CONCEPTS)
    expected = [grid.tally(user_id, concept).percent for user_id, _ in members
                for concept in grid.concepts]
    for cell, percent in zip(cells, expected, strict=True):
        assert cell.find(f"{SVG}text").text == ("–" if percent is None else str(percent))
        assert cell.get("class") == compute_bucket(percent)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "hm-member"]
    assert labels == ["ana", "<script>alert(1)<…", "a-very-long-membe…"]
    concepts = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "hm-concept"]
    assert concepts == list(grid.concepts)
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "hm-legend"]
    assert legend[0] == "no answers" and legend[-1] == "90% or more"
    assert "<script>" not in svg


def test_the_svg_is_wide_enough_for_its_legend_with_one_concept():
    grid = compute_accuracy([(1, "a")], ["view"], [Outcome(1, ("view",), True)])
    root = ET.fromstring(render_heatmap_svg(grid, title="t", table_id="x"))
    legend_end = max(float(t.get("x")) for t in root.iter(f"{SVG}text")
                     if t.get("class") == "hm-legend")
    assert float(root.get("width")) > legend_end + len("90% or more") * 6
