"""Drawing a QR code, and the worker process that does it for the server (app/web/invite.py).

    python -m app.web.qr    # reads one JSON string (a link) a line; writes its length, a newline, the SVG

A process of its own, not a thread: segno is pure Python, and a thread drawing would hold the
GIL that the event loop needs.  Nothing but this module and segno is imported in it.  A link
that cannot be drawn (too long for any QR code) is answered with length 0.
"""

from __future__ import annotations

import io
import json
import sys

import segno


def qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
    return out.getvalue()


def serve() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        try:
            svg = qr_svg(str(json.loads(line)))
        except Exception:  # a link it cannot draw is answered, never the end of the worker
            svg = b""
        out.write(b"%d\n" % len(svg) + svg)
        out.flush()


if __name__ == "__main__":
    serve()
