#!/usr/bin/env bash
# The main job, end to end on this machine: start the mock App Store on a free port, switch the credit to it, use
# the app until the balance is below zero, top up through the mock store (a signed, verified, recorded, finished
# transaction), show the credit screen, and verify the signed ledger with its receipts.
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP_PYTHON=1 source scripts/install-deps.sh
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

began=$SECONDS
echo "== building (the first build takes a few minutes; later ones, seconds)"
# At most one line of the build's own progress every 5 seconds, so it shows it is moving.
if ! swift build 2>&1 | tee .build-demo.log | {
  last=-5
  while IFS= read -r line; do
    if ((SECONDS - last >= 5)); then echo "   $line"; last=$SECONDS; fi
  done
}; then
  tail -n 40 .build-demo.log
  exit 1
fi
rm -f .build-demo.log
echo "-- built in $((SECONDS - began)) s"
bin=$(swift build --show-bin-path)

work=$(mktemp -d)
data="$work/credit"
store_data="$work/mockstore"
trap 'kill "$store_pid" 2>/dev/null || true; wait "$store_pid" 2>/dev/null || true' EXIT

echo "== starting the mock store"
"$bin/mockstore" --port 0 --data "$store_data" --catalogue Catalogue/Credit.storekit >"$work/mockstore.out" 2>"$work/mockstore.err" &
store_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^mockstore listening on \(http[^ ]*\).*/\1/p' "$work/mockstore.out" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$store_pid" 2>/dev/null || { cat "$work/mockstore.err"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the mock store did not start"; cat "$work/mockstore.err"; exit 1; }
echo "mockstore listening on $url"
python3 -c "import sys, urllib.request; open(sys.argv[2], 'wb').write(urllib.request.urlopen(sys.argv[1] + '/test/v1/root-certificate').read())" \
  "$url" "$work/root.der"

credit() { NO_COLOR=${NO_COLOR:-} "$bin/credit" --data-dir "$data" "$@"; }

echo; echo "== switching the store on"
credit store use mockstore --url "$url" --root-certificate "$work/root.der"
echo; echo "== using the app (one session)"
credit run scripts/demo/session.acts
credit run scripts/demo/session.acts >/dev/null
credit run scripts/demo/session.acts >/dev/null
echo; echo "== the counter"
credit balance
echo; echo "== topping up through the mock store"
credit topup
echo; echo "== the credit screen"
credit screen
echo; echo "== verifying the signed ledger and its receipts"
credit verify
echo; echo "Data directory kept at $data"
echo "-- the demo took $((SECONDS - began)) s"
