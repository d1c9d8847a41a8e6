#!/usr/bin/env bash
# Runs every fuzz target for a fixed time, one after the other.
#
#   fuzz/smoke.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Default: 10 seconds per target, all targets. Needs cargo-fuzz (`cargo install
# cargo-fuzz`); on a stable toolchain the nightly-only sanitizer flags are enabled with
# RUSTC_BOOTSTRAP=1. New inputs go to fuzz/corpus/<target> (not committed), crashes to
# fuzz/artifacts/<target>; the committed seeds are fuzz/seeds/<target>. A summary line
# per target (time, executions, corpus size) is appended to fuzz/runs.log.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-10}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(chess_move xiangqi_move pgn_game archive_bytes pgn_roundtrip chess_fen xiangqi_fen csv_sheet csv_roundtrip input_sniff xqf dhtmlxq zip_input)
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: run \`cargo install cargo-fuzz\`, or rely on" >&2
    echo "\`cargo test --test robustness_props\` (proptest) instead" >&2
    exit 2
fi
if ! rustc --version | grep -q nightly; then
    export RUSTC_BOOTSTRAP=1
fi
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="artifacts/$t/run.log"
    start=$(date +%s)
    # -rss_limit_mb: leak/blow-up guard; -timeout: a single input taking >10 s is a hang
    if cargo fuzz run --release "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
        status=1
    fi
    end=$(date +%s)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    size=$(find "corpus/$t" -type f | wc -l)
    line="$(date -u +%FT%TZ) $t $result seconds=$((end - start)) execs=$execs corpus=$size"
    echo "$line" | tee -a runs.log
    if [ "$result" = FAILED ]; then
        grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
    fi
done
exit $status
