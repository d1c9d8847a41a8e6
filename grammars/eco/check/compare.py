#!/usr/bin/env python3
"""Classify the games of a PGN file with the lichess table by position, and compare with
the ECO tags the file has and with pgn-extract's `-e` classification (its own table).

Ours (MIT OR Apache-2.0). Needs python-chess and, for the third column, pgn-extract
(Debian package `pgn-extract`, run separately, see README.md):

    pgn-extract -e/usr/share/pgn-extract/eco.pgn -s -o OUT.pgn IN.pgn
    python3 grammars/eco/check/compare.py IN.pgn OUT.pgn > result.tsv

Lichess classification: replay the main line; the deepest ply whose position (python-chess
EPD, en passant only when legal) is in grammars/eco/positions.tsv names the opening.
Games are matched between the two files by (White, Black, Date, Round, Event, ply count).
"""
import collections
import pathlib
import sys

import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent.parent


def load_positions():
    pos = {}
    with open(HERE / "positions.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            eco, name, _uci, epd, _plies = line.rstrip("\n").split("\t")
            pos[epd] = (eco, name)
    return pos


def games(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return
            yield g


def key(g, plies):
    h = g.headers
    return (h.get("White"), h.get("Black"), h.get("Date"), h.get("Round"), h.get("Event"), plies)


def main():
    pos = load_positions()
    src, px = sys.argv[1], sys.argv[2]
    pxeco = collections.defaultdict(list)
    for g in games(px):
        n = sum(1 for _ in g.mainline_moves())
        pxeco[key(g, n)].append(g.headers.get("ECO", ""))
    print("index\tplies\ttag_eco\tpgn_extract_eco\tlichess_eco\tlichess_ply\tlichess_name")
    stats = collections.Counter()
    for i, g in enumerate(games(src), 1):
        b = g.board()
        best = ("", "", 0)
        n = 0
        for mv in g.mainline_moves():
            b.push(mv)
            n += 1
            hit = pos.get(b.epd())
            if hit:
                best = (hit[0], hit[1], n)
        k = key(g, n)
        p = pxeco[k].pop(0) if pxeco.get(k) else ""
        t = g.headers.get("ECO", "")
        print(f"{i}\t{n}\t{t}\t{p}\t{best[0]}\t{best[2]}\t{best[1]}")
        stats["games"] += 1
        if best[0]:
            stats["lichess classified"] += 1
        if p:
            stats["pgn-extract classified"] += 1
        if p and best[0]:
            stats["both"] += 1
            stats["lichess = pgn-extract"] += p == best[0]
            stats["same volume (letter)"] += p[0] == best[0][0]
        if t and best[0]:
            stats["lichess = tag"] += t == best[0]
            stats["tag and lichess"] += 1
    for k, v in stats.items():
        print(f"{k}: {v}", file=sys.stderr)


if __name__ == "__main__":
    main()
