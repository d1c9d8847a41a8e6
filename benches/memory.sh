#!/usr/bin/env bash
# Peak memory and time against input size, for every layout of issue 22 (a benchmark,
# not a timed test). Each input is generated and piped into the release binary on
# standard input (nothing large is written to disk), at 1x, 2x and 4x a base size, so
# that the table shows memory staying flat and time growing linearly. Prints one
# Markdown row per run: layout, command, input MB, peak RSS MB, seconds. Needs
# /usr/bin/time (Debian package `time`) and python3; `zstd` for the bench file.
#
#   benches/memory.sh [SCALE]     # SCALE multiplies every base size (default 1)
#   benches/memory.sh [SCALE] LAYOUT…   # only these layouts (lines numbers huge
#                                       # huge-many strict tags bench)
#   benches/memory.sh bench [COPIES] [FORMAT]   # the old form: COPIES x bench.pgn
set -euo pipefail
cd "$(dirname "$0")/.."
# KYPHU=path/to/kyphu: measure that binary (no build)
if [ -n "${KYPHU:-}" ]; then
  bin=$KYPHU
else
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/kyphu
  [ -x "$bin" ] || bin=./target/release/kyphu
fi

# one run: LAYOUT, GENERATOR (a shell command writing the input to stdout), kyphu ARGS…
measure() {
  local layout=$1 gen=$2
  shift 2
  local out
  out=$(mktemp)
  # shellcheck disable=SC2086
  bash -c "$gen" | tee >(wc -c > "$out.size") |
    /usr/bin/time -f "%M %e" -o "$out.time" "$bin" "$@" - > /dev/null 2> /dev/null || true
  sleep 0.2
  local size rss secs
  size=$(cat "$out.size")
  read -r rss secs < <(tail -n 1 "$out.time")
  printf '| %s | `kyphu %s` | %.1f | %.1f | %.2f |\n' "$layout" "$*" \
    "$(echo "$size / 1000000" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$secs"
  rm -f "$out" "$out.size" "$out.time"
}

if [ "${1:-}" = bench ]; then
  copies=${2:-10}
  format=${3:-pgn}
  src=../shared/corpus/bench/bench.pgn.zst
  [ -f "$src" ] || { echo "no $src" >&2; exit 2; }
  echo "| layout | command | input MB | peak RSS MB | seconds |"
  echo "|---|---|---|---|---|"
  measure "bench.pgn x$copies" "for i in \$(seq $copies); do zstd -q -d -c $src; done" \
    convert --quiet --to "$format"
  exit 0
fi

scale=${1:-1}
shift || true
only=" ${*:-lines numbers huge huge-many strict tags bench} "
echo "| layout | command | input MB | peak RSS MB | seconds |"
echo "|---|---|---|---|---|"
row() {
  local layout=$1 name=$2 pipe=$3
  shift 3
  [[ $only == *" $layout "* ]] || return 0
  for k in 1 2 4; do
    measure "$name" "python3 benches/layouts.py $layout $((k * scale)) $pipe" "$@"
  done
}
row lines "one game per line" "" check --threads 2
row numbers "separated by move numbers" "" convert --to json --threads 2
row huge "one huge game (1M plies a unit)" "" convert --to json --threads 2
row huge-many "2M-ply games, gzip (MB compressed)" "| gzip -1" convert --to json --threads 2
row strict "--strict, a note a move" "" check --strict --threads 2
row tags "tags-heavy (20 000 tags a game)" "" convert --to json --threads 2
src=../shared/corpus/bench/bench.pgn.zst
if [ -f "$src" ] && [[ $only == *" bench "* ]]; then
  for k in 1 2 4; do
    n=$((k * scale))
    measure "bench.pgn x$n" "for i in \$(seq $n); do zstd -q -d -c $src; done" \
      convert --to json --threads 2
  done
else
  echo "(no $src: bench rows skipped)" >&2
fi
