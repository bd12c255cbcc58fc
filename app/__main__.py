"""The server's one entry point: ``python -m app serve | migrate | cluster``.

    python -m app serve [--host H] [--port P] [--log-level L] [--backlog N] [--timeout-graceful-shutdown S]
    python -m app migrate          # the database schema to the newest migration, then exit
    python -m app cluster [--nodes N] [--port P] [--first-node-port P]   # N nodes and nginx (docs/SCALING.md)
    python -m app build-native [--force]   # compile the engine with mypyc (optional; docs/ENGINE.md)

Settings come from the environment (``UNO_*``, ``DATABASE_URL``, ``HOST``, ``PORT``:
docs/OPERATIONS.md); ``--host`` and ``--port`` override ``HOST`` and ``PORT``.  ``serve`` runs
uvicorn with every protection of ``app/server.py``: there is no way to start it without them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from app.config import Settings


def _serve(args: argparse.Namespace) -> int:
    from app import native
    from app.server import serve

    print(f"engine: {native.MODE} ({native.REASON})", flush=True)

    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = Settings(**overrides)
    if args.migrate:
        _migrate(settings)
    serve(settings, log_level=args.log_level, backlog=args.backlog,
          graceful_shutdown_s=args.timeout_graceful_shutdown, access_log=not args.no_access_log)
    return 0


def _migrate(settings: Settings) -> None:
    from app.persistence.db import resolve_url, upgrade

    upgrade(resolve_url(settings.database_url, settings.data_dir))


def _migrate_only(_: argparse.Namespace) -> int:
    _migrate(Settings())
    return 0


def _cluster(args: argparse.Namespace) -> int:
    from app.cluster.run import main

    return main(args.rest)


def _build_native(args: argparse.Namespace) -> int:
    from app.native_build import main

    return main(force=args.force)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m app", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the server")
    serve.add_argument("--host", help="address to listen on (default: HOST, or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default: PORT, or 8000)")
    serve.add_argument("--log-level", choices=["critical", "error", "warning", "info", "debug", "trace"])
    serve.add_argument("--backlog", type=int, default=2048, help="connections the kernel holds before accept")
    serve.add_argument("--timeout-graceful-shutdown", type=int, default=None,
                       help="seconds open connections get to finish on shutdown (default: as long as they need)")
    serve.add_argument("--no-access-log", action="store_true", help="no line per request")
    serve.add_argument("--migrate", action="store_true", help="bring the schema up to date first")
    serve.set_defaults(run=_serve)
    migrate = commands.add_parser("migrate", help="bring the database schema to the newest migration")
    migrate.set_defaults(run=_migrate_only)
    cluster = commands.add_parser("cluster", help="run N nodes and nginx on this machine (docs/SCALING.md)",
                                  add_help=False)
    cluster.add_argument("rest", nargs=argparse.REMAINDER)
    cluster.set_defaults(run=_cluster)
    native = commands.add_parser("build-native", help="compile the engine and the room's hot modules (mypyc)")
    native.add_argument("--force", action="store_true", help="build again even if the current build is there")
    native.set_defaults(run=_build_native)
    return top


def parse(argv: Sequence[str]) -> argparse.Namespace:
    if argv[:1] == ["cluster"]:
        # Everything after "cluster" is the cluster launcher's own (app/cluster/run.py).
        return argparse.Namespace(command="cluster", rest=list(argv[1:]), run=_cluster)
    return parser().parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
