#!/usr/bin/env bash
# scripts/test.sh: setup + build + every test dynarock has.
#
#   1. scripts/setup.sh: missing Debian packages, then the Release build in
#      build/ with warnings as errors (-DDYNAROCK_WERROR=ON): the server, the
#      tools and the benchmarks, and every header compiled on its own (the
#      check_headers target). The unit tests are not built here. Smokes
#      of bench/vector_bench (recall checked, 12,000 vectors) and of the
#      scale benchmark's script (bench/scale/run.sh --smoke).
#   1b. the package (scripts/package_check.sh, docs/embedding.md): build/
#      installed into a temporary prefix, examples/cpp built against it with
#      find_package(dynarock) and run (their output checked), the Debian
#      packages made with cpack, unpacked and run; compiles only the examples
#   2. one sanitizer tree in build-asan/, built with clang (ASan + UBSan,
#      libFuzzer coverage, Debug -O1, asserts on): the unit, api and server
#      tests and the fuzzers; ctest on it
#   3. end to end against build/dynarock: pytest + boto3 (tests/e2e), the
#      AWS CLI (tests/e2e/test_aws_cli.py), the AWS SDK for JavaScript v3
#      (tests/e2e/js, node --test); the web console in headless Chromium
#      (tests/e2e/console, puppeteer-core)
#   3b. Python (docs/python.md): scripts/python.sh --no-install builds the
#      module in build/ (the libraries are position-independent code in
#      every tree, so it links the ones the server was built from); the
#      package's pytest suite (tests/python); the
#      boto3 e2e suite again against the in-process engine
#      (DYNAROCK_E2E_INPROCESS=1, the tests that need no server process);
#      the SimPy example in its short mode
#   4. the libFuzzer targets (tests/fuzz) from build-asan/, JOBS at a time, each for
#      FUZZ_SECONDS over a copy of its committed corpus; a crash, leak or
#      sanitizer report fails the step (the input is kept in
#      build-asan/artifacts/)
#
# The tests are compiled once, in the sanitizer tree: compiling them in the
# Release tree as well took a third of CI's time. To run them optimized
# locally: cmake -S . -B build -DDYNAROCK_BUILD_TESTS=ON && ctest --test-dir build.
#
# Every step runs even when an earlier one failed (except that nothing runs
# without a build). The last lines name what failed, then "N passed, N
# failed", counting tests (a step that fails without reporting counts as one
# failure); the exit status is non-zero when anything failed.
#
# Environment: JOBS (default 2), SKIP_ASAN=1 / SKIP_FUZZ=1 to leave out the
# sanitizer tree (and with it the unit tests and fuzzers) / the fuzz runs (a
# quicker local loop; CI never sets them), FUZZ_SECONDS (default 30),
# CMAKE_ARGS (extra cmake -D flags for both trees).
set -uo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"
LOGS="$(mktemp -d "${TMPDIR:-/tmp}/dynarock-test.XXXXXX")"
trap 'rm -rf "$LOGS"' EXIT
PASSED=0
FAILED=0
STEPS=()
FAILURES=()
asan_rc=1
START=$SECONDS

STEP_START=$SECONDS
banner() {
  STEP_START=$SECONDS
  printf '\n==== %s ====\n' "$*"
}

# record NAME RC PASSED FAILED: adds a step's counts; a failed step that
# counted no failure counts as one.
record() {
  local name=$1 rc=$2 p=$3 f=$4
  if ((rc != 0 && f == 0)); then f=1; fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  STEPS+=("$(printf '%-28s %5d passed %4d failed  (exit %d, %d s)' \
    "$name" "$p" "$f" "$rc" $((SECONDS - STEP_START)))")
}

# run LOG CMD...: runs CMD with output to the terminal and to LOG; returns
# CMD's exit status.
run() {
  local log=$1
  shift
  "$@" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}

# Counts from ctest's "NN% tests passed, F tests failed out of T".
ctest_counts() {
  local line total failed
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -n 1)
  if [[ -z "$line" ]]; then
    echo "0 0"
    return
  fi
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  echo "$((total - failed)) $failed"
}

