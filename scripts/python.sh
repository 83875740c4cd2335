#!/usr/bin/env bash
# scripts/python.sh: builds dynarock's Python module and installs the
# `dynarock` package into a Python interpreter (docs/python.md).
#
#   scripts/python.sh               build, then install into the python3 on PATH
#   scripts/python.sh --no-install  build and assemble the package only
#                                   ($BUILD_DIR/python-pkg, for PYTHONPATH)
#
# Installs the Debian packages it needs first (scripts/setup.sh --python:
# pybind11-dev, python3-dev and the build's libraries). The extension is
# compiled for the interpreter it is installed into: PYTHON (default: the
# python3 on PATH) must have its C headers (Debian's python3 gets them from
# python3-dev). The package goes to that interpreter's site-packages, or to
# its user site-packages when that is not writable; a dynarock-*.dist-info
# beside it registers the pytest plugin (dynarock.pytest_plugin). Prints
# where it went; `import dynarock` then works from any directory.
#
# Environment: PYTHON, BUILD_DIR (default build, the tree scripts/setup.sh
# builds the server in), JOBS (default 2),
# CMAKE_ARGS (extra cmake -D flags).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-}"
# The interpreter itself, not a launcher (pyenv's shims are scripts).
PYTHON="$("$(command -v "${PYTHON:-python3}")" -c 'import sys; print(sys.executable)')"
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-2}"

scripts/setup.sh --python

# Any tree can build the module (the libraries are position-independent
# code in every tree): scripts/test.sh builds it in build/, beside the
# server, so that CI compiles the engine once. A new tree gets only what the
# module needs; an existing one keeps its other targets.
# -U '_Python3_*': FindPython caches what it found; forget it, so that a
# tree built for one interpreter is reconfigured for another.
fresh=()
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  fresh=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DDYNAROCK_BUILD_TESTS=OFF -DDYNAROCK_BUILD_BENCHMARKS=OFF)
fi
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" "${fresh[@]}" -U '_Python3_*' \
  -DDYNAROCK_BUILD_PYTHON=ON -DPython3_EXECUTABLE="$PYTHON" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target _dynarock

# The package: python/dynarock/*.py and the extension beside them.
PKG="$BUILD_DIR/python-pkg"
rm -rf "$PKG"
mkdir -p "$PKG/dynarock"
cp python/dynarock/*.py "$PKG/dynarock/"
cp "$BUILD_DIR"/python/dynarock/_dynarock*.so "$PKG/dynarock/"
PKG=$(cd "$PKG" && pwd)
echo "python: package assembled in $PKG (PYTHONPATH=$PKG)"
if [[ "$MODE" == "--no-install" ]]; then
  exit 0
fi

SITE=$("$PYTHON" - <<'PY'
import os, site, sysconfig
candidates = [sysconfig.get_paths()["purelib"]] + list(getattr(site, "getsitepackages", lambda: [])())
for d in candidates:
    if os.path.isdir(d) and os.access(d, os.W_OK):
        print(d)
        break
else:
    print(site.getusersitepackages())
PY
)
mkdir -p "$SITE"
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' python/dynarock/__init__.py)
rm -rf "$SITE/dynarock" "$SITE"/dynarock-*.dist-info
cp -r "$PKG/dynarock" "$SITE/dynarock"
INFO="$SITE/dynarock-$VERSION.dist-info"
mkdir -p "$INFO"
printf 'Metadata-Version: 2.1\nName: dynarock\nVersion: %s\nSummary: dynarock in process: a DynamoDB-compatible engine with a boto3-shaped client\n' \
  "$VERSION" >"$INFO/METADATA"
# pytest loads plugins named in the pytest11 entry-point group.
printf '[pytest11]\ndynarock = dynarock.pytest_plugin\n' >"$INFO/entry_points.txt"
echo "scripts/python.sh" >"$INFO/INSTALLER"
(cd "$SITE" && find dynarock "$(basename "$INFO")" -type f | sed 's/$/,,/') >"$INFO/RECORD"

# Checked from another directory, so the repository's python/ is not what
# gets imported.
where=$(cd / && "$PYTHON" -c 'import dynarock; print(dynarock.__file__)')
echo "python: installed dynarock $VERSION for $PYTHON into $SITE"
echo "python: import dynarock -> $where"
