#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything, runs the Swift test suites (which start the real
# `credit` and `mockstore` binaries on free ports), the tests that kill real processes by the dozen and the slow
# engines (Spark, DuckDB over many accounts, headless Chromium) in stages of their own, a StoreKit 2 store against
# mockstore, then the interop tests with Apple's Python library, the quick bench and a bounded reliability run. Each stage says when it starts and how long it took, and
# long stages say how far they are every few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$SECONDS
stage_began=$SECONDS
stage_name=""

# Says the stage starting, and how long the one before took.
stage() {
  [ -n "$stage_name" ] && echo "-- $stage_name: $((SECONDS - stage_began)) s"
  stage_name="$1"
  stage_began=$SECONDS
  echo "== $1"
}

# Passes on at most one line in 5 seconds of what it reads, so a long step shows it is moving.
progress() {
  local last=-5 line
  while IFS= read -r line; do
    if ((SECONDS - last >= 5)); then
      echo "   $line"
      last=$SECONDS
    fi
  done
}

# A running count of the tests that passed, every few seconds.
test_progress() {
  local passed=0 failed=0 last=$SECONDS line
  while IFS= read -r line; do
    case "$line" in
      "✔ Test "*" passed"*) passed=$((passed + 1)) ;;
      "✘ Test "*" failed"*) failed=$((failed + 1)) ;;
    esac
    if ((SECONDS - last >= 10)); then
      echo "   $passed tests passed, $failed failed, $((SECONDS - stage_began)) s"
      last=$SECONDS
    fi
  done
}

stage "installing what is missing (Debian and PyPI packages)"
source scripts/install-deps.sh
# The P&L's SQL engines for its tests (analytics/pnl.sh): duckdb; Java 17 and pyspark for --engine spark. A failure is
# said here and fails the Spark test with pnl.sh's reason (it tries again), rather than stopping every other test.
bash analytics/install-engine.sh duckdb >/dev/null || echo "duckdb could not be installed: the DuckDB tests will fail" >&2
bash analytics/install-engine.sh spark >/dev/null \
  || echo "Java 17 or pyspark could not be installed: the Spark test (SparkEngineTests) will fail" >&2
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p .build

stage "build (with tests)"
if ! swift build --build-tests 2>&1 | tee .build/build.log | progress; then
  tail -n 60 .build/build.log
  echo "the build failed" >&2
  exit 1
fi
tail -n 1 .build/build.log

stage "swift tests (the real kills' and the slow engines' tests are skipped here and run in their own stages below)"
status=0
swift test --skip-build 2>&1 | tee .build/test.log | test_progress || status=$?
grep -E "✘|error:|Test run with" .build/test.log | tail -n 60 || true
if [ "$status" -ne 0 ]; then
  echo "swift tests failed (full log: .build/test.log)" >&2
  exit 1
fi

# Runs the tests FILTER names with VARIABLE=1 (which turns them on), logging to .build/LOG; stops the run on a failure.
filtered_stage() {
  local variable=$1 log=$2 filter=$3 what=$4
  status=0
  env "$variable=1" swift test --skip-build --filter "$filter" 2>&1 | tee ".build/$log" | test_progress || status=$?
  grep -E "✘|error:|Test run with" ".build/$log" | tail -n 30 || true
  if [ "$status" -ne 0 ]; then
    echo "$what failed (full log: .build/$log)" >&2
    exit 1
  fi
}

stage "real kills: crash at every step, processes racing on one ledger, a join killed at every step, stop signals"
filtered_stage CREDIT_KILL_STAGE kill-test.log \
  'everyFaultPointOnce|seededRunsKilledAtRandomSteps|processesChargingAndToppingUpOneDataDirectoryAtOnce|processesCollectingTheSamePurchasesAtOnceCreditEachOnce|aJoinKilledAtAnyStepLeavesTheDirectoryUntouchedAndJoinAgainCompletesIt|aStopSignalWhileTheWatchIsStartingEndsItCleanly|signalRightAfterTheListeningLineIsNotLost' \
  "the real kills' tests"

stage "the slow engines: Spark, DuckDB over 10,000 accounts, headless Chromium"
filtered_stage CREDIT_SLOW_STAGE slow-test.log \
  'oneThousandAccountsBySwiftDuckDBAndSparkAreTheSameFieldByField|tenThousandAccountsBySwiftAndByDuckDB|chromiumRendersThePageAtALaptopsAndAPhonesWidth|chromiumDrawsTheAllAccountsPageAtALaptopsAndAPhonesWidth|chromiumClicksRefundInTheConsoleAndTheStoreRefunds' \
  "the slow engines' tests"

stage "a StoreKit 2 store (Examples/StoreKit2Store) against mockstore"
if ! MOCKSTORE_BINARY="$PWD/.build/debug/mockstore" bash Examples/StoreKit2Store/run.sh; then
  echo "the StoreKit 2 example failed" >&2
  exit 1
fi

stage "a server team's own package (Examples/ConsumerPackage) with TestStore, no MOCKSTORE_* variable"
if ! bash Examples/ConsumerPackage/run.sh; then
  echo "the consumer package example failed" >&2
  exit 1
fi

stage "interop with Apple's app-store-server-library"
python3 Tests/Interop/verify_transactions.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_prorated_refund.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_subscriptions.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_offers.py --mockstore .build/debug/mockstore

stage "credit-bench, once, at the CI smoke size (figures are printed, not asserted; see BENCHMARKS.md)"
bash scripts/bench.sh --quick

stage "reliability, a bounded run with fresh seeds (the long runs: bash scripts/reliability.sh; see RELIABILITY.md)"
SKIP_BUILD=1 bash scripts/reliability.sh --bounded

stage "done"
echo "== all tests passed in $((SECONDS - began)) s"
