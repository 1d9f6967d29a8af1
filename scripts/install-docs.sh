#!/usr/bin/env bash
# Installs healthvault's and healthvaultd's manual pages and shell completions (bash, zsh, fish)
# under PREFIX, generated from the commands' own argument parsers: the pages by swift-argument-
# parser's generate-manual (from --experimental-dump-help), the completions by
# --generate-completion-script. `make install-docs` runs it (docs/COMMAND_LINE.md).
#
#   scripts/install-docs.sh PREFIX BIN GENERATE_MANUAL
#
# BIN holds the healthvault and healthvaultd binaries; GENERATE_MANUAL is the tool.
set -euo pipefail

prefix=${1:?usage: install-docs.sh PREFIX BIN GENERATE_MANUAL}
bin=${2:?usage: install-docs.sh PREFIX BIN GENERATE_MANUAL}
generate_manual=${3:?usage: install-docs.sh PREFIX BIN GENERATE_MANUAL}

for tool in healthvault healthvaultd; do
  [ -x "$bin/$tool" ] || { echo "install-docs: $bin/$tool is missing; build it first (make build)" >&2; exit 1; }
done
[ -x "$generate_manual" ] || { echo "install-docs: $generate_manual is missing" >&2; exit 1; }

man1="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
mkdir -p "$man1" "$bash_dir" "$zsh_dir" "$fish_dir"

for tool in healthvault healthvaultd; do
  # One page per command and subcommand (healthvault.1, healthvault-stats.1, ...).
  "$generate_manual" "$bin/$tool" --multi-page --output-directory "$man1"
  "$bin/$tool" --generate-completion-script bash > "$bash_dir/$tool"
  "$bin/$tool" --generate-completion-script zsh > "$zsh_dir/_$tool"
  "$bin/$tool" --generate-completion-script fish > "$fish_dir/$tool.fish"
done

pages=$(find "$man1" -maxdepth 1 -name 'healthvault*.1' | wc -l)
echo "Installed $pages manual pages in $man1 and completions for bash, zsh and fish under $prefix/share."
