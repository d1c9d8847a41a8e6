#!/usr/bin/env python3
"""Decode corpus/encodings/<enc>/names.txt with grammars/encodings/<enc>.tsv and compare.

Ours (MIT OR Apache-2.0). The name files are made by corpus/encodings/tools/make_names.py
without these tables (glibc iconv for VISCII/TCVN3, NFD rules for VNI/VIQR), so agreement
here checks the tables. Greedy longest match; bytes not in a table are read as Latin-1
(ASCII in practice); VIQR marks apply only after a letter that can take them (a table hit).
Exit status 1 on any difference.
"""
import pathlib
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parents[3]


def load(enc):
    m = {}
    for line in open(ROOT / "grammars/encodings" / f"{enc}.tsv", encoding="utf-8"):
        if line.startswith("#") or line.startswith("bytes\t"):
            continue
        bs, cp, _ch, _note = line.rstrip("\n").split("\t")
        m[bytes.fromhex(bs.replace(" ", ""))] = chr(int(cp[2:], 16))
    return m


def decode(data, table):
    longest = max(len(k) for k in table)
    out, i = [], 0
    while i < len(data):
        for n in range(min(longest, len(data) - i), 0, -1):
            ch = table.get(data[i:i + n])
            if ch is not None:
                out.append(ch)
                i += n
                break
        else:
            out.append(chr(data[i]))
            i += 1
    return unicodedata.normalize("NFC", "".join(out))


def main():
    bad = 0
    c = ROOT / "corpus/encodings"
    truth = (c / "names.utf8.txt").read_text(encoding="utf-8")
    for enc in ("viscii", "tcvn3", "vni", "viqr"):
        table = load(enc)
        exp = truth
        if (c / enc / "names.expected.utf8.txt").exists():
            exp = (c / enc / "names.expected.utf8.txt").read_text(encoding="utf-8")
        got = decode((c / enc / "names.txt").read_bytes(), table)
        for ln, (g, e) in enumerate(zip(got.splitlines(), exp.splitlines()), 1):
            if g != e:
                print(f"{enc}: line {ln}: got {g!r}, expected {e!r}")
                bad += 1
        n = len(exp.splitlines())
        print(f"{enc}: {n} names, {sum(1 for g, e in zip(got.splitlines(), exp.splitlines()) if g == e)} equal")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
