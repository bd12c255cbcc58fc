#!/usr/bin/env bash
# The canary: the transport tests against the newest releases of the libraries whose private
# parts the adapters lean on (uvicorn, websockets, uvloop, h11), in a throwaway environment.
# Not part of the test suite: run it before moving a pin in pyproject.toml (docs/OPERATIONS.md).
#
#   bash scripts/canary.sh            # the newest releases
#   CANARY_PACKAGES="uvicorn==0.60.0" bash scripts/canary.sh   # or chosen ones
#   CANARY_TESTS=tests/transport/test_uvicorn_internals.py bash scripts/canary.sh   # the adapters' checks alone
#
# It prints the versions it tried, then every test that broke and why: the adapters' own checks
# (tests/transport/test_uvicorn_internals.py) name the private attribute or method that changed.
# Exit status: 0 if every transport test passed, 1 if some broke.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
packages=(${CANARY_PACKAGES:-uvicorn websockets uvloop h11})
names=()
for spec in "${packages[@]}"; do names+=("${spec%%[=<>!~]*}"); done

venv="$(mktemp -d "${TMPDIR:-/tmp}/uno-canary.XXXXXX")"
trap 'rm -rf "$venv"' EXIT
# Everything else exactly as locked; the packages under test left out, then their newest releases.
locked="$venv/locked.txt"
no_emit=()
for name in "${names[@]}"; do no_emit+=(--no-emit-package "$name"); done
uv export --frozen --all-groups --no-hashes --no-emit-project --quiet "${no_emit[@]}" >"$locked"
uv venv --quiet --python "$(uv run --frozen --quiet python -c 'import sys; print(sys.executable)')" "$venv/env"
export VIRTUAL_ENV="$venv/env"
uv pip install --quiet -r "$locked"
uv pip install --quiet --upgrade "${packages[@]}"

echo "canary: the transport tests with:"
for name in "${names[@]}"; do
  echo "  $name $("$venv/env/bin/python" -c "import importlib.metadata as m; print(m.version('$name'))")"
done
report="$venv/report.txt"
status=0
"$venv/env/bin/python" -m pytest ${CANARY_TESTS:-tests/transport} -q -p no:cacheprovider -rfE --tb=short -o addopts="" \
  >"$report" 2>&1 || status=$?
if [ "$status" = 0 ]; then
  echo "canary: every transport test passed ($(tail -n 1 "$report"))"
  exit 0
fi
echo "canary: what broke:"
# The short summary names each failed test; the adapters' checks put what changed in the message.
sed -n '/short test summary/,$p' "$report" | sed '1d'
grep -E "^E +(- |.*relies on)" "$report" | sed "s/^E */  /" | awk '!seen[$0]++' || true
exit 1
