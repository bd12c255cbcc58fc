#!/usr/bin/env bash
# Refresh the vendored Pyodide (static/vendor/pyodide/VERSION/) from the npm registry: the files
# the browser's fairness check needs, from the pinned version, checked against the registry's
# integrity hash.  Not part of set-up: the files are committed, so the server needs no Node and
# no network.  Run it (it needs npm) only to move to another version, then update VERSION below,
# static/vendor/pyodide/SOURCE.md and its checksums, the version in static/js/verify_worker.js's
# URL, and remove the old version's directory (tests/deploy/test_vendored.py checks all four).
# The version is in the URL so that the files can be served as immutable (app/web/static_files.py):
# never change a version's directory in place.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=314.0.7
FILES="pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "pyodide@${VERSION}" >/dev/null && tar xzf "pyodide-${VERSION}.tgz")
want=$(npm view "pyodide@${VERSION}" dist.integrity)
got="sha512-$(openssl dgst -sha512 -binary "$work/pyodide-${VERSION}.tgz" | base64 -w0)"
[ "$want" = "$got" ] || { echo "integrity mismatch: $got, the registry says $want" >&2; exit 1; }
mkdir -p "static/vendor/pyodide/${VERSION}"
for f in $FILES; do cp "$work/package/$f" "static/vendor/pyodide/${VERSION}/"; done
(cd "static/vendor/pyodide/${VERSION}" && sha256sum $FILES)
