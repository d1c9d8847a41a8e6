"""Reference DhtmlXQ / UBB reader (kyphu corpus tools; MIT OR Apache-2.0).

Written for kyphu from the format description in docs/formats.md (XQF and DhtmlXQ sections);
no code from other projects. Reads every [DhtmlXQ]...[/DhtmlXQ] (or
[DhtmlXQiFrame]...[/DhtmlXQiFrame]) block of a text or HTML page into the
canonical game dictionary of game.py, keeping the moves exactly as written
(no legality filtering; legality.py checks them).

Usage: python3 dhtmlxq.py FILE   -> prints a JSON list, one entry per block
"""

import json
import re
import sys
import urllib.parse

from game import Game, Node

BLOCK = re.compile(r"\[(DhtmlXQ|DhtmlXQiFrame)\](.*?)\[/\1\]", re.S)
TAG = re.compile(r"\[DhtmlXQ_([A-Za-z0-9_]+)\](.*?)\[/DhtmlXQ_([A-Za-z0-9_]+)\]", re.S)
MOVE_KEY = re.compile(r"move_(\d+)_(\d+)_(\d+)$")
COMMENT_KEY = re.compile(r"comment(?:(\d+)_)?(\d+)$")

# binit slot order: Red R N B A K A B N R C C P P P P P, then Black the same.
SLOT_PIECES = "RNBAKABNRCCPPPPP"
START_BINIT = "8979695949392919097717866646260600102030405060708012720323436383"


RESULTS = {"W": "1-0", "L": "0-1", "D": "1/2-1/2",
           "红胜": "1-0", "紅勝": "1-0", "红方胜": "1-0", "紅方勝": "1-0",
           "黑胜": "0-1", "黑勝": "0-1", "黑方胜": "0-1", "黑方勝": "0-1",
           "和棋": "1/2-1/2", "和局": "1/2-1/2", "和": "1/2-1/2"}


def decode_bytes(raw):
    """Page bytes -> (text, encoding name). UTF-8 (with or without BOM) first,
    then GB18030; Big5 pages decode as GB18030 garbage, so a page that has a
    charset=big5 meta tag is decoded as Big5."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace"), "utf-8-bom"
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if re.search(rb"charset\s*=\s*[\"']?big5", raw, re.I):
        return raw.decode("big5", errors="replace"), "big5"
    return raw.decode("gb18030", errors="replace"), "gb18030"


def square(x, y):
    """DhtmlXQ column x (0-8, a-i) and row y (0-9 from Black's side) -> ICCS."""
    return "abcdefghi"[x] + str(9 - y)


def parse_moves(digits, notes, where):
    moves = []
    s = re.sub(r"\s+", "", digits)
    if len(s) % 4:
        notes.append(f"{where}: {len(s)} digits, not a multiple of 4; last {len(s) % 4} ignored")
    for i in range(0, len(s) - len(s) % 4, 4):
        q = s[i:i + 4]
        if not q.isdigit():
            notes.append(f"{where}: non-digit group {q!r} at {i}")
            moves.append("?" + q)
            continue
        x1, y1, x2, y2 = (int(c) for c in q)
        if x1 > 8 or x2 > 8:
            notes.append(f"{where}: column 9 in {q!r}")
            moves.append("?" + q)
            continue
        moves.append(square(x1, y1) + square(x2, y2))
    return moves


def binit_fen(binit, notes):
    b = re.sub(r"\s+", "", binit)
    if len(b) != 64 or not b.isdigit():
        notes.append(f"binit has {len(b)} characters, expected 64 digits; standard start used")
        b = START_BINIT
    grid = [[None] * 9 for _ in range(10)]
    for i in range(32):
        x, y = int(b[2 * i]), int(b[2 * i + 1])
        if x > 8:  # "99": piece not on the board
            continue
        letter = SLOT_PIECES[i % 16]
        if grid[y][x] is not None:
            notes.append(f"binit: two pieces on column {x} row {y}")
        grid[y][x] = letter if i < 16 else letter.lower()
    rows = []
    for y in range(10):  # DhtmlXQ row 0 is Black's back rank = FEN's first row
        row, empty = "", 0
        for x in range(9):
            p = grid[y][x]
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows), grid


def fen_grid(board):
    grid = []
    for row in board.split("/"):
        r = []
        for ch in row:
            r.extend([None] * int(ch) if ch.isdigit() else [ch])
        grid.append((r + [None] * 9)[:9])
    return (grid + [[None] * 9] * 10)[:10]


