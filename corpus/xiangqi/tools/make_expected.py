"""Writes corpus/xiangqi/expected/** and the file table of the manifest.

kyphu corpus tools; MIT OR Apache-2.0. For every XQF / DhtmlXQ file of the
sources below (ours under corpus/xiangqi/, external ones looked up in the
search roots), it
  1. reads the file with our own reference reader (xqf.py / dhtmlxq.py),
  2. for XQF, reads it again with the independent PyPI package `cchess`
     and records every difference,
  3. replays every line of every game with pyffish (Fairy-Stockfish) and
     records the illegal moves,
and writes expected/<source>/<path>.json (compact and bzip2-compressed as
.json.bz2 when the JSON is over 256 KiB).

Usage: python3 make_expected.py [--root DIR]... [--only SUBSTRING]
Search roots default to corpus/xiangqi (this repo), ../shared/corpus/xiangqi
(relative to the repo root, or two levels up for a worktree) and
$KYPHU_XQ_EXTERNAL when set.
"""

import argparse
import bz2
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dhtmlxq  # noqa: E402
import independent  # noqa: E402
import xqf  # noqa: E402

CORPUS = os.path.dirname(HERE)  # corpus/xiangqi
REPO = os.path.dirname(os.path.dirname(CORPUS))

# (folder, format, licence, copyable, files relative to the folder (None = all
# files with the format's extensions, recursively))
SOURCES = [
    ("dhtmlxq/wukong-xiangqi-xqdb", "dhtmlxq", "MIT", True, None),
    ("xqf/kyphu-made", "xqf", "MIT OR Apache-2.0 (kyphu)", True, None),
    ("dhtmlxq/kyphu-made", "dhtmlxq", "MIT OR Apache-2.0 (kyphu)", True, None),
    ("walker8088-cchess", "xqf", "GPL-3.0", False, None),
    ("hbsxcjp-cchess_qt", "xqf", "none stated", False, None),
    ("xqbase-eleeye", "xqf", "LGPL-2.1", False, None),
    ("fastlight126-vschess", "both", "LGPL-3.0", False, None),
]
EXT = {"xqf": (".xqf",), "dhtmlxq": (".html", ".htm", ".txt")}


def find_folder(folder, roots):
    for r in roots:
        p = os.path.join(r, folder)
        if os.path.isdir(p):
            return p
    return None


def list_files(base, fmt):
    exts = EXT["xqf"] + EXT["dhtmlxq"] if fmt == "both" else EXT[fmt]
    out = []
    for d, _, fs in os.walk(base):
        for f in fs:
            if f.lower().endswith(exts):
                out.append(os.path.relpath(os.path.join(d, f), base))
    return sorted(out)


def diff_games(ours, theirs, name="cchess"):
    """Differences between two canonical JSON games (fen, lines, comments)."""
    out = []
    if ours["fen"] != theirs["fen"]:
        out.append(f"fen: ours {ours['fen']!r}, {name} {theirs['fen']!r}")
    if ours["mainline"] != theirs["mainline"]:
        a, b = ours["mainline"], theirs["mainline"]
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        out.append(f"mainline: {len(a)} vs {len(b)} plies, first difference at ply {k + 1}: "
                   f"ours {a[k] if k < len(a) else '-'}, {name} {b[k] if k < len(b) else '-'}")
    va = [(v["parent"], v["ply"], v["moves"]) for v in ours["variations"]]
    vb = [(v["parent"], v["ply"], v["moves"]) for v in theirs["variations"]]
    if va != vb:
        out.append(f"variations: ours {len(va)}, {name} {len(vb)}"
                   + ("" if len(va) != len(vb) else
                      f"; first differing variation id {next(i + 1 for i in range(len(va)) if va[i] != vb[i])}"))
    ca = [(c["line"], c["ply"], c["text"]) for c in ours["comments"]]
    cb = [(c["line"], c["ply"], c["text"]) for c in theirs["comments"]]
    if ca != cb:
        sa, sb = set(ca), set(cb)
        out.append(f"comments: ours {len(ca)}, {name} {len(cb)}, {len(sa - sb)} only ours, "
                   f"{len(sb - sa)} only {name}")
    for k in ("red", "black", "title", "event"):
        if k in theirs["header"] and theirs["header"][k] != ours["header"].get(k):
            out.append(f"header {k}: ours {ours['header'].get(k)!r}, {name} {theirs['header'][k]!r}")
    if theirs["header"].get("result") not in (None, ours["header"].get("result")):
        out.append(f"header result: ours {ours['header'].get('result')!r}, {name} {theirs['header']['result']!r}")
    return out


