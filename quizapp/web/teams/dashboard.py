"""The lead's dashboard of a team's track: /teams/<id>/dashboard and its CSV download."""

from __future__ import annotations

import re
from functools import partial

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from quizapp import srs, teams
from quizapp.extensions import db
from quizapp.services import team_dashboard
from quizapp.services.tracks import NO_SUCH_TRACK
from quizapp.web.http.runtime import current_time
from quizapp.web.rendering.filters import format_local_time
from quizapp.web.teams.dashboard_cells import (
    render_accuracy_cells,
    render_recall_cells,
    render_step_cells,
)

bp = Blueprint("team_dashboard", __name__)
ID_MAX = 2**31 - 1  # ids are 32-bit integers on PostgreSQL
NO_SUCH_TEAM = "There is no such team."
ACCURACY_TABLE = "accuracy-table"


def read_track_id() -> int | None:
    """The ``track`` query value: None when absent, 404 when it names no track."""
    text = request.args.get("track", "")
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,10}", text) or not 0 < int(text) <= ID_MAX:
        abort(404, NO_SUCH_TRACK)
    return int(text)


def load(team_id: int, *, everyone: bool = False) -> team_dashboard.Dashboard:
    if not 0 < team_id <= ID_MAX:
        abort(404, NO_SUCH_TEAM)
    return team_dashboard.load_dashboard(
        db.session, current_user, team_id, current_time(), track_id=read_track_id(),
        sort=request.args.get("sort"), page=request.args.get("page"), everyone=everyone)


@bp.get("/teams/<int(max=2147483647):team_id>/dashboard")
@login_required
def show(team_id: int):
    dashboard = load(team_id)
    track_id = dashboard.track.id if dashboard.track else None

    def sort_url(column: str) -> str:
        """A column heading's link: sorted by it (the other way if it is already), from the
        first page."""
        return url_for("team_dashboard.show", team_id=team_id, track=track_id,
                       sort=dashboard.sort.toggled(column).text)

    def page_url(number: int) -> str:
        return url_for("team_dashboard.show", team_id=team_id, track=track_id,
                       sort=dashboard.sort.text, page=number)

    svg = None
    if dashboard.rows and dashboard.grid.concepts:
        svg = Markup(teams.render_heatmap_svg(
            dashboard.grid, title="Accuracy on assigned work, by member and concept",
            table_id=ACCURACY_TABLE))
    return render_template(
        "teams/dashboard.html", dashboard=dashboard, sort_url=sort_url, page_url=page_url,
        heatmap=svg,
        accuracy_table=ACCURACY_TABLE, columns=teams.SORT_COLUMNS,
        step_cells=partial(render_step_cells, local_time=format_local_time),
        accuracy_cells=render_accuracy_cells, recall_cells=render_recall_cells)


@bp.get("/teams/<int(max=2147483647):team_id>/dashboard.csv")
@login_required
def download(team_id: int):
    dashboard = load(team_id, everyone=True)
    if dashboard.track is None:
        abort(404, "This team has no track yet, so there is nothing to download.")
    today = current_time().astimezone(srs.compute_user_zone(current_user)).date()
    filename = f"quizapp-team-{team_id}-track-{dashboard.track.id}-{today.isoformat()}.csv"
    return Response(teams.format_csv(dashboard.csv_rows()), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "no-store"})
