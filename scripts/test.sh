#!/usr/bin/env bash
# Install everything the tests need (from the lock file) and run every check.
# This is the README's test command, and CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
# The build group (mypy's mypyc, setuptools) too: the engine's tests run compiled as well, below.
uv sync --frozen --quiet --group build

uv run ruff check .
uv run mypy
# The browser tests drive Debian's Chromium, and the cluster tests put Debian's nginx in front
# of the nodes; the client's own logic has Node unit tests.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
# The native build (python -m app build-native) compiles C.
command -v cc >/dev/null 2>&1 || missing+=(gcc)
# The table's reactions are emoji: the screenshots show them as players' devices do.
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Missing: ${missing[*]}: run 'sudo apt-get install ${missing[*]}' (their tests will be skipped)."
  fi
fi
node --test tests/js/
# A worker per core (pytest-xdist, at most 4): most tests wait on servers, browsers and processes, and
# the cluster failover test (eight minutes, mostly waiting) runs beside the rest instead of before it.
# Each worker has its own Postgres database and browser.  "-n 0" after it runs the suite in one process.
# The suite runs the engine interpreted (tests/conftest.py sets UNO_ENGINE=interpreted).
uv run pytest -n auto --maxprocesses 4 "$@"
# The same engine compiled (app/native.py): its tests, the room's compiled modules (the differ and
# overlay, the views, streams and frames, the bots' and clocks' timers), the native loader and the equivalence hash again on the
# native build.  In a full run only (no arguments).
if [ $# -eq 0 ]; then
  if ! command -v cc >/dev/null 2>&1; then
    echo "Compiled engine: SKIPPED, no C compiler here and none could be installed (apt-get install gcc)."
  else
    uv run --frozen --group build python -m app build-native
    UNO_ENGINE=compiled uv run pytest -n auto --maxprocesses 4 -p no:cacheprovider tests/engine tests/native \
      tests/rooms/test_diff.py tests/rooms/test_overlay.py tests/rooms/test_narrate.py \
      tests/rooms/test_kept_views.py tests/rooms/test_publish_patches.py tests/rooms/test_batch_frames.py \
      tests/rooms/test_spectators.py tests/rooms/test_bot_catch_pause.py tests/rooms/test_house_blitz.py \
      tests/rooms/test_round_secrets.py tests/persistence/test_bad_rows.py
  fi
fi
# Every rule of the rules contract, the house rules of its section 7 included, is named by at least one test.
if [ -f ../shared/tools/rule_coverage.py ]; then
  uv run python ../shared/tools/rule_coverage.py --house tests
fi
