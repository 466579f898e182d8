"""A NUL character anywhere in a request's text is a 400 on both databases, and nothing is saved."""

from __future__ import annotations

from sqlalchemy import func, select
from webtest_support import csrf_token, register, study_token

from quizapp.extensions import db
from quizapp.models import LoginAttempt, Review, User

REFUSED = "NUL character"


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_urls_with_a_nul_are_refused(client, bank):
    for url in ("/questions?q=%00", "/questions?q=stride%00x", "/questions?level%00=junior",
                "/questions/alpha%00stride", "/explorer?expr=torch.arange(6)%00"):
        response = client.get(url)
        assert response.status_code == 400, url
        assert REFUSED in response.text, url


def test_forms_with_a_nul_save_nothing(app, client, bank):
    page = client.get("/register").text
    response = client.post("/register", data={
        "csrf_token": csrf_token(page), "username": "ann\x00", "password": "a long password",
        "confirm": "a long password"})
    assert response.status_code == 400 and REFUSED in response.text
    assert count(app, User) == 0
    page = client.get("/login").text
    response = client.post("/login", data={
        "csrf_token": csrf_token(page), "username": "ann\x00x", "password": "whatever"})
    assert response.status_code == 400 and REFUSED in response.text
    assert count(app, LoginAttempt) == 0

    register(client, "sam")
    page = client.get("/study").text
    response = client.post("/study/rate", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "rating": "3",
        "answer": "(1,\x00 2)"})
    assert response.status_code == 400 and REFUSED in response.text
    assert count(app, Review) == 0
    # The same rating without the NUL is taken: the refusal was about that character only.
    response = client.post("/study/rate", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "rating": "3"})
    assert response.status_code == 303 and count(app, Review) == 1


def test_the_json_api_answers_a_nul_in_its_expression(client):
    response = client.post("/api/explain", json={"expr": "torch.arange(6)\x00"})
    assert response.status_code == 422
    assert response.get_json()["error"]["type"] == "ExpressionError"
