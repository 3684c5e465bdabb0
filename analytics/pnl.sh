#!/usr/bin/env bash
# The P&L of all accounts by DuckDB or Spark:
#   bash analytics/pnl.sh DIR [--json] [--days 7|30] [--as-of ISO8601] [--engine duckdb|spark]
#
# Counts only the summaries that verify: it asks `credit-summary-verify DIR` (the package's small verifier, the same
# code as `credit pnl --summaries`) for the verified files and hands DuckDB that list; each file left out is named on
# standard error. The verifier is $CREDIT_SUMMARY_VERIFY, else the one in .build (debug, then release); build it with
# `swift build --product credit-summary-verify`. Installs what the engine needs when it is missing: the duckdb
# Python package; for Spark, Java 17 (Debian's openjdk-17-jre-headless) and the pyspark Python package.
# Exit 0 done, 1 failed (the message says why; a directory with no summary to count is one), 64 a wrong command line.
set -euo pipefail

# Paths made with the shell's own words: a run starts as few processes as it can (a test suite runs it often).
here="${BASH_SOURCE[0]%/*}"
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
pushd "$here" >/dev/null && here="$PWD" && popd >/dev/null
root="${here%/*}"
usage="usage: bash analytics/pnl.sh DIR [--json] [--days 7|30] [--as-of ISO8601] [--engine duckdb|spark]

  DIR             a directory of account summaries (credit export --summary)
  --json          the P&L as JSON (voicedebrief-pnl-v1), every period; without it, a table
  --days 7|30     the table of the last 7 or 30 days only (from midnight UTC)
  --as-of TIME    the end of the windows, ISO 8601 with Z or an offset (2026-11-29T12:00:00Z,
                  2026-11-29T13:00:00.000+01:00); the latest export counted when not given
  --engine NAME   duckdb (the default, embedded) or spark (Apache Spark in local mode, local[2]); the same
                  SQL (analytics/pnl.sql) and the same figures"

mistake() {
  echo "pnl.sh: $1" >&2
  echo "$usage" >&2
  exit 64
}

directory="" json=() days=() as_of="" engine=duckdb
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) echo "$usage"; exit 0 ;;
    --json) json=(--json) ;;
    --days | --as-of | --engine)
      [ $# -ge 2 ] || mistake "$1 needs a value"
      if [ "$1" = --days ]; then
        case "$2" in 7 | 30) days=(--days "$2") ;; *) mistake "--days takes 7 or 30, not \"$2\"" ;; esac
      elif [ "$1" = --engine ]; then
        case "$2" in duckdb | spark) engine="$2" ;; *) mistake "--engine takes duckdb or spark, not \"$2\"" ;; esac
      else
        as_of="$(python3 "$here/iso_time.py" "$2")" || exit 64
      fi
      shift ;;
    --days=* | --as-of=* | --engine=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
    -*) mistake "unknown option \"$1\"" ;;
    *) [ -z "$directory" ] || mistake "one directory only, not \"$directory\" and \"$1\""; directory="$1" ;;
  esac
  shift
done
[ -n "$directory" ] || mistake "which directory of summaries?"

verifier="${CREDIT_SUMMARY_VERIFY:-}"
if [ -z "$verifier" ]; then
  for candidate in "$root/.build/debug/credit-summary-verify" "$root/.build/release/credit-summary-verify"; do
    if [ -x "$candidate" ]; then verifier="$candidate"; break; fi
  done
fi
if [ -z "$verifier" ] || [ ! -x "$verifier" ]; then
  echo "pnl.sh: credit-summary-verify is not built (swift build --product credit-summary-verify)," \
    "or set CREDIT_SUMMARY_VERIFY" >&2
  exit 1
fi

# Spark takes a minute or more to start and total: it says what it is doing, on standard error.
say() { if [ "$engine" = spark ]; then echo "pnl.sh: $*" >&2; fi; }
started=$SECONDS

# What the engine needs, installed when missing (quietly; what is installed is said on standard error). DuckDB's
# package is looked for by pnl.py itself, which installs it (--install-with) only when it is missing.
if [ "$engine" = spark ]; then
  say "making sure Java 17 and pyspark are installed"
  JAVA_HOME="$(bash "$here/install-engine.sh" spark)" || exit 1
  export JAVA_HOME
fi

# The working files go in a new directory removed at exit, or in $PNL_SCRATCH when given: an empty directory of the
# caller's, used as it is and neither made nor removed (a test suite that runs this often saves two processes a run).
if [ -n "${PNL_SCRATCH:-}" ]; then
  scratch="$PNL_SCRATCH"
else
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
fi
list="$scratch/verified" refused="$scratch/refused" joined="$scratch/joined.ndjson"
status=0
# The verifier writes the bytes it checked into one joined file: the engine totals those, never the files read again.
say "checking the signature of every summary in $directory"
"$verifier" "$directory" --joined "$joined" >"$list" 2>"$refused" || status=$?
# Read and counted with the shell's own words (no cat, no grep).
mapfile -t refusals <"$refused"
left_out=0
for line in "${refusals[@]}"; do
  printf '%s\n' "$line" >&2
  [[ "$line" == "left out: "* ]] && left_out=$((left_out + 1))
done
[ "$status" -eq 0 ] || exit 1
mapfile -t verified <"$list"
if [ "${#verified[@]}" -eq 0 ]; then
  # No summary counted has no as-of and no figures: said, as `credit pnl --summaries` says it.
  if [ "$left_out" -eq 0 ]; then
    echo "pnl.sh: there are no summaries in $directory (no .json file): nothing to total" >&2
  else
    echo "pnl.sh: no summary in $directory could be counted (each is named above): nothing to total" >&2
  fi
  exit 1
fi
# DuckDB: the driver is the last thing this run does, so it takes this process's place (one process fewer a run) and
# installs DuckDB itself if it is missing.
# A scratch directory of its own is then removed by the driver (this shell's trap goes with it).
if [ "$engine" = duckdb ]; then
  remove=()
  [ -n "${PNL_SCRATCH:-}" ] || remove=(--remove-when-done "$scratch")
  exec python3 "$here/pnl.py" --joined "$joined" --expect "${#verified[@]}" --engine duckdb \
    ${as_of:+--as-of "$as_of"} "${json[@]}" "${days[@]}" --left-out "$left_out" \
    --install-with "$here/install-engine.sh" "${remove[@]}"
fi
say "${#verified[@]} summaries verified; starting Spark in local mode to total them (a minute or two)"
total() {
  python3 "$here/pnl.py" --joined "$joined" --expect "${#verified[@]}" --engine "$engine" ${as_of:+--as-of "$as_of"} \
    "${json[@]}" "${days[@]}" --left-out "$left_out"
}
status=0
total || status=$?
[ "$status" -eq 0 ] || exit "$status"
say "done in $((SECONDS - started)) s"
