#!/usr/bin/env bash
# The P&L of all accounts by DuckDB: bash analytics/pnl.sh DIR [--json] [--as-of ISO8601]
#
# Counts only the summaries that verify: it asks `credit-summary-verify DIR` (the package's small verifier, the same
# code as `credit pnl --summaries`) for the verified files and hands DuckDB that list; each file left out is named on
# standard error. The verifier is $CREDIT_SUMMARY_VERIFY, else the one in .build (debug, then release); build it with
# `swift build --product credit-summary-verify`. Installs the duckdb Python package when it is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: bash analytics/pnl.sh DIR [--json] [--as-of ISO8601]" >&2
  exit 64
fi
directory="$1"
shift

verifier="${CREDIT_SUMMARY_VERIFY:-}"
if [ -z "$verifier" ]; then
  for candidate in "$root/.build/debug/credit-summary-verify" "$root/.build/release/credit-summary-verify"; do
    if [ -x "$candidate" ]; then verifier="$candidate"; break; fi
  done
fi
if [ -z "$verifier" ] || [ ! -x "$verifier" ]; then
  echo "error: credit-summary-verify is not built (swift build --product credit-summary-verify)," \
    "or set CREDIT_SUMMARY_VERIFY" >&2
  exit 1
fi

if ! python3 -c "import duckdb" >/dev/null 2>&1; then
  echo "Installing the Python package duckdb" >&2
  python3 -m pip install -q --disable-pip-version-check duckdb >&2 2>/dev/null \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages duckdb >&2
fi

list="$(mktemp)"
trap 'rm -f "$list"' EXIT
"$verifier" "$directory" >"$list"
python3 "$here/pnl.py" --files "$list" "$@"
