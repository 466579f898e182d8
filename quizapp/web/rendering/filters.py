"""Template filters: Markdown and code rendering, puzzle answers as text, relative and local times."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo

from flask import Flask, g
from flask_login import current_user

from quizapp import srs
from quizapp.markup.markdown import render_markdown, render_markdown_inline, render_python
from quizapp.puzzles import fmt_answer, omit_said
from quizapp.services.settings import NEW_FROM_LEVEL_SCOPES
from quizapp.services.study_queue import LastReview
from quizapp.web.http.runtime import current_time

# What the answer box expects, by the puzzle's answer_kind.
ANSWER_HINTS = {
    # Formats, not values: a concrete example would be some puzzle's own answer.
    "tuple": "numbers in brackets, as (a, b, c)",
    "int": "a whole number",
    "bool": "yes or no",
    "choice": "the letter of your choice",
    "choices": "the letters of your choices, comma-separated",
    "text": "a list as Python prints it, as [[a, b], [c, d]]",
}
RATING_LABELS = {rating: name.capitalize() for rating, name in srs.RATINGS.items()}


def format_answer(value: object, kind: str) -> str:
    """A puzzle answer as a person would type it here; options are lettered A, B, C on the page."""
    if kind == "choice":
        return str(value).upper()
    if kind == "choices" and isinstance(value, list):
        return ", ".join(str(letter).upper() for letter in value) or "none"
    return fmt_answer(kind, value)


SPOKEN_UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day", "mo": "month",
                "y": "year"}
SHORT_INTERVAL = re.compile(r"([0-9]+(?:\.[0-9])?)(mo|s|m|h|d|y)")


def format_spoken_interval(label: str) -> str:
    """A button's short interval ("10m", "2.1mo") in words for screen readers ("10 minutes",
    "2.1 months"); anything else is returned as it is."""
    match = SHORT_INTERVAL.fullmatch(label)
    if not match:
        return label
    amount, unit = match.groups()
    return f"{amount} {SPOKEN_UNITS[unit]}{'' if amount == '1' else 's'}"


def format_relative_time(moment: datetime) -> str:
    """How far off a moment is, in words a screen reader says as written: "in 17 hours".

    A day or more away counts study days, as a rating button does (srs.review ends "8d" at the
    start of the 8th study day after today's): at 23:00 that due time is 7 days and 5 hours
    off, but it is "in 8 days" here too, on the status bar and on the question list alike.
    """
    now = current_time()
    delta = moment - now
    if delta.total_seconds() <= 0:
        return "now"
    if delta >= timedelta(days=1):
        # At least one: a 25-hour study day (clocks going back) can hold 24 hours and more.
        delta = timedelta(days=max(1, srs.count_study_days_between(now, moment,
                                                                   current_zone())))
    return f"in {format_spoken_interval(srs.format_interval(delta))}"


# For this long after a rating, its confirmation counts from the rating's own moment, so it
# repeats the label the rating button showed: counted from a second later, the 5.5 minutes
# behind "Hard 6m" would read "5m".
RATING_ECHO = timedelta(minutes=1)


def compute_rated_interval(review: LastReview) -> timedelta:
    """The interval the rating's button showed: the time itself for a learning step, and "Nd"
    for a rating that left the item in Review (srs.review ends its N days at the start of the
    Nth study day after the rating's, so the time itself can be hours short of N days)."""
    if review.learning:
        return review.due - review.reviewed_at
    return timedelta(days=srs.count_study_days_between(review.reviewed_at, review.due,
                                                       current_zone()))


def format_comes_back(review: LastReview) -> str:
    """When a rated item is due again, as "in 6 minutes"; "now" once it is due."""
    now = current_time()
    if review.due > now and now - review.reviewed_at < RATING_ECHO:
        return f"in {format_spoken_interval(srs.format_interval(compute_rated_interval(review)))}"
    return format_relative_time(review.due)


def current_zone() -> tzinfo:
    """The signed-in user's time zone from settings (the one their day starts by); else UTC."""
    return srs.compute_user_zone(current_user) if current_user.is_authenticated else UTC


def current_zone_name() -> str:
    """"Europe/Berlin", "UTC+05:30" or "UTC": the zone the user's day is counted in (UTC for
    a stored name this server does not know, as compute_user_zone counts it)."""
    if not current_user.is_authenticated:
        return srs.DEFAULT_ZONE
    name = current_user.time_zone
    return name if srs.is_zone_name(name) else srs.DEFAULT_ZONE


def format_local_time(moment: datetime) -> str:
    """An aware time as the user's wall clock reads it, e.g. "2025-03-03 10:00"."""
    return moment.astimezone(current_zone()).strftime("%Y-%m-%d %H:%M")


def format_local_day(start: datetime) -> str:
    """A study day, by its start, as the user's calendar names it: "Wed 2 Dec"."""
    local = start.astimezone(current_zone())
    return f"{local:%a} {local.day} {local:%b}"


def format_duration(milliseconds: int) -> str:
    """Time spent, rounded to the second, in words a screen reader says as written: "8 s",
    "1 min 35 s", "2 h 5 min"."""
    seconds = round(milliseconds / 1000)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def claim_error_focus() -> bool:
    """True for the first field in error a page renders (it takes the focus), False after."""
    if g.get("error_focus_claimed"):
        return False
    g.error_focus_claimed = True
    return True


def register_filters(app: Flask) -> None:
    app.add_template_global(claim_error_focus, "claim_error_focus")
    app.add_template_filter(format_local_time, "local_time")
    app.add_template_filter(format_local_day, "local_day")
    app.add_template_global(current_zone_name, "user_zone_name")
    app.add_template_global(RATING_LABELS, "rating_labels")
    app.add_template_global(NEW_FROM_LEVEL_SCOPES, "new_from_level_scopes")
    app.add_template_filter(render_markdown, "markdown")
    app.add_template_filter(render_markdown_inline, "markdown_inline")
    app.add_template_filter(render_python, "python")
    app.add_template_filter(format_answer, "answer_text")
    app.add_template_filter(format_relative_time, "relative_time")
    app.add_template_filter(format_duration, "duration")
    app.add_template_filter(format_spoken_interval, "spoken_interval")
    app.add_template_filter(format_comes_back, "comes_back")
    app.add_template_filter(omit_said, "unsaid")  # feedback | unsaid(explanation)
