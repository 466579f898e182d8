"""Pictures of memory as pages show them: a chain's step pictures, a refused view, their tables."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask import Flask
from markupsafe import Markup

from quizapp.engine import MAX_CHARS, ExpressionError, explain
from quizapp.pictures import (
    RefusedPicture,
    StepPicture,
    compute_chain_pictures,
    compute_copy_pictures,
    compute_dim_rows,
    compute_index_rows,
    compute_new_rows,
    compute_refused_picture,
    compute_sample_chains,
    compute_storage_rows,
    describe_picture,
    describe_refused,
    render_refused_svg,
    render_svg,
)

MAX_CHAINS = 6  # chains drawn on one page (a puzzle comparing options has up to five)


@dataclass(frozen=True, slots=True)
class PictureView:
    """One step's picture as the page shows it: the SVG, its words and its tables."""

    picture: StepPicture
    anchor: str  # the element id of its section
    svg: Markup
    summary: str
    index_rows: list[tuple[str, int, str, str]]
    storage_rows: list[tuple[int, str, str]]
    line: str | None = None  # the code of the program line the step belongs to


@dataclass(frozen=True, slots=True)
class RefusedView:
    """A refused view as the page shows it: the SVG, its words, its tables, the reruns."""

    picture: RefusedPicture
    anchor: str
    svg: Markup
    summary: str
    dim_rows: list[tuple[int, int, int, str]]
    new_rows: list[tuple[int, int, str]]


@dataclass(frozen=True, slots=True)
class ChainPictures:
    """Every picture of one chain, with the element-id prefix that keeps them apart on a page."""

    expr: str
    prefix: str
    steps: list[PictureView]
    refused: RefusedView | None
    step_count: int  # steps the engine ran (pictures stop at MAX_PICTURES)
    copies: dict[int, RefusedView]  # step -> why its reshape or flatten had to copy


def compute_picture_view(picture: StepPicture, prefix: str = "",
                         line: str | None = None) -> PictureView:
    # render_svg escapes every text it writes, so its markup is safe to put in the page.
    anchor = f"{prefix}picture-step-"
    svg = render_svg(picture, ids=f"{prefix}pic-{picture.layout.step}", anchor=anchor)
    return PictureView(picture, f"{anchor}{picture.layout.step}", Markup(svg),  # noqa: S704
                       describe_picture(picture), compute_index_rows(picture),
                       compute_storage_rows(picture), line)


def compute_line_of(doc: dict, step: int) -> str | None:
    """The code of the program line ``step`` belongs to (None in a lone chain's document)."""
    lines = doc.get("lines")
    return None if lines is None else lines[doc["steps"][step]["line"]]["code"]


def compute_refused_view(picture: RefusedPicture, prefix: str = "",
                         name: str = "picture-refused") -> RefusedView:
    # render_refused_svg escapes every text it writes too.
    svg = render_refused_svg(picture, ids=f"{prefix}pic-{name}")
    return RefusedView(picture, f"{prefix}{name}", Markup(svg),  # noqa: S704
                       describe_refused(picture), compute_dim_rows(picture.refused),
                       compute_new_rows(picture.refused))


def compute_chain_views(expr: str, prefix: str = "", doc: dict | None = None) -> ChainPictures:
    """The pictures of ``expr`` (its explain document, computed unless given)."""
    if doc is None:
        try:
            doc = explain(expr)
        except ExpressionError:
            doc = {"steps": [], "error": None}
    refused = compute_refused_picture(expr, doc)
    return ChainPictures(
        expr, prefix, [compute_picture_view(p, prefix, compute_line_of(doc, p.layout.step))
                       for p in compute_chain_pictures(expr, doc)],
        compute_refused_view(refused, prefix) if refused is not None else None,
        len(doc["steps"]),
        {n: compute_refused_view(p, prefix, f"picture-copy-{n}")
         for n, p in compute_copy_pictures(expr, doc).items()})


def compute_chains_views(chains: Iterable[str], prefix: str = "c") -> list[ChainPictures]:
    """The pictures of each distinct chain (at most MAX_CHAINS), ids prefixed c0-, c1-, ..."""
    unique = [c for c in dict.fromkeys(chains) if c and len(c) <= MAX_CHARS][:MAX_CHAINS]
    return [compute_chain_views(expr, f"{prefix}{n}-") for n, expr in enumerate(unique)]


def init_pictures(app: Flask) -> None:
    """Templates draw chains with ``chain_views(chains, prefix)``; ``sample_chains(code)`` gives
    a code sample's chains."""
    app.add_template_global(compute_chains_views, "chain_views")
    app.add_template_global(compute_sample_chains, "sample_chains")
