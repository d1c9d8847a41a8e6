"""Adds the vschess reading to every expected file (second independent reader).

kyphu corpus tools; MIT OR Apache-2.0. vschess (FastLight126/vschess,
LGPL-3.0) reads both XQF and DhtmlXQ; it is run, never copied: give the path
of its built library `vschess/vschess.function.js` (from a checkout of the
commit named in the manifest) in VSCHESS_JS. For each expected file this
runs `node vschess_read.js` on the data file, converts the tree to the
canonical form and stores {"agrees", "differences"} as games[i]["vschess"].

Usage: VSCHESS_JS=... python3 add_vschess.py [--root DIR]... [--only S]
"""

import argparse
import bz2
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from game import Game, Node  # noqa: E402
from make_expected import CORPUS, REPO, diff_games, find_folder  # noqa: E402
from make_manifest import load  # noqa: E402


def to_game(t):
    root = Node(None)
    root.comment = t["comment"] or None
    stack = [(c, root) for c in reversed(t["next"])]
    while stack:
        n, par = stack.pop()
        node = Node(n["move"])
        node.comment = n["comment"] or None
        par.children.append(node)
        for c in reversed(n["next"]):
            stack.append((c, node))
    fen = " ".join(t["fen"].split(" ")[:2])
    return Game({}, fen, root)


def norm(j):
    """vschess turns CR LF into LF and drops trailing spaces of comments; compare on that."""
    for c in j["comments"]:
        c["text"] = c["text"].replace("\r\n", "\n").replace("\r", "\n")
    return j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", action="append", default=[])
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    up1 = os.path.join(os.path.dirname(REPO), "shared", "corpus", "xiangqi")
    up2 = os.path.join(os.path.dirname(os.path.dirname(REPO)), "shared", "corpus", "xiangqi")
    roots = args.root + [CORPUS, up1, up2]
    exp = os.path.join(CORPUS, "expected")
    for d, _, fs in sorted(os.walk(exp)):
        for f in sorted(fs):
            p = os.path.join(d, f)
            rec = load(p)
            key = f"{rec['source']}/{rec['path']}"
            if args.only and args.only not in key:
                continue
            base = find_folder(rec["source"], roots)
            if base is None:
                print(f"skip {key}: folder not found", file=sys.stderr)
                continue
            r = subprocess.run(["node", os.path.join(HERE, "vschess_read.js"),
                                os.path.join(base, rec["path"])], capture_output=True, text=True)
            if r.returncode != 0:
                err = (r.stderr.strip().splitlines() or ["?"])[-1][:200]
                for g in rec["games"]:
                    g["vschess"] = {"agrees": False, "error": err}
                status = "fails"
            else:
                theirs = json.loads(r.stdout)["games"]
                status = "agrees"
                if len(theirs) != len(rec["games"]):
                    status = f"differs: {len(theirs)} games, ours {len(rec['games'])}"
                for i, g in enumerate(rec["games"]):
                    if i >= len(theirs):
                        g["vschess"] = {"agrees": False, "error": "no such game in vschess's reading"}
                        continue
                    t = norm(to_game(theirs[i]).to_json())
                    mine = norm(json.loads(json.dumps(g)))
                    dif = diff_games(mine, t, "vschess")
                    g["vschess"] = {"agrees": not dif, "differences": dif}
                    if dif and status == "agrees":
                        status = "differs"
            if p.endswith(".bz2"):
                with open(p, "wb") as fh:
                    fh.write(bz2.compress(json.dumps(rec, ensure_ascii=False, separators=(",", ":")).encode(), 9))
            else:
                with open(p, "w") as fh:
                    fh.write(json.dumps(rec, ensure_ascii=False, indent=1) + "\n")
            print(f"{key}: vschess {status}", flush=True)


if __name__ == "__main__":
    main()
