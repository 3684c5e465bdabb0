#!/usr/bin/env bash
# Builds the libFuzzer targets under Fuzz/ (swiftc -sanitize=fuzzer,address, the module sources compiled directly,
# no SwiftPM) and runs each for a bounded time from the corpus kept in Fuzz/corpus/. Each module a target needs is a
# static library, built in Package.swift's dependency order in the package's language mode (6): Locking, Platform
# (over CPlatform), DurableFiles, Signing (over COpenSSL and the C target COpenSSLLifetime, compiled with clang and
# linked in for its initialiser at load), Clocks, then the ledger's rooms LedgerEntries and LedgerVerification (the
# targets import the rooms, not CreditLedger's re-exports); StoreWire, then StoreKitCatalogue. Release-like: no
# CREDIT_FAULTS crash points.
#
#   bash scripts/fuzz.sh                      every target, FUZZ_SECONDS (default 60) each
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh     longer
#   bash scripts/fuzz.sh jws-parser           one target (entry-parser, ledger-file, jws-parser, storekit-reader)
#   FUZZ_MERGE=1 bash scripts/fuzz.sh         also merge new coverage-increasing inputs into Fuzz/corpus/
#
# A crash, a failed invariant (each target's header says what must hold), a hang (-timeout) or runaway memory
# (-rss_limit_mb) stops the run: the input is saved under .build-fuzz/artifacts/TARGET/ and the script fails.
# Replay one: .build-fuzz/fuzz-TARGET .build-fuzz/artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP_PYTHON=1 source scripts/install-deps.sh
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds=${FUZZ_SECONDS:-60}
out=${FUZZ_BUILD:-.build-fuzz}
all=(entry-parser ledger-file jws-parser storekit-reader)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
mkdir -p "$out"

# The toolchain must have libFuzzer.
echo '@_cdecl("LLVMFuzzerTestOneInput") public func f(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }' >"$out/probe.swift"
if ! swiftc -sanitize=fuzzer,address -parse-as-library "$out/probe.swift" -o "$out/probe" >"$out/probe.log" 2>&1; then
  cat "$out/probe.log"
  echo "error: this toolchain cannot build libFuzzer targets (swiftc -sanitize=fuzzer)" >&2
  exit 1
fi

flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name VoiceDebriefCredit -I "$out"
  -I "$out/COpenSSLLifetime" -I Sources/COpenSSL -I Sources/CPlatform)
quiet() { grep -v -e "Cannot export local symbol" -e "^warning: " || true; }

# module NAME DIRECTORY DEPENDENCIES...: a static library and its module from every Swift file under the directory
# (as SwiftPM takes a target's), in the package's language mode; rebuilt when a source or a dependency's library is
# newer.
module() {
  local name=$1 dir=$2
  shift 2
  local library="$out/lib$name.a" dependency sources inputs
  mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
  inputs=("${sources[@]}")
  for dependency in "$@"; do inputs+=("$out/lib$dependency.a"); done
  if [ -f "$library" ] && [ -z "$(find "${inputs[@]}" -newer "$library" | head -n 1)" ]; then return; fi
  echo "== building $name"
  rm -f "$library"
  swiftc "${flags[@]}" -swift-version 6 -module-name "$name" -emit-library -static -emit-module \
    -emit-module-path "$out/$name.swiftmodule" "${sources[@]}" -o "$library" 2>&1 | quiet
  [ -f "$library" ] || { echo "error: $name did not build" >&2; exit 1; }
}

# COpenSSLLifetime, the C target under Signing: OpenSSL initialised at load (a constructor), its header a module.
lifetime() {
  local object="$out/COpenSSLLifetime.o"
  mkdir -p "$out/COpenSSLLifetime"
  printf 'module COpenSSLLifetime {\n    header "%s"\n    export *\n}\n' \
    "$PWD/Sources/COpenSSLLifetime/include/COpenSSLLifetime.h" >"$out/COpenSSLLifetime/module.modulemap"
  [ -f "$object" ] && [ -z "$(find Sources/COpenSSLLifetime -newer "$object" | head -n 1)" ] && return
  echo "== building COpenSSLLifetime"
  clang -O2 -g -fsanitize=address -I Sources/COpenSSLLifetime/include -c Sources/COpenSSLLifetime/lifetime.c -o "$object"
}

