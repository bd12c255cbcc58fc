#!/usr/bin/env bash
# Install everything the tests need (from the lock file) and run every check.
# This is the README's test command, and CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
uv sync --frozen --quiet

uv run ruff check .
uv run mypy
# The browser tests drive Debian's Chromium; the client's own logic has Node unit tests.
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: run 'sudo apt-get install chromium' (the browser tests will be skipped)."
  fi
fi
node --test tests/js/
uv run pytest "$@"
# Every rule of the rules contract is named by at least one test.
if [ -f ../shared/tools/rule_coverage.py ]; then
  uv run python ../shared/tools/rule_coverage.py tests
fi
