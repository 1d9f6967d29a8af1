#!/usr/bin/env bash
# Installs what HealthVault builds and tests with: libsodium-dev and libsqlcipher-dev 4.x (>= 4.5),
# zlib1g-dev (ZIPFoundation inflates export.zip with zlib), pkg-config, python3 (the protocol's non-Swift test client and the demo), and Debian's sqlcipher shell (the tests use it to prove the database is a standard
# SQLCipher 4 file), restic (`healthvault backup --restic`) and rclone (the tests serve a restic
# repository over HTTP with `rclone serve restic`), and Chromium with its WebDriver, poppler-utils and
# the DejaVu fonts (`healthvault report --pdf`; the report's tests open it in headless Chromium through
# Selenium and count the printed PDF's pages with pdfinfo). Idempotent: does nothing when they are
# already there.
#
# On Debian 12 (bookworm) the default libsqlcipher-dev is 3.4.1; 4.x comes from bookworm-backports,
# which this script adds to the Suites: line of the machine's existing Debian source entry (or, for
# a one-line sources.list, a line with the same mirror), never a mirror address of its own.
set -euo pipefail

min_sqlcipher="4.5"

say() { echo "install-deps: $*"; }
fail() { echo "install-deps: $*" >&2; exit 1; }

version_at_least() { # $1 >= $2 ?
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

have_everything() {
  command -v pkg-config >/dev/null 2>&1 || return 1
  command -v python3 >/dev/null 2>&1 || return 1
  # The Makefile makes a virtual environment for the Python test tools (fhir.resources).
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || return 1
  pkg-config --exists libsodium || return 1
  pkg-config --exists zlib || return 1
  pkg-config --exists sqlcipher || return 1
  # sqlcipher.pc carries the SQLite version; SQLCipher 4.5 is SQLite 3.37 or newer.
  version_at_least "$(pkg-config --modversion sqlcipher)" "3.37" || return 1
  command -v sqlcipher >/dev/null 2>&1 || return 1
  sqlcipher -version 2>/dev/null | grep -qE 'SQLCipher (4\.([5-9]|[1-9][0-9])|[5-9])' || return 1
  command -v restic >/dev/null 2>&1 || return 1
  command -v rclone >/dev/null 2>&1 || return 1
  command -v chromium >/dev/null 2>&1 || return 1
  command -v chromedriver >/dev/null 2>&1 || return 1
  command -v pdfinfo >/dev/null 2>&1 || return 1
  # Headless Chromium draws text with the fonts fontconfig knows; a bare container may have none.
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || return 1
}

# Whether an active (uncommented) apt source already names bookworm-backports.
backports_configured() {
  local files=()
  [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
  for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  [ ${#files[@]} -gt 0 ] || return 1
  grep -qE '^[[:space:]]*(deb[[:space:]].*[[:space:]]bookworm-backports([[:space:]]|$)|Suites:.*[[:space:]]bookworm-backports([[:space:]]|$))' "${files[@]}"
}

if have_everything; then
  say "libsodium $(pkg-config --modversion libsodium), SQLCipher (SQLite $(pkg-config --modversion sqlcipher)), restic, rclone and Chromium already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n env DEBIAN_FRONTEND=noninteractive)
else
  fail "cannot install libsodium-dev and libsqlcipher-dev: not root and no password-less sudo; run 'sudo make deps' or install them yourself (SQLCipher >= $min_sqlcipher)"
fi
command -v apt-get >/dev/null 2>&1 || fail "no apt-get here: install libsodium-dev and libsqlcipher-dev (SQLCipher >= $min_sqlcipher) with your package manager"

export DEBIAN_FRONTEND=noninteractive
codename=""
[ -r /etc/os-release ] && codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

install_args=()
if [ "$codename" = "bookworm" ]; then
  if ! backports_configured; then
    if [ -f /etc/apt/sources.list.d/debian.sources ] &&
      grep -qE '^Suites:(.* )?bookworm( |$)' /etc/apt/sources.list.d/debian.sources; then
      say "adding bookworm-backports to /etc/apt/sources.list.d/debian.sources"
      "${SUDO[@]}" sed -i -E '/^Suites:(.* )?bookworm( |$)/{/bookworm-backports/!s/$/ bookworm-backports/}' \
        /etc/apt/sources.list.d/debian.sources
    elif [ -f /etc/apt/sources.list ] &&
      line=$(grep -E '^deb .* bookworm( |$)' /etc/apt/sources.list | head -n1) &&
      [ -n "$line" ]; then
      say "adding bookworm-backports beside the existing entry in /etc/apt/sources.list"
      echo "$line" | sed -E 's/ bookworm( |$)/ bookworm-backports\1/' |
        "${SUDO[@]}" tee -a /etc/apt/sources.list >/dev/null
    else
      fail "Debian 12 without a Debian source entry to extend: add bookworm-backports yourself, then run make deps again"
    fi
  fi
  install_args=(-t bookworm-backports)
fi

say "apt-get update"
"${SUDO[@]}" apt-get update -qq || fail "apt-get update failed"
say "apt-get install pkg-config python3 python3-venv libsodium-dev zlib1g-dev libsqlcipher-dev sqlcipher ${install_args[*]}"
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends pkg-config python3 python3-venv libsodium-dev zlib1g-dev >/dev/null ||
  fail "apt-get install libsodium-dev failed"
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${install_args[@]}" libsqlcipher-dev sqlcipher >/dev/null ||
  fail "apt-get install libsqlcipher-dev sqlcipher failed"
say "apt-get install restic rclone"
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends restic rclone >/dev/null ||
  fail "apt-get install restic rclone failed"
say "apt-get install chromium chromium-driver poppler-utils fonts-dejavu-core"
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium chromium-driver poppler-utils fonts-dejavu-core >/dev/null ||
  fail "apt-get install chromium chromium-driver poppler-utils fonts-dejavu-core failed"

have_everything || fail "installed, but SQLCipher is still older than $min_sqlcipher (pkg-config sqlcipher: $(pkg-config --modversion sqlcipher 2>/dev/null || echo missing))"
say "libsodium $(pkg-config --modversion libsodium) and SQLCipher (SQLite $(pkg-config --modversion sqlcipher)) installed"