# target NAME SOURCE-DIR LIBRARIES...: the fuzzer binary.
target() {
  local name=$1 dir=$2
  shift 2
  echo "== building fuzz-$name"
  rm -f "$out/fuzz-$name"
  swiftc "${flags[@]}" "$dir"/*.swift -L "$out" "$@" -lcrypto -o "$out/fuzz-$name" 2>&1 | quiet
  [ -x "$out/fuzz-$name" ] || { echo "error: fuzz-$name did not build" >&2; exit 1; }
}

# Each target's modules, in dependency order (Package.swift).
signing() {
  lifetime
  module Locking Sources/Locking
  module Platform Sources/Platform
  module DurableFiles Sources/DurableFiles Platform
  module Signing Sources/Signing DurableFiles Platform Locking
}
ledger() {
  signing
  module Clocks Sources/Clocks Locking
  module LedgerEntries Sources/LedgerEntries Signing DurableFiles Clocks Locking Platform
  module LedgerVerification Sources/LedgerVerification LedgerEntries Signing DurableFiles Platform
}
ledgerLibraries=(-lLedgerVerification -lLedgerEntries -lClocks)
signingLibraries=(-lSigning -lDurableFiles -lPlatform -lLocking "$out/COpenSSLLifetime.o")
for name in "${targets[@]}"; do
  case $name in
    entry-parser | ledger-file) ledger ;;
    jws-parser) signing ;;
    storekit-reader)
      module StoreWire Sources/StoreWire
      module StoreKitCatalogue MockStore/StoreKitCatalogue StoreWire
      ;;
  esac
done
for name in "${targets[@]}"; do
  case $name in
    entry-parser) target entry-parser Fuzz/EntryParser "${ledgerLibraries[@]}" "${signingLibraries[@]}" ;;
    ledger-file) target ledger-file Fuzz/LedgerFile "${ledgerLibraries[@]}" "${signingLibraries[@]}" ;;
    jws-parser) target jws-parser Fuzz/JWSParser "${signingLibraries[@]}" ;;
    storekit-reader) target storekit-reader Fuzz/StoreKitReader -lStoreKitCatalogue -lStoreWire ;;
    *) echo "unknown target $name (one of: ${all[*]})" >&2; exit 64 ;;
  esac
done

status=0
for name in "${targets[@]}"; do
  work="$out/corpus/$name"
  artifacts="$out/artifacts/$name"
  mkdir -p "$work" "$artifacts"
  echo "== fuzzing $name for ${seconds}s"
  # New inputs go to the work corpus; the repository's seeds are read, never written.
  if ! "$out/fuzz-$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=70000 \
    -dict=Fuzz/json.dict -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "Fuzz/corpus/$name" >"$out/$name.log" 2>&1; then
    status=1
    echo "!! $name failed:"
    grep -E "ERROR|fatal|Fatal|panic|==[0-9]+==|SUMMARY|Test unit written|Precondition|error:" "$out/$name.log" | head -n 20
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov: .*DONE|^Done" "$out/$name.log" | tail -n 4 | sed "s/^/   /"
  echo "   corpus: $(find "$work" "Fuzz/corpus/$name" -type f | wc -l) inputs"
  if [ "${FUZZ_MERGE:-0}" = "1" ] && [ $status -eq 0 ]; then
    "$out/fuzz-$name" -merge=1 "Fuzz/corpus/$name" "$work" >"$out/$name.merge.log" 2>&1 || true
  fi
done
[ $status -eq 0 ] && echo "== no crash, hang or broken invariant" || echo "== a fuzzer found something (see above)"
exit $status
