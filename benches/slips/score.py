#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Slip benchmark scorer: runs kyphu on every generated sheet and scores its
diagnostics against the truth files (rules in README.md).

    python3 benches/slips/score.py [--kyphu PATH] [--out benches/slips/out]

Writes OUT/report.md (the tables, also printed), OUT/score.json and OUT/slips.csv
(one row per slip, for looking at single cases).
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sheet as sh  # noqa: E402

WINDOW = 1  # a diagnostic locates a slip when its ply is within this many plies


def run(cmd: list[str]) -> tuple[int, str, str]:
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def has_repair(kyphu: str) -> bool:
    _rc, out, err = run([kyphu, "convert", "--help"])
    return "--repair" in out + err


def read_candidate(fen: str, text: str, lang: str) -> tuple[chess.Move | None, bool]:
    """kyphu's candidate as a move: read in the sheet's letters or English, else in
    any other language's (the second value then says so)."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return None, False
    moves = sh.resolve(board, text, [lang, "en"])
    if moves and len(moves) == 1:
        return moves[0], False
    others = [x for x in sh.READER if x not in (lang, "en")]
    moves = sh.resolve(board, text, others)
    if moves and len(moves) == 1:
        return moves[0], True
    return None, False


def score_sheet(kyphu: str, sheets: str, truth: dict, repair: bool) -> dict:
    path = os.path.join(sheets, truth["file"])
    rc, out, err = run([kyphu, "check", "--format", "json", path])
    diags = []
    bad_lines = 0
    for line in out.splitlines():
        if not line.strip():
            continue
        try:
            diags.append(json.loads(line))
        except json.JSONDecodeError:
            bad_lines += 1
    alarms = [d for d in diags if d.get("severity") in ("error", "warning")]
    located_by = [d for d in alarms if isinstance(d.get("ply"), int)]
    lang = truth["lang"]
    moves = truth["moves"]
    fen_to_plies: dict[str, list[int]] = defaultdict(list)
    for m in moves:
        fen_to_plies[sh.fen_key(m["fen_before"])].append(m["ply"])

    used: set[int] = set()
    slips_out = []
    harmful_rank = 0
    for s in truth["slips"]:
        harmless = s["effect"] == "same"
        anchors = sorted({s["ply"], s["written_ply"], *s["plies"]})
        best = None
        for i, d in enumerate(located_by):
            if i in used and not harmless:
                continue
            dist = min(abs(d["ply"] - a) for a in anchors)
            if dist <= WINDOW and (best is None or dist < best[0]):
                best = (dist, i)
        rec = {
            "sheet": truth["sheet"],
            "lang": lang,
            "format": truth["format"],
            "kind": s["kind"],
            "effect": s["effect"],
            "ply": s["ply"],
            "written": s["written"],
            "meant": s["meant"],
            "harmless": harmless,
            "order": None,
            "located": False,
            "first": False,
            "top3": False,
            "code": "",
            "diag_ply": "",
            "candidates": "",
            "foreign_letters": False,
        }
        if not harmless:
            harmful_rank += 1
            rec["order"] = harmful_rank
        if best is not None:
            d = located_by[best[1]]
            if not harmless:
                used.add(best[1])
            rec["located"] = True
            rec["code"] = d.get("code", "")
            rec["diag_ply"] = d.get("ply")
            cands = d.get("candidates") or []
            rec["candidates"] = " ".join(cands)
            fen = d.get("fen")
            if fen:
                plies = [q for q in fen_to_plies.get(sh.fen_key(fen), []) if q in s["plies"]]
                if plies:
                    truth_uci = moves[plies[0] - 1]["uci"]
                    read = [read_candidate(fen, c, lang) for c in cands[:3]]
                    uci = [m.uci() if m else None for m, _ in read]
                    rec["foreign_letters"] = any(f for _, f in read)
                    rec["first"] = bool(uci) and uci[0] == truth_uci
                    rec["top3"] = truth_uci in uci
        slips_out.append(rec)

    harmful = [r for r in slips_out if not r["harmless"]]
    unmatched_errors = [
        d for i, d in enumerate(located_by) if i not in used and d.get("severity") == "error"
    ] + [d for d in alarms if not isinstance(d.get("ply"), int) and d.get("severity") == "error"]
    exact_proxy = all(r["first"] for r in harmful) and not unmatched_errors
    exact = None
    if repair:
        rc2, out2, _err2 = run([kyphu, "convert", "--repair", "--to", "json", path])
        try:
            game = json.loads(out2.splitlines()[0])
            got = [m["uci"] for m in game.get("moves", [])]
            exact = got == [m["uci"] for m in moves]
        except (json.JSONDecodeError, IndexError, KeyError, TypeError):
            exact = False
    return {
        "sheet": truth["sheet"],
        "lang": lang,
        "format": truth["format"],
        "checks": truth["style"]["checks"],
        "n_slips": len(truth["slips"]),
        "clean": len(truth["slips"]) == 0,
        "alarms": [f"{d.get('severity')}:{d.get('code')}" for d in alarms],
        "exit": rc,
        "bad_json_lines": bad_lines,
        "exact": exact if repair else exact_proxy,
        "slips": slips_out,
    }


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "–"


def slip_row(name: str, rows: list[dict]) -> str:
    harmful = [r for r in rows if not r["harmless"]]
    harmless = [r for r in rows if r["harmless"]]
    n = len(harmful)
    loc = sum(r["located"] for r in harmful)
    first = sum(r["first"] for r in harmful)
    top3 = sum(r["top3"] for r in harmful)
    flagged = sum(r["located"] for r in harmless)
    return (f"| {name} | {n} | {loc} ({pct(loc, n)}) | {first} ({pct(first, n)}) | "
            f"{top3} ({pct(top3, n)}) | {len(harmless)} | {flagged} |")


SLIP_HEAD = ("| | slips to find | located | true move first | true move in first 3 | "
             "harmless slips | harmless flagged |\n|---|---|---|---|---|---|---|")


def sheet_row(name: str, sheets: list[dict]) -> str:
    slipped = [s for s in sheets if not s["clean"]]
    clean = [s for s in sheets if s["clean"]]
    exact = sum(bool(s["exact"]) for s in slipped)
    fa = sum(bool(s["alarms"]) for s in clean)
    return (f"| {name} | {len(sheets)} | {len(slipped)} | {exact} ({pct(exact, len(slipped))}) | "
            f"{len(clean)} | {fa} ({pct(fa, len(clean))}) |")


SHEET_HEAD = ("| | sheets | with slips | reconstructed exactly | clean sheets | "
              "false alarms |\n|---|---|---|---|---|---|")


def report(results: list[dict], repair: bool, kyphu: str, manifest: dict) -> str:
    rows = [r for s in results for r in s["slips"]]
    out = []
    out.append(f"kyphu: `{kyphu}`; seed {manifest.get('seed')}; {len(results)} sheets, "
               f"{len(rows)} slips ({sum(not r['harmless'] for r in rows)} to find, "
               f"{sum(r['harmless'] for r in rows)} harmless).")
    out.append("Reconstructed exactly: " + (
        "`kyphu convert --repair --to json` gives the true game move for move." if repair else
        "`--repair` not available: proxy = every slip to find has the true move as the "
        "first candidate of its diagnostic, and no other error."))
    out.append("")
    out.append("### Slips (overall, by kind, by effect, by position in the sheet)")
    out.append("")
    out.append(SLIP_HEAD)
    out.append(slip_row("**all**", rows))
    for kind in manifest.get("kinds", {}):
        sub = [r for r in rows if r["kind"] == kind]
        if sub:
            out.append(slip_row(kind, sub))
    for eff in ("illegal", "unreadable", "ambiguous", "other-legal"):
        sub = [r for r in rows if r["effect"] == eff]
        if sub:
            out.append(slip_row(f"effect: {eff}", sub))
    out.append(slip_row("1st slip to find of its sheet", [r for r in rows if r["order"] == 1]))
    out.append(slip_row("2nd and later", [r for r in rows if (r["order"] or 0) >= 2]))
    out.append("")
    out.append("### Slips by language and sheet format")
    out.append("")
    out.append(SLIP_HEAD)
    for lang in sh.LANGS:
        out.append(slip_row(lang, [r for r in rows if r["lang"] == lang]))
    for fmt in ("pgn", "csv"):
        out.append(slip_row(fmt, [r for r in rows if r["format"] == fmt]))
    out.append("")
    out.append("### Sheets")
    out.append("")
    out.append(SHEET_HEAD)
    out.append(sheet_row("**all**", results))
    for lang in sh.LANGS:
        out.append(sheet_row(lang, [s for s in results if s["lang"] == lang]))
    for fmt in ("pgn", "csv"):
        out.append(sheet_row(fmt, [s for s in results if s["format"] == fmt]))
    out.append(sheet_row("check signs written", [s for s in results if s["checks"]]))
    out.append(sheet_row("check signs left out", [s for s in results if not s["checks"]]))
    for k in range(6):
        sub = [s for s in results if s["n_slips"] == k]
        if sub:
            out.append(sheet_row(f"{k} slips", sub))
    fa = Counter(a for s in results if s["clean"] for a in set(s["alarms"]))
    out.append("")
    out.append("False alarms on clean sheets, by diagnostic (sheets): " + (
        ", ".join(f"`{k}` {v}" for k, v in fa.most_common()) or "none"))
    foreign = sum(r["foreign_letters"] for r in rows)
    out.append(f"Slips whose candidates are written in another language's letters than "
               f"the sheet's (and not English): {foreign}")
    bad = sum(s["bad_json_lines"] for s in results)
    if bad:
        out.append(f"Lines of kyphu's JSON output that did not parse: {bad}")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kyphu", default=os.environ.get("KYPHU", "kyphu"))
    ap.add_argument("--out", default=os.path.join(sh.HERE, "out"))
    ap.add_argument("--no-repair", action="store_true", help="score by the proxy even when --repair exists")
    args = ap.parse_args()
    sheets = os.path.join(args.out, "sheets")
    with open(os.path.join(args.out, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    repair = has_repair(args.kyphu) and not args.no_repair
    results = []
    for tpath in sorted(glob.glob(os.path.join(sheets, "*.truth.json"))):
        with open(tpath, encoding="utf-8") as f:
            truth = json.load(f)
        results.append(score_sheet(args.kyphu, sheets, truth, repair))
    text = report(results, repair, args.kyphu, manifest)
    print(text)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "score.json"), "w", encoding="utf-8") as f:
        json.dump({"repair": repair, "manifest": manifest, "sheets": results}, f, ensure_ascii=False, indent=1)
    with open(os.path.join(args.out, "slips.csv"), "w", encoding="utf-8", newline="") as f:
        rows = [r for s in results for r in s["slips"]]
        if rows:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
