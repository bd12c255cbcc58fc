#!/usr/bin/env bash
# Run the server: install the locked dependencies, then start it (python -m app serve).
#   HOST (default 127.0.0.1) and PORT (default 8000) choose where it listens; with HOST=0.0.0.0
#   it prints the machine's network addresses, the ones friends' phones can open.
#   UNO_PUBLIC_URL (default: none) is the address invite links start with.
#   UNO_TRUSTED_PROXIES (default: none) lists the reverse proxies whose X-Forwarded-For is believed.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
# The build group too (mypy's mypyc, setuptools): an exact sync without it would take them out of
# an environment the test command set up, and the native build below needs them.
uv sync --frozen --quiet --group build
# The engine compiled with mypyc when this machine can (a C compiler and Python's headers): about a
# minute, once per change of the engine's sources; otherwise it runs as plain Python, which is
# just as correct.  The server says at start which one it runs, and why (app/native.py).
# UNO_ENGINE=interpreted skips the build.
if [ "${UNO_ENGINE:-auto}" != "interpreted" ]; then
  uv run --frozen --quiet python -m app build-native || echo "  (the server runs the engine interpreted)"
fi

HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
shown="$HOST"
[ "$HOST" = "0.0.0.0" ] || [ "$HOST" = "::" ] && shown="127.0.0.1"
echo "UNO server: http://${shown}:${PORT}  (API docs: http://${shown}:${PORT}/docs, protocol: docs/PROTOCOL.md)"
# Listening beyond this machine: the addresses friends on the same network can open.
case "$HOST" in
  127.*|localhost|::1) ;;
  0.0.0.0|::)
    for address in $(uv run --frozen --quiet python scripts/lan_addresses.py); do
      echo "  on your network: http://${address}:${PORT}"
    done ;;
  *) echo "  on your network: http://${HOST}:${PORT}" ;;
esac
[ -n "${UNO_PUBLIC_URL:-}" ] && echo "  invite links: ${UNO_PUBLIC_URL%/}/r/CODE (UNO_PUBLIC_URL)"
# The server's own entry point builds uvicorn's configuration with every protection
# (app/server.py, docs/OPERATIONS.md): frame bounds, the connection gate, X-Forwarded-For only
# from UNO_TRUSTED_PROXIES.  Extra arguments go to it (python -m app serve --help).
exec uv run python -m app serve --host "$HOST" --port "$PORT" "$@"
