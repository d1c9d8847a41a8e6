#!/usr/bin/env python3
"""Replay every main-line move of xiangqi PGN files with cchess (PyPI), for
benches/bench-xiangqi.sh.

    python3 benches/cchess_replay.py [--pseudo] [--complete-out OUT] FILE...

Reads UTF-8 PGN files holding any number of games (cchess's own read_from_pgn reads one
game per file, so the games are split here with a small tag/movetext splitter; comments,
variations, NAGs and move numbers are skipped). Each token is ICCS (`h2e2`, `H2-E2`) or
Chinese notation (`炮二平五`, cchess's Move.from_text), and is applied with cchess's
board: the piece rules (ChessBoard.is_valid_move), then, unless --pseudo, the test that
the mover's own general is not left in check (ChessBoard.is_checked_move), then
ChessBoard.move, which also marks check and checkmate as cchess does when it loads a
file. A game stops at its first move cchess cannot read or apply.

Prints one line: games, plies replayed, games stopped early (the tool is timed from
outside, interpreter start-up included, as kyphu is). With --complete-out, the games
replayed completely are also written to OUT unchanged, so that both tools can be timed
on exactly the games both read.
"""

import re
import sys

import cchess
from cchess.move import Move

RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
ICCS = re.compile(r"^([a-iA-I])([0-9])-?([a-iA-I])([0-9])$")
MOVE_NUMBER = re.compile(r"^[0-9]+\.+")
COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def games(text):
    """Yield (tags, movetext, raw lines) per game."""
    tags, moves, raw = {}, [], []
    for line in text.splitlines():
        stripped = line.strip()
        match = TAG.match(stripped)
        if match:
            if moves:
                yield tags, "\n".join(moves), raw
                tags, moves, raw = {}, [], []
            tags[match.group(1).lower()] = match.group(2)
        elif stripped and not stripped.startswith("%"):
            moves.append(stripped)
        raw.append(line)
    if moves or tags:
        yield tags, "\n".join(moves), raw


def tokens(movetext):
    """Main-line move tokens: comments, variations, NAGs and numbers dropped."""
    depth = 0
    for raw in COMMENT.sub(" ", movetext).replace("(", " ( ").replace(")", " ) ").split():
        if raw == "(":
            depth += 1
            continue
        if raw == ")":
            depth -= 1
            continue
        if depth > 0 or raw.startswith("$"):
            continue
        tok = MOVE_NUMBER.sub("", raw).rstrip("!?+#")
        if not tok:
            continue
        if tok in RESULTS:
            return
        yield tok


def squares(board, tok):
    """The (from, to) squares of one token, or None when cchess cannot read it."""
    match = ICCS.match(tok)
    if match:
        a, r1, b, r2 = match.groups()
        return cchess.iccs2pos(f"{a.lower()}{r1}{b.lower()}{r2}")
    try:
        return Move.from_text(board, tok)
    except (ValueError, IndexError, KeyError):
        return None


def replay(tags, movetext, pseudo):
    """Plies replayed and whether the whole main line was."""
    board = cchess.ChessBoard(tags.get("fen", cchess.FULL_INIT_FEN))
    plies = 0
    for tok in tokens(movetext):
        move = squares(board, tok)
        if move is None:
            return plies, False
        src, dst = move
        if not board.is_valid_move(src, dst):
            return plies, False
        if not pseudo and board.is_checked_move(src, dst):
            return plies, False
        if board.move(src, dst) is None:
            return plies, False
        board.next_turn()
        plies += 1
    return plies, True


def main(argv):
    pseudo, out, files = False, None, []
    args = iter(argv)
    for arg in args:
        if arg == "--pseudo":
            pseudo = True
        elif arg == "--complete-out":
            out = next(args, None)
        else:
            files.append(arg)
    if not files or (out is None and "--complete-out" in argv):
        print(__doc__, file=sys.stderr)
        return 2
    kept = []
    n_games = n_plies = stopped = 0
    for name in files:
        with open(name, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for tags, movetext, raw in games(text):
            plies, complete = replay(tags, movetext, pseudo)
            n_games += 1
            n_plies += plies
            stopped += not complete
            if complete and out is not None:
                kept.append("\n".join(raw).strip() + "\n")
    if out is not None:
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(kept))
    print(f"games {n_games} plies {n_plies} stopped {stopped}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