CCHESS_MAX_NODES = 40000


def process(path, fmt):
    raw = open(path, "rb").read()
    rec = {"sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
    games = []
    if fmt == "xqf" or (fmt == "both" and path.lower().endswith(".xqf")):
        rec["format"] = "xqf"
        try:
            g = xqf.read_xqf(raw, path).to_json()
        except xqf.XqfError as e:
            rec["error"] = str(e)
            g = None
        if g is not None and g["counts"]["nodes"] > CCHESS_MAX_NODES:
            g["cchess"] = {"agrees": False, "error": (
                f"not run: {g['counts']['nodes']} moves, over --cchess-max-nodes "
                f"{CCHESS_MAX_NODES} (cchess takes about 5 ms a move here)")}
            games.append(g)
        elif g is not None:
            try:
                c = independent.cchess_xqf(path).to_json()
                g["cchess"] = {"agrees": False, "differences": diff_games(g, c)}
                g["cchess"]["agrees"] = not g["cchess"]["differences"]
                if c["notes"]:
                    g["cchess"]["notes"] = c["notes"]
            except Exception as e:  # the independent reader failed
                g["cchess"] = {"agrees": False, "error": f"{type(e).__name__}: {e}"}
            games.append(g)
    else:
        rec["format"] = "dhtmlxq"
        text, enc = dhtmlxq.decode_bytes(raw)
        rec["encoding"] = enc
        for kind, gm in dhtmlxq.read_text(text):
            j = gm.to_json()
            j["block"] = kind
            games.append(j)
    for g in games:
        g["illegal"] = independent.check_legality(g)
    rec["games"] = games
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", action="append", default=[])
    ap.add_argument("--only", default="")
    ap.add_argument("--cchess-max-nodes", type=int, default=CCHESS_MAX_NODES)
    ap.add_argument("--skip-done", action="store_true",
                    help="skip files whose expected JSON already exists")
    args = ap.parse_args()
    globals()["CCHESS_MAX_NODES"] = args.cchess_max_nodes
    # ../shared/corpus/xiangqi next to the checkout (as the Rust tests look for it),
    # or two levels up for a git worktree under <work>/wt/<name>.
    up1 = os.path.join(os.path.dirname(REPO), "shared", "corpus", "xiangqi")
    up2 = os.path.join(os.path.dirname(os.path.dirname(REPO)), "shared", "corpus", "xiangqi")
    roots = args.root + [CORPUS, up1, up2]
    if os.environ.get("KYPHU_XQ_EXTERNAL"):
        roots.insert(0, os.environ["KYPHU_XQ_EXTERNAL"])
    for folder, fmt, lic, copyable, files in SOURCES:
        base = find_folder(folder, roots)
        if base is None:
            print(f"skip {folder}: not found under {roots}", file=sys.stderr)
            continue
        for rel in files or list_files(base, fmt):
            key = f"{folder}/{rel}"
            if args.only and args.only not in key:
                continue
            out = os.path.join(CORPUS, "expected", folder, rel + ".json")
            if args.skip_done and (any(os.path.exists(out + e) for e in ("", ".gz", ".bz2"))):
                continue
            t = time.time()
            rec = process(os.path.join(base, rel), fmt)
            rec.update({"source": folder, "path": rel, "licence": lic, "copyable": copyable})
            text = json.dumps(rec, ensure_ascii=False, indent=1)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            for old in (out, out + ".gz", out + ".bz2"):
                if os.path.exists(old):
                    os.remove(old)
            if len(text) > 256 * 1024:
                # Large trees: compact JSON, bzip2 (kyphu already depends on the
                # bzip2 crate); about 0.4 MB for 200,000 moves with comments.
                compact = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
                with open(out + ".bz2", "wb") as f:
                    f.write(bz2.compress(compact.encode(), 9))
                out += ".bz2"
            else:
                with open(out, "w") as f:
                    f.write(text + "\n")
            gs = rec["games"]
            cch = ("-" if rec["format"] != "xqf" or not gs else
                   "agrees" if gs[0]["cchess"]["agrees"] else
                   "fails" if "error" in gs[0]["cchess"] else "differs")
            print(f"{key}: {len(gs)} games, {sum(g['counts']['nodes'] for g in gs)} moves, "
                  f"illegal {sum(len(g['illegal']) for g in gs)}, cchess {cch} "
                  f"({time.time() - t:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
