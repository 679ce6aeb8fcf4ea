#!/usr/bin/env bash
# Fuzzes one target with libFuzzer: Fuzz/run.sh FuzzYAML|FuzzExpression [SECONDS].
# Crashes are written to the current directory as crash-*; seeds are Fuzz/corpus/<kind>.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: Fuzz/run.sh FuzzYAML|FuzzExpression [SECONDS]}"
seconds="${2:-60}"
case "$target" in
    FuzzYAML) seeds=Fuzz/corpus/yaml ;;
    FuzzExpression) seeds=Fuzz/corpus/expression ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
swift build -c release --product "$target" --sanitize=fuzzer
work="$(mktemp -d)"
cp "$seeds"/* "$work/"
".build/release/$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$work"
