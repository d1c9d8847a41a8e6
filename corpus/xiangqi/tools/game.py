"""Canonical game tree shared by the kyphu corpus tools (MIT OR Apache-2.0).

A game is a start FEN plus a tree of ICCS moves (lowercase file a-i, rank 0-9
counted from Red's side, e.g. "h2e2"). Its JSON form, written to
corpus/xiangqi/expected/*.json, is:

  {
    "header":   {field: text, ...},          # as stored in the file
    "fen":      "<board> <w|b>",              # start position, side to move
    "mainline": ["h2e2", "h9g7", ...],
    "variations": [                           # every other line of the tree
      {"id": 1, "parent": 0, "ply": 3, "moves": [...]}, ...],
    "comments": [{"line": 0, "ply": 0, "text": "..."}, ...],
    "counts":   {"nodes": .., "variations": .., "comments": ..},
    "notes":    ["anything odd the reader saw"]
  }

Plies count from 1 (the first move of the game is ply 1) and are absolute:
a variation with "ply": 3 replaces the third move of its parent line, so its
first move is played from the position after ply 2. Ply 0 is the start
position (a comment there is the game comment). Line 0 is the main line
(the first child at every node). Lines are numbered in the order a PGN
writer meets them: the main line, then for ply 1, 2, ... of it the
alternatives to that move (in stored order), each followed recursively by its
own sub-variations before the next alternative.
"""


def decode_text(raw):
    """GB18030 bytes -> (text, had_invalid_bytes). NULs at the end are dropped."""
    raw = raw.rstrip(b"\x00")
    try:
        return raw.decode("gb18030"), False
    except UnicodeDecodeError:
        return raw.decode("gb18030", errors="replace"), True


class Node:
    __slots__ = ("move", "children", "comment", "tag")

    def __init__(self, move):
        self.move = move
        self.children = []
        self.comment = None
        self.tag = None  # DhtmlXQ branch number of a line's first move


class Game:
    def __init__(self, header, fen, root):
        self.header = header
        self.fen = fen
        self.root = root
        self.notes = []

    def lines(self):
        """Flat list of (id, parent_id, start_ply, [nodes]) in PGN order."""
        out = []

        def walk_line(first, ply, parent_id):
            nodes = []
            n = first
            while n is not None:
                nodes.append(n)
                n = n.children[0] if n.children else None
            lid = len(out)
            out.append((lid, parent_id, ply, nodes))
            return lid, nodes

        # Iterative over a work list to survive very deep trees.
        if not self.root.children:
            out.append((0, None, 1, []))
            return out
        # Explicit DFS: each entry starts a line at parent.children[idx].
        stack = [(self.root.children[0], 1, None)]
        while stack:
            first, ply, parent_id = stack.pop()
            lid, nodes = walk_line(first, ply, parent_id)
            # Alternatives of this line, in PGN order: ply ascending, stored order.
            pending = []
            prev = None
            for k, n in enumerate(nodes):
                par = prev if k > 0 else None
                if k > 0:
                    for alt in par.children[1:]:
                        pending.append((alt, ply + k, lid))
                prev = n
            # Alternatives to the first node of the line are siblings of it
            # under its parent; those are emitted by the parent's line (or,
            # for the root, below).
            if parent_id is None:
                pending = [(alt, 1, 0) for alt in self.root.children[1:]] + pending
            for item in reversed(pending):
                stack.append(item)
        return out

    def to_json(self):
        lines = self.lines()
        comments = []
        if self.root.comment:
            comments.append({"line": 0, "ply": 0, "text": self.root.comment})
        variations = []
        nodes = 0
        for lid, parent, ply, ns in lines:
            nodes += len(ns)
            for k, n in enumerate(ns):
                if n.comment:
                    comments.append({"line": lid, "ply": ply + k, "text": n.comment})
            if lid > 0:
                v = {"id": lid, "parent": parent, "ply": ply,
                     "moves": [n.move for n in ns]}
                if ns and ns[0].tag is not None:
                    v["source_id"] = ns[0].tag
                variations.append(v)
        return {
            "header": self.header,
            "fen": self.fen,
            "mainline": [n.move for n in lines[0][3]],
            "variations": variations,
            "comments": comments,
            "counts": {"nodes": nodes, "variations": len(variations),
                       "comments": len(comments)},
            "notes": self.notes,
        }
