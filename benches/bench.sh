#!/usr/bin/env bash
# Archive benchmark: kyphu against pgn-reader+shakmaty (anchorbench), pgn-extract and
# python-chess on the same file, several runs each, medians and ratios to kyphu from
# the same run (machines are noisy: compare ratios, not absolute times).
#
#   benches/bench.sh [RUNS] [FILE]
#
# FILE defaults to ../shared/corpus/bench/bench.pgn.zst (decompressed to a temp file).
# Tools that cannot be found or installed are skipped with a note. pgn-extract comes
# from Debian (apt-get install pgn-extract), python-chess from PyPI (pip install chess),
# anchorbench is built from ../shared/tools/anchorbench (a comparison point only, never
# a dependency of kyphu). Prints a Markdown table on standard output.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
src=${2:-../shared/corpus/bench/bench.pgn.zst}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ "$src" == *.zst ]]; then
  zstd -q -d -f "$src" -o "$work/bench.pgn" || { echo "cannot decompress $src" >&2; exit 2; }
  file="$work/bench.pgn"
else
  file="$src"
fi
bytes=$(stat -c %s "$file")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')

source benches/common.sh
bench_tools
python3 -c 'import chess' 2>/dev/null || pip install -q chess >/dev/null 2>&1 || true
python3 -c 'import chess' 2>/dev/null || echo "note: python-chess not found; skipped" >&2

declare -A secs rss
# the same games with other piece letters (converted once, not timed)
bench_letters "$file"

# Rows are registered first and timed afterwards in rounds: each round runs every
# command once, so a drift of the machine's speed (common on shared machines) touches
# every row alike instead of the rows that happened to run during it.
order=()
cmds=()
row() { # name, command…
  local name=$1; shift
  order+=("$name")
  cmds+=("$(printf '%q ' "$@")")
}

row "kyphu check (1 thread)" $kyphu check --threads 1 "$file"
row "kyphu check (2 threads)" $kyphu check --threads 2 "$file"
row "kyphu convert (1 thread)" $kyphu convert --quiet --threads 1 "$file"
row "kyphu convert (2 threads)" $kyphu convert --quiet --threads 2 "$file"
row "kyphu convert --to json (1 thread)" $kyphu convert --quiet --to json --threads 1 "$file"
for l in vi zh fa figurine; do
  row "kyphu check, $l letters (1 thread)" $kyphu check --threads 1 "$work/bench-$l.pgn"
done
if [ -n "$anchor" ]; then
  row "pgn-reader+shakmaty replay" "$anchor" replay "$file"
  row "pgn-reader+shakmaty san" "$anchor" san "$file"
  row "pgn-reader+shakmaty replay-mt 2" "$anchor" replay-mt "$file" 2
fi
if command -v pgn-extract >/dev/null; then
  row "pgn-extract -r (validate)" pgn-extract -r -s "$file"
  row "pgn-extract (rewrite SAN)" pgn-extract -s -o /dev/null "$file"
fi
if python3 -c 'import chess' 2>/dev/null; then
  cat > "$work/pychess.py" <<'PY'
import sys, chess.pgn
with open(sys.argv[1], encoding="latin-1") as f:
    while chess.pgn.read_game(f) is not None:
        pass
PY
  # python-chess is slow: a tenth of the file, scaled
  head -c $((bytes / 10)) "$file" > "$work/tenth.pgn"
  row "python-chess read_game (1/10 file)" python3 "$work/pychess.py" "$work/tenth.pgn"
fi

declare -A times cpus cpu fastest
for _ in $(seq "$runs"); do
  for i in "${!order[@]}"; do
    eval "/usr/bin/time -f '%e %M %U %S' -o \"\$work/time\" ${cmds[$i]}" > /dev/null 2>&1
    read -r t r u s < <(tail -n 1 "$work/time")
    times[$i]+="$t "
    cpus[$i]+="$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') "
    (( r > ${rss[${order[$i]}]:-0} )) && rss[${order[$i]}]=$r
  done
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# median wall seconds of each row; median and least CPU seconds (user + system)
for i in "${!order[@]}"; do
  secs[${order[$i]}]=$(median ${times[$i]})
  cpu[${order[$i]}]=$(median ${cpus[$i]})
  fastest[${order[$i]}]=$(printf '%s\n' ${cpus[$i]} | sort -n | head -n 1)
