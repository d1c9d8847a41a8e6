#!/usr/bin/env python3
"""Make doubly decoded ("mojibake") names and their truth under corpus/encodings/mojibake/.

Ours (MIT OR Apache-2.0). Each real name (mojibake/names.sources.tsv, NFC UTF-8) is
mis-decoded the way real archives were: its UTF-8 bytes read as windows-1252 (or Latin-1,
or windows-1251 for Cyrillic) and the result stored again as UTF-8; `cp1252x2` does it
twice. windows-1252 here is the WHATWG one: the five bytes it leaves undefined (81 8D 8F 90
9D) become U+0081 etc., as browsers and Windows do (Python's strict cp1252 would fail).

Writes mojibake/cases.tsv (kind, input, truth) and mojibake/games.pgn with
mojibake/games.expected.pgn (same games, names repaired). Kind `clean` rows are correctly
decoded names, several with Ã Â Ð Ñ Å Ø Þ or upper-case Vietnamese, that a repair must leave
unchanged (input == truth).
"""
import pathlib
import unicodedata

HERE = pathlib.Path(__file__).resolve().parent.parent / "mojibake"


def cp1252_whatwg(data: bytes) -> str:
    out = []
    for b in data:
        try:
            out.append(bytes([b]).decode("cp1252"))
        except UnicodeDecodeError:
            out.append(chr(b))  # 81 8D 8F 90 9D -> C1 control, as WHATWG
    return "".join(out)


KINDS = {
    "cp1252": lambda s: cp1252_whatwg(s.encode("utf-8")),
    "latin1": lambda s: s.encode("utf-8").decode("latin-1"),
    "cp1251": lambda s: s.encode("utf-8").decode("cp1251", errors="strict"),
    "cp1252x2": lambda s: cp1252_whatwg(cp1252_whatwg(s.encode("utf-8")).encode("utf-8")),
    "clean": lambda s: s,
}


def main():
    rows = [l.rstrip("\n").split("\t") for l in open(HERE / "names.sources.tsv", encoding="utf-8")][1:]
    cases = []
    for kind, name, _src in rows:
        truth = unicodedata.normalize("NFC", name)
        cases.append((kind, KINDS[kind](truth), truth))
    with open(HERE / "cases.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("kind\tinput\ttruth\n")
        for k, i, t in cases:
            assert "\t" not in i and "\n" not in i
            f.write(f"{k}\t{i}\t{t}\n")
    pgn, exp = [], []
    for n, (k, i, t) in enumerate(cases):
        head = f'[Event "kyphu mojibake test ({k})"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "{n + 1}"]\n'
        tail = '[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'
        pgn.append(head + f'[White "{i}"]\n[Black "Lê Quang Liêm"]\n' + tail)
        exp.append(head + f'[White "{t}"]\n[Black "Lê Quang Liêm"]\n' + tail)
    (HERE / "games.pgn").write_text("".join(pgn), encoding="utf-8")
    (HERE / "games.expected.pgn").write_text("".join(exp), encoding="utf-8")
    by = {}
    for k, i, t in cases:
        by[k] = by.get(k, 0) + 1
        assert (i == t) == (k == "clean"), (k, i, t)
    print(by)


if __name__ == "__main__":
    main()
