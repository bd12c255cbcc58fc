"""``UNO_LOG_JSON=1``: one JSON object per line, and never a seat token."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import httpx
import pytest
from websockets.asyncio.client import connect

from app.main import JsonFormatter, install_json_logs
from tests.live import LiveServer, connect_once
from tests.waiting import until


def test_json_lines_with_fields_and_no_tokens() -> None:
    app_logger = logging.getLogger("app")
    saved = (app_logger.handlers[:], app_logger.level, app_logger.propagate)
    stream = io.StringIO()
    try:
        install_json_logs(stream)
        logging.getLogger("app.transport").info("closing ws?token=%s now", "s3cret-token")
        try:
            raise ValueError("boom token=s3cret-token")
        except ValueError:
            logging.getLogger("app.rooms").exception("room X failed")
    finally:
        app_logger.handlers, app_logger.level, app_logger.propagate = saved
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(x["level"], x["logger"]) for x in lines] == [("info", "app.transport"), ("error", "app.rooms")]
    assert lines[0]["msg"] == "closing ws?token=[redacted] now" and lines[0]["ts"].endswith("Z")
    assert "ValueError" in lines[1]["exc"]
    assert "s3cret-token" not in stream.getvalue()

    access = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("10.0.0.1:5000", "GET", "/ws/rooms/AB?token=s3cret&last_seq=4", "1.1", 101), None)
    line = json.loads(JsonFormatter().format(access))
    assert line["method"] == "GET" and line["status"] == 101 and line["client"] == "10.0.0.1:5000"
    assert line["path"] == "/ws/rooms/AB?token=[redacted]&last_seq=4" and "s3cret" not in json.dumps(line)


def test_a_live_connection_logs_json_without_its_token(server: LiveServer) -> None:
    code = httpx.post(server.http + "/api/rooms", json={"variant": "classic", "max_seats": 2}).json()["code"]
    token = httpx.post(server.http + f"/api/rooms/{code}/players", json={"name": "Ana"}).json()["token"]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    error_log = logging.getLogger("uvicorn.error")
    level = error_log.level
    error_log.addHandler(handler)
    error_log.setLevel(logging.INFO)
    try:
        asyncio.run(connect_once(server, code, token))
    finally:
        error_log.removeHandler(handler)
        error_log.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert any("WebSocket" in x["msg"] and "[redacted]" in x["msg"] for x in lines), lines
    assert token not in stream.getvalue()


@pytest.mark.parametrize("name", ["%74oken", "%74%6F%6b%65%6E", "T%6fKEN"])
def test_a_percent_encoded_token_parameter_is_redacted_too(server: LiveServer, name: str) -> None:
    """``?%74oken=`` is ``?token=`` once the query is decoded: it opens the seat, so it is a secret in a log."""
    code = httpx.post(server.http + "/api/rooms", json={"variant": "classic", "max_seats": 2}).json()["code"]
    token = httpx.post(server.http + f"/api/rooms/{code}/players", json={"name": "Ana"}).json()["token"]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)  # no formatter of ours: the logger's own filter redacts
    error_log = logging.getLogger("uvicorn.error")
    level = error_log.level
    error_log.addHandler(handler)
    error_log.setLevel(logging.INFO)

    async def connect_with_the_name() -> dict[str, object]:
        async with connect(f"{server.ws}/ws/rooms/{code}?{name}={token}") as ws:
            frame: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        await until(lambda: "WebSocket" in stream.getvalue(), what="the connection logged")
        return frame

    try:
        frame = asyncio.run(connect_with_the_name())
    finally:
        error_log.removeHandler(handler)
        error_log.setLevel(level)
    if name == "%74oken":  # it really is the seat's credential: the snapshot is the seat's own
        assert frame["type"] == "snapshot" and isinstance(frame["view"], dict) and frame["view"]["you"] == 0
    assert "WebSocket" in stream.getvalue() and "[redacted]" in stream.getvalue(), stream.getvalue()
    assert token not in stream.getvalue()
    assert token not in JsonFormatter().format(logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.1:5000", "GET", f"/ws/rooms/{code}?{name}={token}", "1.1", 101), None))
