#!/usr/bin/env bash
# Builds this example (a StoreKit 2 store as Apple's documentation writes one) and runs its tests against mockstore.
# Building mockstore is not this script's job: it takes the binary as MOCKSTORE_BINARY (default
# ../../.build/debug/mockstore, the repository root's debug build).
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
source ../build-and-test.sh
build_and_test StoreKit2Store "against $MOCKSTORE_BINARY"
