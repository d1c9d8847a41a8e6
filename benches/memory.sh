#!/usr/bin/env bash
# Peak memory while converting a large stream: N copies of a PGN file (default: the
# shared benchmark archive, 102 MB; 10 copies = about 1 GB) piped through
# `kyphu convert` on standard input. Needs /usr/bin/time (Debian package `time`).
#
#   benches/memory.sh [FILE] [COPIES] [FORMAT]
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-}
copies=${2:-10}
format=${3:-pgn}
if [ -z "$file" ]; then
  src=../shared/corpus/bench/bench.pgn.zst
  [ -f "$src" ] || { echo "no input: give a PGN file or provide $src" >&2; exit 2; }
  file=$(mktemp --suffix=.pgn)
  trap 'rm -f "$file"' EXIT
  zstd -q -d -f "$src" -o "$file"
fi
cargo build --release --quiet
size=$(stat -c %s "$file")
echo "input: $copies x $file ($((size * copies / 1000000)) MB), output: $format"
for _ in $(seq "$copies"); do cat "$file"; done |
  /usr/bin/time -f "peak RSS: %M KB, elapsed: %e s" \
    ./target/release/kyphu convert --quiet --to "$format" - > /dev/null 2> >(grep -E "peak RSS|games:" >&2)
