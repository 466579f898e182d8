"""The explorer page draws every step's picture as inline SVG with its index → position table."""

from __future__ import annotations

import html
import re

from quizapp.engine import explain

CHAIN = "torch.arange(12).view(3, 4)[:, 1::2]"
REFUSED = "torch.arange(24).view(2, 3, 4).transpose(0, 1).view(24)"


def test_every_step_has_a_picture_and_a_table(client):
    page = client.get("/explorer", query_string={"expr": CHAIN})
    assert page.status_code == 200
    doc = explain(CHAIN)
    text = page.text
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="pic"') == len(doc["steps"])
    for number in range(len(doc["steps"])):
        assert f'id="picture-step-{number}"' in text
    # The last step's table: index, storage position and the sum that gives it.
    last = text.split('id="picture-step-2"')[1]
    rows = re.findall(r"<tr><td><code>(\[[^<]*\])</code></td><td class=\"num\">(\d+)</td>"
                      r"<td><code>([^<]*)</code></td>", last)
    assert [(i, int(p)) for i, p, _ in rows] == [
        ("[0, 0]", 1), ("[0, 1]", 3), ("[1, 0]", 5), ("[1, 1]", 7), ("[2, 0]", 9), ("[2, 1]", 11)]
    assert html.unescape(rows[3][2]) == "1 + 1×4 + 1×2 = 7"
    assert "never (hatched)" in last and "6 storage cells are never read" in last
    assert "pictures.js" in text


def test_a_refused_view_still_draws_the_steps_before_it(client):
    page = client.get("/explorer", query_string={"expr": REFUSED})
    assert page.status_code == 200
    assert page.text.count('class="pic"') == 3  # arange, view, transpose; the view is refused


def test_the_picture_script_is_served_from_the_app(client):
    script = client.get("/static/pictures.js")
    assert script.status_code == 200 and b"data-pos" in script.data


def test_a_long_chain_says_which_steps_have_no_picture(client):
    page = client.get("/explorer", query_string={"expr": "torch.arange(6).view(2, 3)" + ".t()" * 20})
    assert page.status_code == 200 and page.text.count('class="pic"') == 16
    assert "Pictures are drawn for the first 16 steps of a chain; steps 16 to 21" in page.text


def test_a_refused_view_is_drawn_with_its_chunks_break_and_two_reruns(client):
    page = client.get("/explorer", query_string={"expr": REFUSED})
    text = html.unescape(page.text)
    refused = text.split('id="picture-refused"')[1]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="pic pic-refused"' in refused
    for label in ("chunk A · 3 el.", "chunk B · 2 el.", "chunk C · 4 el.", "✗ new dim 0"):
        assert label in refused
    assert "Dims 1 and 2 merge only if stride[1] = stride[2] × size[2]" in refused
    assert "Here stride[1] = 12, but stride[2] × size[2] = 1 × 4 = 4, and 12 ≠ 4" in refused
    # The text alternative: the dims and the chunk each is in, the new dims and what they do.
    assert re.search(r"<td class=\"num\">1</td><td class=\"num\">2</td><td class=\"num\">12</td>"
                     r"<td>chunk B</td>", refused)
    links = dict(re.findall(r'<a class="button" href="([^"]+)"><code>([^<]+)</code></a>', refused))
    assert sorted(links.values()) == [".contiguous().view(24)", ".reshape(24)"]
    for href in links:
        rerun = client.get(html.unescape(href).split("#")[0])
        assert rerun.status_code == 200 and 'id="picture-refused"' not in rerun.text
        assert href.endswith("#picture-step-3")
        # The copy: step 3's strip is new storage, linked to step 2's picture.
        step = rerun.text.split('id="picture-step-3"')[1].split("</section>")[0]
        assert 'href="#picture-step-2"' in step and "copied from storage #0 (step 2)" in step


def test_a_refused_view_picture_needs_no_script_to_be_read(client):
    """Its words say what the picture shows: the chunks, the new dim and the equation."""
    text = html.unescape(client.get("/explorer", query_string={"expr": REFUSED}).text)
    summary = text.split('id="picture-refused"')[1].split('class="picture-summary">')[1]
    assert summary.startswith("A view of shape (24,) needs new strides over the same memory.")
    assert "chunk B is dim 1 (2 elements)" in summary and "12 ≠ 4" in summary


def test_a_copying_reshape_draws_why_no_view_fits(client):
    """reshape copies exactly when no view fits: the copy's step gets the same chunk picture."""
    expr = REFUSED.replace(".view(24)", ".reshape(24)")
    text = html.unescape(client.get("/explorer", query_string={"expr": expr}).text)
    why = text.split('id="picture-copy-3"')[1].split("</section>")[0]
    assert "Why step 3, <code>.reshape(24)</code>, had to copy" in why
    assert "Here stride[1] = 12, but stride[2] × size[2] = 1 × 4 = 4, and 12 ≠ 4" in why
    assert 'class="button"' not in why  # nothing to rerun: the chain ran
    for fits in ("torch.arange(6).view(2, 3).reshape(3, 2)", "torch.arange(6).view(2, 3).t().ravel()"):
        assert "picture-copy-" not in client.get("/explorer", query_string={"expr": fits}).text
