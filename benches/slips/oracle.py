#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""A stand-in for kyphu that knows the answers, to test the scorer itself:

    python3 benches/slips/score.py --kyphu benches/slips/oracle.py

It reads each sheet's truth file and answers as a perfect kyphu would: `check
--format json` gives one error per slip to find (at its ply, with the meant move as
the only candidate, in the position before it), nothing for a clean sheet;
`convert --help` names `--repair`; `convert --repair --to json` gives the true game.
The scorer must then report 100% everywhere and no false alarm (see README.md).
"""

import json
import sys


def truth_of(path):
    stem = path.rsplit(".", 1)[0]
    with open(stem + ".truth.json", encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    if argv[:2] == ["convert", "--help"]:
        print("      --repair  write the most likely intended game")
        return 0
    path = argv[-1]
    truth = truth_of(path)
    if argv[0] == "check":
        found = False
        for s in truth["slips"]:
            if s["effect"] == "same":
                continue
            found = True
            fen = truth["moves"][s["ply"] - 1]["fen_before"]
            print(json.dumps({"file": path, "game": 1, "severity": "error", "code": "oracle",
                              "ply": s["written_ply"], "fen": fen, "candidates": [s["meant"]]},
                             ensure_ascii=False))
        return 1 if found else 0
    if argv[0] == "convert" and "--repair" in argv:
        print(json.dumps({"moves": [{"ply": m["ply"], "uci": m["uci"]} for m in truth["moves"]]}))
        return 0
    print("oracle: unsupported command", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
