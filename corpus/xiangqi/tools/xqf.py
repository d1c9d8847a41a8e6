"""Reference XQF reader (kyphu corpus tools; MIT OR Apache-2.0).

Written for kyphu from the format description in docs/formats.md (XQF and DhtmlXQ sections);
no code from other projects. It reads one XQF file into the canonical game
dictionary used by corpus/xiangqi/expected/*.json (see game.py), keeping the
moves exactly as stored (no legality filtering): legality is checked
separately by legality.py (pyffish).

Usage: python3 xqf.py FILE.xqf   -> prints the canonical JSON
"""

import json
import struct
import sys

from game import Game, Node, decode_text

# Offsets of the length-prefixed strings of the 1024-byte header:
# (name, offset, capacity including the length byte).
HEADER_STRINGS = [
    ("title", 0x50, 64),
    ("event", 0xD0, 64),
    ("date", 0x110, 16),
    ("site", 0x120, 16),
    ("red", 0x130, 16),
    ("black", 0x140, 16),
    ("time_rule", 0x150, 64),
    ("red_time", 0x190, 16),
    ("black_time", 0x1A0, 16),
    ("annotator", 0x1D0, 16),
    ("author", 0x1E0, 16),
]

RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
SETUP_TYPES = {0: "full game", 1: "opening", 2: "middlegame", 3: "endgame"}

# Piece letters of the 32 slots of the start-position table: slots 0-15 are
# Red's R N B A K A B N R C C P P P P P, slots 16-31 the same for Black.
SLOT_PIECES = "RNBAKABNRCCPPPPP"
MASK_TEXT = b"[(C) Copyright Mr. Dong Shiwei.]"


class XqfError(Exception):
    pass


def _poly(b):
    """The key polynomial 54*b*b + 221 (taken mod 256 by the caller)."""
    return 54 * b * b + 221


class Keys:
    """Decryption keys derived from header bytes 0x03-0x0F (version >= 11)."""

    def __init__(self, head):
        mask = head[3]
        ors = head[8:12]
        ksum, kxy, kxyf, kxyt = head[12], head[13], head[14], head[15]
        self.piece = (_poly(kxy) * kxy) & 0xFF
        self.src = (_poly(kxyf) * self.piece) & 0xFF
        self.dst = (_poly(kxyt) * self.src) & 0xFF
        self.comment = (ksum * 256 + kxy) % 32000 + 767
        four = [ors[i] | ([ksum, kxy, kxyf, kxyt][i] & mask) for i in range(4)]
        self.stream = bytes(MASK_TEXT[i] & four[i % 4] for i in range(32))


def square_name(v):
    if v > 89:
        return None
    x, y = divmod(v, 10)
    if x > 8:
        return None
    return "abcdefghi"[x] + str(y)


def board_fen(slots, side):
    grid = [[None] * 9 for _ in range(10)]
    for i, v in enumerate(slots):
        if v > 89:
            continue
        x, y = divmod(v, 10)
        letter = SLOT_PIECES[i % 16]
        grid[y][x] = letter if i < 16 else letter.lower()
    rows = []
    for y in range(9, -1, -1):
        row, empty = "", 0
        for x in range(9):
            p = grid[y][x]
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + side


