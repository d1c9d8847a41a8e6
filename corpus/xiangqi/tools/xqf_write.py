"""Writes the kyphu-made XQF files of corpus/xiangqi/xqf/kyphu-made/.

kyphu corpus tools; MIT OR Apache-2.0. An XQF writer following
docs/formats.md (XQF and DhtmlXQ sections) (our own code), used only to make small
copyable test files: the public XQF files we found are GPL, LGPL or
unlicensed, so CI (which has no ../shared corpus) needs files of our own.
Every file written here is checked by make_expected.py against the
independent reader (PyPI cchess) and pyffish like any other corpus file.

The game scores come from wukong-xiangqi xqdb (MIT, see corpus/SOURCES.md);
the variations are chosen by a seeded random walk over pyffish's legal moves;
names, events and comments are invented.

Usage: python3 xqf_write.py OUTDIR
"""

import os
import random
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from game import Node  # noqa: E402
from xqf import Keys  # noqa: E402

START_SLOTS = [80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3,
               89, 79, 69, 59, 49, 39, 29, 19, 9, 77, 17, 86, 66, 46, 26, 6]


def sq(s):
    return ("abcdefghi".index(s[0])) * 10 + int(s[1])


def pstr(text, cap):
    b = text.encode("gb18030")
    assert len(b) < cap, text
    return bytes([len(b)]) + b + bytes(cap - 1 - len(b))


def write_xqf(version, header, slots, root, key_bytes=None):
    """key_bytes: 13 bytes for header 0x03-0x0F (mask, 4 product, 4 or, sum, xy, xyf, xyt)."""
    h = bytearray(0x400)
    h[0:2] = b"XQ"
    h[2] = version
    enc = version >= 11
    if enc:
        h[3:16] = key_bytes
        keys = Keys(bytes(h[:16]))
    # start position
    if enc:
        stored = [0] * 32
        for i in range(32):
            j = (keys.piece + 1 + i) % 32 if version >= 12 else i
            stored[i] = (slots[j] + keys.piece) & 0xFF
    else:
        stored = slots
    h[0x10:0x30] = bytes(stored)
    h[0x33] = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}[header.get("result", "*")]
    h[0x40] = header.get("type", 0)
    for name, off, cap in [("title", 0x50, 64), ("event", 0xD0, 64), ("date", 0x110, 16),
                           ("site", 0x120, 16), ("red", 0x130, 16), ("black", 0x140, 16),
                           ("time_rule", 0x150, 64), ("red_time", 0x190, 16),
                           ("black_time", 0x1A0, 16), ("annotator", 0x1D0, 16),
                           ("author", 0x1E0, 16)]:
        if header.get(name):
            h[off:off + cap] = pstr(header[name], cap)

    body = bytearray()

    def rec(src, dst, has_next, has_sib, comment):
        cb = comment.replace("\n", "\r\n").encode("gb18030") if comment else b""
        if enc:
            flags = (0x80 if has_next else 0) | (0x40 if has_sib else 0) | (0x20 if cb else 0)
            body.extend(bytes([(src + 24 + keys.src) & 0xFF, (dst + 32 + keys.dst) & 0xFF,
                               flags, 0]))
            if cb:
                body.extend(struct.pack("<i", len(cb) + keys.comment))
        else:
            flags = (0xF0 if has_next else 0) | (0x0F if has_sib else 0)
            body.extend(bytes([(src + 24) & 0xFF, (dst + 32) & 0xFF, flags, 0]))
            body.extend(struct.pack("<i", len(cb)))
        body.extend(cb)

    # record 0 (root): for XQF 1.0 the fixed bytes 18 20 F0/00 FF.
    if enc:
        rec(0, 0, bool(root.children), False, root.comment)
    else:
        cb = root.comment.replace("\n", "\r\n").encode("gb18030") if root.comment else b""
        body.extend(bytes([0x18, 0x20, 0xF0 if root.children else 0, 0xFF]))
        body.extend(struct.pack("<i", len(cb)))
        body.extend(cb)
    # pre-order: node, child subtree, sibling subtree
    stack = [(c, i == len(root.children) - 1) for i, c in reversed(list(enumerate(root.children)))]
    # (node, is_last_sibling)
    while stack:
        n, last = stack.pop()
        rec(sq(n.move[:2]), sq(n.move[2:]), bool(n.children), not last, n.comment)
        # children subtree first, then our next sibling (already on the stack)
        for i, c in reversed(list(enumerate(n.children))):
            stack.append((c, i == len(n.children) - 1))
    if enc:
        s = keys.stream
        for i in range(len(body)):
            body[i] = (body[i] + s[i % 32]) & 0xFF
    return bytes(h) + bytes(body)


def line_tree(moves, comments=None):
    root = Node(None)
    n = root
    for k, m in enumerate(moves):
        c = Node(m)
        if comments and (k + 1) in comments:
            c.comment = comments[k + 1]
        n.children.append(c)
        n = c
    if comments and 0 in comments:
        root.comment = comments[0]
    return root


def sf_moves(moves):
    return [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in moves]


