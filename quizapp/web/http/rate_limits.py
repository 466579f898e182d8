"""Request rates on the routes anyone may use (Flask-Limiter): per address, or per account when
signed in; the standard RateLimit headers on every limited answer, 429 with Retry-After past it.

Headers follow the IETF draft (draft-ietf-httpapi-ratelimit-headers-06): ``RateLimit-Limit``,
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the window frees a request),
plus ``RateLimit-Policy`` (``30;w=60``). ``Retry-After`` is sent with 429 only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from flask import Flask, Response, current_app
from flask_limiter import RateLimitExceeded
from flask_login import current_user

from quizapp.extensions import limiter
from quizapp.web.http.errors import render_error
from quizapp.web.http.runtime import client_address


def rate_limit_key() -> str:
    """Whose requests are counted together: an account's, else an address's (so people behind
    one NAT who are signed in are not held by strangers there)."""
    if current_user.is_authenticated:
        return f"account:{current_user.id}"
    return f"address:{client_address()}"


def configured_rate(name: str) -> Callable[[], str]:
    return lambda: current_app.config[name]


def limit_explain(view: Callable) -> Callable:
    """The explorer's page and its JSON API share one count."""
    return limiter.shared_limit(configured_rate("RATE_LIMIT_EXPLAIN"), scope="explain",
                                key_func=rate_limit_key)(view)


def limit_questions(view: Callable) -> Callable:
    return limiter.limit(configured_rate("RATE_LIMIT_QUESTIONS"), key_func=rate_limit_key)(view)


def compute_rate_headers(limit, remaining: int, reset_at: float, now: float,
                         ) -> dict[str, str]:  # noqa: ANN001 (a limits RateLimitItem)
    window = limit.get_expiry()
    return {"RateLimit-Limit": str(limit.amount), "RateLimit-Remaining": str(max(remaining, 0)),
            "RateLimit-Reset": str(max(math.ceil(reset_at - now), 0)),
            "RateLimit-Policy": f"{limit.amount};w={window}"}


def register_rate_limits(app: Flask) -> None:
    limiter.init_app(app)

    @app.after_request
    def add_rate_headers(response: Response) -> Response:
        current = limiter.current_limit  # the tightest limit this request was counted under
        if current is not None:
            response.headers.update(compute_rate_headers(
                current.limit, current.remaining, current.reset_at, time.time()))
        return response

    @app.errorhandler(RateLimitExceeded)
    def refuse(error: RateLimitExceeded):
        current = limiter.current_limit
        wait = max(math.ceil(current.reset_at - time.time()), 1) if current else 60
        noun = "second" if wait == 1 else "seconds"
        message = (f"Too many requests from your address (the limit is {error.limit.limit}). "
                   f"Try again in {wait} {noun}.")
        if current_user.is_authenticated:
            message = message.replace("from your address", "from your account")
        answer = current_app.make_response(render_error(429, message))
        answer.headers["Retry-After"] = str(wait)
        return answer
