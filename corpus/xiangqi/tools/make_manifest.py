"""Writes corpus/xiangqi/MANIFEST-xqf-dhtmlxq.md from expected/**.json(.gz).

kyphu corpus tools; MIT OR Apache-2.0. Usage: python3 make_manifest.py
"""

import bz2
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)

SOURCES = {
    "dhtmlxq/wukong-xiangqi-xqdb": dict(
        name="maksimKorzh/wukong-xiangqi, xqdb master games as DhtmlXQ pages",
        url="https://github.com/maksimKorzh/wukong-xiangqi",
        upstream="xqdb/games_html/*.html",
        commit="9ef8db735e78ec640a64d50240698087b44c5294",
        licence="MIT (Copyright (c) 2021 Maksym Korzh)",
        copy="**copied** into `corpus/xiangqi/dhtmlxq/wukong-xiangqi-xqdb/` with its licence "
             "(also in ../shared/corpus/xiangqi/wukong-xiangqi-xqdb/games_html/)"),
    "xqf/kyphu-made": dict(
        name="kyphu-made XQF files (written by `tools/xqf_write.py`)",
        url="(this repository)", upstream="-", commit="-",
        licence="MIT OR Apache-2.0 (kyphu); moves of two wukong xqdb games (MIT)",
        copy="ours, in `corpus/xiangqi/xqf/kyphu-made/`; versions 10, 11, 12, 18, "
             "variations (including an alternative first move), GB18030 comments, a "
             "Black-to-move study with pieces off the board, an empty game"),
    "dhtmlxq/kyphu-made": dict(
        name="kyphu-made DhtmlXQ pages (written by `tools/dhtmlxq_write.py`)",
        url="(this repository)", upstream="-", commit="-",
        licence="MIT OR Apache-2.0 (kyphu)",
        copy="ours, in `corpus/xiangqi/dhtmlxq/kyphu-made/`: the trees of three kyphu-made "
             "XQF files as DhtmlXQ, so each game must read exactly as its XQF source: "
             "`variations-utf8-bom.txt` = `v18-encrypted-variations.xqf` (UTF-8 with BOM, "
             "`[DhtmlXQiFrame]`, branches `move_a_b_c`, comments with `||`); "
             "`two-games-gbk.html` = `v18-encrypted-mainline.xqf` then "
             "`v18-study-black-to-move.xqf` (GBK page, two blocks, `binit` with `99`); "
             "`study-big5-iframe.html` = the study twice (Big5 page; a visible block and "
             "its copy in an iframe `name`)"),
    "walker8088-cchess": dict(
        name="walker8088/cchess test data (the PyPI `cchess` package's repository)",
        url="https://github.com/walker8088/cchess", upstream="tests/data/*.xqf",
        commit="0a17e69b0bfb2eb3861bf636c92288cc64ef0ead",
        licence="GPL-3.0 (repository LICENSE)",
        copy="**not copied** (GPL); read from `../shared/corpus/xiangqi/walker8088-cchess/` "
             "(present in the shared corpus); tests skip when absent"),
    "hbsxcjp-cchess_qt": dict(
        name="hbsxcjp/cchess_qt sample game files (棋谱文件)",
        url="https://github.com/hbsxcjp/cchess_qt",
        upstream="every `*.xqf`/`*.XQF` of the tree (root and 棋谱文件/)",
        commit="9875b8fc30a8bba54ae2b2964f3bfce932e8e3d4 (2022-06-11)",
        licence="none stated (no LICENSE file; README 学象棋Qt版)",
        copy="**not copied** (no licence); to be placed by the lead at "
             "`../shared/corpus/xiangqi/hbsxcjp-cchess_qt/` with the upstream paths "
             "(staged at /work/tgt/r26-ext/hbsxcjp-cchess_qt); tests skip when absent"),
    "xqbase-eleeye": dict(
        name="xqbase/eleeye (ElephantEye) XQF tools samples",
        url="https://github.com/xqbase/eleeye",
        upstream="XQFTOOLS/SAMPLE.XQF, XQFTOOLS/XQFEXAMA.XQF, XQFTOOLS/XQFEXAMB.XQF "
                 "(+ XQFTOOLS/SAMPLE.PGN, ElephantEye's own PGN of SAMPLE.XQF)",
        commit="a9d3914e596da93a150d74af8967edecc0810ef7 (2025-08-03)",
        licence="LGPL-2.1 (repository LICENSE)",
        copy="**not copied** (LGPL); to be placed at `../shared/corpus/xiangqi/xqbase-eleeye/` "
             "(staged at /work/tgt/r26-ext/xqbase-eleeye); tests skip when absent"),
    "fastlight126-vschess": dict(
        name="FastLight126/vschess (微思象棋播放器) demo game data",
        url="https://github.com/FastLight126/vschess",
        upstream="dhtmlxq.txt, dhtmlxq.html (commit d62eae41…); 0.xqf, 1.xqf (commit 36b48f05…)",
        commit="d62eae41ea06f45cd8f61d1ef91eb80c55057042; 36b48f05c09ac67e402b7adae320b8a8787418b6",
        licence="LGPL-3.0 (repository LICENSE)",
        copy="**not copied** (LGPL); to be placed at `../shared/corpus/xiangqi/fastlight126-vschess/` "
             "(staged at /work/tgt/r26-ext/fastlight126-vschess); tests skip when absent"),
}


