#!/usr/bin/env bash
# Fuzzes the YAML reader with libFuzzer for a minute (or $1 seconds). Crashes are written
# to the current directory as crash-*; the seed corpus is Fuzz/corpus/yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
swift build -c release --product FuzzYAML --sanitize=fuzzer
work="$(mktemp -d)"
cp Fuzz/corpus/yaml/* "$work/"
.build/release/FuzzYAML -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$work"
