"""Security headers on every HTTP response: a small pure-ASGI middleware.

The pages load their scripts, styles, catalogues and sockets from this server only, and
render every player-chosen text with ``textContent``: the policy says so to the browser, so
that an injected script or style has nowhere to run even if a bug let one into a page.
Nobody may frame the pages (clickjacking), nothing is sniffed into another type, and no
room URL leaks to other sites in a ``Referer``.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# 'self' covers same-origin ws:/wss: in current browsers; the socket's own origin is named
# as well (from Host) for those whose CSP predates that.
PAGE_POLICY = ("default-src 'self'; script-src 'self'{wasm}; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
# The match page runs the fairness check in the browser: the engine in Pyodide (WebAssembly),
# in a worker whose own policy comes with its script.  Only they may compile WebAssembly;
# 'wasm-unsafe-eval' allows that and nothing else (no eval of JavaScript).
WASM_PATHS = ("/matches/", "/static/js/verify_worker.js")
WASM = " 'wasm-unsafe-eval'"
# FastAPI's /docs and /redoc pages load Swagger UI and ReDoc from a CDN and start them with an
# inline script: they get a looser policy of their own, and only they do.
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
               "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
               "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
               "https://cdn.redoc.ly; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
               "base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")
FIXED = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
# A Host header goes into the policy only if it is plainly a host name and port: anything
# else could add directives of its own.
_HOST = re.compile(rb"^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


def policy(scope: Scope) -> bytes:
    path: str = scope.get("path", "")
    if path.startswith(DOCS_PATHS):
        return DOCS_POLICY.encode()
    host = next((value for key, value in scope.get("headers") or () if key == b"host"), b"")
    sockets = f" ws://{host.decode()} wss://{host.decode()}" if _HOST.match(host) else ""
    wasm = WASM if path.startswith(WASM_PATHS) else ""
    return PAGE_POLICY.format(sockets=sockets, wasm=wasm).encode()


class SecurityHeaders:
    """Adds the headers above to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {key.lower() for key, _ in headers}
                extra = [*FIXED, (b"content-security-policy", policy(scope))]
                headers += [(key, value) for key, value in extra if key not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
