"""FastAPI's 422 handler, made safe for any input (registered by app/main.py)."""

from __future__ import annotations

import math
from typing import Any

from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # "inf", "nan": JSON has no such numbers
    if isinstance(value, str):
        # Half a surrogate pair (a JSON "\\ud800" escape) cannot be encoded: shown as U+FFFD.
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_json_safe(str(k)): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 body, made safe for any input: the default handler echoes the input back
    and fails (500) on ``1e999`` or ``NaN``; a very deep input is left out rather than walked."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    try:
        detail = _json_safe(jsonable_encoder(errors))
    except (RecursionError, ValueError, TypeError):
        detail = [{"type": e.get("type"), "loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg"))}
                  for e in errors]
    return JSONResponse(status_code=422, content={"detail": detail})
