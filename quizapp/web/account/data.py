"""Your data: download the review log, schedule, practice answers and teams as CSV, and delete
the account."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    session,
    stream_with_context,
    url_for,
)
from flask_login import current_user, login_required, logout_user
from flask_wtf.csrf import CSRFError
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.extensions import db
from quizapp.services import account_data, accounts
from quizapp.services.account_data import WrongConfirmation
from quizapp.services.errors import LoginThrottled, ServiceError
from quizapp.services.settings import read_settings
from quizapp.services.teams import OwnsTeams
from quizapp.web.account.forms import DeleteAccountForm, PasswordForm, SettingsForm
from quizapp.web.account.logins import (
    clear_device_cookie,
    compute_retry_headers,
    current_login_limits,
    read_device,
)
from quizapp.web.account.settings_page import render_settings_page
from quizapp.web.http.errors import CSRF_MESSAGE, render_error
from quizapp.web.http.runtime import client_address, current_time

bp = Blueprint("account_data", __name__)

RowSource = Callable[[Session, int], Iterator[tuple[str, ...]]]


def send_csv(kind: str, header: tuple[str, ...], rows: RowSource) -> Response:
    """The signed-in user's rows as a CSV attachment, streamed as the query is read (the
    request's context, and with it the database session, lasts until the last row)."""
    user_id, username = current_user.id, current_user.username
    today = current_time().astimezone(srs.compute_user_zone(current_user)).date()
    filename = f"quizapp-{kind}-{username}-{today.isoformat()}.csv"  # names are [a-z0-9_.-]

    @stream_with_context
    def generate() -> Iterator[str]:
        yield from account_data.iter_csv(header, rows(db.session, user_id))

    return Response(generate(), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "no-store"})


@bp.route("/settings/reviews.csv")
@login_required
def reviews_csv():
    """Every rating the user made, oldest first (a link: GET, changes nothing)."""
    return send_csv("reviews", account_data.REVIEW_HEADER, account_data.iter_review_rows)


@bp.route("/settings/schedule.csv")
@login_required
def schedule_csv():
    """Each rated item's due time and FSRS memory state."""
    return send_csv("schedule", account_data.SCHEDULE_HEADER, account_data.iter_schedule_rows)


@bp.route("/settings/practice.csv")
@login_required
def practice_csv():
    """Every practice answer the user gave (outside the schedule), oldest first."""
    return send_csv("practice", account_data.PRACTICE_HEADER, account_data.iter_practice_rows)


@bp.route("/settings/teams.csv")
@login_required
def teams_csv():
    """The teams the user belongs to: name, role, when they joined."""
    return send_csv("teams", account_data.TEAM_HEADER, account_data.iter_team_rows)


def render_refusal(form: DeleteAccountForm, status: int, headers: dict[str, str] | None = None):
    """The Settings page again, the deletion form showing why it was refused."""
    settings_form = SettingsForm(formdata=None, data=asdict(read_settings(current_user)),
                                 now=current_time())
    page, _ = render_settings_page(settings_form, PasswordForm(formdata=None), status,
                                   delete_form=form)
    return page, status, headers or {}


@bp.errorhandler(CSRFError)
def refuse_without_token(_error: CSRFError):
    """A deletion posted without a valid CSRF token (checked app-wide before the view runs)
    is refused on the Settings page, not on a bare error page; nothing is deleted."""
    if not current_user.is_authenticated:
        return render_error(400, CSRF_MESSAGE)
    form = DeleteAccountForm(formdata=None)
    form.csrf_token.errors = [CSRF_MESSAGE]
    return render_refusal(form, 400)


@bp.route("/settings/delete-account", methods=["POST"])
@login_required
def delete_account():
    form = DeleteAccountForm()
    status, headers = 400, {}
    if form.validate_on_submit():
        account = accounts.load_account(db.session, current_user.id)
        try:
            reviews = account_data.delete_account(
                db.session, account, form.password.data, form.confirm_username.data,
                address=client_address(), now=current_time(), limits=current_login_limits(),
                device=read_device())
        except LoginThrottled as exc:  # a wrong password counts as a failed login
            form.password.errors = [exc.message]
            status, headers = 429, compute_retry_headers(exc)
        except WrongConfirmation as exc:
            form.confirm_username.errors = [exc.message]
        except OwnsTeams as exc:
            form.confirm_username.errors = [exc.message]
            status = exc.status
        except ServiceError as exc:
            form.password.errors = [exc.message]
        else:
            return sign_out_deleted(reviews)
    return render_refusal(form, status, headers)


def sign_out_deleted(reviews: int) -> Response:
    """The account is gone (its logins with it): this client forgets it too. The session is
    emptied first; logout_user then marks the remember cookie for removal, as logout does."""
    session.clear()
    logout_user()
    noun = "review" if reviews == 1 else "reviews"
    flash(f"Your account and its {reviews} {noun} were deleted.", "success")
    # The device cookie names the account; a new account of the same name is not this client's.
    return clear_device_cookie(redirect(url_for("study.home"), 303))
