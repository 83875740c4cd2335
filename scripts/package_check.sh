#!/usr/bin/env bash
# scripts/package_check.sh [BUILD_DIR]: checks what dynarock ships to another
# project, from an already built tree (default build/; nothing of dynarock is
# compiled again):
#
#   1. `cmake --install` into a temporary prefix: the installed headers are
#      exactly the public ones and what they include (the list the configure
#      step computed), and all of them compile together with the prefix as
#      the only include path
#   2. examples/cpp configured against that prefix with find_package(dynarock)
#      (warnings as errors), built, and run: hot_partition must show the hot
#      key throttled and the suffixed keys not, and the writers' throttle
#      errors must equal the engine's count; json_client must answer as
#      DynamoDB does
#   3. `cpack -G DEB`: the two packages' contents (dpkg-deb --contents), the
#      server binary run from the unpacked package (dpkg-deb -x), the
#      examples built again against the unpacked dynarock-dev, and apt-get's
#      dependency resolution of both packages on this machine (--simulate:
#      nothing is installed)
#
# Prints "PASS <check>" / "FAIL <check>" per check (scripts/test.sh counts
# them) and exits non-zero when any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD="${1:-build}"
JOBS="${JOBS:-2}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/dynarock-package.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"
FAILED=0

pass() { echo "PASS $*"; }
fail() {
  echo "FAIL $*"
  FAILED=$((FAILED + 1))
}
# check NAME CMD...: runs CMD, PASS or FAIL by its exit status.
check() {
  local name=$1
  shift
  if "$@"; then pass "$name"; else fail "$name"; fi
}

# --- 1. install ---
if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1; then
  cat "$WORK/install.log"
  fail "cmake --install $BUILD"
  exit 1
fi
pass "cmake --install $BUILD --prefix <tmp> ($(du -sh "$PREFIX" | cut -f1))"

headers_match() {
  diff <(sort "$BUILD/dynarock_installed_headers.txt") \
    <(cd "$PREFIX/include/dynarock" && find . -name '*.h' | sed 's|^\./||' | sort)
}
check "installed headers = public headers + what they include ($(wc -l <"$BUILD/dynarock_installed_headers.txt"))" \
  headers_match

headers_compile() {
  sed 's|.*|#include "&"|' "$BUILD/dynarock_installed_headers.txt" >"$WORK/all_headers.cc"
  c++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$PREFIX/include/dynarock" \
    "$WORK/all_headers.cc"
}
check "installed headers compile with only the prefix on the include path" headers_compile

# --- 2. the examples against the installed package ---
# build_examples PREFIX DIR: configure, build.
build_examples() {
  cmake -S examples/cpp -B "$2" -G Ninja -DCMAKE_PREFIX_PATH="$1" \
    -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >"$2.log" 2>&1 &&
    cmake --build "$2" -j "$JOBS" >>"$2.log" 2>&1 || {
    cat "$2.log"
    return 1
  }
}

# field LINE NAME: the value of NAME=value in LINE.
field() { grep -oE "(^| )$2=[0-9]+" <<<"$1" | cut -d= -f2; }

hot_partition_output() {
  local out=$WORK/hot_partition.txt single suffixed rows
  "$WORK/examples/hot_partition" 10 >"$out" || return 1
  cat "$out"
  rows=$(grep -cE '^ +[0-9]+ ' "$out")
  single=$(grep '^total single-key:' "$out")
  suffixed=$(grep '^total suffixed-10:' "$out")
  # A row per simulated second, at least the 10 of the run.
  ((rows >= 10)) || { echo "expected >= 10 per-second rows, got $rows"; return 1; }
  # The hot key is throttled, and the engine counted what the writers saw.
  (($(field "$single" throttle_errors) > 0)) || { echo "hot key not throttled"; return 1; }
  [[ "$(field "$single" throttle_errors)" == "$(field "$single" throttled_requests)" ]] ||
    { echo "writers' throttle errors != engine's throttled requests"; return 1; }
  # The suffixed keys are never throttled, and all 20,000 writes land.
  [[ "$(field "$suffixed" throttle_errors)" == 0 &&
    "$(field "$suffixed" throttled_requests)" == 0 &&
    "$(field "$suffixed" writes)" == 20000 ]] ||
    { echo "suffixed keys: expected 20000 writes, no throttle"; return 1; }
  grep -q '^  hot key {S:HOT} ' "$out" || { echo "no hot key {S:HOT} in the statistics"; return 1; }
}

