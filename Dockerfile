# The UNO server: a slim Python image, dependencies from the lock file, a non-root user, and the
# engine compiled with mypyc by a builder stage (the runtime image carries no compiler).

# ---- The native build (app/native_build.py): a C compiler, Python's headers, the lock file's build group.
FROM python:3.11-slim AS native
ENV UV_PROJECT_ENVIRONMENT=/opt/venv UV_LINK_MODE=copy
# The official image has Python's headers; a Debian-packaged Python needs python3-dev for them.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && (python -c "import sysconfig, os, sys; sys.exit(not os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))" \
        || apt-get install -y --no-install-recommends python3-dev) \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir "uv==0.13.9"
WORKDIR /srv/uno
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --group build --no-install-project
COPY app ./app
# Built from exactly the app/ the runtime stage copies: the digest the server checks at start matches.
RUN uv run --frozen --no-sync python -m app build-native

# ---- The server.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy

RUN pip install --no-cache-dir "uv==0.13.9"

WORKDIR /srv/uno
# Dependencies first, exactly as locked, so code changes don't reinstall them.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project
COPY alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY --from=native /srv/uno/build/native ./build/native

RUN useradd --create-home --uid 10001 uno && mkdir -p /data && chown uno /data
USER uno

ENV PATH=/opt/venv/bin:$PATH \
    UNO_DATA_DIR=/data \
    PORT=8000
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=3)"]

# Migrations first (the server would apply them too), then the server, through its one entry
# point (app/server.py: every protection, X-Forwarded-For only from UNO_TRUSTED_PROXIES).
CMD ["sh", "-c", "python -m app migrate && exec python -m app serve --host 0.0.0.0"]
