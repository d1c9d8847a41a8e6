#!/usr/bin/env python3
"""Write grammars/encodings/{viscii,tcvn3,vni,viqr}.tsv and cross-check them.

Ours (MIT OR Apache-2.0). The tables are facts transcribed from published sources (see
grammars/encodings/README.md); this script only spells them out and checks them:

- VIQR: RFC 1456 section 5 (diacritic mnemonics `( ^ + ' ` ? ~ .`, `DD`/`dd`), composed
  here with unicodedata (NFC).
- VISCII: RFC 1456 Table 1, transcribed below as VIQR mnemonics per byte; every byte is
  checked against the glibc charmap VISCII (/usr/share/i18n/charmaps/VISCII.gz) when that
  file is present.
- TCVN3: TCVN 5712:1993 VN3 (and the VN2 additions), taken from the glibc charmap
  TCVN5712-1 for bytes 0x80-0xFF; the VN3 subset is the 67 lower-case letters, the 7
  upper-case base letters and NO-BREAK SPACE.
- VNI: VNI-Windows, a base letter followed by one mark byte, built from the mark rules
  below; checked in check_tables.py against two independent public tables.

Usage: python3 grammars/encodings/tools/build_tables.py
"""
import gzip
import os
import pathlib
import sys
import unicodedata

OUT = pathlib.Path(__file__).resolve().parent.parent

# --- VIQR (RFC 1456, section 5) -----------------------------------------------------------
VIQR_MARKS = {
    "(": "\u0306",  # breve (trang)
    "^": "\u0302",  # circumflex (mu)
    "+": "\u031b",  # horn (moc)
    "'": "\u0301",  # acute (sac)
    "`": "\u0300",  # grave (huyen)
    "?": "\u0309",  # hook above (hoi)
    "~": "\u0303",  # tilde (nga)
    ".": "\u0323",  # dot below (nang)
}
VOWELS = "aeiouy"
# which vowel takes which shape mark
SHAPES = {"a": "(^", "e": "^", "o": "^+", "u": "+", "i": "", "y": ""}
TONES = "'`?~."


def viqr_char(mn: str) -> str:
    """One VIQR mnemonic (e.g. "o+'", "DD") to its NFC character."""
    if mn in ("DD", "dd"):
        return "\u0110" if mn == "DD" else "\u0111"
    base, marks = mn[0], mn[1:]
    return unicodedata.normalize("NFC", base + "".join(VIQR_MARKS[m] for m in marks))


def all_letters():
    """(mnemonic, char) for the 132 accented vowels and the two d-bar letters (134)."""
    out = []
    for v in VOWELS:
        for case in (v.upper(), v):
            for shape in [""] + list(SHAPES[v]):
                for tone in [""] + list(TONES):
                    if not shape and not tone:
                        continue
                    mn = case + shape + tone
                    out.append((mn, viqr_char(mn)))
    out += [("DD", "\u0110"), ("dd", "\u0111")]
    return out


# --- VISCII (RFC 1456, Table 1) -------------------------------------------------------------
# columns 8x..Fx for rows x0..xF, as printed in the RFC (VIQR mnemonics).
# Rows xC and xD of columns 8x..Fx were lost in every copy of the RFC text the search tool
# could show (HTML stripping ate the "<" ... ">" span); 9C and 9D are from the Viet-Std
# table (vietstd.sourceforge.net/document/viscii1.htm); the 12 others are marked None and
# taken from the glibc charmap, then checked against the xvnkb table (check_tables.py).
VISCII_RFC_HIGH = {
    0x0: "A.  O^` O~  o^` A`  DD  a`  dd",
    0x1: "A(' O^? a(' o^? A'  u+' a'  u+.",
    0x2: "A(` O^~ a(` o^~ A^  O`  a^  o`",
    0x3: "A(. O^. a(. O+~ A~  O'  a~  o'",
    0x4: "A^' O+. a^' O+  A?  O^  a?  o^",
    0x5: "A^` O+' a^` o^. A(  a.  a(  o~",
    0x6: "A^? O+` a^? o+` a(? y?  u+~ o?",
    0x7: "A^. O+? a^. o+? a(~ u+` a^~ o.",
    0x8: "E~  I.  e~  i.  E`  u+? e`  u.",
    0x9: "E.  O?  e.  U+. E'  U`  e'  u`",
    0xA: "E^' O.  e^' U+' E^  U'  e^  u'",
    0xB: "E^` I?  e^` U+` E?  y~  e?  u~",
    0xC: "-   U?  -   -   -   -   -   -",
    0xD: "-   U~  -   -   -   -   -   -",
    0xE: "E^. U.  e^. o+' I~  o+~ i~  o+.",
    0xF: "O^' Y`  o^' U+  y`  u+  i?  U+~",
}
VISCII_RFC_C0 = {0x02: "A(?", 0x05: "A(~", 0x06: "A^~", 0x14: "Y?", 0x19: "Y~", 0x1E: "Y."}


