#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything, runs the Swift test suites (which start the real
# `credit` and `mockstore` binaries on free ports), then the interop tests with Apple's Python library.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
# The P&L's SQL engines for its tests (analytics/pnl.sh): duckdb; Java 17 and pyspark for --engine spark. A failure is
# said here and fails the Spark test with pnl.sh's reason (it tries again), rather than stopping every other test.
bash analytics/install-engine.sh duckdb >/dev/null || echo "duckdb could not be installed: the DuckDB tests will fail" >&2
bash analytics/install-engine.sh spark >/dev/null \
  || echo "Java 17 or pyspark could not be installed: the Spark test (SparkEngineTests) will fail" >&2
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p .build

echo "== build (with tests)"
if ! swift build --build-tests >.build/build.log 2>&1; then
  tail -n 60 .build/build.log
  echo "the build failed" >&2
  exit 1
fi
tail -n 1 .build/build.log

echo "== swift tests"
status=0
swift test --skip-build >.build/test.log 2>&1 || status=$?
grep -E "✘|error:|Test run with" .build/test.log | tail -n 60 || true
if [ "$status" -ne 0 ]; then
  echo "swift tests failed (full log: .build/test.log)" >&2
  exit 1
fi

echo "== a StoreKit 2 store (Examples/StoreKit2Store) against mockstore"
if ! MOCKSTORE_BINARY="$PWD/.build/debug/mockstore" bash Examples/StoreKit2Store/run.sh; then
  echo "the StoreKit 2 example failed" >&2
  exit 1
fi

echo "== interop with Apple's app-store-server-library"
python3 Tests/Interop/verify_transactions.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_prorated_refund.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_subscriptions.py --mockstore .build/debug/mockstore
python3 Tests/Interop/verify_offers.py --mockstore .build/debug/mockstore

echo "== credit-bench, once, at the CI smoke size (figures are printed, not asserted; see BENCHMARKS.md)"
bash scripts/bench.sh --quick

echo "== reliability, a bounded run with fresh seeds (the long runs: bash scripts/reliability.sh; see RELIABILITY.md)"
SKIP_BUILD=1 bash scripts/reliability.sh --bounded

echo "== all tests passed"
