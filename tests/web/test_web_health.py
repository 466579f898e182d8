"""/healthz touches the database: 200 when it answers, 503 when the schema is missing."""

from __future__ import annotations

from quizapp import create_app


def test_healthz_reports_ok_with_a_migrated_database(client, bank):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": f"{len(bank)} items"}


def test_healthz_is_unavailable_without_a_schema(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["status"] == "unavailable"