def glibc_charmap(name):
    path = f"/usr/share/i18n/charmaps/{name}.gz"
    if not os.path.exists(path):
        return None
    m = {}
    with gzip.open(path, "rt", encoding="ascii", errors="replace") as f:
        in_map = False
        for line in f:
            if line.startswith("CHARMAP"):
                in_map = True
                continue
            if line.startswith("END CHARMAP"):
                break
            if not in_map or not line.startswith("<U"):
                continue
            parts = line.split()
            cp = int(parts[0][2:-1], 16)
            bs = bytes(int(x, 16) for x in parts[1].split("/x")[1:])
            m[bs] = cp
    return m


def viscii_table(problems):
    rfc = {}
    for low, row in VISCII_RFC_HIGH.items():
        cells = row.split()
        for i, mn in enumerate(cells):
            b = (0x8 + i) << 4 | low
            rfc[b] = None if mn == "-" else mn
    for b, mn in VISCII_RFC_C0.items():
        rfc[b] = mn
    glibc = glibc_charmap("VISCII")
    rows = []
    for b in sorted(rfc):
        mn = rfc[b]
        g = glibc.get(bytes([b])) if glibc else None
        if mn is not None:
            ch = viqr_char(mn)
            src = "RFC 1456 Table 1" if b != 0x9C and b != 0x9D else "Viet-Std VISCII table"
            if g is not None and g != ord(ch):
                problems.append(f"viscii {b:02X}: RFC {mn} = U+{ord(ch):04X}, glibc U+{g:04X}")
        else:
            if g is None:
                problems.append(f"viscii {b:02X}: not in the RFC copy and no glibc charmap")
                continue
            ch = chr(g)
            src = "glibc VISCII (RFC row lost)"
        rows.append((bytes([b]), ch, src))
    if glibc:
        # every glibc non-ASCII assignment must be in ours
        ours = {r[0] for r in rows}
        for bs, cp in glibc.items():
            if bs not in ours and not (len(bs) == 1 and bs[0] == cp):
                problems.append(f"viscii {bs.hex()}: glibc has U+{cp:04X}, we have nothing")
    return rows


VN3_UPPER = {0x0102, 0x00C2, 0x00CA, 0x00D4, 0x01A0, 0x01AF, 0x0110}


def tcvn3_table(problems):
    glibc = glibc_charmap("TCVN5712-1")
    if glibc is None:
        sys.exit("needs /usr/share/i18n/charmaps/TCVN5712-1.gz (glibc locales)")
    rows = []
    for b in range(0x80, 0x100):
        cp = glibc.get(bytes([b]))
        if cp is None:
            problems.append(f"tcvn3 {b:02X}: unassigned in glibc TCVN5712-1")
            continue
        ch = chr(cp)
        if cp == 0xA0 or cp in VN3_UPPER or (ch.islower() and b >= 0xA0):
            level = "vn3"
        else:
            level = "vn2"  # upper-case toned letters and combining marks: VN2 only
        rows.append((bytes([b]), ch, level))
    n3 = sum(1 for r in rows if r[2] == "vn3")
    if n3 != 75:
        problems.append(f"tcvn3: expected 75 VN3 assignments (67 lower, 7 upper, NBSP), found {n3}")
    return rows


# --- VNI-Windows -----------------------------------------------------------------------------
# mark bytes (lower-case letters take the lower-case byte, upper-case the upper-case one)
VNI_TONE = {"'": (0xD9, 0xF9), "`": (0xD8, 0xF8), "?": (0xDB, 0xFB), "~": (0xD5, 0xF5), ".": (0xCF, 0xEF)}
# tone on a circumflex vowel (a^ e^ o^) is one combined byte
VNI_CIRC = {"": (0xC2, 0xE2), "'": (0xC1, 0xE1), "`": (0xC0, 0xE0), "?": (0xC5, 0xE5), "~": (0xC3, 0xE3), ".": (0xC4, 0xE4)}
# breve (a() likewise
VNI_BREVE = {"": (0xCA, 0xEA), "'": (0xC9, 0xE9), "`": (0xC8, 0xE8), "?": (0xDA, 0xFA), "~": (0xDC, 0xFC), ".": (0xCB, 0xEB)}
# horn letters are single bytes used as base: O+ = Ô/ô (D4/F4), U+ = Ö/ö (D6/F6)
VNI_HORN_BASE = {"o": (0xD4, 0xF4), "u": (0xD6, 0xF6)}
# i and the dot-below y are single bytes
VNI_I = {"'": (0xCD, 0xED), "`": (0xCC, 0xEC), "?": (0xC6, 0xE6), "~": (0xD3, 0xF3), ".": (0xD2, 0xF2)}
VNI_Y_DOT = (0xCE, 0xEE)
VNI_DD = (0xD1, 0xF1)


