#!/usr/bin/env bash
# Installs what an engine of analytics/pnl.sh needs when it is missing, quietly, saying on standard error what it
# installs; on a fresh Debian 12 machine:
#   bash analytics/install-engine.sh duckdb    the Python package duckdb (pip)
#   bash analytics/install-engine.sh spark     Java 17 (Debian's openjdk-17-jre-headless, apt) and the Python package
#                                              pyspark (pip, about 450 MB); prints the JAVA_HOME Spark is to use
# Exit 0 done, 1 something could not be installed (said why), 64 a wrong command line. pnl.sh and scripts/test.sh
# run it.
set -euo pipefail

usage="usage: bash analytics/install-engine.sh duckdb|spark"
[ $# -eq 1 ] || { echo "install-engine.sh: which engine?" >&2; echo "$usage" >&2; exit 64; }
case "$1" in duckdb | spark) ;; -h | --help) echo "$usage"; exit 0 ;; *)
  echo "install-engine.sh: no engine \"$1\"" >&2; echo "$usage" >&2; exit 64 ;; esac

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# pip_install MODULE PACKAGE: PACKAGE from PyPI unless Python can import MODULE already.
pip_install() {
  python3 -c "import $1" >/dev/null 2>&1 && return 0
  echo "Installing the Python package $2 (pip)" >&2
  local pip=(python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore)
  if ! "${pip[@]}" "$2" >"$log" 2>&1 && ! "${pip[@]}" --break-system-packages "$2" >"$log" 2>&1; then
    tail -n 5 "$log" >&2
    echo "install-engine.sh: the Python package $2 could not be installed (pip's last words above)" >&2
    exit 1
  fi
  python3 -c "import $1" >/dev/null 2>&1 || {
    echo "install-engine.sh: $2 was installed but Python cannot import $1" >&2
    exit 1
  }
}

# The major version of the Java at $1 (8 for 1.8.0, 17 for 17.0.15), empty if it does not run.
java_major() {
  "$1" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print (v[1] == 1 ? v[2] : v[1]); exit }'
}

# The home of a Java 17 or later: JAVA_HOME's, else the one on PATH, else Debian's, installed when missing.
java_home() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 17 ] 2>/dev/null; then
    echo "$JAVA_HOME"
    return
  fi
  local java
  java="$(command -v java || true)"
  if [ -n "$java" ] && [ "$(java_major "$java" || echo 0)" -ge 17 ] 2>/dev/null; then
    dirname "$(dirname "$(readlink -f "$java")")"
    return
  fi
  local home="/usr/lib/jvm/java-17-openjdk-$(dpkg --print-architecture)"
  if [ ! -x "$home/bin/java" ]; then
    echo "Installing the Debian package openjdk-17-jre-headless (Java 17, for Spark)" >&2
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    # A slim image lacks the man directory the package's alternatives link into.
    "${sudo_cmd[@]}" mkdir -p /usr/share/man/man1
    if ! { "${sudo_cmd[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" \
      apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless; } >"$log" 2>&1; then
      tail -n 5 "$log" >&2
      echo "install-engine.sh: Java 17 (openjdk-17-jre-headless) could not be installed (apt's last words above)" >&2
      exit 1
    fi
  fi
  echo "$home"
}

if [ "$1" = duckdb ]; then
  pip_install duckdb duckdb
else
  home="$(java_home)"
  pip_install pyspark pyspark
  echo "$home"
fi
