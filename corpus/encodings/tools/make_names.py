#!/usr/bin/env python3
"""Encode the real Vietnamese names of ../names.sources.tsv into VNI, TCVN3, VISCII and VIQR.

Ours (MIT OR Apache-2.0). Independent of grammars/encodings/*.tsv on purpose (those tables
are what the test files check): VISCII and TCVN3 bytes come from glibc iconv (`iconv -t
VISCII`, `iconv -t TCVN5712-1`), VNI and VIQR bytes from the NFD decomposition of each
letter and the mark rules written out below.

Writes, under corpus/encodings/:
  names.utf8.txt                 the truth, NFC, one name a line (same order as the sources)
  games.utf8.pgn                 the truth of every <enc>/games.pgn (but tcvn3, see below)
  <enc>/names.txt                the same names in <enc>, one a line, LF
  <enc>/games.pgn                short games whose White/Black tags are those names
  tcvn3/names.expected.utf8.txt  what a TCVN3 reader must give (see TCVN3 below)

TCVN3 (VN3) has no upper-case toned letters: a VN3 user types the lower-case letter in a
capitals font. glibc writes such a letter in the C0 range (VN1), which is not VN3, so this
script writes the lower-case byte instead and the expected text has the lower-case letter
(one name: "Hoàng Thị Như Ý" -> "Hoàng Thị Như ý").

Usage: python3 corpus/encodings/tools/make_names.py   (needs python-chess for the games)
"""
import io
import pathlib
import subprocess
import sys
import unicodedata

import chess
import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent.parent

SHAPE = {"\u0306": "(", "\u0302": "^", "\u031b": "+"}
TONE = {"\u0301": "'", "\u0300": "`", "\u0309": "?", "\u0303": "~", "\u0323": "."}


def split_letter(ch):
    """(base ASCII letter, shape mnemonic or '', tone mnemonic or '') of one character."""
    if ch in "đĐ":
        return ch, "", ""
    d = unicodedata.normalize("NFD", ch)
    base, marks = d[0], d[1:]
    shape = "".join(SHAPE[m] for m in marks if m in SHAPE)
    tone = "".join(TONE[m] for m in marks if m in TONE)
    rest = [m for m in marks if m not in SHAPE and m not in TONE]
    if rest or len(shape) > 1 or len(tone) > 1:
        raise ValueError(f"not a Vietnamese letter: {ch!r}")
    return base, shape, tone


def viqr(text):
    out = []
    for ch in text:
        if ch == "đ":
            out.append("dd")
        elif ch == "Đ":
            out.append("DD")
        elif ord(ch) < 0x80:
            out.append(ch)
        else:
            b, s, t = split_letter(ch)
            out.append(b + s + t)
    return "".join(out).encode("ascii")


# VNI-Windows: tone bytes (upper, lower); circumflex and breve carry the tone in one byte
V_TONE = {"'": (0xD9, 0xF9), "`": (0xD8, 0xF8), "?": (0xDB, 0xFB), "~": (0xD5, 0xF5), ".": (0xCF, 0xEF)}
V_CIRC = {"": (0xC2, 0xE2), "'": (0xC1, 0xE1), "`": (0xC0, 0xE0), "?": (0xC5, 0xE5), "~": (0xC3, 0xE3), ".": (0xC4, 0xE4)}
V_BREVE = {"": (0xCA, 0xEA), "'": (0xC9, 0xE9), "`": (0xC8, 0xE8), "?": (0xDA, 0xFA), "~": (0xDC, 0xFC), ".": (0xCB, 0xEB)}
V_HORN = {"o": (0xD4, 0xF4), "u": (0xD6, 0xF6)}
V_I = {"'": (0xCD, 0xED), "`": (0xCC, 0xEC), "?": (0xC6, 0xE6), "~": (0xD3, 0xF3), ".": (0xD2, 0xF2)}


