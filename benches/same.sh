#!/usr/bin/env bash
# Outputs unchanged: runs two kyphu binaries over the same inputs and compares everything
# they print (stdout, stderr, exit status) for `check`, `convert` (PGN), `convert --to
# json` and `convert --to csv`, on every file of corpus/, of ../shared/corpus (when
# present) and on the first 20 MB of the benchmark archive.
#
#   benches/same.sh OLD_BINARY NEW_BINARY [MB]
#
# Prints one line per difference (input, command, what differs, and the first differing
# lines) and a total; exits 1 when anything differs. Kept as hashes: a 20 MB run needs no
# disk for outputs.
set -u
old=${1:?usage: same.sh OLD NEW [MB]}
new=${2:?usage: same.sh OLD NEW [MB]}
mb=${3:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
    find "$here/corpus" -type f ! -name '*.md' ! -name '*.py' ! -name '*.expect' \
        ! -path '*/tools/*' ! -path '*/big/*' | sort
    if [ -d "$here/../shared/corpus" ]; then
        find "$here/../shared/corpus" -type f \( -name '*.pgn' -o -name '*.txt' -o -name '*.csv' \
            -o -name '*.pgn.gz' -o -name '*.pgn.bz2' \) ! -path '*/bench/*' | sort
    fi
)
bench="$here/../shared/corpus/bench/bench.pgn.zst"
if [ -f "$bench" ] && [ "$mb" -gt 0 ]; then
    zstd -dc "$bench" | head -c $((mb * 1000000)) > "$work/bench-$mb.pgn"
    inputs+=("$work/bench-$mb.pgn")
else
    echo "note: no benchmark archive at $bench: compared on the corpus only" >&2
fi

commands=("check" "convert" "convert --to json" "convert --to csv")
# one line: the hash of stdout, of stderr, and the exit status
run() {
    local bin=$1 cmd=$2 f=$3
    # shellcheck disable=SC2086
    "$bin" $cmd "$f" > "$work/out" 2> "$work/err" < /dev/null
    local rc=$?
    # the binary's own path may appear in messages: not a difference
    sed -i "s#$bin#kyphu#g" "$work/err"
    echo "$(sha256sum < "$work/out" | cut -c1-16) $(sha256sum < "$work/err" | cut -c1-16) $rc"
}

total=0
differ=0
for f in "${inputs[@]}"; do
    for cmd in "${commands[@]}"; do
        total=$((total + 1))
        a=$(run "$old" "$cmd" "$f")
        b=$(run "$new" "$cmd" "$f")
        if [ "$a" != "$b" ]; then
            differ=$((differ + 1))
            echo "DIFFERS: kyphu $cmd ${f#"$here/"}  (stdout stderr rc: $a | $b)"
            # shellcheck disable=SC2086
            "$old" $cmd "$f" > "$work/o1" 2>&1 < /dev/null
            # shellcheck disable=SC2086
            "$new" $cmd "$f" > "$work/o2" 2>&1 < /dev/null
            sed -i "s#$old#kyphu#g" "$work/o1"
            sed -i "s#$new#kyphu#g" "$work/o2"
            diff "$work/o1" "$work/o2" | head -8 | sed 's/^/    /'
        fi
    done
done
echo "$total comparisons on ${#inputs[@]} inputs, $differ differ"
[ "$differ" -eq 0 ]
