#!/usr/bin/env bash
# scripts/run.sh: setup + build, then `dynarock serve` on 127.0.0.1:8000
# with the data on disk in ./dynarock-data. Extra arguments go to serve
# (e.g. --port 8001, --in-memory, --shared-db, --throttling off). Stop with
# Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/dynarock serve --host 127.0.0.1 --port 8000 --db-path ./dynarock-data "$@"