json_client_output() {
  local out=$WORK/json_client.txt
  "$WORK/examples/json_client" >"$out" || { cat "$out"; return 1; }
  cat "$out"
  grep -q '^GetItem -> 200 {"Item":{"Artist":{"S":"No One You Know"},"Plays":{"N":"3"}}}$' "$out" &&
    grep -q '^GetItem -> 400 .*#ResourceNotFoundException' "$out"
}

if build_examples "$PREFIX" "$WORK/examples"; then
  pass "examples/cpp built against the installed package (find_package(dynarock))"
  check "example hot_partition: hot key throttled, suffixed keys not" hot_partition_output
  check "example json_client: DynamoDB JSON answers" json_client_output
else
  fail "examples/cpp built against the installed package (find_package(dynarock))"
fi

# --- 3. Debian packages ---
if ! cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/deb" >"$WORK/cpack.log" 2>&1; then
  cat "$WORK/cpack.log"
  fail "cpack -G DEB"
  exit 1
fi
server_deb=$(ls "$WORK"/deb/dynarock_*.deb 2>/dev/null | head -n 1)
dev_deb=$(ls "$WORK"/deb/dynarock-dev_*.deb 2>/dev/null | head -n 1)
if [[ -z "$server_deb" || -z "$dev_deb" ]]; then
  ls -l "$WORK/deb"
  fail "cpack -G DEB made dynarock_*.deb and dynarock-dev_*.deb"
  exit 1
fi
pass "cpack -G DEB: $(basename "$server_deb") ($(du -h "$server_deb" | cut -f1)), $(basename "$dev_deb") ($(du -h "$dev_deb" | cut -f1))"

deb_has() {
  local deb=$1
  shift
  dpkg-deb --contents "$deb" >"$WORK/contents.txt" || return 1
  local path
  for path in "$@"; do
    grep -qE " \./usr/$path\$" "$WORK/contents.txt" || { echo "$(basename "$deb") lacks /usr/$path"; return 1; }
  done
}
dpkg-deb --info "$server_deb" | grep -E '^ (Package|Version|Depends):'
dpkg-deb --info "$dev_deb" | grep -E '^ (Package|Version|Depends):'
check "dynarock .deb holds the server" deb_has "$server_deb" bin/dynarock
check "dynarock-dev .deb holds headers, libraries, CMake package" deb_has "$dev_deb" \
  include/dynarock/engine/engine.h include/dynarock/api/client.h \
  lib/libdynarock_engine.a lib/libdynarock_api.a \
  lib/cmake/dynarock/dynarockConfig.cmake lib/cmake/dynarock/dynarockTargets.cmake

unpacked_server_runs() {
  local root=$WORK/root version
  dpkg-deb -x "$server_deb" "$root" &&
    version=$("$root/usr/bin/dynarock" --version) &&
    echo "$version" &&
    grep -qF "$(dpkg-deb -f "$server_deb" Version)" <<<"$version"
}
check "unpacked /usr/bin/dynarock --version runs and names the package version" unpacked_server_runs

unpacked_dev_builds() {
  dpkg-deb -x "$dev_deb" "$WORK/root" &&
    build_examples "$WORK/root/usr" "$WORK/examples-deb" &&
    "$WORK/examples-deb/json_client" >/dev/null
}
check "examples built against the unpacked dynarock-dev and run" unpacked_dev_builds

apt_resolves() {
  apt-get install --simulate --no-install-recommends "$server_deb" "$dev_deb" >"$WORK/apt.log" 2>&1 ||
    { cat "$WORK/apt.log"; return 1; }
  grep -E '^Inst (dynarock|dynarock-dev) ' "$WORK/apt.log"
}
check "apt-get install --simulate ./dynarock_*.deb ./dynarock-dev_*.deb resolves" apt_resolves

exit $((FAILED > 0))