def vni_bytes(mn: str) -> bytes:
    if mn in ("DD", "dd"):
        return bytes([VNI_DD[0 if mn == "DD" else 1]])
    base, marks = mn[0], mn[1:]
    up = 0 if base.isupper() else 1
    v = base.lower()
    shape = marks[0] if marks and marks[0] in "(^+" else ""
    tone = marks[len(shape):]
    if v == "i":
        return bytes([VNI_I[tone][up]])
    if v == "y" and tone == ".":
        return bytes([VNI_Y_DOT[up]])
    if shape == "^":
        return base.encode() + bytes([VNI_CIRC[tone][up]])
    if shape == "(":
        return base.encode() + bytes([VNI_BREVE[tone][up]])
    if shape == "+":
        b = bytes([VNI_HORN_BASE[v][up]])
        return b + (bytes([VNI_TONE[tone][up]]) if tone else b"")
    return base.encode() + bytes([VNI_TONE[tone][up]])


def write(name, header, rows):
    with open(OUT / name, "w", encoding="utf-8", newline="\n") as f:
        for h in header:
            f.write(f"# {h}\n")
        f.write("bytes\tcodepoint\tchar\tnote\n")
        for bs, ch, note in rows:
            f.write(f"{bs.hex(' ').upper()}\tU+{ord(ch):04X}\t{ch}\t{note}\n")


def main():
    problems = []
    letters = all_letters()
    assert len(letters) == 134, len(letters)  # RFC 1456: "134 combinations"
    assert all(len(c) == 1 for _, c in letters), [m for m, c in letters if len(c) != 1]

    write("viqr.tsv", [
        "VIQR (RFC 1456 section 5, Viet-Std 1992): ASCII mnemonics after a vowel, one row per letter.",
        "bytes = the ASCII spelling; shape mark first ( ( ^ + ), then tone ( ' ` ? ~ . ); DD/dd = D-bar.",
        "Variants not in the RFC (accepted by some converters): d- / D- for dd / DD, * for horn, / for acute: rows marked 'variant'.",
    ], [(mn.encode(), ch, "rfc1456") for mn, ch in letters]
       + [(b"d-", "\u0111", "variant"), (b"D-", "\u0110", "variant")])

    write("viscii.tsv", [
        "VISCII 1.1 (RFC 1456 Table 1): single byte; bytes not listed are ASCII (0x00-0x7F).",
        "note = where the row was read: RFC 1456 Table 1, the Viet-Std table, or glibc VISCII where the RFC copy lost the row.",
    ], viscii_table(problems))

    write("tcvn3.tsv", [
        "TCVN3 = TCVN 5712:1993 VN3 ('ABC', .VnTime fonts): single byte; 0x00-0x7F ASCII.",
        "note vn3 = in VN3 itself (67 lower-case letters, 7 upper-case base letters, NBSP);",
        "note vn2 = only in the VN2 superset (upper-case toned letters, combining tone marks B0-B4); a VN3 file never uses them, so reading them is safe.",
        "Upper-case toned letters in real VN3 files are the lower-case bytes shown in a capitals font (.VnTimeH): undecidable from the bytes; we read lower case.",
        "The VN1 assignments in C0 (01 02 04 05 06 11-17: U-acute, U-dot, U-horn toned, Y-grave...) are left out: they collide with control codes.",
    ], tcvn3_table(problems))

    vni_rows = []
    for mn, ch in letters:
        vni_rows.append((vni_bytes(mn), ch, "vni-windows"))
    write("vni.tsv", [
        "VNI-Windows (VNI Software Co.; fonts VNI-Times etc.): a base letter followed by one mark byte, or a single byte.",
        "Single bytes: D1/F1 = D-bar/d-bar, D4/F4 = O-horn/o-horn, D6/F6 = U-horn/u-horn, I/i and Y-dot-below are single bytes;",
        "a horn letter takes a second mark byte (o-horn + acute = F4 F9). No sequence is longer than two bytes.",
        "Upper-case letters take the upper-case mark byte; VNI for DOS and VNI-Mac use other byte values (not covered).",
    ], vni_rows)

    # sanity: VNI sequences unique
    seen = {}
    for bs, ch, _ in vni_rows:
        if bs in seen:
            problems.append(f"vni: {bs.hex()} maps to both {seen[bs]} and {ch}")
        seen[bs] = ch
    for p in problems:
        print("PROBLEM:", p, file=sys.stderr)
    print(f"viqr {len(letters) + 2}, viscii {len(viscii_table([]))}, tcvn3 rows written; {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
