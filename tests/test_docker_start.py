"""The Dockerfile's start script, run with stand-ins for quizapp and gunicorn (no Docker here)."""

from __future__ import annotations

import re
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDER = '#!/bin/sh\necho "$(basename "$0") $* key_file=${QUIZAPP_SECRET_KEY_FILE:-}" >> "$LOG"\n'


def start_script(data: Path) -> str:
    """The heredoc the image installs as quizapp-start, with /data moved to ``data``."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    script = re.search(r"<<'SCRIPT' /usr/local/bin/quizapp-start\n(.*?)\nSCRIPT\n", dockerfile,
                       re.S).group(1)
    return script.replace("/data", str(data))


def run_start(tmp_path: Path, quizapp: str = RECORDER,
              **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run the script with recording stand-ins first on PATH (then this Python, for the key)."""
    data, bin_dir, log = tmp_path / "data", tmp_path / "bin", tmp_path / "calls.log"
    data.mkdir(exist_ok=True)
    bin_dir.mkdir(exist_ok=True)
    log.unlink(missing_ok=True)
    for name, text in (("quizapp", quizapp), ("gunicorn", RECORDER)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    script = tmp_path / "quizapp-start"
    script.write_text(start_script(data))
    result = subprocess.run(
        ["sh", str(script)], capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin",
             "LOG": str(log), "QUIZAPP_MIGRATIONS_PATH": "/app/migrations",
             "QUIZAPP_CONTENT_PATH": "/app/content", **env})
    calls = log.read_text().splitlines() if log.exists() else []
    return result, calls


def test_first_start_makes_a_private_key_then_migrates_loads_and_serves(tmp_path):
    result, calls = run_start(tmp_path, PORT="8123")
    assert result.returncode == 0, result.stderr
    key_file = tmp_path / "data" / "secret_key"
    assert len(key_file.read_text().strip()) == 64
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert calls == [
        f"quizapp db upgrade --directory /app/migrations key_file={key_file}",
        f"quizapp content load --path /app/content key_file={key_file}",
        "gunicorn --config python:quizapp.gunicorn_config --bind 0.0.0.0:8123 --worker-tmp-dir "
        "/dev/shm --no-control-socket --access-logfile - --error-logfile - quizapp:create_app() "
        f"key_file={key_file}"]


def test_a_restart_keeps_the_key_and_a_given_key_is_used_instead(tmp_path):
    run_start(tmp_path)
    key = (tmp_path / "data" / "secret_key").read_text()
    run_start(tmp_path)
    assert (tmp_path / "data" / "secret_key").read_text() == key  # sessions survive a restart
    (tmp_path / "data" / "secret_key").unlink()
    result, calls = run_start(tmp_path, QUIZAPP_SECRET_KEY="k" * 40)
    assert result.returncode == 0 and not (tmp_path / "data" / "secret_key").exists()
    assert calls[-1].endswith("key_file=")


def test_a_failing_migration_stops_the_start(tmp_path):
    failing = RECORDER + '[ "$1" != db ]\n'  # the stand-in fails `quizapp db ...`
    result, calls = run_start(tmp_path, quizapp=failing)
    assert result.returncode != 0
    assert [call.split(" key_file=")[0] for call in calls] == [
        "quizapp db upgrade --directory /app/migrations"]
