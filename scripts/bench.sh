#!/usr/bin/env bash
# Runs credit-bench: builds it (and the `credit` and `mockstore` binaries it times) and prints one table, each
# figure with its target, the baseline measured in the same run and their ratio. See BENCHMARKS.md.
#
#   bash scripts/bench.sh                 the full run: 1,000,000 entries, release build; installs nginx, wrk and
#                                         Python's orjson when missing (the baselines)
#   bash scripts/bench.sh --quick         the CI smoke run: 20,000 entries, debug build (the one scripts/test.sh
#                                         has already made), installs nothing more; rows whose tools are missing
#                                         say so and are skipped
#   bash scripts/bench.sh --entries N     any other size; every other argument goes to credit-bench (--help)
#
# The table goes to standard output and to .build/bench-last.md; progress to standard error. Nothing is asserted:
# the exit status is 0 whatever the figures, non-zero only if the bench could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
for argument in "$@"; do
  [ "$argument" = "--quick" ] && quick=1
done

# The build's own Debian packages (OpenSSL, SQLite, libmicrohttpd) and Swift on PATH.
SKIP_PYTHON=1 source scripts/install-deps.sh
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

if [ "$quick" -eq 0 ]; then
  # The baselines: nginx serving a static file, wrk driving it, orjson reading the ledger file.
  missing=()
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx-light); fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing Debian packages: ${missing[*]}" >&2
    "${sudo_cmd[@]}" apt-get update -qq
    if ! DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; then
      # Some releases have no nginx-light: the full package serves a static file the same way.
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]/nginx-light/nginx}" >/dev/null
    fi
    # The package may start a system nginx on port 80; the bench runs its own on a free port and needs no other.
  fi
  if ! python3 -c "import orjson" >/dev/null 2>&1; then
    echo "Installing Python package: orjson" >&2
    python3 -m pip install -q --disable-pip-version-check orjson 2>/dev/null \
      || python3 -m pip install -q --disable-pip-version-check --break-system-packages orjson
  fi
fi

configuration=release
[ "$quick" -eq 1 ] && configuration=debug
configuration="${BENCH_CONFIGURATION:-$configuration}"
# BENCH_SCRATCH_PATH: build somewhere other than .build (so as not to disturb another build running there).
build=(swift build -c "$configuration")
[ -n "${BENCH_SCRATCH_PATH:-}" ] && build+=(--scratch-path "$BENCH_SCRATCH_PATH")
mkdir -p .build
echo "== building credit-bench, credit (its launcher and credit-core), mockstore and credit-summary-verify ($configuration)" >&2
for product in credit-bench credit credit-core mockstore credit-summary-verify; do
  if ! "${build[@]}" --product "$product" >.build/bench-build.log 2>&1; then
    tail -n 40 .build/bench-build.log >&2
    echo "the build of $product failed" >&2
    exit 1
  fi
done
bin="$("${build[@]}" --show-bin-path)"

echo "== running ($configuration build)" >&2
"$bin/credit-bench" --catalogue Catalogue/Credit.storekit "$@" | tee .build/bench-last.md