def vni(text):
    out = bytearray()
    for ch in text:
        if ord(ch) < 0x80:
            out.append(ord(ch))
            continue
        if ch in "đĐ":
            out.append(0xF1 if ch == "đ" else 0xD1)
            continue
        b, s, t = split_letter(ch)
        k = 0 if b.isupper() else 1
        lb = b.lower()
        if lb == "i":
            out.append(V_I[t][k])
        elif lb == "y" and t == ".":
            out.append(0xCE if k == 0 else 0xEE)
        elif s == "^":
            out += bytes([ord(b), V_CIRC[t][k]])
        elif s == "(":
            out += bytes([ord(b), V_BREVE[t][k]])
        elif s == "+":
            out.append(V_HORN[lb][k])
            if t:
                out.append(V_TONE[t][k])
        else:
            out += bytes([ord(b), V_TONE[t][k]])
    return bytes(out)


def iconv(text, enc):
    r = subprocess.run(["iconv", "-f", "UTF-8", "-t", enc], input=text.encode("utf-8"),
                       capture_output=True, check=True)
    return r.stdout


def tcvn3(text):
    """glibc TCVN5712-1, with the VN1-only upper-case toned letters written lower-case."""
    out = bytearray()
    expected = []
    for ch in text:
        b = iconv(ch, "TCVN5712-1")
        if len(b) == 1 and (b[0] < 0x20 or 0x80 <= b[0] < 0xA0 or b[0] in VN2_ONLY):
            lo = ch.lower()
            b = iconv(lo, "TCVN5712-1")
            expected.append(lo)
        else:
            expected.append(ch)
        if len(b) != 1:
            raise ValueError(f"tcvn3: {ch!r} is {b.hex()}")
        out += b
    return bytes(out), "".join(expected)


# VN2 assignments in A0-FF that VN3 leaves empty (upper-case toned letters, combining marks)
VN2_ONLY = {0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xBA, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4,
            0xC5, 0xCD, 0xD9, 0xDA, 0xDB, 0xE0, 0xF0, 0xFF}

# short real opening lines (from the lichess table, grammars/eco), replayed below
LINES = [
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6",
    "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. Nf3 O-O",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7",
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O",
    "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5",
]
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]


def games(names, event_site):
    out = io.StringIO()
    for i in range(0, len(names) - 1, 2):
        line = LINES[(i // 2) % len(LINES)]
        g = chess.pgn.read_game(io.StringIO(line))
        if g is None or g.errors:
            raise ValueError(f"line does not replay: {line}")
        res = RESULTS[(i // 2) % len(RESULTS)]
        out.write(f'[Event "{event_site}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "{i // 2 + 1}"]\n')
        out.write(f'[White "{names[i]}"]\n[Black "{names[i + 1]}"]\n[Result "{res}"]\n\n{line} {res}\n\n')
    return out.getvalue()


def main():
    rows = [l.rstrip("\n").split("\t") for l in open(HERE / "names.sources.tsv", encoding="utf-8")][1:]
    names = [unicodedata.normalize("NFC", r[0]) for r in rows]
    assert len(names) >= 60 and len(set(names)) == len(names)
    (HERE / "names.utf8.txt").write_text("".join(n + "\n" for n in names), encoding="utf-8")
    # the games are invented pairings with real opening lines; ASCII apart from the names
    pgn = games(names, "kyphu encoding test (invented pairings)")
    (HERE / "games.utf8.pgn").write_text(pgn, encoding="utf-8")
    enc = {
        "viqr": lambda s: viqr(s),
        "vni": lambda s: vni(s),
        "viscii": lambda s: iconv(s, "VISCII"),
    }
    for name, f in enc.items():
        d = HERE / name
        d.mkdir(exist_ok=True)
        (d / "names.txt").write_bytes(b"".join(f(n) + b"\n" for n in names))
        (d / "games.pgn").write_bytes(f(pgn))
    d = HERE / "tcvn3"
    d.mkdir(exist_ok=True)
    enc_names = [tcvn3(n) for n in names]
    (d / "names.txt").write_bytes(b"".join(b + b"\n" for b, _ in enc_names))
    (d / "names.expected.utf8.txt").write_text("".join(e + "\n" for _, e in enc_names), encoding="utf-8")
    (d / "games.pgn").write_bytes(tcvn3(pgn)[0])
    (d / "games.expected.utf8.pgn").write_text(tcvn3(pgn)[1], encoding="utf-8")
    changed = [e for (_, e), n in zip(enc_names, names) if e != n]
    print(f"{len(names)} names; tcvn3 lower-cased: {changed}", file=sys.stderr)


if __name__ == "__main__":
    main()
