#!/usr/bin/env bash
# Run several nodes behind nginx on this machine (docs/SCALING.md): one per core unless
# NODES says otherwise.  Needs DATABASE_URL=postgresql://... (the nodes share it) and nginx
# (Debian: apt-get install nginx-light).  PORT (default 8000) is where nginx listens.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
uv sync --frozen --quiet
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "nginx is missing: install it (Debian: apt-get install nginx-light)." >&2
  exit 2
fi
exec uv run python -m app cluster --nodes "${NODES:-$(nproc)}" "$@"