# Counts from pytest's closing line ("3 failed, 40 passed, 1 error in 2s").
pytest_counts() {
  local line p f e
  line=$(grep -E '(passed|failed|errors?|no tests ran).* in [0-9.]+s' "$1" | tail -n 1)
  p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || true)
  f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || true)
  e=$(grep -oE '[0-9]+ errors?' <<<"$line" | grep -oE '[0-9]+' || true)
  echo "${p:-0} $((${f:-0} + ${e:-0}))"
}

# Counts from node --test's "# pass N" / "# fail N".
node_counts() {
  local p f
  p=$(grep -E '^# pass [0-9]+' "$1" | tail -n 1 | grep -oE '[0-9]+' || true)
  f=$(grep -E '^# fail [0-9]+' "$1" | tail -n 1 | grep -oE '[0-9]+' || true)
  echo "${p:-0} ${f:-0}"
}

ctest_step() {
  local name=$1 dir=$2 log="$LOGS/$1.log" rc
  banner "$name: ctest --test-dir $dir"
  run "$log" ctest --test-dir "$dir" -j "$JOBS" --output-on-failure --timeout 600
  rc=$?
  read -r p f < <(ctest_counts "$log")
  record "$name" "$rc" "$p" "$f"
  local t
  while read -r t; do
    FAILURES+=("$name: $t")
  done < <(sed -n '/The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' | sed -E 's/^[[:space:]]+//')
}

pytest_step() {
  local name=$1 log="$LOGS/$1.log" rc
  shift
  banner "$name: pytest $*"
  run "$log" env DYNAROCK_BIN="$PWD/build/dynarock" \
    /usr/bin/python3 -m pytest -p no:cacheprovider -q -rfE "$@"
  rc=$?
  read -r p f < <(pytest_counts "$log")
  record "$name" "$rc" "$p" "$f"
  local t
  while read -r t; do
    FAILURES+=("$name: $t")
  done < <(grep -E '^(FAILED|ERROR) ' "$log")
}

