#!/usr/bin/env python3
"""Replay every line of grammars/eco/[a-e].tsv with python-chess and write positions.tsv.

Usage: python3 grammars/eco/positions.py   (needs `pip install chess`)

Output columns: eco, name, uci (moves of the line in UCI), epd (placement, side, castling,
en passant only when an en passant capture is legal: python-chess `board.epd()`), plies.
Exit status 1 and one line on stderr for each line that does not replay.
"""
import io
import pathlib
import sys

import chess
import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent


def main() -> int:
    bad = 0
    rows = []
    for vol in "abcde":
        path = HERE / f"{vol}.tsv"
        with open(path, encoding="utf-8") as f:
            for lno, line in enumerate(f, 1):
                cols = line.rstrip("\n").split("\t")
                if lno == 1:
                    if cols != ["eco", "name", "pgn"]:
                        print(f"{path.name}:1: unexpected header {cols}", file=sys.stderr)
                        bad += 1
                    continue
                if len(cols) != 3:
                    print(f"{path.name}:{lno}: expected 3 columns, found {len(cols)}", file=sys.stderr)
                    bad += 1
                    continue
                eco, name, pgn = cols
                game = chess.pgn.read_game(io.StringIO(pgn))
                if game is None or game.errors:
                    errs = game.errors if game is not None else "no game"
                    print(f"{path.name}:{lno}: {eco} {name}: does not replay: {errs}", file=sys.stderr)
                    bad += 1
                    continue
                board = game.board()
                uci = []
                for mv in game.mainline_moves():
                    uci.append(mv.uci())
                    board.push(mv)
                # the SAN must round-trip: re-render and compare token by token
                san = game.board().variation_san(list(game.mainline_moves()))
                if san != pgn:
                    print(f"{path.name}:{lno}: {eco} {name}: SAN differs after replay: {san!r} vs {pgn!r}", file=sys.stderr)
                    bad += 1
                rows.append((eco, name, " ".join(uci), board.epd(), str(len(uci))))
    with open(HERE / "positions.tsv", "w", encoding="utf-8", newline="\n") as out:
        out.write("eco\tname\tuci\tepd\tplies\n")
        for r in rows:
            out.write("\t".join(r) + "\n")
    print(f"{len(rows)} lines replayed, {bad} failed", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
