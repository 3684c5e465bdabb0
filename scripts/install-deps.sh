#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian 12 machine (Swift itself is expected at /opt/swift
# or on PATH). Safe to run again: it installs only what is missing.
set -euo pipefail

packages=(libssl-dev libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev pkg-config chromium)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "error: swift is not installed (Swift 6.3.1 is expected on PATH or at /opt/swift)" >&2
    exit 1
  fi
fi

# Apple's own App Store Server Library, for the interop tests (PyPI).
if [ "${SKIP_PYTHON:-0}" != "1" ]; then
  if ! python3 -c "import appstoreserverlibrary, cryptography" >/dev/null 2>&1; then
    echo "Installing Python packages: app-store-server-library cryptography"
    python3 -m pip install -q --disable-pip-version-check -r Tests/Interop/requirements.txt cryptography 2>/dev/null \
      || python3 -m pip install -q --disable-pip-version-check --break-system-packages -r Tests/Interop/requirements.txt cryptography
  fi
fi
