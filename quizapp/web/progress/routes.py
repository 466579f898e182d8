"""/progress: the figures of services.progress as SVG charts, each with the same numbers in a table."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user, login_required
from markupsafe import Markup

from quizapp import progress
from quizapp.extensions import db
from quizapp.services.progress import ProgressReport, compute_progress
from quizapp.web.http.runtime import current_time

bp = Blueprint("progress", __name__)


def format_percent(share: float | None) -> str:
    return "–" if share is None else f"{share * 100:.0f}%"


def compute_mastery_bars(rows: list[progress.Mastery]) -> list[progress.Bar]:
    return [progress.Bar(row.name, row.share,
                         f"{row.in_review}/{row.items} in review"
                         + ("" if row.recall is None else f" · {format_percent(row.recall)} recall"))
            for row in rows]


def render_charts(report: ProgressReport) -> dict[str, Markup]:
    """The page's SVG, built from the same figures its tables show."""
    accuracy = [progress.Bar(report.family_titles.get(row.family, row.family), row.share,
                             f"{format_percent(row.share)} right ({row.right}/{row.answers})")
                for row in report.accuracy]
    return {
        # The SVG text is escaped where it is built (quizapp.progress.charts).
        "concepts": Markup(progress.render_bars(
            "mastery-concepts", "Mastery by concept",
            "For each concept, the share of its cards and puzzle skills in review, with FSRS's "
            "mean chance of recalling those now.", compute_mastery_bars(report.concepts))),
        "levels": Markup(progress.render_bars(
            "mastery-levels", "Mastery by level",
            "For each level, the share of its cards and puzzle skills in review, with FSRS's "
            "mean chance of recalling those now.", compute_mastery_bars(report.levels))),
        "accuracy": Markup(progress.render_bars(
            "puzzle-accuracy", "Puzzle accuracy, last 30 days",
            "For each puzzle family answered in the last 30 days, in reviews and in practice, "
            "the share of answers that were right.", accuracy)),
        "calendar": Markup(progress.render_heat_map("review-calendar", report.calendar)),
    }


@bp.route("/progress")
@login_required
def index():
    """GET only: nothing here changes anything."""
    report = compute_progress(db.session, current_user, current_time())
    months: dict[tuple[int, int], list[progress.CalendarDay]] = {}
    for day in report.calendar.days:
        months.setdefault((day.day.year, day.day.month), []).append(day)
    return render_template("progress/index.html", report=report, charts=render_charts(report),
                           months=list(months.values()), percent=format_percent,
                           format_day=progress.format_day, count_reviews=progress.count_reviews)
