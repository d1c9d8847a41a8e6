#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write the expected-reading sidecars (.expect) of corpus/text from manifest.txt.

Each block of manifest.txt starts with `== <lang>/<name>` and has `key: value` lines:
game, source, licence, verbatim, notes, stops-at (optional) and the main line a human
reads, transcribed by hand from the record into one of:
  san:  chess SAN with English letters (python-chess push_san replays it)
  zh:   xiangqi moves in Chinese words (炮二平五 马8进7 ...), replayed by cchess; an ICCS
        move (e6e7) in the line is played as it is, where cchess resolves a word wrongly
        (cchess 1.25 reads 前兵 as the front soldier of another file: zh/xqdao-1 ply 73)
  wxf:  xiangqi WXF/Vietnamese-letter moves transcribed to WXF (C2=5 H8+7 ...)
The xiangqi line is checked a second time with pyffish (Fairy-Stockfish) for legality.
The sidecar gets `moves:` as UCI (chess) or ICCS (xiangqi, files a-i, ranks 0-9).
Usage: python3 mkexpect.py [manifest]  (run from anywhere)
"""
import os
import sys

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # corpus/text

CN = "一二三四五六七八九"
WXF_PIECE = {"R": "车", "H": "马", "N": "马", "E": "相", "B": "相", "A": "仕", "K": "帅",
             "C": "炮", "P": "兵"}
WXF_OP = {"+": "进", "-": "退", "=": "平", ".": "平"}


def wxf_to_zh(tok, red):
    """WXF (`C2=5`, `H8+7`, `+C+1` front/rear) to Chinese words for the side to move."""
    pos = ""
    if tok[0] in "+-" and len(tok) == 5:
        pos, tok = ("前" if tok[0] == "+" else "后"), tok[1:]
    p, f, op, t = tok[0], tok[1], tok[2], tok[3:]
    name = WXF_PIECE[p.upper()]
    if not red:
        name = {"车": "车", "马": "马", "相": "象", "仕": "士", "帅": "将", "炮": "炮",
                "兵": "卒"}[name]
    num = (lambda d: CN[int(d) - 1]) if red else (lambda d: d)
    if pos:
        return pos + name + WXF_OP[op] + num(t)
    return name + num(f) + WXF_OP[op] + num(t)


def replay_xiangqi(toks, kind):
    import cchess
    import pyffish
    b = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    out = []
    for i, t in enumerate(toks):
        red = i % 2 == 0
        if kind == "zh" and len(t) == 4 and t[0] in "abcdefghi" and t[2] in "abcdefghi" \
                and t[1].isdigit() and t[3].isdigit():
            if b.move_iccs(t) is None:
                raise SystemExit(f"ply {i+1}: cannot replay {t!r}")
            out.append(t)
            b.next_turn()
            continue
        zh = wxf_to_zh(t, red) if kind == "wxf" else t
        zh = zh.replace("馬", "马").replace("車", "车").replace("砲", "炮").replace("俥", "车") \
            .replace("傌", "马").replace("兵", "兵").replace("進", "进").replace("後", "后") \
            .replace("帥", "帅").replace("將", "将").replace("仕", "仕").replace("士", "士") \
            .replace("炮", "炮").replace("包", "炮").replace("相", "相").replace("象", "象")
        if not red:
            zh = zh.replace("相", "象").replace("仕", "士").replace("帅", "将").replace("兵", "卒")
        else:
            zh = zh.replace("象", "相").replace("士", "仕").replace("将", "帅").replace("卒", "兵")
        m = b.move_text(zh)
        if m is None:
            raise SystemExit(f"ply {i+1}: cannot replay {t!r} ({zh})")
        out.append(m.to_iccs())
        b.next_turn()
    # second opinion: Fairy-Stockfish legality (ranks 1-10)
    fen = pyffish.start_fen("xiangqi")
    uci = []
    for i, m in enumerate(out):
        u = m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)
        if u not in pyffish.legal_moves("xiangqi", fen, uci):
            raise SystemExit(f"ply {i+1}: {m} illegal for pyffish")
        uci.append(u)
    return out


def replay_chess(toks, fen=None):
    b = chess.Board(fen) if fen else chess.Board()
    out = []
    for i, t in enumerate(toks):
        try:
            m = b.push_san(t)
        except ValueError as e:
            raise SystemExit(f"ply {i+1}: {t!r}: {e}")
        out.append(m.uci())
    return out


def blocks(path):
    cur = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("== "):
                if cur:
                    yield cur
                cur = {"id": line[3:].strip()}
            elif cur is not None and ":" in line and not line.startswith(" "):
                k, v = line.split(":", 1)
                cur[k.strip()] = v.strip()
            elif cur is not None and line.startswith("  ") and cur:
                last = list(cur)[-1]
                cur[last] += " " + line.strip()
    if cur:
        yield cur


def main():
    man = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "manifest.txt")
    n = 0
    bad = 0
    for b in blocks(man):
        rid = b["id"]
        txt = os.path.join(ROOT, rid + ".txt")
        if not os.path.exists(txt):
            print(f"{rid}: missing {txt}")
            bad += 1
            continue
        try:
            if "san" in b:
                moves = replay_chess(b["san"].split(), b.get("fen"))
            elif "zh" in b:
                moves = replay_xiangqi(b["zh"].split(), "zh")
            else:
                moves = replay_xiangqi(b["wxf"].split(), "wxf")
        except SystemExit as e:
            print(f"{rid}: {e}")
            bad += 1
            continue
        lines = [f"game: {b['game']}", f"source: {b['source']}", f"licence: {b['licence']}",
                 f"verbatim: {b['verbatim']}", f"plies: {len(moves)}",
                 f"moves: {' '.join(moves)}"]
        if b.get("fen"):
            lines.insert(4, f"fen: {b['fen']}")
        if b.get("stops-at"):
            lines.append(f"stops-at: {b['stops-at']}")
        lines.append(f"notes: {b.get('notes', '')}")
        with open(os.path.join(ROOT, rid + ".expect"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        n += 1
    listed = {b["id"] for b in blocks(man)}
    for lang in sorted(os.listdir(ROOT)):
        d = os.path.join(ROOT, lang)
        if lang == "tools" or not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".txt") and f"{lang}/{f[:-4]}" not in listed:
                print(f"{lang}/{f}: no manifest entry")
                bad += 1
    print(f"{n} sidecars written, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