def read_xqf(data, name="?"):
    if len(data) < 0x400 or data[:2] != b"XQ":
        raise XqfError("not an XQF file (no 'XQ' signature or shorter than 1024 bytes)")
    version = data[2]
    head = data[:16]
    notes = []
    enc = version >= 11
    keys = Keys(head) if enc else None

    # Start position.
    raw = data[0x10:0x30]
    if enc:
        slots = [0] * 32
        for i in range(32):
            j = (keys.piece + 1 + i) % 32 if version >= 12 else i
            slots[j] = (raw[i] - keys.piece) & 0xFF
    else:
        slots = list(raw)

    header = {"xqf_version": version}
    for field, off, cap in HEADER_STRINGS:
        n = data[off]
        if n == 0:
            continue
        if n >= cap:
            notes.append(f"header {field}: length byte {n} exceeds its {cap - 1}-byte field; truncated")
            n = cap - 1
        text, bad = decode_text(data[off + 1:off + 1 + n])
        if bad:
            notes.append(f"header {field}: bytes not valid GB18030, replaced")
        header[field] = text
    res = data[0x33]
    header["result"] = RESULTS.get(res, "*")
    if res not in RESULTS:
        notes.append(f"result byte {res} unknown")
    header["setup_type"] = SETUP_TYPES.get(data[0x40], f"unknown ({data[0x40]})")

    # Move records.
    body = bytearray(data[0x400:])
    if enc:
        s = keys.stream
        for i in range(len(body)):
            body[i] = (body[i] - s[i % 32]) & 0xFF
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(body):
            raise XqfError(f"record truncated at file offset {0x400 + pos:#x}")
        chunk = bytes(body[pos:pos + n])
        pos += n
        return chunk

    def record():
        """Returns (src, dst, has_next, has_sibling, comment)."""
        rec = take(4)
        if enc:
            flags = rec[2]
            has_next, has_sib, has_com = bool(flags & 0x80), bool(flags & 0x40), bool(flags & 0x20)
            clen = 0
            if has_com:
                clen = struct.unpack("<i", take(4))[0] - keys.comment
            src = (rec[0] - 0x18 - keys.src) & 0xFF
            dst = (rec[1] - 0x20 - keys.dst) & 0xFF
        else:
            has_next, has_sib = bool(rec[2] & 0xF0), bool(rec[2] & 0x0F)
            clen = struct.unpack("<i", take(4))[0]
            src = (rec[0] - 0x18) & 0xFF
            dst = (rec[1] - 0x20) & 0xFF
        comment = None
        if clen < 0:
            raise XqfError(f"negative comment length {clen} at file offset {0x400 + pos:#x}")
        if clen > 0:
            comment, bad = decode_text(take(clen))
            if bad:
                notes.append(f"comment at offset {0x400 + pos - clen:#x}: bytes not valid GB18030, replaced")
        return src, dst, has_next, has_sib, comment

    if len(body) == 0:
        root_next, root_comment = False, None
        notes.append("no move records at all (file ends at 0x400)")
    else:
        _, _, root_next, root_sib, root_comment = record()
        if root_sib:
            notes.append("root record has the variation flag set (ignored)")
    root = Node(None)
    root.comment = root_comment

    # Pre-order tree: a record, then (if flagged) its first child's subtree,
    # then (if flagged) its next sibling's subtree. Iterative, because
    # opening libraries nest thousands of levels deep.
    # Stack of (parent node, whether this slot is a child-chain continuation).
    stack = []
    if root_next:
        stack.append(root)
    while stack:
        parent = stack.pop()
        try:
            src, dst, has_next, has_sib, comment = record()
        except XqfError as e:
            notes.append(str(e))
            break
        a, b = square_name(src), square_name(dst)
        mv = (a or f"?{src}") + (b or f"?{dst}")
        if a is None or b is None:
            notes.append(f"move record with off-board square: src={src} dst={dst}")
        node = Node(mv)
        node.comment = comment
        parent.children.append(node)
        # Push sibling first so the child subtree is read before it.
        if has_sib:
            stack.append(parent)
        if has_next:
            stack.append(node)
    if pos < len(body):
        notes.append(f"{len(body) - pos} bytes after the last move record")

    # Side to move: the colour of the piece on the first move's source square
    # (XQF has no reliable side-to-move field); Red when there is no move.
    side = "w"
    if root.children:
        first = root.children[0].move
        sq = first[:2]
        for i, v in enumerate(slots):
            if square_name(v) == sq:
                side = "w" if i < 16 else "b"
                break
        else:
            notes.append("first move starts from an empty square")
    g = Game(header, board_fen(slots, side), root)
    g.notes = notes
    return g


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        g = read_xqf(f.read(), path)
    json.dump(g.to_json(), sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
