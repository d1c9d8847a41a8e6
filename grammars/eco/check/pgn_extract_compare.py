#!/usr/bin/env python3
"""Why `kyphu convert --add-eco` (lichess table: the deepest named position of the main
line) and `pgn-extract -e` (its eco.pgn: the deepest named position within six plies of
the table line's length) give different ECO codes (issue 28; docs/cli.md).

    pgn-extract -e/usr/share/pgn-extract/eco.pgn -s games.pgn -o pe.pgn
    kyphu convert --add-eco games.pgn -o ky.pgn
    python3 grammars/eco/check/pgn_extract_compare.py pe.pgn ky.pgn [eco.pgn]

Needs python-chess. Prints the agreement, each kind of difference with an example, and
how often each rule reimplemented here gives each program's code.
"""
import collections
import sys

import chess.pgn

HERE = __file__.rsplit("/", 1)[0]
pe_path, ky_path = sys.argv[1], sys.argv[2]
eco_path = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/pgn-extract/eco.pgn"

lichess = {}
for row in open(f"{HERE}/../positions.tsv", encoding="utf-8").read().splitlines()[1:]:
    c = row.split("\t")
    lichess.setdefault(c[3], (c[0], int(c[4])))
ecopgn = {}
with open(eco_path, encoding="latin-1") as f:
    while (g := chess.pgn.read_game(f)) is not None:
        b = g.board()
        n = 0
        for mv in g.mainline_moves():
            b.push(mv)
            n += 1
        ecopgn.setdefault(b.epd(), (g.headers.get("ECO"), n))


def key(h):
    return tuple(h.get(t) for t in ("White", "Black", "Date", "Round", "Event"))


kyphu = {}
with open(ky_path, encoding="utf-8") as f:
    while (h := chess.pgn.read_headers(f)) is not None:
        kyphu[key(h)] = h.get("ECO")

games = same = letter = rule_pe = rule_ky = 0
reasons = collections.Counter()
example = {}
with open(pe_path, encoding="utf-8", errors="replace") as f:
    while (g := chess.pgn.read_game(f)) is not None:
        k = key(g.headers)
        if k not in kyphu:
            continue
        games += 1
        pcode, kcode = g.headers.get("ECO"), kyphu[k]
        b = g.board()
        kd = pd = (0, None, None)
        sans = []
        for ply, mv in enumerate(g.mainline_moves(), 1):
            sans.append(b.san(mv))
            b.push(mv)
            e = b.epd()
            if e in lichess:
                kd = (ply, e, lichess[e][0])
            if e in ecopgn and abs(ply - ecopgn[e][1]) <= 6:
                pd = (ply, e, ecopgn[e][0])
        rule_pe += pd[2] == pcode
        rule_ky += kd[2] == kcode
        if pcode == kcode:
            same += 1
            letter += 1
            continue
        letter += (pcode or "?")[:1] == (kcode or "!")[:1]
        if kd[1] == pd[1]:
            r = "same position, coded differently by the two tables"
        elif kd[0] > pd[0]:
            r = "the lichess table names a deeper position"
        else:
            r = "eco.pgn names a deeper position"
        reasons[r] += 1
        example.setdefault(r, (pcode, kcode, " ".join(sans[: max(kd[0], pd[0])])))
print(f"{games} games: same code {same}, same letter {letter}, different {games - same}")
for r, n in reasons.most_common():
    print(f"  {n} {r}: e.g. pgn-extract {example[r][0]}, kyphu {example[r][1]} after {example[r][2]}")
print(f"rules reimplemented: pgn-extract's code {rule_pe}/{games}, kyphu's {rule_ky}/{games}")
