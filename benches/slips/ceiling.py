#!/usr/bin/env python3
"""The slips no replay of a sheet can show: each slip of a run applied alone to the true
game's sheet; when the written game is then legal to its end (every cell one legal move
for the bench's own reader, `sheet.resolve`), nothing later contradicts the slip.

    python3 benches/slips/ceiling.py [OUT]     # OUT: benches/slips/out (after run.sh)

Prints how many such slips and sheets there are, how many of them kyphu located anyway
(by `score.json`), and the most sheets `--repair` can rebuild and slips `check` can
locate by replay (the others plus those located anyway)."""
import glob
import json
import os
import sys
from collections import Counter

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sheet as sh  # noqa: E402


def legal_to_the_end(cells: list[str], lang: str) -> bool:
    board = chess.Board()
    for c in cells:
        moves = sh.resolve(board, c, [lang])
        if not moves or len(moves) != 1:
            return False
        board.push(moves[0])
    return True


def main() -> int:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
    score = json.load(open(os.path.join(out, "score.json"), encoding="utf-8"))
    results = {s["sheet"]: s for s in score["sheets"]}
    hidden = []
    sheets_hidden = set()
    with_slips = 0
    to_find = 0
    for path in sorted(glob.glob(os.path.join(out, "sheets", "*.truth.json"))):
        t = json.load(open(path, encoding="utf-8"))
        if not t["slips"]:
            continue
        with_slips += 1
        for s in t["slips"]:
            if s["effect"] == "same":
                continue
            to_find += 1
            cells = [m["written_clean"] for m in t["moves"]]
            q = s["ply"]
            if s["kind"] == "swap":
                cells[q - 1], cells[q + 1] = cells[q + 1], cells[q - 1]
            elif s["kind"] == "omit":
                del cells[q - 1]
            else:
                cells[q - 1] = s["written"]
            if legal_to_the_end(cells, t["lang"]):
                located = any(
                    x["ply"] == q and x["kind"] == s["kind"] and x["located"]
                    for x in results[t["sheet"]]["slips"]
                )
                hidden.append((t["sheet"], s["kind"], q, s["written"], s["meant"], located))
                sheets_hidden.add(t["sheet"])
    anyway = sum(1 for h in hidden if h[5])
    kinds = Counter(h[1] for h in hidden)
    rebuilt_anyway = sum(1 for s in sheets_hidden if results[s]["exact"])
    most_rebuilt = with_slips - len(sheets_hidden) + rebuilt_anyway
    most_located = to_find - len(hidden) + anyway
    print(f"slips to find: {to_find}; legal to the end alone: {len(hidden)} ({dict(kinds)}) "
          f"in {len(sheets_hidden)} sheets; located anyway: {anyway}")
    print(f"most sheets rebuilt: {most_rebuilt} of {with_slips} ({100 * most_rebuilt / with_slips:.1f}%); "
          f"most slips located: {most_located} of {to_find} ({100 * most_located / to_find:.1f}%)")
    for h in hidden:
        print("  sheet {} {} ply {}: wrote {} for {}{}".format(*h[:5], " (located)" if h[5] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