def read_block(body):
    notes = []
    tags = {}
    for m in TAG.finditer(body):
        name, value, close = m.group(1), m.group(2), m.group(3)
        if close != name:
            notes.append(f"tag {name} closed by {close}")
        if name in tags:
            notes.append(f"tag {name} repeated; first kept")
            continue
        tags[name] = value
    header = {}
    branches = {}
    comments = {}
    for name, value in tags.items():
        mk = MOVE_KEY.match(name)
        ck = COMMENT_KEY.match(name)
        if mk:
            branches[int(mk.group(3))] = (int(mk.group(1)), int(mk.group(2)), value)
        elif ck and name.startswith("comment"):
            comments[(int(ck.group(1) or 0), int(ck.group(2)))] = value
        elif name in ("movelist", "binit", "fen"):
            continue
        else:
            header[name] = urllib.parse.unquote(value) if name == "refer" else value
    if "result" in header:
        # Our normalisation (not a field of the format): W/L/D as in the
        # wxf.ca pages, Chinese text as in dpxq pages; anything else "*".
        header["result_pgn"] = RESULTS.get(header["result"].strip(), "*")
    binit = tags.get("binit", "").strip() or START_BINIT
    if not tags.get("binit", "").strip():
        notes.append("no binit: standard start position")
    board, grid = binit_fen(binit, notes)
    if tags.get("fen", "").strip():
        # A FEN tag, where present, overrides binit.
        header["fen"] = tags["fen"].strip()
        board = header["fen"].split(" ")[0]
        grid = fen_grid(board)

    lines = {0: (None, 1, parse_moves(tags.get("movelist", ""), notes, "movelist"))}
    for c, (a, b, v) in sorted(branches.items()):
        lines[c] = (a, b, parse_moves(v, notes, f"move_{a}_{b}_{c}"))

    # Build the tree: line c hangs below the node of line a at ply b-1.
    root = Node(None)
    at = {}  # (line, ply) -> node ; ply 0 of line 0 is the root
    attached = set()

    def attach(lid, parent_node, ply, moves):
        n = parent_node
        for k, mv in enumerate(moves):
            child = Node(mv)
            n.children.append(child)
            n = child
            at[(lid, ply + k)] = n
        return

    at[(0, 0)] = root
    attach(0, root, 1, lines[0][2])

    def parent_of(a, b):
        """The node after which line a plays ply b (ply b-1 of line a, or of
        the line it inherits that ply from)."""
        if b == 1:
            return root
        aa = a
        while aa in lines:
            n = at.get((aa, b - 1))
            if n is not None:
                return n
            pa, pb, _ = lines[aa]
            if pa is None or b - 1 >= pb:
                return None
            aa = pa
        return None

    # Branches in number order; one whose parent line is not attached yet is
    # retried after the others (a branch may hang below a later-numbered one).
    pending = [c for c in sorted(lines) if c != 0]
    while pending:
        progress, later = False, []
        for c in pending:
            a, b, moves = lines[c]
            if not moves:
                notes.append(f"branch {c} is empty")
                progress = True
                continue
            if a != 0 and a in pending and a not in attached:
                later.append(c)
                continue
            parent = parent_of(a, b)
            if parent is None:
                notes.append(f"branch {c}: line {a} has no move at ply {b - 1}; dropped")
                progress = True
                continue
            first_before = len(parent.children)
            attach(c, parent, b, moves)
            parent.children[first_before].tag = c
            attached.add(c)
            progress = True
        if not progress:
            for c in later:
                notes.append(f"branch {c}: its parent line never attaches; dropped")
            break
        pending = later

    for (lid, ply), text in sorted(comments.items()):
        n = at.get((lid, ply))
        if n is None:
            notes.append(f"comment{lid}_{ply}: no such move; dropped")
            continue
        n.comment = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)),
                           text.replace("||", "\n"))

    side = "w"
    if root.children:
        mv = root.children[0].move
        if not mv.startswith("?"):
            x = "abcdefghi".index(mv[0])
            y = 9 - int(mv[1])
            p = grid[y][x]
            if p is None:
                notes.append("first move starts from an empty square")
            elif p.islower():
                side = "b"
    g = Game(header, board + " " + side, root)
    g.notes = notes
    return g


def read_text(text):
    games = []
    for m in BLOCK.finditer(text):
        games.append((m.group(1), read_block(m.group(2))))
    return games


def main():
    raw = open(sys.argv[1], "rb").read()
    text, enc = decode_bytes(raw)
    out = []
    for kind, g in read_text(text):
        j = g.to_json()
        j["block"] = kind
        out.append(j)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
