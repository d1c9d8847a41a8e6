#!/usr/bin/env python3
"""Writes one input layout of issue 22 to standard output, for benches/memory.sh.

    benches/layouts.py LAYOUT UNITS

LAYOUT: lines (one game per line, no blank line or tags between), numbers (games
separated only by their move numbers), huge (one game of UNITS million plies), huge-many
(UNITS games of two million plies each), strict (games where every move gets a
`check --strict` note), tags (games of 20 000 tags each). A unit is about 5-25 MB.
"""
import sys

w = sys.stdout.write
layout, units = sys.argv[1], int(sys.argv[2])
CYCLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def huge(plies):
    parts = ['[Event "huge"]\n\n']
    for i in range(plies):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}. ")
        parts.append(CYCLE[i % 4])
        parts.append("\n" if i % 16 == 15 else " ")
        if len(parts) > 100000:
            w("".join(parts))
            parts = []
    parts.append("*\n\n")
    w("".join(parts))


if layout == "lines":
    for _ in range(5 * units):
        w("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0\n" * 100000)
elif layout == "numbers":
    for _ in range(4 * units):
        w("1. d4 d5 2. c4 e6 3. Nc3 Nf6\n" * 100000)
elif layout == "huge":
    huge(1000000 * units)
elif layout == "huge-many":
    for _ in range(units):
        huge(2000000)
elif layout == "strict":
    game = '[Event "s"]\n\n' + "".join(
        f"{2 * i + 1}. Ngf3 Ngf6 {2 * i + 2}. Nf3g1 Nf6g8\n" for i in range(200)
    ) + "*\n\n"
    for _ in range(2000 * units):
        w(game)
elif layout == "tags":
    game = "".join(f'[T{i} "value"]\n' for i in range(20000)) + "\n1. e4 *\n\n"
    for _ in range(10 * units):
        w(game)
else:
    sys.exit(f"unknown layout {layout}")
