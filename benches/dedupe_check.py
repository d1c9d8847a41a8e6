#!/usr/bin/env python3
"""An independent count of the duplicates `kyphu convert --dedupe` leaves out (issue 28),
with python-chess (1.11): each game's main line in UCI, compared whole and as a prefix.

    dedupe_check.py addmove IN OUT [--every 10] [--seed 28] [--fast]
        IN with one legal move (chosen at random, seeded) added before the result of
        every tenth game; every other byte kept. Prints the number of games given one.
        --fast: games cut at `[Event ` lines, and only every tenth read (--every 10).
    dedupe_check.py count [--by moves|players|game|all] FILE...
        the duplicates among the games of FILE... read in order as one run: prints
        `BY: games G compared C exact E prefix P` for each rule (default: game).

The rule counted is the one docs/cli.md documents ("Removing duplicates"): a game takes
part when it is read to its end (python-chess: no error) with at least one move; its
identity is its start position and main line, plus by `players` the folded names of
White and Black (case, accents, word order), plus by `game` the `Date` and `Round` as
written. A game whose line another game's line strictly continues is a prefix
duplicate (all its copies); of the other lines, every game but one is an exact
duplicate. Which game is kept does not change the counts.

Lines are compared by sorting them: a line that is a strict prefix of another is
followed in sorted order by a line that begins with it (no replay, no hash).
"""

import io
import random
import re
import sys
import unicodedata

import chess
import chess.pgn

RESULT = re.compile(r"(1-0|0-1|1/2-1/2|\*)")


def read_text(path, keep_newlines=False):
    """The text of `path`; `keep_newlines`: CR LF kept as written (not made LF)."""
    newline = "" if keep_newlines else None
    with open(path, encoding="utf-8", errors="surrogateescape", newline=newline) as f:
        return f.read()


def games(text, fast=False):
    """(start, end, game) for each game of the text, by character offsets. `fast`:
    the text is cut before each line that begins with `[Event `, and only every
    tenth piece is read (the others are yielded as None): for the bench archive."""
    if fast:
        starts = [0] + [m.start() + 1 for m in re.finditer(r"\n\[Event ", text)]
        starts.append(len(text))
        for number, (start, end) in enumerate(zip(starts, starts[1:]), 1):
            game = None
            if number % 10 == 0:
                game = chess.pgn.read_game(io.StringIO(text[start:end]))
            yield start, end, game
        return
    handle = io.StringIO(text)
    while True:
        start = handle.tell()
        game = chess.pgn.read_game(handle)
        if game is None:
            return
        yield start, handle.tell(), game


def records(text):
    """(headers, game) for each game as kyphu reads it: python-chess parts a game whose
    tags are followed by two blank lines into a game of tags without moves and a game of
    moves without tags (then given default tags); they are one game here, the tags of
    the first with the moves of the second."""
    pending = None
    for start, end, game in games(text):
        has_tags = text[start:end].lstrip().startswith("[")
        if pending is not None:
            if not has_tags:
                yield pending.headers, game
                pending = None
                continue
            yield pending.headers, pending
            pending = None
        if has_tags and not game.errors and game.next() is None:
            pending = game
            continue
        yield game.headers, game
    if pending is not None:
        yield pending.headers, pending


def add_moves(src, dst, every, seed, fast=False):
    rng = random.Random(seed)
    text = read_text(src, keep_newlines=True)
    out = []
    at = 0
    added = 0
    for number, (start, end, game) in enumerate(games(text, fast), 1):
        if number % every != 0 or game is None or game.errors:
            continue
        board = game.end().board()
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves:
            continue  # mate or stalemate: left as it was
        # the result that ends the movetext: the last one on a line that is not a tag
        span = text[start:end]
        where = None
        offset = 0
        for line in span.splitlines(keepends=True):
            if not line.lstrip().startswith("["):
                for m in RESULT.finditer(line):
                    where = offset + m.start()
            offset += len(line)
        if where is None:
            continue
        move = rng.choice(moves)
        out.append(text[at : start + where])
        out.append(board.san(move) + " ")
        at = start + where
        added += 1
    out.append(text[at:])
    with open(dst, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write("".join(out))
    print(added)


def fold(name):
    """A name folded as kyphu's selection folds it, for the rules by players: letters
    without accents, lower case, words sorted."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = plain.replace("đ", "d").replace("ł", "l").replace("ø", "o").replace("ß", "ss")
    words = [w for w in re.split(r"[^\w]|_", plain) if w]
    return " ".join(sorted(words))


def count(paths, rules):
    lines = {by: {} for by in rules}
    read = 0
    for path in paths:
        text = read_text(path)
        for headers, game in records(text):
            read += 1
            if game.errors:
                continue
            moves = tuple(m.uci() for m in game.mainline_moves())
            if not moves:
                continue
            for by in rules:
                who = ()
                if by in ("players", "game"):
                    who = (fold(headers.get("White", "")), fold(headers.get("Black", "")))
                if by == "game":
                    who += (headers.get("Date", "").strip(), headers.get("Round", "").strip())
                key = (game.board().fen(), who)
                same = lines[by].setdefault(key, {})
                same[moves] = same.get(moves, 0) + 1
    for by in rules:
        compared = exact = prefix = 0
        for by_line in lines[by].values():
            ordered = sorted(by_line)
            for i, line in enumerate(ordered):
                n = by_line[line]
                compared += n
                after = ordered[i + 1] if i + 1 < len(ordered) else None
                if after is not None and after[: len(line)] == line:
                    prefix += n
                else:
                    exact += n - 1
        print(f"{by}: games {read} compared {compared} exact {exact} prefix {prefix}")


def main(argv):
    if len(argv) >= 3 and argv[0] == "addmove":
        every, seed, fast = 10, 28, False
        rest = argv[3:]
        while rest:
            if rest[0] == "--fast":
                fast = True
                rest = rest[1:]
                continue
            if rest[0] == "--every":
                every = int(rest[1])
            elif rest[0] == "--seed":
                seed = int(rest[1])
            else:
                sys.exit(f"unknown option {rest[0]}")
            rest = rest[2:]
        add_moves(argv[1], argv[2], every, seed, fast)
    elif len(argv) >= 2 and argv[0] == "count":
        rules = ["game"]
        rest = argv[1:]
        if rest[0] == "--by":
            rules = ["moves", "players", "game"] if rest[1] == "all" else [rest[1]]
            rest = rest[2:]
        for by in rules:
            if by not in ("moves", "players", "game"):
                sys.exit(f"--by moves, players, game or all, not {by}")
        count(rest, rules)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
