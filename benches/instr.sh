#!/usr/bin/env bash
# The archive benchmark by instruction counts: the one-thread rows of bench.sh run once
# each under callgrind on the same games, and the issue-7 ratios worked out from the
# instructions executed instead of wall time. On a shared machine wall time moves by
# ±15% from minute to minute (more than some margins); the instruction count of a
# single-threaded run is the same on every run. The two-thread rows and python-chess
# are left to bench.sh (callgrind runs threads one at a time; python is too slow).
#
#   benches/instr.sh [MB] [FILE]
#   BASE=path/to/an/older/kyphu benches/instr.sh [MB] [FILE]
#
# With BASE, kyphu's rows are also counted with that binary on the same files and a
# table of the changes is printed (the "within 5%" rule for new features).
#
# FILE defaults to ../shared/corpus/bench/bench.pgn.zst; its first MB megabytes
# (default 20), cut at a game's start, are measured. Needs valgrind. Each row takes
# about a minute per 20 MB. Prints a Markdown table on standard output.
set -uo pipefail
cd "$(dirname "$0")/.."
mb=${1:-20}
src=${2:-../shared/corpus/bench/bench.pgn.zst}
command -v valgrind > /dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ "$src" == *.zst ]]; then
  zstd -q -d -c "$src" > "$work/all.pgn" || { echo "cannot decompress $src" >&2; exit 2; }
else
  cp "$src" "$work/all.pgn"
fi
# the first MB megabytes, up to the last game that starts inside them
python3 - "$work/all.pgn" "$work/bench.pgn" "$mb" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
cut = int(float(sys.argv[3]) * 1e6)
if cut < len(data):
    start = data.rfind(b"\n[Event ", 0, cut)
    data = data[: start + 1] if start > 0 else data[:cut]
open(sys.argv[2], "wb").write(data)
PY
rm -f "$work/all.pgn"
file="$work/bench.pgn"

source benches/common.sh
bench_tools

bench_letters "$file"

declare -A ir
order=()
count() { # name, command…
  local name=$1; shift
  order+=("$name")
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" > /dev/null 2> "$work/cg.err"
  ir[$name]=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.err" | tail -n 1)
  echo "  $name: ${ir[$name]}" >&2
}

kyphu_rows() { # prefix, binary
  count "$1kyphu check" "$2" check --threads 1 "$file"
  count "$1kyphu convert" "$2" convert --quiet --threads 1 "$file"
  count "$1kyphu convert --to json" "$2" convert --quiet --to json --threads 1 "$file"
  for l in vi zh fa figurine; do
    count "$1kyphu check, $l letters" "$2" check --threads 1 "$work/bench-$l.pgn"
  done
}
kyphu_rows "" $kyphu
if [ -n "$anchor" ]; then
  count "pgn-reader+shakmaty replay" "$anchor" replay "$file"
  count "pgn-reader+shakmaty san" "$anchor" san "$file"
fi
if command -v pgn-extract > /dev/null; then
  count "pgn-extract -r (validate)" pgn-extract -r -s "$file"
  count "pgn-extract (rewrite SAN)" pgn-extract -s -o /dev/null "$file"
fi

base=${BASE:-}
[ -n "$base" ] && kyphu_rows "base: " "$base"

bytes=$(stat -c %s "$file")
games=$(grep -c '^\[Event ' "$file")
echo "Input: the first $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of $src ($games games),"
echo "instructions counted by callgrind, one thread; $(date -u +%Y-%m-%d)."
echo
echo "| tool and work | instructions (M) | per game | relative to kyphu check |"
echo "|---|---|---|---|"
ref=${ir["kyphu check"]}
for name in "${order[@]}"; do
  [[ "$name" == "base: "* ]] && continue
  awk -v n="$name" -v i="${ir[$name]:-0}" -v g="$games" -v ref="$ref" 'BEGIN {
    if (i > 0) printf "| %s | %.1f | %.0f | %.2f |\n", n, i / 1e6, i / g, ref / i }'
done
ratio() { awk -v a="${ir[$2]:-0}" -v b="${ir[$3]:-0}" -v n="$1" -v t="$4" \
  'BEGIN { if (a > 0 && b > 0) printf "| %s | %.2f | %s |\n", n, b / a, t }'; }
echo
echo "| target (issue 7), by instructions | measured | wanted |"
echo "|---|---|---|"
ratio "check vs pgn-reader+shakmaty replay, 1 core" "kyphu check" "pgn-reader+shakmaty replay" "≥ 1.0"
ratio "convert vs pgn-reader+shakmaty san" "kyphu convert" "pgn-reader+shakmaty san" "≥ 1.5"
ratio "convert vs pgn-extract rewrite" "kyphu convert" "pgn-extract (rewrite SAN)" "≥ 5"
ratio "convert to PGN vs check" "kyphu convert" "kyphu check" "≥ 0.7"
ratio "convert to JSON vs check" "kyphu convert --to json" "kyphu check" "≥ 0.7"
for l in vi zh fa figurine; do
  ratio "$l letters vs English" "kyphu check, $l letters" "kyphu check" "≥ 0.8"
done

if [ -n "$base" ]; then
  echo
  echo "| kyphu row | base $base (M) | this build (M) | change |"
  echo "|---|---|---|---|"
  for name in "${order[@]}"; do
    [[ "$name" == "base: "* ]] || [[ "$name" != kyphu* ]] && continue
    awk -v n="$name" -v a="${ir["base: $name"]:-0}" -v b="${ir[$name]:-0}" 'BEGIN {
      if (a > 0 && b > 0) printf "| %s | %.1f | %.1f | %+.1f%% |\n", n, a / 1e6, b / 1e6, 100 * (b - a) / a }'
  done
fi
