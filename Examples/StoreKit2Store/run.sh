#!/usr/bin/env bash
# Builds this example (a StoreKit 2 store as Apple's documentation writes one) and runs its tests against mockstore.
# Building mockstore is not this script's job: it takes the binary as MOCKSTORE_BINARY (default
# ../../.build/debug/mockstore, the repository root's debug build). SWIFT_BUILD_JOBS, when set, is passed as -j.
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

MOCKSTORE_BINARY="${MOCKSTORE_BINARY:-$PWD/../../.build/debug/mockstore}"
case "$MOCKSTORE_BINARY" in /*) ;; *) MOCKSTORE_BINARY="$PWD/$MOCKSTORE_BINARY" ;; esac
if [ ! -x "$MOCKSTORE_BINARY" ]; then
  echo "no mockstore binary at $MOCKSTORE_BINARY: build it in the repository root (swift build --product mockstore)" \
    "or set MOCKSTORE_BINARY" >&2
  exit 1
fi
export MOCKSTORE_BINARY
jobs=()
[ -n "${SWIFT_BUILD_JOBS:-}" ] && jobs=(-j "$SWIFT_BUILD_JOBS")
mkdir -p .build

echo "-- StoreKit2Store: build (with tests)"
if ! swift build --build-tests "${jobs[@]}" >.build/build.log 2>&1; then
  tail -n 60 .build/build.log
  echo "StoreKit2Store: the build failed (full log: Examples/StoreKit2Store/.build/build.log)" >&2
  exit 1
fi
tail -n 1 .build/build.log

echo "-- StoreKit2Store: tests against $MOCKSTORE_BINARY"
status=0
swift test --skip-build >.build/test.log 2>&1 || status=$?
grep -E "✔|✘|error:|Test run with" .build/test.log | tail -n 40 || true
if [ "$status" -ne 0 ]; then
  echo "StoreKit2Store: the tests failed (full log: Examples/StoreKit2Store/.build/test.log)" >&2
  exit 1
fi
echo "-- StoreKit2Store: passed"
