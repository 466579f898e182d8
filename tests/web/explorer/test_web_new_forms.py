"""The explorer page draws the forms the language gained: flip (a copy) and its pictures."""

from __future__ import annotations

import html
import re

import pytest

from quizapp.engine import explain


def picture_positions(text: str, step: int) -> list[tuple[str, int]]:
    """(index, storage position) rows of one step's index table."""
    section = text.split(f'id="picture-step-{step}"')[1].split("</section>")[0]
    return [(i, int(p)) for i, p in re.findall(
        r"<tr><td><code>(\[[^<]*\])</code></td><td class=\"num\">(\d+)</td>", section)]


@pytest.mark.parametrize("expr", [
    "torch.arange(6).view(2, 3).t().flip(0)",
    "x = torch.arange(6).view(2, 3)\ny = x.flip(1)\ny",
])
def test_flip_is_drawn_as_a_copy_of_its_input(client, expr):
    doc = explain(expr)
    page = client.get("/explorer", query_string={"expr": expr})
    assert page.status_code == 200 and doc["error"] is None
    text = html.unescape(page.text)
    assert text.count('class="pic"') == len(doc["steps"])
    flip_step = next(i for i, s in enumerate(doc["steps"]) if s["code"].startswith(".flip"))
    section = text.split(f'id="picture-step-{flip_step}"')[1].split("</section>")[0]
    assert "new storage, copied from storage #0" in section
    step = doc["steps"][flip_step]
    rows = picture_positions(text, flip_step)
    assert len(rows) == step["numel"]
    for index, position in rows:  # each grid cell reads offset + Σ index × stride
        idx = [int(v) for v in index.strip("[]").split(", ")]
        assert position == step["storage_offset"] + sum(
            i * s for i, s in zip(idx, step["stride"], strict=True))


@pytest.mark.parametrize("expr", [
    "torch.arange(12).view(3, 4)[[0, 2]]",
    "torch.arange(24).view(2, 3, 4).permute(2, 0, 1)[:, [0, 1]]",
    "torch.arange(12).view(3, 4)[[True, False, True]]",
    "x = torch.arange(12).view(3, 4)\nx[x > 3]",
])
def test_advanced_indexing_is_drawn_as_a_copy_with_torchs_strides(client, expr):
    doc = explain(expr)
    page = client.get("/explorer", query_string={"expr": expr})
    assert page.status_code == 200 and doc["error"] is None
    text = html.unescape(page.text)
    assert text.count('class="pic"') == len(doc["steps"])
    last = len(doc["steps"]) - 1
    section = text.split(f'id="picture-step-{last}"')[1].split("</section>")[0]
    assert "new storage, copied from storage #0" in section
    step = doc["steps"][last]
    rows = picture_positions(text, last)
    assert len(rows) == step["numel"]
    for index, position in rows:
        idx = [int(v) for v in index.strip("[]").split(", ")]
        assert position == step["storage_offset"] + sum(
            i * s for i, s in zip(idx, step["stride"], strict=True))
    assert "advanced indexing, which always copies" in text


def test_a_dtype_view_is_drawn_over_the_same_storage_read_as_the_new_dtype(client):
    expr = "torch.arange(6, dtype=torch.int32).view(torch.int16)"
    doc = explain(expr)
    text = html.unescape(client.get("/explorer", query_string={"expr": expr}).text)
    assert doc["error"] is None and doc["steps"][-1]["storage"] == 0
    assert text.count('class="pic"') == 2
    section = text.split('id="picture-step-1"')[1].split("</section>")[0]
    assert "copied from" not in section
    # 12 int16 cells: each int32 value's low half, then its high half (0)
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>([^<]*)</td>", section)
    assert [value for _, value in rows][:4] == ["0", "0", "1", "0"] and len(rows) == 12
