"""Writes the kyphu-made DhtmlXQ pages of corpus/xiangqi/dhtmlxq/kyphu-made/.

kyphu corpus tools; MIT OR Apache-2.0. Our own DhtmlXQ writer following
docs/formats.md (XQF and DhtmlXQ sections). It renders the trees of the kyphu-made XQF files
(read with xqf.py, whose readings cchess confirms) as DhtmlXQ blocks, so the
DhtmlXQ reading of each page must equal the XQF reading of its source file:
make_expected.py records both and the manifest says which pairs must agree.

Branches are numbered as dpxq numbers them in the public files we read
(vschess dhtmlxq.txt): in the order a pre-order walk, child before sibling
(the XQF record order), first meets each line.

Usage: python3 dhtmlxq_write.py XQF_DIR OUT_DIR
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import xqf  # noqa: E402

START_BINIT = "8979695949392919097717866646260600102030405060708012720323436383"


def dsq(s):
    return f"{'abcdefghi'.index(s[0])}{9 - int(s[1])}"


def binit_of(slots):
    out = ""
    for v in slots:
        if v > 89:
            out += "99"
        else:
            x, y = divmod(v, 10)
            out += f"{x}{9 - y}"
    return out


def block(game, slots, tags, frame=False, sep="\n"):
    """DhtmlXQ text of a game read by xqf.read_xqf (tree in game.root)."""
    lines = {}  # number -> (parent number, start ply, [moves])
    comments = {}  # (line, ply) -> text
    # Pre-order walk, child before sibling: (node, line, ply)
    counter = [0]
    stack = []
    root = game.root
    if root.comment:
        comments[(0, 0)] = root.comment
    if root.children:
        lines[0] = (None, 1, [])
        for i, c in reversed(list(enumerate(root.children))):
            stack.append((c, 0 if i == 0 else None, 1, 0))
    while stack:
        n, lid, ply, parent_line = stack.pop()
        if lid is None:
            counter[0] += 1
            lid = counter[0]
            lines[lid] = (parent_line, ply, [])
        lines[lid][2].append(n.move)
        if n.comment:
            comments[(lid, ply)] = n.comment
        for i, c in reversed(list(enumerate(n.children))):
            stack.append((c, lid if i == 0 else None, ply + 1, lid))
    name = "DhtmlXQiFrame" if frame else "DhtmlXQ"
    out = [f"[{name}]"]
    for k, v in tags:
        out.append(f"[DhtmlXQ_{k}]{v}[/DhtmlXQ_{k}]")
    b = binit_of(slots)
    out.append(f"[DhtmlXQ_binit]{b}[/DhtmlXQ_binit]")
    if 0 in lines:
        out.append("[DhtmlXQ_movelist]" + "".join(dsq(m[:2]) + dsq(m[2:]) for m in lines[0][2])
                   + "[/DhtmlXQ_movelist]")
    for lid in sorted(lines):
        if lid == 0:
            continue
        a, p, mv = lines[lid]
        key = f"move_{a}_{p}_{lid}"
        out.append(f"[DhtmlXQ_{key}]" + "".join(dsq(m[:2]) + dsq(m[2:]) for m in mv)
                   + f"[/DhtmlXQ_{key}]")
    for (lid, ply), text in sorted(comments.items()):
        key = f"comment{ply}" if lid == 0 else f"comment{lid}_{ply}"
        out.append(f"[DhtmlXQ_{key}]" + text.replace("\r\n", "||").replace("\n", "||")
                   + f"[/DhtmlXQ_{key}]")
    out.append(f"[/{name}]")
    return sep.join(out)


def slots_of(path):
    data = open(path, "rb").read()
    g = xqf.read_xqf(data)
    version = data[2]
    raw = data[0x10:0x30]
    if version >= 11:
        k = xqf.Keys(data[:16])
        slots = [0] * 32
        for i in range(32):
            j = (k.piece + 1 + i) % 32 if version >= 12 else i
            slots[j] = (raw[i] - k.piece) & 0xFF
    else:
        slots = list(raw)
    return g, slots


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    gv, sv = slots_of(os.path.join(src, "v18-encrypted-variations.xqf"))
    gm, sm = slots_of(os.path.join(src, "v18-encrypted-mainline.xqf"))
    gs, ss = slots_of(os.path.join(src, "v18-study-black-to-move.xqf"))

    def tags(g, extra=()):
        h = g.header
        t = [("ver", "www_dpxq_com"), ("init", "500,350")]
        for k in ("title", "event", "date", "red", "black"):
            if h.get(k):
                t.append((k, h[k]))
        t.append(("result", {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋"}.get(h["result"], "未知")))
        return t + list(extra)

    # 1. A UTF-8 text file (with BOM, as vschess ships) holding the variation tree.
    text = block(gv, sv, tags(gv, [("owner", "kyphu"), ("generator", "kyphu")]), frame=True)
    with open(os.path.join(out, "variations-utf8-bom.txt"), "wb") as f:
        f.write(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8") + b"\r\n")
    # 2. A GBK page with two games: the main line with comments and the study.
    page = ("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">"
            "<title>kyphu DhtmlXQ 测试</title></head><body>\n<div style=\"display:none\">"
            + block(gm, sm, tags(gm), sep="") + "</div>\n<p>第二局</p>\n<div>"
            + block(gs, ss, tags(gs), sep="\n") + "</div>\n</body></html>\n")
    with open(os.path.join(out, "two-games-gbk.html"), "wb") as f:
        f.write(page.encode("gb18030"))
    # 3. A Big5 page (traditional characters) whose block also sits, percent-free,
    #    in an iframe name attribute: two copies of one game.
    t3 = [("title", "kyphu 排局 黑先 測試"), ("result", "未知"), ("type", "排局")]
    b3 = block(gs, ss, t3, sep="")
    page3 = ("<html><head><meta charset=\"big5\"><title>象棋</title></head><body>\n"
             f"<div id=\"dhtmlxq001\" style=\"display:none;\">{b3}</div>\n"
             "<iframe src=\"/DhtmlXQ_www_dpxq_com/DhtmlXQ_www_dpxq_com_big5.htm\" "
             f"name='NoFile_{block(gs, ss, t3, frame=True, sep='')}'></iframe>\n</body></html>\n")
    with open(os.path.join(out, "study-big5-iframe.html"), "wb") as f:
        f.write(page3.encode("big5"))
    for n in sorted(os.listdir(out)):
        print(n, os.path.getsize(os.path.join(out, n)))


if __name__ == "__main__":
    main()
