"""Private data files: the instance folder 0700, the SQLite database with its -wal and -shm
0600 whatever the umask, every entry point's umask, and the start-up warning for files that
other local accounts can read."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import text
from test_docker_start import run_start
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.extensions import db

ROOT = Path(__file__).resolve().parents[1]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def test_a_new_instance_folder_and_its_database_files_are_private_under_a_022_umask(tmp_path):
    instance = tmp_path / "new" / "instance"
    with umask(0o022):
        app = create_app({"QUIZAPP_ENV": "development", "INSTANCE_PATH": str(instance)})
        with app.app_context():
            upgrade(directory=MIGRATIONS)
            with db.engine.connect() as conn:  # WAL: -wal and -shm exist while it is open
                conn.execute(text("INSERT INTO concept (tag, description) VALUES ('x', 'X')"))
                conn.commit()
                database = instance / "quizapp.db"
                files = [database, Path(f"{database}-wal"), Path(f"{database}-shm"),
                         instance / "secret_key"]
                assert {path.name: oct(mode(path)) for path in files} == {
                    path.name: "0o600" for path in files}
            db.engine.dispose()
    assert mode(instance) == 0o700


def test_start_up_names_each_file_other_accounts_can_read(tmp_path, caplog):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    instance.chmod(0o755)
    exposed = ["quizapp.db", "quizapp.db-wal", "quizapp.db-shm", "secret_key"]
    for name in exposed:
        (instance / name).write_text("k" * 64 if name == "secret_key" else "")
        (instance / name).chmod(0o644)
    with caplog.at_level(logging.WARNING):
        create_app({"QUIZAPP_ENV": "development", "INSTANCE_PATH": str(instance)})
    warnings = [record.getMessage() for record in caplog.records
                if record.levelno == logging.WARNING]
    assert f"private data: {instance} is open to other local accounts (mode 0755); " \
           f"chmod 700 {instance}" in warnings
    for name in exposed:
        assert f"private data: {instance / name} is open to other local accounts (mode 0644); " \
               f"chmod 600 {instance / name}" in warnings
    assert len(warnings) == 5
    caplog.clear()
    instance.chmod(0o700)
    for name in exposed:
        (instance / name).chmod(0o600)
    with caplog.at_level(logging.WARNING):
        create_app({"QUIZAPP_ENV": "development", "INSTANCE_PATH": str(instance)})
    assert not [record for record in caplog.records if "private data" in record.getMessage()]


def test_gunicorn_sets_a_private_umask_before_its_workers_start():
    probe = ("import os, logging, types; os.umask(0o022); import quizapp.gunicorn_config as "
             "config; config.on_starting(types.SimpleNamespace(log=logging.getLogger(), "
             "cfg=types.SimpleNamespace(address=[]))); print(oct(os.umask(0)), oct(config.umask))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, cwd=ROOT, timeout=60)
    assert result.stdout.split() == ["0o77", "0o77"]


def test_the_quizapp_command_sets_a_private_umask(tmp_path):
    # `quizapp shell` reads its commands from standard input.
    result = subprocess.run(
        [str(Path(sys.executable).parent / "quizapp"), "shell"], input="import os\n"
        "print('umask', oct(os.umask(0)))\n", capture_output=True, text=True, timeout=60,
        preexec_fn=lambda: os.umask(0o022),
        env={"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing",
             "QUIZAPP_INSTANCE_PATH": str(tmp_path)})
    assert "umask 0o77" in result.stdout, result.stdout + result.stderr


def test_the_docker_start_script_sets_a_private_umask(tmp_path):
    result, calls = run_start(tmp_path, quizapp='#!/bin/sh\necho "quizapp umask $(umask)" >> "$LOG"\n')
    assert result.returncode == 0, result.stderr
    assert calls[0] == "quizapp umask 0077"
    assert "chmod 0700 /data" in (ROOT / "Dockerfile").read_text()
