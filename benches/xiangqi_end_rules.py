#!/usr/bin/env python3
"""Fairy-Stockfish's (pyffish's) reading of the end-of-game facts of xiangqi games, for
tests/xiangqi_end_rules.rs: an independent reader to compare kyphu's xq-* findings with.

    kyphu convert --to json --game xiangqi FILE... | python3 benches/xiangqi_end_rules.py

Reads kyphu's JSON Lines (one game a line) on standard input and takes from each game
only its start FEN and its main line as ICCS moves (`uci`, ranks 0-9); kyphu's own
diagnostics are not read. Each move is turned into Fairy-Stockfish's coordinates (ranks
1-10) and must be one of pyffish's legal moves, else the game is skipped. Prints one
tab-separated line per game:

    game  status  plies  no_legal  first_threefold  verdict  end_rules

* game: the game's place among the input's games (1 = the first).
* status: `ok`, or `skipped:<why>` (a move pyffish does not take, a null move, an
  illegal move kept by kyphu); the other fields are then `-`.
* plies: the number of moves of the main line.
* no_legal: `red` or `black` when the side to move in the final position has no legal
  move (pyffish's game_result then says that side lost: `red-loses`/`black-loses` is
  checked against it), else `-`.
* first_threefold: the ply (1 = the first recorded move) at which a position (placement
  and side to move) occurs for the third time, else `-`.
* verdict: what pyffish's is_optional_game_end says at that ply: `draw`,
  `red-loses` or `black-loses` (its repetition rules: perpetual check loses, then its
  chasing rule, else a draw), else `-`.
* end_rules: for every later ply where is_optional_game_end also ends the game on a
  new threefold position, `ply:verdict` joined by `,` (`-` when none).
"""

import json
import sys

import pyffish as sf

VARIANT = "xiangqi"


def to_fsf(iccs):
    """ICCS `h2e2` (ranks 0-9) to Fairy-Stockfish `h3e3` (ranks 1-10)."""
    if len(iccs) != 4 or iccs[0] not in "abcdefghi" or iccs[2] not in "abcdefghi":
        return None
    if not (iccs[1].isdigit() and iccs[3].isdigit()):
        return None
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def verdict(fen, moves):
    """is_optional_game_end after `moves`: None, or draw / <side>-loses."""
    end, value = sf.is_optional_game_end(VARIANT, fen, moves)
    if not end:
        return None
    # the value is for the side to move after `moves`
    to_move = "black" if len(moves) % 2 == (0 if fen.split()[1] == "b" else 1) else "red"
    other = "red" if to_move == "black" else "black"
    if value > 0:
        return f"{other}-loses"
    if value < 0:
        return f"{to_move}-loses"
    return "draw"


def placement(fen):
    """The board of a FEN as a dict {(file, rank): letter}, ranks 0-9 from Red's side."""
    board = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        rank, file = 9 - row, 0
        for c in text:
            if c.isdigit():
                file += int(c)
            else:
                board[(file, rank)] = c
                file += 1
    return board


def game(g):
    fen = g.get("start_fen") or sf.start_fen(VARIANT)
    iccs = []
    for m in g.get("moves", []):
        if m.get("illegal"):
            return "skipped:illegal-kept", None
        u = m.get("uci") or ""
        if to_fsf(u) is None:
            return "skipped:not-a-move", None
        iccs.append(u)
    moves = [to_fsf(u) for u in iccs]
    # pyffish takes the whole line or raises on the first move it finds illegal (one
    # call: each pyffish call sets the position up from the FEN, ~20 ms)
    try:
        final = sf.get_fen(VARIANT, fen, moves)
    except ValueError as e:
        return f"skipped:pyffish-rejects:{e}".replace("\t", " "), None
    # the positions along the line, to find the plies where one occurs a third time
    # (pyffish is asked only there); a capture makes no earlier position come back, so
    # counting over the whole line is counting since the last capture
    board = placement(fen)
    red = fen.split()[1] != "b"
    seen = {(frozenset(board.items()), red): 1}
    first = None
    ends = []
    for i, u in enumerate(iccs):
        a = (ord(u[0]) - 97, int(u[1]))
        b = (ord(u[2]) - 97, int(u[3]))
        board[b] = board.pop(a)
        red = not red
        key = (frozenset(board.items()), red)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 3:
            v = verdict(fen, moves[: i + 1])
            if v is None:
                return f"skipped:no-end-at-threefold-ply-{i + 1}", None
            if first is None:
                first = (i + 1, v)
            else:
                ends.append(f"{i + 1}:{v}")
    no_legal = "-"
    if not sf.legal_moves(VARIANT, final, []):
        side = "black" if final.split()[1] == "b" else "red"
        result = sf.game_result(VARIANT, fen, moves)
        if result >= 0:
            return f"skipped:game-result-{result}", None
        no_legal = side
    return "ok", (len(moves), no_legal, first, ends)


def main():
    seq = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        g = json.loads(line)
        if "game_index" not in g.get("source", {}):
            continue  # text between games, not a game
        # the game's place among the input's games, from 1 (game_index counts per file)
        seq += 1
        index = seq
        status, facts = game(g)
        if facts is None:
            print(f"{index}\t{status}\t-\t-\t-\t-\t-")
            continue
        plies, no_legal, first, ends = facts
        first_ply, first_verdict = first if first else ("-", "-")
        print(
            f"{index}\t{status}\t{plies}\t{no_legal}\t{first_ply}\t{first_verdict}\t"
            f"{','.join(ends) or '-'}"
        )


if __name__ == "__main__":
    main()
