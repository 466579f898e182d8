"""Safe Markdown for cards and puzzles: markdown-it-py (no raw HTML), Pygments, then nh3."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup
from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.token import _TokenType
from pygments.util import ClassNotFound

from quizapp.markup.code_lexer import compute_code_tokens

HIGHLIGHT_CLASS = "highlight"
PYGMENTS_LIGHT = "default"
PYGMENTS_DARK = "github-dark"
PYTHON_NAMES = frozenset({"python", "py", "python3", "py3"})
# nowrap: we write the <pre> ourselves so markdown-it uses it as is (it must start with "<pre").
_FORMATTER = HtmlFormatter(nowrap=True)

# What survives sanitising: Markdown's own output plus Pygments' spans.
ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "span", "div", "a", "ul", "ol", "li",
    "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
    "del", "sup", "sub",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "span": {"class"}, "div": {"class"},
                      "code": {"class"}, "pre": {"class"}, "th": {"class"}, "td": {"class"}}
# Table column alignment, which markdown-it writes as style="text-align:..." (refused by the
# app's Content-Security-Policy, style-src 'self'), becomes one of these classes (app.css).
ALIGN_CLASSES = {f"text-align:{side}": f"align-{side}" for side in ("left", "center", "right")}


def align_with_classes(state) -> None:
    """Core rule: a table cell's inline alignment style becomes an align-* class."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and token.attrs.get("style") in ALIGN_CLASSES:
            token.attrs = {"class": ALIGN_CLASSES[token.attrs["style"]]}


def render_image_as_link(renderer, tokens, idx, options, env) -> str:
    """Render rule: an image becomes a link to it named by its alt text. Pages load nothing
    from elsewhere and nh3 drops <img>, which took the alt text with it."""
    token = tokens[idx]
    alt = renderer.renderInlineAsText(token.children or [], options, env).strip()
    label = escapeHtml(f"Image: {alt}" if alt else "Image")
    return f'<a href="{escapeHtml(token.attrGet("src") or "")}">{label}</a>'


def compute_lexer(language: str):
    try:
        return get_lexer_by_name(language or "text")
    except ClassNotFound:
        return TextLexer()


def compute_highlighted(tokens: Iterable[tuple[_TokenType, str]]) -> str:
    body = format_tokens(tokens, _FORMATTER)
    return f'<pre class="{HIGHLIGHT_CLASS}"><code>{body}</code></pre>'


def compute_block_tokens(code: str, language: str) -> Iterable[tuple[_TokenType, str]]:
    """A fenced block's tokens: Python through the app's own lexer, else Pygments' for its info."""
    language = language.strip().split(" ")[0]
    if language in PYTHON_NAMES:
        return compute_code_tokens(code)
    return compute_lexer(language).get_tokens(code)


def highlight_block(code: str, language: str, _attrs: str) -> str:
    return compute_highlighted(compute_block_tokens(code, language))


def build_markdown(highlight: Callable[[str, str, str], str] = highlight_block) -> MarkdownIt:
    """The shared parser, ready for concurrent use by the server's threads; ``highlight``
    writes a fenced code block (the app's CSS classes by default).

    markdown-it-py compiles each rule chain on first use and fills that cache in place; a
    second thread rendering meanwhile finds an empty chain and fails ("none of the block rules
    matched"). Compiling every chain here, before any thread shares the parser, leaves only
    reads at render time.
    """
    # html=False: raw HTML typed into Markdown is shown as text, never passed through.
    parser = MarkdownIt("commonmark", {"html": False, "highlight": highlight})
    parser.enable("table")
    parser.core.ruler.push("align_with_classes", align_with_classes)
    parser.add_render_rule("image", render_image_as_link)
    for ruler in (parser.core.ruler, parser.block.ruler, parser.inline.ruler,
                  parser.inline.ruler2):
        ruler.getRules("")  # compiles the cache of every chain of this ruler at once
    return parser


_MARKDOWN = build_markdown()


def sanitize_html(html: str) -> str:
    return nh3.clean(
        html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer")


@lru_cache(maxsize=4096)
def render_markdown(text: str) -> Markup:
    return Markup(sanitize_html(_MARKDOWN.render(text or "")))  # noqa: S704 (sanitised by nh3)


@lru_cache(maxsize=4096)
def render_markdown_inline(text: str) -> Markup:
    """One line of Markdown without its paragraph: for text inside a <label> (phrasing only)."""
    return Markup(sanitize_html(_MARKDOWN.renderInline(text or "")))  # noqa: S704 (nh3)


@lru_cache(maxsize=1024)
def render_python(code: str) -> Markup:
    return Markup(sanitize_html(compute_highlighted(compute_code_tokens(code))))  # noqa: S704


def compute_pygments_css() -> str:
    """Light theme by default, a dark one where the page is dark: chosen (``data-theme="dark"``
    on <html>), or the browser's preference unless the page is set to light; on screens only.

    Both keep every token colour at 4.5:1 or more on their own background (WCAG AA); only the
    invisible whitespace class is fainter. "friendly" put comments and numbers near 2.6:1.
    """
    light = HtmlFormatter(style=PYGMENTS_LIGHT).get_style_defs(f".{HIGHLIGHT_CLASS}")
    dark = HtmlFormatter(style=PYGMENTS_DARK)
    followed = dark.get_style_defs(f':root:not([data-theme="light"]) .{HIGHLIGHT_CLASS}')
    chosen = dark.get_style_defs(f':root[data-theme="dark"] .{HIGHLIGHT_CLASS}')
    # Screens only: a page is printed light whatever its theme (app.css).
    return (f"{light}\n@media screen and (prefers-color-scheme: dark) {{\n{followed}\n}}\n"
            f"@media screen {{\n{chosen}\n}}\n")
