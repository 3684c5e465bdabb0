#!/usr/bin/env bash
# Builds this package (a server team's own, depending on VoiceDebriefCredit by path as MockStore/README.md says) and
# runs its tests with no MOCKSTORE_* variable set: TestStore finds the mockstore built in the repository root (or
# builds it there) and the catalogue the repository ships. SWIFT_BUILD_JOBS, when set, is passed as -j.
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
unset MOCKSTORE_BINARY MOCKSTORE_CATALOGUE MOCKSTORE_URL MOCKSTORE_DATA MOCKSTORE_ROOT_CERTIFICATE MOCKSTORE_CUSTOMER
jobs=()
[ -n "${SWIFT_BUILD_JOBS:-}" ] && jobs=(-j "$SWIFT_BUILD_JOBS")
mkdir -p .build

echo "-- ConsumerPackage: build (with tests)"
if ! swift build --build-tests "${jobs[@]}" >.build/build.log 2>&1; then
  tail -n 60 .build/build.log
  echo "ConsumerPackage: the build failed (full log: Examples/ConsumerPackage/.build/build.log)" >&2
  exit 1
fi
tail -n 1 .build/build.log

echo "-- ConsumerPackage: tests (no MOCKSTORE_* variable set)"
status=0
swift test --skip-build >.build/test.log 2>&1 || status=$?
grep -E "✔|✘|error:|TestStore:|Test run with" .build/test.log | tail -n 40 || true
if [ "$status" -ne 0 ]; then
  echo "ConsumerPackage: the tests failed (full log: Examples/ConsumerPackage/.build/test.log)" >&2
  exit 1
fi
echo "-- ConsumerPackage: passed"
