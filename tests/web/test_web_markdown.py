"""The shared Markdown parser: safe output, and ready before the server's threads share it."""

from __future__ import annotations

import threading

from quizapp.markup import markdown


def test_every_rule_chain_is_compiled_before_first_use():
    """markdown-it-py fills a rule cache in place on first use; a thread reading it meanwhile
    sees an empty chain ("none of the block rules matched", seen under gunicorn's threads)."""
    parser = markdown.build_markdown()
    rulers = {"core": parser.core.ruler, "block": parser.block.ruler,
              "inline": parser.inline.ruler, "inline2": parser.inline.ruler2}
    for name, ruler in rulers.items():
        cache = ruler.__cache__
        assert cache is not None and cache.get(""), name
    # The alternative chains the block parser asks for while parsing are compiled too.
    assert {"paragraph", "reference", "blockquote", "list"} <= set(rulers["block"].__cache__)


def test_threads_render_distinct_texts_with_one_parser():
    parser = markdown.build_markdown()
    texts = [f"Item {n}: *stride* `{n}`\n\n| a | b |\n|---|---|\n| {n} | 1 |\n\n```python\n"
             f"x = {n}\n```\n" for n in range(64)]
    results: dict[int, str] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def render(offset: int) -> None:
        barrier.wait()
        for n in range(offset, len(texts), 8):
            try:
                results[n] = parser.render(texts[n])
            except Exception as exc:  # noqa: BLE001 (collected and reported below)
                errors.append(exc)

    threads = [threading.Thread(target=render, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(results) == len(texts)
    for n, html in results.items():
        assert f"<em>stride</em> <code>{n}</code>" in html and "<table>" in html


def test_raw_html_and_scripts_never_pass_through():
    html = markdown.render_markdown('Hi <script>alert(1)</script> [x](javascript:alert(1))')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "href" not in html  # the javascript: link stays text, never a link


def test_table_alignment_is_a_class_the_content_security_policy_allows():
    html = str(markdown.render_markdown("| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n"))
    assert "style=" not in html
    for side in ("left", "center", "right"):
        assert html.count(f'class="align-{side}"') == 2  # the header cell and the body cell
    assert "<th>d</th>" in html and "<td>4</td>" in html  # no alignment asked, none given


def test_a_class_typed_into_markdown_does_not_reach_the_page():
    html = str(markdown.render_markdown('| a |\n|---|\n| <td class="x"> |\n'))
    assert '<td class="x"' not in html and '&lt;td class="x"&gt;' in html  # shown as text


def test_puzzle_texts_render_without_emphasis_their_authors_never_wrote():
    """Puzzle prompts, hints, explanations and wrong-answer feedback are Markdown written by
    code around the engine's plain text: its products ("stride[1]*size[1]=15*5") paired their
    stars into italics and lost them. No puzzle text means to emphasise, so no
    rendered one may hold <em>; feedback is rendered inline, its `code` spans as code."""
    from quizapp.puzzles import families
    from quizapp.puzzles.checking import describe_wrong
    from quizapp.puzzles.registry import build

    rendered = 0
    for family in families():
        for level in family["levels"]:
            for seed in range(25):
                puzzle, _ = build(family["id"], level, seed)
                for text in (puzzle["prompt"], puzzle["explanation"], *puzzle["hints"]):
                    assert "<em>" not in markdown.render_markdown(text), puzzle["id"]
                    rendered += 1
                wrong = {"bool": not puzzle["answer"], "choices": [],
                         "choice": "b" if puzzle["answer"] == "a" else "a"}
                if puzzle["answer_kind"] in wrong:
                    feedback = describe_wrong(puzzle, wrong[puzzle["answer_kind"]])
                    html = markdown.render_markdown_inline(feedback)
                    assert "<em>" not in html and "`" not in html.replace("&#96;", ""), feedback
                    rendered += 1
    assert rendered > 2000


def test_an_image_becomes_a_link_named_by_its_alt_text():
    # Pages load nothing from elsewhere and nh3 drops <img>: the alt text stays, as a link.
    html = markdown.render_markdown('See ![the *strides* of x](https://example.com/s.png "t") here.')
    assert html == ('<p>See <a href="https://example.com/s.png" rel="noopener noreferrer">'
                    "Image: the strides of x</a> here.</p>\n")
    assert markdown.render_markdown("![](a.png)") == (
        '<p><a href="a.png" rel="noopener noreferrer">Image</a></p>\n')
    assert "&lt;b&gt;" in markdown.render_markdown("![<b>](a.png)")
    assert "<img" not in markdown.render_markdown('![x](https://example.com/s.png)')
    assert 'href="javascript' not in markdown.render_markdown("![x](javascript:alert(1))")
