"""Dockerfile and docker-compose.yml agree with the app (no Docker engine runs here to try them).

Reads both files and checks what `docker compose up` depends on: the command exists, the
port and health path match the app, the database URL reaches the compose Postgres, the
image is slim and runs as a non-root user, and installs from the lock file.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml
from fastapi import FastAPI

ROOT = Path(__file__).resolve().parents[2]


def dockerfile(path: str = "Dockerfile") -> list[tuple[str, str]]:
    """(instruction, arguments) pairs, continuation lines joined."""
    text = (ROOT / path).read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def instruction(name: str) -> list[str]:
    return [args for word, args in dockerfile() if word == name]


def stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each from its FROM on."""
    out: list[list[tuple[str, str]]] = []
    for word, args in dockerfile():
        if word == "FROM":
            out.append([])
        out[-1].append((word, args))
    return out


def test_image_is_slim_non_root_and_installs_from_the_lock_file() -> None:
    *builders, runtime = stages()
    for stage in stages():
        assert re.fullmatch(r"python:3\.\d+-slim( AS \w+)?", stage[0][1])
    user = [args for word, args in runtime if word == "USER"][-1]
    assert user not in ("root", "0")
    runs = " ".join(args for word, args in runtime if word == "RUN")
    assert "uv sync --frozen" in runs and "--no-dev" in runs
    assert "gcc" not in runs and "build-essential" not in runs  # the compiler stays in the builder
    for word, args in runtime + [step for stage in builders for step in stage]:
        if word == "COPY" and not args.startswith("--from="):
            for source in shlex.split(args)[:-1]:
                assert (ROOT / source).exists(), f"COPY {source}: no such file"


def test_the_engine_is_compiled_in_a_builder_stage_and_copied_whole() -> None:
    # docs/ENGINE.md, "Compiled with mypyc": the runtime runs it compiled, with no compiler of its own.
    builders = {stage[0][1].split(" AS ")[1]: stage for stage in stages()[:-1]}
    assert "native" in builders
    build = " ".join(args for word, args in builders["native"] if word == "RUN")
    assert "gcc" in build and "--group build" in build and "python -m app build-native" in build
    copies = [args for word, args in stages()[-1] if word == "COPY"]
    assert "--from=native /srv/uno/build/native ./build/native" in copies
    assert "COPY app ./app" in " ".join(f"COPY {args}" for word, args in builders["native"] if word == "COPY")


def an_app() -> FastAPI:
    from app.config import Settings
    from app.main import create_app

    return create_app(Settings(_env_file=None, database_url="memory://"))  # type: ignore[call-arg]


def test_command_runs_migrations_then_the_app_on_the_exposed_port() -> None:
    exposed = instruction("EXPOSE")[0]
    env = " ".join(instruction("ENV"))
    assert f"PORT={exposed}" in env
    cmd = " ".join(shlex.split(instruction("CMD")[0].strip("[]").replace(",", " ")))
    # Through the server's one entry point (app/server.py), never a bare uvicorn command.
    assert cmd.index("python -m app migrate") < cmd.index("python -m app serve") and "uvicorn" not in cmd
    assert (ROOT / "alembic.ini").is_file() and (ROOT / "migrations" / "env.py").is_file()

    paths = set(an_app().openapi()["paths"])
    health = instruction("HEALTHCHECK")[0]
    match = re.search(r"http://127\.0\.0\.1:(\d+)(/\w+)", health)
    assert match is not None
    assert match.group(1) == exposed and match.group(2) in paths


def test_compose_wires_the_app_to_a_healthy_postgres() -> None:
    services = compose()["services"]
    app, db, proxy = services["app"], services["postgres"], services["nginx"]
    exposed = instruction("EXPOSE")[0]
    # Only nginx is published (so that the app can be scaled); it listens where the app does.
    assert "ports" not in app
    assert len(proxy["ports"]) == 1 and str(proxy["ports"][0]).endswith(":8000")
    assert "listen 8000;" in (ROOT / "deploy/nginx/nginx.conf").read_text(encoding="utf-8")
    assert "set $uno_app app:" + exposed + ";" in (ROOT / "deploy/nginx/nginx.conf").read_text(encoding="utf-8")
    assert app["environment"]["UNO_CLUSTER"] == "1", "every replica is a node of one cluster"
    assert app["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert re.fullmatch(r"postgres:\d+", db["image"]), "pin Postgres to a major version"
    assert "ports" not in db, "Postgres stays private to the compose network"
    # Healthy only once the real server listens: the image's first-start server is socket-only.
    check = " ".join(db["healthcheck"]["test"])
    assert "pg_isready" in check and re.search(r"(-h|--host)[ =]127\.0\.0\.1", check), check

    url = app["environment"]["DATABASE_URL"]
    env = db["environment"]
    match = re.fullmatch(r"postgresql://([^:]+):(.+)@postgres:5432/(\w+)", url)
    assert match is not None, url
    assert match.group(1) == env["POSTGRES_USER"] and match.group(3) == env["POSTGRES_DB"]
    assert match.group(2) == env["POSTGRES_PASSWORD"]

    volume = db["volumes"][0].split(":")[0]
    assert volume in compose()["volumes"], "Postgres keeps its data in a named volume"


def test_the_nginx_image_checks_it_serves_the_app() -> None:
    image = dockerfile("deploy/nginx/Dockerfile")
    exposed = [args for word, args in image if word == "EXPOSE"]
    health = [args for word, args in image if word == "HEALTHCHECK"]
    assert exposed == [instruction("EXPOSE")[0]] and len(health) == 1
    assert f"listen {exposed[0]};" in (ROOT / "deploy/nginx/nginx.conf").read_text(encoding="utf-8")
    match = re.search(r"http://127\.0\.0\.1:(\d+)(/\w+)", health[0])
    assert match is not None and match.group(1) == exposed[0]
    assert match.group(2) in an_app().openapi()["paths"]


def test_readme_documents_self_hosting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Self-hosting"):]
    assert "docker compose up" in section and "DATABASE_URL" in section
