"""Markdown as self-contained HTML for places without the app's CSS (Anki): colours inline."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape

import nh3
from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.token import _TokenType

from quizapp.markup.code_lexer import compute_code_tokens
from quizapp.markup.markdown import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_TAGS,
    PYGMENTS_LIGHT,
    build_markdown,
    compute_block_tokens,
)

# The same light theme as the pages (every token at 4.5:1 or more on white), as style attributes.
_FORMATTER = HtmlFormatter(nowrap=True, noclasses=True, style=PYGMENTS_LIGHT)
PRE_STYLE = ("background-color: #f6f8fa; color: #1f2328; padding: 0.5em 0.75em; "
             "text-align: left; white-space: pre-wrap")
# What the sanitiser keeps of a style attribute: Pygments' token styles and the <pre> above.
STYLE_PROPERTIES = frozenset({
    "color", "background-color", "font-weight", "font-style", "text-decoration", "padding",
    "text-align", "white-space", "border",
})
INLINE_ATTRIBUTES = {**ALLOWED_ATTRIBUTES,
                     "span": ALLOWED_ATTRIBUTES["span"] | {"style"},
                     "pre": ALLOWED_ATTRIBUTES["pre"] | {"style"}}


def compute_inline_highlighted(tokens: Iterable[tuple[_TokenType, str]]) -> str:
    body = format_tokens(tokens, _FORMATTER)
    return f'<pre style="{PRE_STYLE}"><code>{body}</code></pre>'


def highlight_inline(code: str, language: str, _attrs: str) -> str:
    """markdown-it's highlight hook: a fenced block with its colours in style attributes."""
    return compute_inline_highlighted(compute_block_tokens(code, language))


_MARKDOWN = build_markdown(highlight=highlight_inline)


def sanitize_inline_html(html: str) -> str:
    """nh3 with the pages' tags, plus the style attributes highlighting writes (filtered)."""
    return nh3.clean(
        html, tags=ALLOWED_TAGS, attributes=INLINE_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer",
        filter_style_properties=set(STYLE_PROPERTIES))


@lru_cache(maxsize=4096)
def render_markdown_inline_styled(text: str) -> str:
    """Markdown (raw HTML shown as text) to sanitised HTML whose code keeps its colours."""
    return sanitize_inline_html(_MARKDOWN.render(text or ""))


@lru_cache(maxsize=1024)
def render_python_inline_styled(code: str) -> str:
    """A Python snippet as a highlighted block with inline colours."""
    return sanitize_inline_html(compute_inline_highlighted(compute_code_tokens(code)))


def render_text_block(text: str) -> str:
    """Plain text (a program's output) as an escaped, unhighlighted block."""
    return sanitize_inline_html(f'<pre style="{PRE_STYLE}"><code>{escape(text)}</code></pre>')
