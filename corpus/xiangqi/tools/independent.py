"""Readings by independent tools (kyphu corpus tools; MIT OR Apache-2.0).

- cchess_xqf(path): the XQF reading of the PyPI package `cchess`
  (walker8088/cchess, LGPL-3.0-or-later on PyPI), converted to the canonical
  form of game.py. Only imported and called, never copied.
- check_legality(game_json): replays every line of a canonical game with
  pyffish (Fairy-Stockfish, variant "xiangqi") and lists the illegal moves.
"""

import sys

from game import Game, Node


def cchess_xqf(path):
    import io
    import contextlib
    import cchess
    from cchess.read_xqf import read_from_xqf

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        g = read_from_xqf(path)
    if g is None:
        raise ValueError("cchess: not an XQF file")
    info = g.info
    root = Node(None)
    root.comment = g.annote

    def conv(move, parent_node):
        n = Node(move.to_iccs())
        n.comment = move.annote
        parent_node.children.append(n)
        return n

    if g.first_move is not None:
        stack = [(m, root) for m in reversed(g.first_move.get_siblings(include_me=True))]
        while stack:
            m, par = stack.pop()
            n = conv(m, par)
            kids = m.get_children()
            for k in reversed(kids):
                stack.append((k, n))
    fen = " ".join(g.init_board.to_fen().split(" ")[:2])
    header = {}
    for k in ("red", "black", "title", "event", "result"):
        if k in info:
            header[k] = info[k]
    out = Game(header, fen, root)
    printed = buf.getvalue().strip()
    if printed:
        out.notes.append("cchess printed: " + printed)
    return out


def _sf_move(iccs):
    # ICCS ranks are 0-9; Fairy-Stockfish's xiangqi ranks are 1-10.
    return iccs[0] + str(int(iccs[1]) + 1) + iccs[2] + str(int(iccs[3]) + 1)


def sf_fen(fen):
    board, side = fen.split(" ")[:2]
    return f"{board} {side} - - 0 1"


def check_legality(gj):
    """Returns a list of {"line", "ply", "move", "why"} for illegal moves.

    Checks every line; a line stops being checked at its first illegal move.
    """
    import pyffish as sf

    lines = {0: (None, 1, gj["mainline"])}
    for v in gj["variations"]:
        lines[v["id"]] = (v["parent"], v["ply"], v["moves"])
    # FEN before each ply of each line, computed on demand.
    fen_cache = {}
    bad = {}
    problems = []

    def fens_of(lid):
        if lid in fen_cache:
            return fen_cache[lid]
        parent, ply, moves = lines[lid]
        if parent is None:
            start = sf_fen(gj["fen"])
        else:
            pf = fens_of(parent)
            start = pf.get(ply)
        out = {}
        fen = start
        for k, mv in enumerate(moves):
            p = ply + k
            out[p] = fen
            if fen is None:
                break
            legal = sf.legal_moves("xiangqi", fen, [])
            if not all(c.isalnum() for c in mv) or len(mv) != 4:
                problems.append({"line": lid, "ply": p, "move": mv, "why": "not a board move"})
                fen = None
                continue
            m = _sf_move(mv)
            if m not in legal:
                why = "no legal moves (game over)" if not legal else "illegal"
                problems.append({"line": lid, "ply": p, "move": mv, "why": why})
                fen = None
                continue
            fen = sf.get_fen("xiangqi", fen, [m])
        out[ply + len(moves)] = fen
        fen_cache[lid] = out
        return out

    sys.setrecursionlimit(100000)
    for lid in sorted(lines):
        fens_of(lid)
    del bad
    return problems
