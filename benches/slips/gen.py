#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Slip benchmark generator: real games -> typed scoresheets with seeded slips.

    python3 benches/slips/gen.py [--seed 27] [--out benches/slips/out]
        [--corpus-games 100] [--bench-games 200] [--illegible ?]

Writes OUT/sheets/NNNN.pgn or NNNN.csv (the typed sheet), OUT/sheets/NNNN.truth.json
(the true game and every slip), OUT/selection.tsv (where each game came from) and
OUT/manifest.json. The model is documented in README.md; every random choice comes
from one random.Random(seed), so a seed gives the same files byte for byte.
"""

from __future__ import annotations

import argparse
import io
import logging
import json
import os
import random
import subprocess
import sys

import chess
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sheet as sh  # noqa: E402

CORPUS = os.environ.get("KYPHU_CORPUS", "/work/shared/corpus")
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
# Real-game folders of the shared corpus (handmade-probes is not real data).
CORPUS_DIRS = ["chess"]
CORPUS_EXCLUDE = ("handmade-probes", "reduced-notation")
CORPUS_STRIDE = 11
CORPUS_FILE_CAP = 10  # at most this many games from one corpus file
BENCH = os.path.join(CORPUS, "bench", "bench.pgn.zst")
BENCH_STRIDE = 53
MIN_PLIES, MAX_PLIES = 20, 160

# Slips per sheet: P(k) for k = 0..5.
COUNT_DIST = [0.20, 0.25, 0.20, 0.15, 0.10, 0.10]

# Slip kinds and their weights (relative frequency among slips).
KINDS = {
    "mirror": 14,  # Black writes the rank from his own side: e5 -> e4
    "hw-1l7": 8,  # handwriting 1/l/7: Nf1 -> Nfl, a7 -> a1
    "hw-6b": 6,  # 6/b: d6 -> db, b4 -> 64
    "hw-0O": 4,  # 0/O in castling: 0-0 -> O-0
    "hw-38": 5,  # 3/8
    "hw-5S": 4,  # 5/S: e5 -> eS, German Sf3 -> 5f3
    "hw-ce": 6,  # file c/e
    "hw-gq": 4,  # file g -> q
    "piece": 12,  # another piece's letter of the same language: Nf3 -> Bf3
    "capture-missing": 8,  # Nxe5 -> Ne5, exd5 -> ed5
    "capture-extra": 5,  # Nf3 -> Nxf3 (nothing taken)
    "omit": 8,  # a half-move left out: later moves shift columns
    "swap": 6,  # two moves of one side written in the wrong order (ply p, p+2)
    "illegible": 10,  # an unreadable cell, typed as the --illegible token
}
HW = {
    "hw-1l7": {"1": ["l", "l", "7"], "7": ["1"], "l": ["1"]},
    "hw-6b": {"6": ["b"], "b": ["6"]},
    "hw-38": {"3": ["8"], "8": ["3"]},
    "hw-5S": {"5": ["S"], "S": ["5"]},
    "hw-ce": {"c": ["e"], "e": ["c"]},
    "hw-gq": {"g": ["q"]},
    "hw-0O": {"0": ["O"], "O": ["0"]},
}
MIN_GAP = 3  # plies between two slips (each slip's plies +- this stay free)
CSV_SHARE = 0.3  # share of sheets typed as scoresheet CSV
CHECKS_OMITTED = 0.2  # share of sheets whose writer leaves out + and #


def qualifies(game: chess.pgn.Game) -> list[chess.Move] | None:
    h = game.headers
    if "FEN" in h or "SetUp" in h:
        return None
    if h.get("Variant", "Standard").lower() not in ("standard", "chess", ""):
        return None
    if game.errors:
        return None
    moves = list(game.mainline_moves())
    if not MIN_PLIES <= len(moves) <= MAX_PLIES:
        return None
    b = chess.Board()
    for m in moves:
        if m not in b.legal_moves:
            return None
        b.push(m)
    return moves


def result_of(game: chess.pgn.Game) -> str:
    r = game.headers.get("Result", "*")
    return r if r in ("1-0", "0-1", "1/2-1/2") else "*"


def scan(stream, source: str, stride: int, want: int, seen: set, out: list):
    """Every `stride`-th game of the stream (0, stride, 2*stride, ...), the first
    `want` that qualify."""
    index = 0
    got = 0
    while got < want:
        if index % stride == 0:
            try:
                game = chess.pgn.read_game(stream)
            except Exception:  # a broken file of the corpus: skip the game
                game = None
                index += 1
                continue
            if game is None:
                break
            moves = qualifies(game)
            if moves:
                key = " ".join(m.uci() for m in moves)
                if key not in seen:
                    seen.add(key)
                    out.append(
                        {
                            "source": source,
                            "index": index,
                            "white": game.headers.get("White", "?"),
                            "black": game.headers.get("Black", "?"),
                            "event": game.headers.get("Event", "?"),
                            "result": result_of(game),
                            "moves": moves,
                        }
                    )
                    got += 1
        else:
            try:
                if chess.pgn.skip_game(stream) is False:
                    break
            except Exception:
                pass
        index += 1
    return got


def select_games(n_corpus: int, n_bench: int) -> list[dict]:
    seen: set = set()
    games: list[dict] = []
    files = []
    for d in CORPUS_DIRS:
        for root, _dirs, names in os.walk(os.path.join(CORPUS, d)):
            for name in names:
                p = os.path.join(root, name)
                if name.endswith(".pgn") and not any(x in p for x in CORPUS_EXCLUDE):
                    files.append(p)
    files.sort()
    # one stream over the sorted files, so the stride runs across them
    left = n_corpus
    counter = 0
    for p in files:
        if left <= 0:
            break
        with open(p, encoding="utf-8", errors="replace") as f:
            rel = os.path.relpath(p, CORPUS)
            # offset the stride so that it continues across files
            buf = []
            got = scan_file(f, rel, CORPUS_STRIDE, min(left, CORPUS_FILE_CAP), seen, buf, counter)
            counter = got[1]
            games.extend(buf)
            left -= got[0]
    proc = subprocess.Popen(["zstd", "-dc", BENCH], stdout=subprocess.PIPE)
    stream = io.TextIOWrapper(proc.stdout, encoding="utf-8", errors="replace")
    buf = []
    scan(stream, "bench/bench.pgn.zst", BENCH_STRIDE, n_bench, seen, buf)
    proc.kill()
    proc.wait()
    games.extend(buf)
    return games


def scan_file(f, rel, stride, want, seen, out, counter):
    """As scan, with a game counter that runs on across the corpus files."""
    got = 0
    index = 0
    while got < want:
        take = counter % stride == 0
        counter += 1
        if take:
            try:
                game = chess.pgn.read_game(f)
            except Exception:
                index += 1
                continue
            if game is None:
                break
            moves = qualifies(game)
            if moves:
                key = " ".join(m.uci() for m in moves)
                if key not in seen:
                    seen.add(key)
                    out.append(
                        {
                            "source": rel,
                            "index": index,
                            "white": game.headers.get("White", "?"),
                            "black": game.headers.get("Black", "?"),
                            "event": game.headers.get("Event", "?"),
                            "result": result_of(game),
                            "moves": moves,
                        }
                    )
                    got += 1
        else:
            try:
                if chess.pgn.skip_game(f) is False:
                    break
            except Exception:
                pass
        index += 1
    return got, counter


# ---------------------------------------------------------------------------


def applicable(kind: str, ply: int, parts: list[sh.Parts], texts: list[str]) -> bool:
    n = len(texts)
    p = parts[ply - 1]
    t = texts[ply - 1]
    if kind == "mirror":
        return ply % 2 == 0 and p.castle is None
    if kind in HW:
        if kind == "hw-0O":
            return p.castle is not None
        return any(c in HW[kind] for c in t)
    if kind == "piece":
        return p.castle is None and p.piece != ""
    if kind == "capture-missing":
        return p.capture and p.castle is None
    if kind == "capture-extra":
        return (not p.capture) and p.castle is None and p.piece != ""
    if kind == "omit":
        return ply <= n - 2
    if kind == "swap":
        return ply + 2 <= n - 1 and texts[ply - 1] != texts[ply + 1]
    if kind == "illegible":
        return True
    raise ValueError(kind)


def written_for(kind: str, ply: int, parts: list[sh.Parts], texts: list[str], rng, lang):
    """The written token for a slip at `ply` (1-based) of kind `kind`."""
    p = parts[ply - 1]
    t = texts[ply - 1]
    if kind == "mirror":
        orig = (p.dest, p.disamb, p.from_sq)
        p.dest = p.dest[0] + str(9 - int(p.dest[1]))
        p.disamb = "".join(str(9 - int(c)) if c.isdigit() else c for c in p.disamb)
        p.from_sq = p.from_sq[0] + str(9 - int(p.from_sq[1]))
        out = p.text()
        p.dest, p.disamb, p.from_sq = orig
        return out
    if kind in HW:
        table = HW[kind]
        idx = [i for i, c in enumerate(t) if c in table]
        i = rng.choice(idx)
        return t[:i] + rng.choice(table[t[i]]) + t[i + 1:]
    if kind == "piece":
        others = [pt for pt in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
                  if pt != p.piece_type]
        orig = p.piece
        p.piece = sh.WRITER[lang][rng.choice(others)]
        out = p.text()
        p.piece = orig
        return out
    if kind == "capture-missing":
        orig = p.capture
        p.capture = False
        out = p.text()
        p.capture = orig
        return out
    if kind == "capture-extra":
        orig = p.capture
        p.capture = True
        out = p.text()
        p.capture = orig
        return out
    if kind == "omit":
        return ""
    if kind == "swap":
        return texts[ply + 1]
    raise ValueError(kind)


def make_sheet(num: int, g: dict, lang: str, rng: random.Random, illegible: str) -> tuple[str, str, dict]:
    style = dict(sh.LANG_STYLE[lang])
    style["checks"] = rng.random() >= CHECKS_OMITTED
    fmt = "csv" if rng.random() < CSV_SHARE else "pgn"
    board = chess.Board()
    parts, texts, sans, fens = [], [], [], []
    for m in g["moves"]:
        fens.append(board.fen())
        pa = sh.Parts(board, m, lang, style)
        parts.append(pa)
        texts.append(pa.text())
        sans.append(board.san(m))
        board.push(m)
    n = len(texts)
    k = rng.choices(range(len(COUNT_DIST)), weights=COUNT_DIST)[0]
    kinds = list(KINDS)
    weights = [KINDS[x] for x in kinds]
    taken: set[int] = set()
    slips = []
    tries = 0
    while len(slips) < k and tries < 200:
        tries += 1
        kind = rng.choices(kinds, weights=weights)[0]
        plies = [q for q in range(1, n + 1) if applicable(kind, q, parts, texts)]
        span = lambda q: [q, q + 2] if kind == "swap" else [q]  # noqa: E731
        plies = [q for q in plies if all(
            abs(x - y) > MIN_GAP for x in span(q) for y in taken)]
        if not plies:
            continue
        q = rng.choice(plies)
        if kind == "illegible":
            w = illegible
        else:
            w = written_for(kind, q, parts, texts, rng, lang)
        if kind != "omit" and w == texts[q - 1]:
            continue
        for x in span(q):
            taken.add(x)
        slips.append({"ply": q, "kind": kind, "written": w})
    slips.sort(key=lambda s: s["ply"])
    # the written cells
    cells = list(texts)
    for s in slips:
        q = s["ply"]
        if s["kind"] == "swap":
            cells[q - 1], cells[q + 1] = texts[q + 1], texts[q - 1]
        elif s["kind"] != "omit":
            cells[q - 1] = s["written"]
    omitted = {s["ply"] for s in slips if s["kind"] == "omit"}
    written_cells = [c for i, c in enumerate(cells) if (i + 1) not in omitted]
    # truth
    truth_slips = []
    for s in slips:
        q = s["ply"]
        b = chess.Board(fens[q - 1])
        m = g["moves"][q - 1]
        if s["kind"] == "omit":
            eff = sh.effect(b, texts[q], lang, m)  # the next move read in its place
        else:
            eff = sh.effect(b, s["written"], lang, m)
        before = sum(1 for o in omitted if o < q)
        plies = [q, q + 2] if s["kind"] == "swap" else [q]
        truth_slips.append(
            {
                "ply": q,
                "written_ply": q - before,
                "plies": plies,
                "kind": s["kind"],
                "written": s["written"],
                "meant": texts[q - 1],
                "meant_san": sans[q - 1],
                "meant_uci": m.uci(),
                "effect": eff,
            }
        )
    text = render_csv(written_cells, g["result"], lang) if fmt == "csv" else \
        render_pgn(written_cells, g["result"])
    truth = {
        "sheet": f"{num:04d}",
        "file": f"{num:04d}.{fmt}",
        "format": fmt,
        "lang": lang,
        "style": style,
        "source": {k2: g[k2] for k2 in ("source", "index", "white", "black", "event")},
        "result": g["result"],
        "moves": [
            {"ply": i + 1, "uci": m.uci(), "san": sans[i], "written_clean": texts[i],
             "fen_before": fens[i]}
            for i, m in enumerate(g["moves"])
        ],
        "slips": truth_slips,
    }
    return fmt, text, truth


def render_pgn(cells: list[str], result: str) -> str:
    toks = []
    for i, c in enumerate(cells):
        if i % 2 == 0:
            toks.append(f"{i // 2 + 1}.")
        toks.append(c)
    toks.append(result)
    lines, line = [], ""
    for t in toks:
        if line and len(line) + 1 + len(t) > 79:
            lines.append(line)
            line = t
        else:
            line = f"{line} {t}" if line else t
    lines.append(line)
    return "\n".join(lines) + "\n"


def render_csv(cells: list[str], result: str, lang: str) -> str:
    header = "TT,Trắng,Đen" if lang == "vi" else "move,white,black"
    rows = [header]
    cells = cells + [result]
    for i in range(0, len(cells), 2):
        w = cells[i]
        b = cells[i + 1] if i + 1 < len(cells) else ""
        rows.append(",".join([str(i // 2 + 1), csv_cell(w), csv_cell(b)]))
    return "\n".join(rows) + "\n"


def csv_cell(c: str) -> str:
    if any(x in c for x in ',"\n'):
        return '"' + c.replace('"', '""') + '"'
    return c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--out", default=os.path.join(sh.HERE, "out"))
    ap.add_argument("--corpus-games", type=int, default=100)
    ap.add_argument("--bench-games", type=int, default=200)
    ap.add_argument("--illegible", default="?", help="the token typed for an illegible cell")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = select_games(args.corpus_games, args.bench_games)
    sheets = os.path.join(args.out, "sheets")
    os.makedirs(sheets, exist_ok=True)
    for name in os.listdir(sheets):
        os.remove(os.path.join(sheets, name))
    # languages: each language equally often, in a seeded order
    langs = [sh.LANGS[i % len(sh.LANGS)] for i in range(len(games))]
    rng.shuffle(langs)
    with open(os.path.join(args.out, "selection.tsv"), "w", encoding="utf-8") as sel:
        sel.write("sheet\tsource\tgame_index\twhite\tblack\tplies\tresult\n")
        for num, (g, lang) in enumerate(zip(games, langs), start=1):
            fmt, text, truth = make_sheet(num, g, lang, rng, args.illegible)
            with open(os.path.join(sheets, truth["file"]), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            with open(os.path.join(sheets, f"{num:04d}.truth.json"), "w", encoding="utf-8") as f:
                json.dump(truth, f, ensure_ascii=False, indent=1)
                f.write("\n")
            sel.write(f"{num:04d}\t{g['source']}\t{g['index']}\t{g['white']}\t{g['black']}\t"
                      f"{len(g['moves'])}\t{g['result']}\n")
    manifest = {
        "seed": args.seed,
        "sheets": len(games),
        "corpus_games": args.corpus_games,
        "bench_games": args.bench_games,
        "illegible": args.illegible,
        "count_dist": COUNT_DIST,
        "kinds": KINDS,
    }
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"wrote {len(games)} sheets to {sheets}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
