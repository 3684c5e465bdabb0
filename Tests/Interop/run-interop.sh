#!/usr/bin/env bash
# Runs the interop test: Apple's own verifier (PyPI app-store-server-library) against the real mockstore.
#
#   Tests/Interop/run-interop.sh [SCRATCH_PATH]     (default: .build-interop)
#
# Builds mockstore into SCRATCH_PATH, installs the pinned library into a virtual environment under
# SCRATCH_PATH (reused next time), then runs verify_transactions.py, verify_subscriptions.py and verify_offers.py, each of which starts
# and always stops a store.
set -euo pipefail
repository="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${1:-$repository/.build-interop}"
cd "$repository"

swift build --scratch-path "$scratch" --product mockstore
binary="$(swift build --scratch-path "$scratch" --product mockstore --show-bin-path)/mockstore"

venv="$scratch/interop-venv"
if [ ! -x "$venv/bin/python3" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python3" -c "import appstoreserverlibrary" 2>/dev/null; then
    "$venv/bin/python3" -m pip install --quiet -r Tests/Interop/requirements.txt
fi
"$venv/bin/python3" Tests/Interop/verify_transactions.py --mockstore "$binary"
"$venv/bin/python3" Tests/Interop/verify_subscriptions.py --mockstore "$binary"
exec "$venv/bin/python3" Tests/Interop/verify_offers.py --mockstore "$binary"
