#!/usr/bin/env bash
# The long reliability runs (see RELIABILITY.md): every suite of Tests/ReliabilityTests in its long mode (hundreds of
# crash runs, thousands of seeded sequences and samples), then every fuzz target; prints the figures of the run.
#
#   bash scripts/reliability.sh                 long mode, then scripts/fuzz.sh (FUZZ_SECONDS, default 300 each)
#   bash scripts/reliability.sh --bounded       what CI runs: RELIABILITY_RUNS (default 20) seeded runs per suite,
#                                               fresh seeds, no fuzzing; a couple of minutes
#   bash scripts/reliability.sh --no-fuzz       long mode without the fuzzers
#   RELIABILITY_SEED=0x... bash scripts/reliability.sh --no-fuzz   replay one seed a failure printed
#
# SCRATCH=path uses `--scratch-path path` for the build (default .build); SKIP_BUILD=1 uses what is built there.
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP_PYTHON=1 source scripts/install-deps.sh
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

mode=long
fuzz=1
for argument in "$@"; do
  case $argument in
    --bounded) mode=bounded; fuzz=0 ;;
    --no-fuzz) fuzz=0 ;;
    --fuzz) fuzz=1 ;;
    *) echo "usage: bash scripts/reliability.sh [--bounded] [--no-fuzz|--fuzz]" >&2; exit 64 ;;
  esac
done

scratch=${SCRATCH:-.build}
mkdir -p "$scratch"
if [ "${SKIP_BUILD:-0}" != "1" ]; then
  echo "== build (with tests)"
  if ! swift build --scratch-path "$scratch" --build-tests >"$scratch/reliability-build.log" 2>&1; then
    tail -n 60 "$scratch/reliability-build.log"
    echo "the build failed" >&2
    exit 1
  fi
fi

# The suites that kill real processes (crash at every step, concurrency) are skipped in a plain `swift test`.
export CREDIT_KILL_STAGE=1
figures="$scratch/reliability-figures.jsonl"
rm -f "$figures"
export RELIABILITY_FIGURES="$PWD/$figures"
if [ "$mode" = long ]; then
  export RELIABILITY_LONG=1
else
  export RELIABILITY_RUNS=${RELIABILITY_RUNS:-20}
fi
echo "== reliability suites ($mode mode$([ -n "${RELIABILITY_SEED:-}" ] && echo ", replaying seed $RELIABILITY_SEED"))"
log="$scratch/reliability-test.log"
status=0
started=$(date +%s)
swift test --scratch-path "$scratch" --skip-build --filter ReliabilityTests >"$log" 2>&1 || status=$?
grep -E "✘|recorded an issue|seed 0x|passed after|failed after" "$log" | grep -v "Test case passing" | tail -n 60 || true
echo "== figures ($(($(date +%s) - started)) s)"
python3 - "$figures" <<'EOF'
import json, sys, collections
rows = collections.OrderedDict()
try:
    lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
except FileNotFoundError:
    lines = []
for l in lines:
    r = rows.setdefault(l["suite"], {"runs": 0, "faults": 0, "entriesChecked": 0, "failures": 0, "seconds": 0.0})
    for k in ("runs", "faults", "entriesChecked", "failures"):
        r[k] += l[k]
    r["seconds"] = max(r["seconds"], l["seconds"])
print(f"{'suite':28} {'runs':>8} {'faults':>9} {'entries':>10} {'failures':>9} {'seconds':>8}")
for suite, r in rows.items():
    print(f"{suite:28} {r['runs']:>8} {r['faults']:>9} {r['entriesChecked']:>10} {r['failures']:>9} {r['seconds']:>8.1f}")
if lines:
    print(f"base seed {lines[0]['baseSeed']}")
EOF
if [ "$status" -ne 0 ]; then
  echo "reliability suites failed (full log: $log)" >&2
  exit 1
fi

if [ "$fuzz" = "1" ]; then
  FUZZ_SECONDS=${FUZZ_SECONDS:-300} bash scripts/fuzz.sh
fi
echo "== reliability: all held"
