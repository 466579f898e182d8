# syntax=docker/dockerfile:1
# quizapp: the web app under gunicorn, SQLite on the /data volume, migrations applied on start.
#   docker build -t quizapp .
#   docker run -p 8000:8000 -v quizapp-data:/data quizapp
# Set QUIZAPP_SECRET_KEY (or QUIZAPP_SECRET_KEY_FILE) to manage the key yourself; otherwise one
# is generated once into the volume. The image runs with production's HTTPS settings (Secure
# cookies, HSTS): serve it behind a proxy that terminates TLS (compose.yaml: nginx) and add
# -e QUIZAPP_PROXY_FIX_HOPS=1; QUIZAPP_HTTPS=0 is for a server reached on loopback alone.
# QUIZAPP_DATABASE_URL may point at PostgreSQL instead.
# The patch release and the Debian release are pinned: the image changes only when this line
# does (add the digest, python:3.11.14-slim-bookworm@sha256:..., where the build can read it).
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONTZPATH=""
# PYTHONTZPATH="": time zones come from the pinned tzdata package only (constraints.txt),
# not from the image's /usr/share/zoneinfo, so zone names and rules are the ones CI tested.

WORKDIR /app

# The web app never imports torch (only the `torch` extra's cross-checks do), so the image
# installs the package without that extra and stays free of several GB of torch libraries.
# The `postgres` extra (psycopg, with its own libpq) lets QUIZAPP_DATABASE_URL name PostgreSQL.
# constraints.txt pins the dependencies' own dependencies too (the versions CI tested), and
# PIP_CONSTRAINT carries the pins into pip's isolated build environment (setuptools).
# Dependencies first, read from pyproject.toml: this layer is built again only when they or
# the pins change, not at every edit of the code.
COPY pyproject.toml constraints.txt ./
RUN python -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print("\n".join(p["dependencies"] + p["optional-dependencies"]["postgres"]))' > /tmp/requirements.txt \
    && PIP_CONSTRAINT=/app/constraints.txt pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY README.md ./
COPY quizapp ./quizapp
RUN PIP_CONSTRAINT=/app/constraints.txt pip install --no-deps . && rm -rf quizapp build
COPY migrations ./migrations
COPY content ./content

RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin quizapp \
    && mkdir -p /data && chown quizapp:quizapp /data && chmod 0700 /data

COPY --chmod=0755 <<'SCRIPT' /usr/local/bin/quizapp-start
#!/bin/sh
# Start-up: a secret key, a migrated database, the current question bank, then gunicorn.
set -eu
# The database, its -wal and -shm and the key are for this account only.
umask 077
if [ -z "${QUIZAPP_SECRET_KEY:-}" ] && [ -z "${QUIZAPP_SECRET_KEY_FILE:-}" ]; then
    key_file=/data/secret_key
    if [ ! -s "$key_file" ]; then
        if [ ! -w /data ]; then
            echo "quizapp: /data is not writable by uid $(id -u): use a named volume, chown the" \
                 "host folder to $(id -u), or set QUIZAPP_SECRET_KEY" >&2
            exit 1
        fi
        python -c 'import secrets; print(secrets.token_hex(32))' > "$key_file"
    fi
    export QUIZAPP_SECRET_KEY_FILE="$key_file"
fi
quizapp db upgrade --directory "$QUIZAPP_MIGRATIONS_PATH"
quizapp content load --path "$QUIZAPP_CONTENT_PATH"
# Workers and threads: quizapp/gunicorn_config.py (GUNICORN_WORKERS, GUNICORN_THREADS; 2 x 2).
exec gunicorn --config python:quizapp.gunicorn_config --bind "0.0.0.0:${PORT:-8000}" \
    --worker-tmp-dir /dev/shm --no-control-socket --access-logfile - --error-logfile - \
    "quizapp:create_app()"
SCRIPT

ENV QUIZAPP_ENV=production \
    QUIZAPP_INSTANCE_PATH=/data \
    QUIZAPP_MIGRATIONS_PATH=/app/migrations \
    QUIZAPP_CONTENT_PATH=/app/content \
    PORT=8000

USER quizapp
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import os, sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4); sys.exit(0 if r.status == 200 else 1)"

CMD ["quizapp-start"]