summary() {
  printf '\n==== summary (%d s) ====\n' $((SECONDS - START))
  local s
  for s in "${STEPS[@]}"; do echo "$s"; done
  if ((${#FAILURES[@]} > 0)); then
    echo
    echo "failed:"
    for s in "${FAILURES[@]}"; do echo "  $s"; done
  fi
  echo
  echo "$PASSED passed, $FAILED failed"
  if ((FAILED > 0)); then exit 1; fi
  exit 0
}

# 1. Packages and the Release build.
banner "setup + Release build (build/)"
# Warnings are errors in CI: a warning fails the build step.
run "$LOGS/setup.log" env JOBS="$JOBS" \
  CMAKE_ARGS="-DDYNAROCK_WERROR=ON -DDYNAROCK_BUILD_TESTS=OFF ${CMAKE_ARGS:-}" scripts/setup.sh
rc=$?
record "setup + Release build" "$rc" 0 0
if ((rc != 0)); then summary; fi

# Every engine/ and api/ header compiles on its own (cmake/check_headers.cmake).
banner "headers compile on their own (check_headers)"
run "$LOGS/check-headers.log" cmake --build build -j "$JOBS" --target check_headers
record "check_headers" "$?" 0 0

# A smoke of the vector-search bench (bench/README.md, issue 39): a few
# thousand vectors, both data sets, every distance function, the recall@10
# of SearchVectors' search checked (MIN_RECALL), PutItem with and without a
# vector index. The 100,000-vector figures are measured by hand, not here.
banner "bench smoke: vector_bench (12,000 vectors, MIN_RECALL 0.95)"
run "$LOGS/vector-bench.log" env VECTORS=12000 PUTS=500 MIN_RECALL=0.95 build/bench/vector_bench
rc=$?
record "bench smoke: vector_bench" "$rc" $((rc == 0)) $((rc != 0))

# The scale benchmark's script (bench/scale, issue 45) on 2,000 items with
# 2 s phases: load, the four wrk phases, restart, report. The 10-million-item
# run is measured by hand (bench/README.md "Scale").
banner "bench smoke: bench/scale/run.sh --smoke"
run "$LOGS/scale-smoke.log" env DYNAROCK="$PWD/build/dynarock" bench/scale/run.sh --smoke
rc=$?
record "bench smoke: scale" "$rc" $((rc == 0)) $((rc != 0))

# 1b. What another project consumes: install, examples, Debian packages.
# Reuses build/ (about 20 s on top of it); PASS/FAIL lines are its counts.
banner "package: install + examples + cpack (scripts/package_check.sh)"
run "$LOGS/package.log" env JOBS="$JOBS" scripts/package_check.sh build
rc=$?
record "package: install+examples+cpack" "$rc" "$(grep -c '^PASS ' "$LOGS/package.log")" \
  "$(grep -c '^FAIL ' "$LOGS/package.log")"
while read -r t; do
  FAILURES+=("package: ${t#FAIL }")
done < <(grep '^FAIL ' "$LOGS/package.log")

# 2. One sanitizer tree, built with clang, for the unit tests and the
# fuzzers alike: ASan + UBSan + libFuzzer's coverage instrumentation on every
# object (cmake/dynarock_helpers.cmake), Debug -O1 with asserts on. The unit
# tests are built and run only here, not in build/ as well: compiling them
# twice was the largest part of CI's time, and the sanitizers see more.
if [[ "${SKIP_ASAN:-0}" != "1" ]]; then
  banner "sanitizer build (build-asan/, clang: ASan+UBSan, tests and fuzzers)"
  # A build-asan/ configured with another compiler cannot be reused.
  if [[ -f build-asan/CMakeCache.txt ]] &&
    ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang' build-asan/CMakeCache.txt; then
    rm -rf build-asan
  fi
  run "$LOGS/asan-build.log" bash -c "
    CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja \
      -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG='-O1 -g1' \
      -DDYNAROCK_SANITIZE=ON -DDYNAROCK_BUILD_FUZZERS=ON -DDYNAROCK_WERROR=ON \
      -DDYNAROCK_BUILD_BENCHMARKS=OFF ${CMAKE_ARGS:-} &&
    cmake --build build-asan -j '$JOBS'"
  asan_rc=$?
  record "sanitizer build (clang)" "$asan_rc" 0 0
  if ((asan_rc == 0)); then
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    ctest_step "ctest (ASan+UBSan)" build-asan
    unset ASAN_OPTIONS UBSAN_OPTIONS
  fi
fi

# 3. End to end, against the Release binary.
pytest_step "e2e boto3 + HTTP (pytest)" tests/e2e --ignore=tests/e2e/test_aws_cli.py
pytest_step "e2e AWS CLI (pytest)" tests/e2e/test_aws_cli.py

banner "e2e AWS SDK for JavaScript v3 (node --test)"
js_log="$LOGS/js.log"
(
  cd tests/e2e/js &&
    { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; } &&
    DYNAROCK_BIN="$PWD/../../../build/dynarock" node --test
) 2>&1 | tee "$js_log"
rc=${PIPESTATUS[0]}
read -r p f < <(node_counts "$js_log")
record "e2e JS SDK v3 (node --test)" "$rc" "$p" "$f"

# The web console in Debian's headless Chromium (puppeteer-core), bounded:
# a hung browser fails the step instead of holding CI.
banner "e2e web console (headless chromium, node --test)"
console_log="$LOGS/console.log"
(
  cd tests/e2e/console &&
    { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; } &&
    DYNAROCK_BIN="$PWD/../../../build/dynarock" timeout 150 node --test --test-timeout=60000
) 2>&1 | tee "$console_log"
rc=${PIPESTATUS[0]}
read -r p f < <(node_counts "$console_log")
record "e2e web console (chromium)" "$rc" "$p" "$f"

# 3b. Python: the module in build/ (linking the libraries the server was
# built from: no second compile of the engine), used from there
# (PYTHONPATH), not installed, so CI leaves the machine's interpreters alone.
banner "Python module (scripts/python.sh --no-install in build/)"
run "$LOGS/python-build.log" env PYTHON=/usr/bin/python3 JOBS="$JOBS" BUILD_DIR=build \
  scripts/python.sh --no-install
py_rc=$?
record "python module build" "$py_rc" 0 0
if ((py_rc == 0)); then
  export PYTHONPATH="$PWD/build/python-pkg${PYTHONPATH:+:$PYTHONPATH}"
  pytest_step "python package (pytest)" tests/python
  # The e2e tests whose clients all come from ddb / ddb_resource /
  # server.client(): in process, each is the server's twin engine. The
  # rest need the server process itself (docs/python.md lists them).
  DYNAROCK_E2E_INPROCESS=1 pytest_step "e2e in process (pytest)" \
    $(grep -vE '^(#|$)' tests/python/e2e_inprocess.txt)
  banner "example: examples/python/write_sharding.py --short"
  run "$LOGS/example.log" /usr/bin/python3 examples/python/write_sharding.py --short
  rc=$?
  if ((rc == 0)) && grep -q '^simulated N (random' "$LOGS/example.log"; then
    record "example write_sharding --short" 0 1 0
  else
    record "example write_sharding --short" "$rc" 0 1
    FAILURES+=("example: examples/python/write_sharding.py --short")
  fi
  unset PYTHONPATH
fi

# 4. Fuzzers, from the sanitizer tree: each runs for FUZZ_SECONDS over a copy
# of its committed corpus, JOBS of them at a time (each fuzzer is one
# process on one core); a crash, leak or sanitizer report fails it (the input
# is kept in build-asan/artifacts/). Their output goes to their own logs,
# printed whole once each has finished.
fuzz_one() {
  local name=$1 corpus_dir=$2 log=$3 work dict=()
  work=$(mktemp -d "$LOGS/corpus-$name.XXXXXX")
  cp "$corpus_dir"* "$work"/
  [[ -f "tests/fuzz/$name.dict" ]] && dict=("-dict=tests/fuzz/$name.dict")
  local t0=$SECONDS
  env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-asan/tests/fuzz/${name}_fuzz" -max_total_time="${FUZZ_SECONDS:-30}" \
    -print_final_stats=1 -artifact_prefix="build-asan/artifacts/$name-" \
    "${dict[@]}" "$work" >"$log" 2>&1
  local rc=$?
  echo "$rc $((SECONDS - t0))" >"$log.rc"
}

if [[ "${SKIP_FUZZ:-0}" != "1" && "${SKIP_ASAN:-0}" != "1" && "$asan_rc" == 0 ]]; then
  banner "fuzzers (${FUZZ_SECONDS:-30} s each, $JOBS at a time)"
  mkdir -p build-asan/artifacts
  names=()
  for corpus_dir in tests/fuzz/corpus/*/; do
    name=$(basename "$corpus_dir")
    names+=("$name")
    while (($(jobs -rp | wc -l) >= JOBS)); do wait -n; done
    fuzz_one "$name" "$corpus_dir" "$LOGS/fuzz-$name.log" &
  done
  wait
  for name in "${names[@]}"; do
    log="$LOGS/fuzz-$name.log"
    read -r rc secs <"$log.rc" 2>/dev/null || { rc=1; secs=0; }
    printf '\n---- fuzz %s (exit %d, %d s) ----\n' "$name" "$rc" "$secs"
    cat "$log"
    STEP_START=$((SECONDS - secs))
    if ((rc == 0)) && ! grep -qE '^(==[0-9]+==ERROR|SUMMARY: |.*runtime error: )' "$log"; then
      record "fuzz $name" 0 1 0
    else
      record "fuzz $name" "$rc" 0 1
      FAILURES+=("fuzz $name: $(ls build-asan/artifacts/"$name"-* 2>/dev/null | tr '\n' ' ')")
    fi
  done
fi

summary
