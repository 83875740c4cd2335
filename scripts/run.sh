#!/usr/bin/env bash
# scripts/run.sh: install and build only what serving needs, then `dynarock serve` on 127.0.0.1:8000
# with the data on disk in ./dynarock-data. Extra arguments go to serve
# (e.g. --port 8001, --in-memory, --shared-db, --throttling off). Stop with
# Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --serve
# Defaults only for what the caller did not pass: CLI11 refuses an option
# given twice ("--port: At Most 1 required but received 2").
defaults=()
has() { local o; for o in "${@:2}"; do [[ $o == "$1" || $o == "$1="* ]] && return 0; done; return 1; }
has --host "$@" || defaults+=(--host 127.0.0.1)
has --port "$@" || defaults+=(--port 8000)
has --db-path "$@" || has --in-memory "$@" || defaults+=(--db-path ./dynarock-data)
exec build/dynarock serve "${defaults[@]}" "$@"
