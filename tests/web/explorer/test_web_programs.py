"""The explorer page shows a program of named lines: each line heads its steps, the name it
binds follows its last step, every step has its picture, and a copy links to its input."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote_plus

from quizapp.engine import explain

PROGRAM = "x = torch.arange(12).view(3, 4)\ny = x.t()\nz = y.contiguous()\nz[0]"


def test_each_line_heads_its_steps_and_each_step_has_a_picture(client):
    doc = explain(PROGRAM)
    page = client.get("/explorer", query_string={"expr": PROGRAM.replace("\n", "\r\n")})
    assert page.status_code == 200 and doc["error"] is None
    text = html.unescape(page.text)
    heads = re.findall(r'<tr class="line-row"><td></td><th colspan="7" scope="rowgroup">'
                       r"<code>([^<]*)</code>", text)
    assert heads == [line["code"] for line in doc["lines"]]
    binds = re.findall(r'<span class="binds">→ <code>(\w+)</code>', text)
    assert binds == ["x", "y", "z"]
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="pic"') == len(doc["steps"])
    for number in range(len(doc["steps"])):
        assert f'id="picture-step-{number}"' in text
    # the picture of .t() says which line it belongs to
    assert "Step 2: <code>.t()</code> <span class=\"muted\">in <code>y = x.t()</code>" in text
    # .contiguous() copies from the tensor of step 2: the badge and the picture's link say so
    assert "copy → #1" in text
    picture = text.split('id="picture-step-3"')[1].split('id="picture-step-4"')[0]
    assert "step 2" in picture.lower()
    # the textarea keeps the lines, so the program can be edited and run again
    assert "<textarea" in text and ">" + PROGRAM + "</textarea>" in text


def test_a_line_outside_the_language_keeps_the_lines_before_it(client):
    page = client.get("/explorer", query_string={"expr": "x = torch.arange(6)\nq.t()"})
    assert page.status_code == 422
    text = html.unescape(page.text)
    assert "a name bound on an earlier line (x), got q" in text
    assert text.count('class="pic"') == 1


def test_the_api_gives_the_lines(client):
    answer = client.post("/api/explain", json={"expr": PROGRAM})
    assert answer.status_code == 200
    assert answer.get_json() == explain(PROGRAM)
    assert [line["name"] for line in answer.get_json()["lines"]] == ["x", "y", "z", None]


def test_a_step_is_compared_with_its_input_not_the_row_above(client):
    """z = x.view(6) follows y's copy in the table but takes x: a view, not a copy."""
    program = "x = torch.arange(6).view(2, 3)\ny = x.t().contiguous()\nz = x.view(6)"
    doc = explain(program)
    assert [s["storage"] for s in doc["steps"]] == [0, 0, 0, 1, 0] and doc["steps"][4]["input"] == 1
    text = html.unescape(client.get("/explorer", query_string={"expr": program}).text)
    rows = re.findall(r'<td data-label="Storage">(.*?)</td>', text)
    assert [re.sub(r"<[^>]+>", "", r) for r in rows] == [
        "#0", "view of #0", "view of #0", "copy → #1", "view of #0"]
    last = text.split('id="picture-step-4"')[1]
    assert "copied" not in last.split("</section>")[0].lower()


def test_a_refused_view_in_a_program_offers_the_program_rerun(client):
    program = "x = torch.arange(24).view(2, 3, 4)\ny = x.transpose(0, 1)\ny.view(24)"
    text = html.unescape(client.get("/explorer", query_string={"expr": program}).text)
    assert "Step 3: <code>.view(24)</code> is refused" in text
    reruns = re.findall(r'<a class="button" href="/explorer\?expr=([^"#]+)#picture-step-3"', text)
    assert [unquote_plus(r) for r in reruns] == [
        program.replace("y.view(24)", "y.reshape(24)"),
        program.replace("y.view(24)", "y.contiguous().view(24)")]
    for rerun in reruns:
        assert explain(unquote_plus(rerun))["error"] is None


def heads_and_error(text: str) -> list[str]:
    """The table's line headings in order, with ERROR where the error row stands."""
    body = text.split('<tbody>')[1].split('</tbody>')[0]
    return re.findall(r'<th colspan="7" scope="rowgroup"><code>([^<]*)</code>', body.split(
        '<tr class="error-row">')[0]) + (["ERROR"] if '<tr class="error-row">' in body else [])


def test_the_failing_line_heads_the_error(client):
    """y.view(12) fails at the line's first step: its heading still comes before the error."""
    program = "x = torch.arange(12).view(3, 4)\ny = x.t()\ny.view(12)"
    page = client.get("/explorer", query_string={"expr": program})
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert heads_and_error(text) == ["x = torch.arange(12).view(3, 4)", "y = x.t()", "y.view(12)",
                                     "ERROR"]
    assert "view size is not compatible" in text
    # the line that failed binds nothing, so no name follows its steps
    assert re.findall(r'<span class="binds">→ <code>(\w+)</code>', text) == ["x", "y"]


def test_a_line_failing_part_way_is_headed_once(client):
    program = "x = torch.arange(12).view(3, 4)\nz = x.t().view(12)\nz"
    text = html.unescape(client.get("/explorer", query_string={"expr": program}).text)
    assert heads_and_error(text) == ["x = torch.arange(12).view(3, 4)", "z = x.t().view(12)",
                                     "ERROR"]
    assert re.findall(r'<span class="binds">→ <code>(\w+)</code>', text) == ["x"]


def test_a_line_outside_the_language_at_its_first_step_is_headed(client):
    program = "x = torch.arange(6)\ny = x.foo()"
    page = client.get("/explorer", query_string={"expr": program})
    assert page.status_code == 422
    # the heading is the part of the line that was read (lines[1] of the document)
    assert explain(program)["lines"][1]["code"] == "y = x"
    assert heads_and_error(html.unescape(page.text)) == ["x = torch.arange(6)", "y = x", "ERROR"]
