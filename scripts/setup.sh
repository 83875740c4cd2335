#!/usr/bin/env bash
# scripts/setup.sh: installs what dynarock needs and builds it.
#
# Idempotent. Installs the Debian (bookworm) packages that are missing, with
# apt-get (as root, or through sudo), then configures and builds a Release
# build with Ninja into build/ (build/dynarock is the binary).
#
#   scripts/setup.sh              install what is missing, then build all
#   scripts/setup.sh --no-build   only install
#   scripts/setup.sh --serve      install only what building and serving
#                                 need, and build only the dynarock binary
#                                 (scripts/run.sh: the first run serves in
#                                 minutes, not after every test binary)
#   scripts/setup.sh --python     install only what building the Python
#                                 module needs (scripts/python.sh), no build
#
# Environment: BUILD_DIR (default build), JOBS (default 2), CMAKE_ARGS (extra
# cmake -D flags, space-separated).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-}"
SERVE_PACKAGES=(
  build-essential cmake ninja-build
  librocksdb-dev nlohmann-json3-dev libxxhash-dev libboost-dev libcli11-dev libssl-dev
  zlib1g-dev libzstd-dev libisal-dev libhnswlib-dev
)
TEST_PACKAGES=(
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev lld
  python3-pytest python3-boto3 awscli nodejs npm wrk
  chromium
)
# The Python package (scripts/python.sh, tests/python, examples/python):
# pybind11 and the C headers for the module, SimPy for the example.
# python3-matplotlib (the example's optional plot) is not required.
PYTHON_PACKAGES=(pybind11-dev python3-dev python3-simpy)
PACKAGES=("${SERVE_PACKAGES[@]}")
case "$MODE" in
  --serve) ;;
  --python) PACKAGES+=("${PYTHON_PACKAGES[@]}" python3-boto3) ;;
  *) PACKAGES+=("${TEST_PACKAGES[@]}" "${PYTHON_PACKAGES[@]}") ;;
esac

installed() {
  dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'
}

missing=()
for p in "${PACKAGES[@]}"; do
  case "$p" in
    # NodeSource's nodejs package ships npm itself and conflicts with
    # Debian's npm: only ask for npm (or nodejs) when the command is absent.
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
  esac
  installed "$p" || missing+=("$p")
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

if [[ "$MODE" == "--no-build" || "$MODE" == "--python" ]]; then
  exit 0
fi

BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-2}"
if [[ "$MODE" == "--serve" ]]; then
  # The test and benchmark suites stay configured when their libraries are
  # here (a later scripts/test.sh reuses the build), but are not built.
  tests=OFF benches=OFF
  installed libgtest-dev && installed libgmock-dev && tests=ON
  installed libbenchmark-dev && benches=ON
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDYNAROCK_BUILD_TESTS=$tests -DDYNAROCK_BUILD_BENCHMARKS=$benches ${CMAKE_ARGS:-}
  cmake --build "$BUILD_DIR" -j "$JOBS" --target dynarock
else
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDYNAROCK_BUILD_TESTS=ON -DDYNAROCK_BUILD_BENCHMARKS=ON ${CMAKE_ARGS:-}
  cmake --build "$BUILD_DIR" -j "$JOBS"
fi
echo "setup: built $BUILD_DIR/dynarock"
