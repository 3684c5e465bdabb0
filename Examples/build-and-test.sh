#!/usr/bin/env bash
# Sourced by an example's run.sh, from the example's folder: build_and_test NAME WHAT builds the package (with its
# tests) and runs them, saying each step ("-- NAME: ..."), WHAT describing the test run; the logs stay in .build/.
# SWIFT_BUILD_JOBS, when set, is passed as -j.
build_and_test() {
  local name="$1" what="$2" status=0 jobs=()
  [ -n "${SWIFT_BUILD_JOBS:-}" ] && jobs=(-j "$SWIFT_BUILD_JOBS")
  mkdir -p .build
  echo "-- $name: build (with tests)"
  if ! swift build --build-tests "${jobs[@]}" >.build/build.log 2>&1; then
    tail -n 60 .build/build.log
    echo "$name: the build failed (full log: Examples/$name/.build/build.log)" >&2
    exit 1
  fi
  tail -n 1 .build/build.log
  echo "-- $name: tests $what"
  swift test --skip-build >.build/test.log 2>&1 || status=$?
  grep -E "✔|✘|error:|TestStore:|Test run with" .build/test.log | tail -n 40 || true
  if [ "$status" -ne 0 ]; then
    echo "$name: the tests failed (full log: Examples/$name/.build/test.log)" >&2
    exit 1
  fi
  echo "-- $name: passed"
}