def from_sf(m):
    """pyffish move (ranks 1-10) -> ICCS (ranks 0-9)."""
    f1, r1, f2, r2 = re.match(r"([a-i])(\d+)([a-i])(\d+)$", m).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def add_variations(root, fen, rng, count, depth):
    """Adds `count` random legal variations of up to `depth` moves."""
    import pyffish as sf
    main = []
    n = root
    while n.children:
        n = n.children[0]
        main.append(n)
    for _ in range(count):
        # pick a node on the main line or on an existing variation
        path = []
        n = root
        while n.children and (not path or rng.random() < 0.85):
            n = rng.choice(n.children)
            path.append(n)
        if len(path) < 2:
            continue
        cut = rng.randrange(1, len(path))
        parent = path[cut - 1]
        prefix = [p.move for p in path[:cut]]
        cur = prefix[:]
        legal = sf.legal_moves("xiangqi", fen, sf_moves(cur))
        existing = {c.move for c in parent.children}
        alts = sorted(from_sf(m) for m in legal if from_sf(m) not in existing)
        if not alts:
            continue
        first = Node(rng.choice(alts))
        parent.children.append(first)
        cur.append(first.move)
        n = first
        for _ in range(rng.randrange(1, depth + 1)):
            legal = sorted(sf.legal_moves("xiangqi", fen, sf_moves(cur)))
            if not legal:
                break
            c = Node(from_sf(rng.choice(legal)))
            n.children.append(c)
            cur.append(c.move)
            n = c
    return root


def read_pgn_games(path, count):
    games, cur = [], {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("["):
            k, v = line[1:-1].split(" ", 1)
            cur[k] = v.strip('"')
        elif line:
            toks = [t for t in line.split() if not t.endswith(".")]
            cur["moves"] = toks
            games.append(cur)
            cur = {}
            if len(games) == count:
                break
    return games


def main():
    out = sys.argv[1]
    src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        HERE, "..", "..", "..", "..", "shared", "corpus", "xiangqi", "wukong-xiangqi-xqdb",
        "games_pgn", "bulk_games_uci.pgn")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(26)
    import pyffish as sf
    start = sf.start_fen("xiangqi")
    games = read_pgn_games(src, 3)

    def keys():
        return bytes([rng.randrange(256)]) + bytes(4) + bytes(rng.randrange(256) for _ in range(8))

    g0 = games[0]
    base = {"title": "kyphu 测试棋谱 " + g0["Red"][:6], "event": g0["Event"][:40],
            "red": g0["Red"][:15], "black": g0["Black"][:15], "date": "1997",
            "site": "kyphu", "author": "kyphu", "annotator": "kyphu", "result": "*"}
    comments = {0: "对局说明：本文件由 kyphu 生成。\nGame comment, second line.",
                1: "中炮 (central cannon)", 2: "屏风马", 10: "注释 ten", len(g0["moves"]): "终局"}
    files = {}
    files["v10-plain-mainline.xqf"] = write_xqf(10, base, START_SLOTS, line_tree(g0["moves"], comments))
    files["v18-encrypted-mainline.xqf"] = write_xqf(18, base, START_SLOTS,
                                                    line_tree(g0["moves"], comments), keys())
    tree = add_variations(line_tree(games[1]["moves"], {3: "变着前的注释"}), start, rng, 12, 8)
    # an alternative to the very first move (a sibling of record 1)
    alt = line_tree(["b2e2", "h9g7", "b0c2"], {1: "另一种第一步"}).children[0]
    tree.children.append(alt)
    # comments on a few variation moves
    n = tree
    k = 0
    stack = [tree]
    while stack:
        n = stack.pop()
        if n.move and len(n.children) == 0 and k < 5:
            n.comment = f"变化终点 {k}"
            k += 1
        stack.extend(n.children)
    h1 = dict(base, title="kyphu 变着测试", red=games[1]["Red"][:15], black=games[1]["Black"][:15])
    files["v18-encrypted-variations.xqf"] = write_xqf(18, h1, START_SLOTS, tree, keys())
    files["v10-plain-variations.xqf"] = write_xqf(10, h1, START_SLOTS, tree)
    files["v11-encrypted-variations.xqf"] = write_xqf(11, h1, START_SLOTS, tree, keys())
    files["v12-encrypted-variations.xqf"] = write_xqf(12, h1, START_SLOTS, tree, keys())
    # A study: Black to move, pieces off the board (0xFF), mate in a few.
    slots = [0xFF] * 32
    slots[4] = 40      # Red king e0
    slots[0] = 7       # Red rook a7
    slots[9] = 72      # Red cannon h2
    slots[16 + 4] = 39  # Black king d9
    slots[16 + 3] = 48  # Black advisor e8
    slots[16 + 0] = 81  # Black rook i1
    slots[16 + 11] = 33  # Black pawn d3
    from xqf import board_fen
    fen = board_fen(slots, "b") + " - - 0 1"
    legal = sorted(sf.legal_moves("xiangqi", fen, []))
    mv = []
    for _ in range(6):
        legal = sorted(sf.legal_moves("xiangqi", fen, mv))
        if not legal:
            break
        mv.append(rng.choice(legal))
    study = line_tree([from_sf(m) for m in mv], {0: "排局：黑先。", 1: "黑方先走"})
    hs = {"title": "kyphu 排局 黑先", "author": "kyphu", "result": "*", "type": 3}
    files["v18-study-black-to-move.xqf"] = write_xqf(18, hs, slots, study, keys())
    files["v10-study-black-to-move.xqf"] = write_xqf(10, hs, slots, study)
    files["v18-empty.xqf"] = write_xqf(18, {"title": "kyphu 空棋谱", "type": 0}, START_SLOTS,
                                       Node(None), keys())
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
