"""Readings by independent tools (kyphu corpus tools; MIT OR Apache-2.0).

- cchess_xqf(path): the XQF reading of the PyPI package `cchess`
  (walker8088/cchess, LGPL-3.0-or-later on PyPI), converted to the canonical
  form of game.py. Only imported and called, never copied.
- check_legality(game_json): replays every line of a canonical game with
  pyffish (Fairy-Stockfish, variant "xiangqi") and lists the illegal moves.
"""

from game import Game, Node


def cchess_xqf(path):
    import io
    import contextlib
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

    Replays every line with pyffish from the position where it branches off;
    a line is checked up to its first illegal move. pyffish.get_san_moves
    rejects any move that is not fully legal (including leaving the general
    in check or facing the other general), so one call checks a whole line;
    on failure a bisection finds the first bad move.
    """
    import pyffish as sf

    lines = {0: (None, 1, gj["mainline"])}
    for v in gj["variations"]:
        lines[v["id"]] = (v["parent"], v["ply"], v["moves"])
    start = {}  # line -> FEN before its first move (None if unknown)
    first_bad = {}  # line -> ply of its first illegal move (or None)
    problems = []

    def ok(fen, moves):
        try:
            sf.get_san_moves("xiangqi", fen, moves)
            return True
        except ValueError:
            return False

    for lid in sorted(lines):
        parent, ply, moves = lines[lid]
        if parent is None:
            fen = sf_fen(gj["fen"])
        else:
            pfen = start.get(parent)
            pparent, pply, pmoves = lines[parent]
            pbad = first_bad.get(parent)
            if pfen is None or (pbad is not None and pbad < ply):
                start[lid] = None
                first_bad[lid] = None
                problems.append({"line": lid, "ply": ply, "move": moves[0] if moves else "",
                                 "why": "not checked: its parent line is illegal before it"})
                continue
            prefix = [_sf_move(m) for m in pmoves[:ply - pply]]
            fen = sf.get_fen("xiangqi", pfen, prefix) if prefix else pfen
        start[lid] = fen
        first_bad[lid] = None
        shape_ok = [len(m) == 4 and m[1].isdigit() and m[3].isdigit() and m[0] in "abcdefghi"
                    and m[2] in "abcdefghi" for m in moves]
        n_ok = shape_ok.index(False) if False in shape_ok else len(moves)
        sfm = [_sf_move(m) for m in moves[:n_ok]]
        if ok(fen, sfm):
            bad = n_ok if n_ok < len(moves) else None
        else:
            lo, hi = 0, len(sfm)  # prefix of length lo is legal, of length hi is not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if ok(fen, sfm[:mid]):
                    lo = mid
                else:
                    hi = mid
            bad = lo
        if bad is not None:
            first_bad[lid] = ply + bad
            if bad >= n_ok:
                why = "not a board move"
            else:
                here = sf.get_fen("xiangqi", fen, sfm[:bad]) if bad else fen
                why = "illegal" if sf.legal_moves("xiangqi", here, []) else \
                    "illegal: the side to move has no legal move (game over)"
            problems.append({"line": lid, "ply": ply + bad, "move": moves[bad], "why": why})
    return problems
