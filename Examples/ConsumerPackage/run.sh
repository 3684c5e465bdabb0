#!/usr/bin/env bash
# Builds this package (a server team's own, depending on VoiceDebriefCredit by path as MockStore/README.md says) and
# runs its tests with no MOCKSTORE_* variable set: TestStore finds the mockstore built in the repository root (or
# builds it there) and the catalogue the repository ships.
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
unset MOCKSTORE_BINARY MOCKSTORE_CATALOGUE MOCKSTORE_URL MOCKSTORE_DATA MOCKSTORE_ROOT_CERTIFICATE MOCKSTORE_CUSTOMER
source ../build-and-test.sh
build_and_test ConsumerPackage "(no MOCKSTORE_* variable set)"
