#!/usr/bin/env bash
# Fuzzes one target with libFuzzer: Fuzz/run.sh TARGET [SECONDS] [RUNS].
# TARGET: FuzzYAML, FuzzExpression, FuzzToolCall, FuzzEngine, FuzzPopulation, FuzzMerge, FuzzBundle, FuzzTune, FuzzTelemetry (FuzzToolCall,
# FuzzEngine, FuzzPopulation, FuzzTune and FuzzTelemetry load the shipped
# ruleset from the repository root). Stops after SECONDS (default 60) or RUNS executions,
# whichever comes first. Crashes are written to the repository root as crash-*; seeds are
# Fuzz/corpus/<kind>. The corpus a run grows is kept in .build/fuzz/corpus/TARGET (or under
# FUZZ_CORPUS), so the next run goes on from it instead of from the seeds alone.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: Fuzz/run.sh FuzzYAML|FuzzExpression|FuzzToolCall|FuzzEngine|FuzzPopulation|FuzzMerge|FuzzBundle|FuzzTune|FuzzTelemetry [SECONDS] [RUNS]}"
seconds="${2:-60}"
runs="${3:--1}"
case "$target" in
    FuzzYAML) seeds=Fuzz/corpus/yaml ;;
    FuzzExpression) seeds=Fuzz/corpus/expression ;;
    FuzzToolCall) seeds=Fuzz/corpus/toolcall ;;
    FuzzEngine) seeds=Fuzz/corpus/engine ;;
    FuzzPopulation) seeds=Fuzz/corpus/population ;;
    FuzzMerge) seeds=Fuzz/corpus/merge ;;
    FuzzBundle) seeds=Fuzz/corpus/bundle ;;
    FuzzTune) seeds=Fuzz/corpus/tune ;;
    FuzzTelemetry) seeds=Fuzz/corpus/telemetry ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
# Swift's backtracer would take a trap's signal first and exit without libFuzzer writing
# the crashing input (a FuzzEngine abort was lost that way): leave the signal to libFuzzer.
export SWIFT_BACKTRACE=enable=no
# A scratch path of its own: fuzzer builds never mix with (or wait on) the normal builds.
swift build -c release --product "$target" --sanitize=fuzzer --scratch-path .build/fuzz
grown="${FUZZ_CORPUS:-.build/fuzz/corpus}/$target"
mkdir -p "$grown"
# New inputs go to the first directory; the seeds are only read.
".build/fuzz/release/$target" -max_total_time="$seconds" -runs="$runs" -max_len=4096 -print_final_stats=1 "$grown" "$seeds"
