#!/usr/bin/env bash
# Slip benchmark: generate the typed scoresheets (seeded) and score kyphu on them.
#   benches/slips/run.sh [KYPHU] [SEED]
# KYPHU defaults to target/release/kyphu (build it first), SEED to 27.
# Output: benches/slips/out/ (sheets, truth files, report.md, score.json, slips.csv).
# Needs Python 3.11 with python-chess (pip install chess) and the zstd program.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
kyphu="${1:-$root/target/release/kyphu}"
seed="${2:-27}"
out="${SLIPS_OUT:-$here/out}"
if [ ! -x "$kyphu" ]; then
    echo "run.sh: no kyphu binary at $kyphu (cargo build --release, or give its path)" >&2
    exit 2
fi
python3 -c 'import chess' 2>/dev/null || {
    echo "run.sh: python-chess missing: pip install chess" >&2
    exit 2
}
python3 "$here/gen.py" --seed "$seed" --out "$out"
python3 "$here/score.py" --kyphu "$kyphu" --out "$out"