def load(path):
    if path.endswith(".bz2"):
        with bz2.open(path, "rt") as f:
            return json.load(f)
    if path.endswith(".gz"):
        with gzip.open(path, "rt") as f:
            return json.load(f)
    with open(path) as f:
        return json.load(f)


def main():
    exp = os.path.join(CORPUS, "expected")
    rows = {}
    for d, _, fs in os.walk(exp):
        for f in fs:
            if f == "summary.json" or not f.endswith((".json", ".json.gz", ".json.bz2")):
                continue
            rec = load(os.path.join(d, f))
            rows.setdefault(rec["source"], []).append((rec, os.path.relpath(os.path.join(d, f), CORPUS)))
    out = ["# XQF and DhtmlXQ corpus manifest", "",
           "Generated by `tools/make_manifest.py` from `expected/`; regenerate both with",
           "`python3 tools/make_expected.py --root DIR` (DIR holding the external folders),",
           "`VSCHESS_JS=… python3 tools/add_vschess.py --root DIR`, then `python3 tools/make_manifest.py`. Every file, ours or external, with its expected",
           "reading (`expected/<source>/<path>.json`, `.json.bz2` when large; layout in",
           "`tools/game.py`). \"cchess\": how the independent reader (PyPI `cchess` 1.25.5)",
           "compares with our reference reading (XQF only; cchess does not read DhtmlXQ);",
           "\"vschess\": the same for the second independent reader, vschess (FastLight126/vschess,",
           "LGPL-3.0, run from a local checkout by `tools/add_vschess.py`), which reads both formats;",
           "\"illegal\": moves pyffish (Fairy-Stockfish 0.0.90) rejects. Tests must find an",
           "external folder under `../shared/corpus/xiangqi/` and skip with a note when absent.", "",
           "How a test uses an expected file: locate the data file (ours: `corpus/xiangqi/<source>/<path>`;",
           "external: `../shared/corpus/xiangqi/<source>/<path>`), read it with kyphu, turn each game",
           "into the same shape (start FEN with",
           "side to move; main line and variations as ICCS moves; a variation = parent line, absolute ply",
           "of its first move, moves; lines numbered in PGN order; comments by line and ply) and compare",
           "with `games[i]`: `fen`, `mainline`, `variations` (parent, ply, moves), `comments`, and the",
           "header fields. Where `illegal` is non-empty kyphu must report that move (and keep the rest);",
           "where cchess `differs`, the differences list says why (cchess drops illegal moves and comments",
           "that are not valid GB18030; our reading keeps them).", ""]
    hdr_len = len(out)
    total_files = total_games = total_nodes = 0
    for src in SOURCES:
        meta = SOURCES[src]
        rs = sorted(rows.get(src, []), key=lambda r: r[0]["path"])
        out += [f"## {src}", "",
                f"- {meta['name']}: {meta['url']}",
                f"- upstream path: {meta['upstream']}; commit {meta['commit']}",
                f"- licence: {meta['licence']}",
                f"- here: {meta['copy']}", ""]
        if not rs:
            out += ["(no expected readings yet: the folder was not found when make_expected.py ran)", ""]
            continue
        out += ["| file | fmt | ver/enc | bytes | sha256 (16) | games | plies (main) | moves | var. | comm. | cchess | vschess | illegal |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for rec, _ in rs:
            gs = rec["games"]
            ver = (str(gs[0]["header"].get("xqf_version", "")) if rec["format"] == "xqf" and gs
                   else rec.get("encoding", ""))
            cch = ""
            if rec["format"] == "xqf" and gs:
                c = gs[0]["cchess"]
                cch = "agrees" if c["agrees"] else ("fails: " + c["error"][:60] if "error" in c else
                                                     "differs: " + "; ".join(c["differences"])[:160])
            vsc = ""
            for g in gs:
                v = g.get("vschess")
                if v is None:
                    continue
                st = ("agrees" if v["agrees"] else "fails: " + v["error"][:60] if "error" in v
                      else "differs: " + "; ".join(v["differences"])[:160])
                if st != "agrees" or not vsc:
                    vsc = st
            if not gs:
                vsc = "0 games" if rec["format"] == "dhtmlxq" else vsc
            ill = "; ".join(f"line {p['line']} ply {p['ply']} {p['move']} ({p['why']})"
                            for g in gs for p in g["illegal"])[:200] or "0"
            plies = ",".join(str(len(g["mainline"])) for g in gs)
            out.append(f"| `{rec['path']}` | {rec['format']} | {ver} | {rec['bytes']} | "
                       f"{rec['sha256'][:16]} | {len(gs)} | {plies} | "
                       f"{sum(g['counts']['nodes'] for g in gs)} | "
                       f"{sum(g['counts']['variations'] for g in gs)} | "
                       f"{sum(g['counts']['comments'] for g in gs)} | {cch} | {vsc} | {ill} |")
            total_files += 1
            total_games += len(gs)
            total_nodes += sum(g["counts"]["nodes"] for g in gs)
        out.append("")
    out.insert(hdr_len, f"Totals: {total_files} files, {total_games} games, {total_nodes} moves "
                   "(nodes of all trees).")
    out.insert(hdr_len + 1, "")
    with open(os.path.join(CORPUS, "MANIFEST-xqf-dhtmlxq.md"), "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
