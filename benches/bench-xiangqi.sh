#!/usr/bin/env bash
# Xiangqi benchmark: kyphu against cchess (PyPI, walker8088) replaying the same games,
# several runs each, alternated, medians and the kyphu/cchess speed ratio from the same
# run (machines are noisy: compare ratios, not absolute times).
#
#   benches/bench-xiangqi.sh [RUNS]
#
# Two workloads from ../shared/corpus/xiangqi (override with XIANGQI_CORPUS=DIR):
#   iccs     the wukong xqdb ICCS files as they are (player collections + bulk file,
#            2,531 games, `h2e2` coordinates); both tools read the same concatenation.
#   chinese  the CCPD games (Big5, traditional characters, which cchess cannot open)
#            converted once by kyphu to UTF-8 PGN in simplified Chinese notation
#            (`炮二平五`), then cut to the games cchess replays completely (its reader
#            gives up on some tandem-piece and advisor/elephant moves), so that both
#            tools are timed on exactly the same games and plies.
# kyphu runs `check --threads 1` (read + replay + every diagnostic) and `convert
# --threads 1 -o /dev/null` (read + replay + write PGN); cchess runs
# benches/cchess_replay.py (read + replay every move with the full legality test).
# cchess is imported from python3 if it is there, else installed from PyPI into a venv
# under target/. Games and plies replayed are counted for both tools and printed; a
# mismatch is flagged in the table. Wall and CPU (user + system) seconds are medians
# of their own; on a loaded machine the CPU ratio is the steadier one. Prints a Markdown
# table on standard output.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
corpus=${XIANGQI_CORPUS:-../shared/corpus/xiangqi}
cache=target/bench-xiangqi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
cargo build --release --quiet || exit 2
kyphu=./target/release/kyphu

python=python3
if ! "$python" -c 'import cchess' 2>/dev/null; then
  python=target/cchess-venv/bin/python
  if ! "$python" -c 'import cchess' 2>/dev/null; then
    python3 -m venv target/cchess-venv && "$python" -m pip install -q cchess >&2
  fi
  "$python" -c 'import cchess' 2>/dev/null || { echo "cannot install cchess" >&2; exit 2; }
fi
cchess_version=$("$python" -c 'import importlib.metadata as m; print(m.version("cchess"))')

# workload files
w=$corpus/wukong-xiangqi-xqdb
for f in "$w"/player_collections/*.pgn "$w"/games_pgn/bulk_games_uci.pgn; do
  cat "$f"; printf '\n\n'
done > "$work/iccs.pgn"
mapfile -t ccpd < <(find "$corpus/ccpd-yvonne761" -name '*.pgn' | LC_ALL=C sort)
"$kyphu" convert --quiet --threads 1 --out-xiangqi chinese -o "$work/ccpd-zh.pgn" "${ccpd[@]}" \
  2> /dev/null
# the cut to cchess's complete games takes one cchess run: keep it while the input is the same
if ! cmp -s "$work/ccpd-zh.pgn" "$cache/ccpd-zh.pgn" || [ ! -s "$cache/chinese.pgn" ]; then
  echo "cutting the Chinese file to the games cchess replays completely (one slow run)" >&2
  "$python" benches/cchess_replay.py --complete-out "$cache/chinese.pgn" "$work/ccpd-zh.pgn" >&2 &&
    cp "$work/ccpd-zh.pgn" "$cache/ccpd-zh.pgn"
fi
cp "$cache/chinese.pgn" "$work/chinese.pgn"

# games and main-line plies kyphu replays (from its JSON output, not timed)
kyphu_counts() {
  "$kyphu" convert --quiet --threads 1 --to json "$1" 2> /dev/null | "$python" -c '
import json, sys
games = [json.loads(line) for line in sys.stdin if line.strip()]
print(len(games), sum(len(g["moves"]) for g in games))'
}

# wall and CPU (user + system) seconds of one run
timed() {
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > "$work/out" 2> /dev/null
  tail -n 1 "$work/time" | awk '{ printf "%s %.2f", $1, $2 + $3 }'
}
# median of column $1 of "wall cpu" lines
median() { awk -v c="$1" '{ print $c }' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "Input: $corpus; $runs runs each, alternated, medians of wall and CPU time; cchess $cchess_version;" \
  "$(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at start"
echo
echo "| workload | tool and work | games | plies | wall s | CPU s | games/s | plies/s | kyphu / cchess speed, wall | same, CPU |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for load in iccs chinese; do
  file=$work/$load.pgn
  read -r kg kp <<< "$(kyphu_counts "$file")"
  check=() convert=() py=()
  for i in $(seq "$runs"); do
    echo "$load: run $i of $runs" >&2
    check+=("$(timed "$kyphu" check --threads 1 "$file")")
    convert+=("$(timed "$kyphu" convert --quiet --threads 1 -o /dev/null "$file")")
    py+=("$(timed "$python" benches/cchess_replay.py "$file")")
    read -r _ cg _ cp _ cs < "$work/out"
  done
  sc=$(printf '%s\n' "${check[@]}" | median 1); cc=$(printf '%s\n' "${check[@]}" | median 2)
  sv=$(printf '%s\n' "${convert[@]}" | median 1); cv=$(printf '%s\n' "${convert[@]}" | median 2)
  sp=$(printf '%s\n' "${py[@]}" | median 1); cpy=$(printf '%s\n' "${py[@]}" | median 2)
  note=""
  [ "$kg $kp" = "$cg $cp" ] && [ "$cs" = 0 ] ||
    note=" (MISMATCH: kyphu $kg games $kp plies, cchess $cg games $cp plies, $cs stopped)"
  awk -v l="$load" -v g="$kg" -v p="$kp" -v cg="$cg" -v cp="$cp" -v sc="$sc" -v sv="$sv" \
    -v sp="$sp" -v cc="$cc" -v cv="$cv" -v cpy="$cpy" -v note="$note" 'BEGIN {
    printf "| %s | kyphu check --threads 1 | %d | %d | %.2f | %.2f | %.0f | %.0f | %.0f× | %.0f× |\n", l, g, p, sc, cc, g / sc, p / sc, sp / sc, cpy / cc
    printf "| %s | kyphu convert --threads 1 -o /dev/null | %d | %d | %.2f | %.2f | %.0f | %.0f | %.0f× | %.0f× |\n", l, g, p, sv, cv, g / sv, p / sv, sp / sv, cpy / cv
    printf "| %s | cchess (benches/cchess_replay.py) | %d | %d | %.1f | %.1f | %.1f | %.0f | 1× | 1×%s |\n", l, cg, cp, sp, cpy, cg / sp, cp / sp, note
  }'
done