done

# games and main-line plies of the file (counted once, not timed)
read -r games plies < <($kyphu convert --quiet --threads 2 --to json "$file" 2> /dev/null |
  python3 -c '
import json, sys
n = p = 0
for line in sys.stdin:
    if line.strip():
        n += 1
        p += len(json.loads(line)["moves"])
print(n, p)')

ref=${secs["kyphu check (1 thread)"]}
echo "Input: $file, $mb MB, $games games, $plies main-line plies; $runs rounds (each runs"
echo "every row once), median wall time and CPU time; $(date -u +%Y-%m-%d), $(nproc) cores. Rows with other letters read the same games"
echo "converted by kyphu (larger files: games/s compares them)."
echo
echo "| tool and work | seconds | CPU seconds (median, least) | MB/s | games/s | plies/s | peak RSS (MB) | speed relative to kyphu check (1 thread) |"
echo "|---|---|---|---|---|---|---|---|"
for name in "${order[@]}"; do
  s=${secs[$name]}
  scale=1
  [[ "$name" == *"1/10"* ]] && scale=10
  awk -v n="$name" -v s="$s" -v m="$mb" -v g="$games" -v p="$plies" -v k="$scale" \
    -v r="${rss[$name]}" -v ref="$ref" -v c="${cpu[$name]}" -v f="${fastest[$name]}" 'BEGIN {
    t = s * k
    printf "| %s | %.2f | %.2f, %.2f | %.1f | %.0f | %.0f | %.1f | %.2f |\n", n, s, c, f, m / t, g / t, p / t, r / 1024, ref / t }'
done

# a ratio by median wall time, and for one-thread rows also by median and least CPU
# time (user + system: on a shared machine the time spent waiting for a core is not
# counted, and the least of the rounds is the one least disturbed)
ratio() {
  local w c f
  w=$(awk -v a="${secs[$2]:-0}" -v b="${secs[$3]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a }')
  [ -n "$w" ] || return 0
  c=$(awk -v a="${cpu[$2]:-0}" -v b="${cpu[$3]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a }')
  f=$(awk -v a="${fastest[$2]:-0}" -v b="${fastest[$3]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a }')
  if [[ "$2 $3" == *"2 threads"* || "$2 $3" == *"mt 2"* ]]; then
    c="(wall)"; f="(wall)"
  fi
  echo "| $1 | $w | $c | $f | $4 |"
}
echo
echo "| target (issue 7) | by median wall time | by median CPU time | by least CPU time | wanted |"
echo "|---|---|---|---|---|"
ratio "check vs pgn-reader+shakmaty replay, 1 core" "kyphu check (1 thread)" "pgn-reader+shakmaty replay" "≥ 1.0"
ratio "convert vs pgn-reader+shakmaty san" "kyphu convert (1 thread)" "pgn-reader+shakmaty san" "≥ 1.5"
ratio "convert vs pgn-extract rewrite" "kyphu convert (1 thread)" "pgn-extract (rewrite SAN)" "≥ 5"
ratio "convert, 2 threads vs 1" "kyphu convert (2 threads)" "kyphu convert (1 thread)" "≥ 1.8"
ratio "check, 2 threads vs pgn-reader+shakmaty replay-mt 2" "kyphu check (2 threads)" "pgn-reader+shakmaty replay-mt 2" "≥ 1.0"
ratio "convert to PGN vs check" "kyphu convert (1 thread)" "kyphu check (1 thread)" "≥ 0.7"
ratio "convert to JSON vs check" "kyphu convert --to json (1 thread)" "kyphu check (1 thread)" "≥ 0.7"
for l in vi zh fa figurine; do
  ratio "$l letters vs English (games/s)" "kyphu check, $l letters (1 thread)" "kyphu check (1 thread)" "≥ 0.8"
done
