#!/usr/bin/env bash
# Run the server: install the locked dependencies, then start uvicorn.
#   HOST (default 127.0.0.1) and PORT (default 8000) choose where it listens; with HOST=0.0.0.0
#   it prints the machine's network addresses, the ones friends' phones can open.
#   UNO_PUBLIC_URL (default: none) is the address invite links start with.
#   UNO_TRUSTED_PROXIES (default: none) lists the reverse proxies whose X-Forwarded-For is believed.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet "uv==0.13.9"
uv sync --frozen --quiet

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
# Frames over 16 KiB are refused by the protocol layer (the app refuses over UNO_MESSAGE_MAX_BYTES, 8 KiB);
# per-message-deflate would cost tens to hundreds of KiB per socket for small JSON frames.
# The per-address limits count the client's address: X-Forwarded-For is believed only from the
# proxies listed in UNO_TRUSTED_PROXIES (comma-separated addresses or networks); without it the
# header is ignored, since anyone can send one (uvicorn would believe it from 127.0.0.1).
if [ -n "${UNO_TRUSTED_PROXIES:-}" ]; then
  proxy=(--proxy-headers --forwarded-allow-ips "$UNO_TRUSTED_PROXIES")
else
  proxy=(--no-proxy-headers)
fi
# Our HTTP and WebSocket protocol classes bound connections and control frames (docs/OPERATIONS.md).
exec uv run uvicorn app.main:app --host "$HOST" --port "$PORT" \
    --ws-max-size "${UNO_WS_MAX_SIZE:-16384}" --ws-per-message-deflate false \
    --http app.transport.uvicorn_http:HttpProtocol --ws app.transport.uvicorn_ws:WebSocketProtocol \
    --loop app.transport.accept:Loop \
    "${proxy[@]}" "$@"
