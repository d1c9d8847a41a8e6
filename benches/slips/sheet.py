# SPDX-License-Identifier: MIT OR Apache-2.0
"""Shared code of the slip benchmark: piece letters, writing a move as a person
would in a given language and style, and reading such a move back (the benchmark's
own small reader, used to classify a slip's effect and to read kyphu's candidates).
"""

from __future__ import annotations

import os
import re

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PIECES_TSV = os.path.join(REPO, "grammars", "chess-pieces.tsv")

ROLES = {
    "king": chess.KING,
    "queen": chess.QUEEN,
    "rook": chess.ROOK,
    "bishop": chess.BISHOP,
    "knight": chess.KNIGHT,
    "pawn": chess.PAWN,
}

# The languages of the benchmark's sheets.
LANGS = ["en", "vi", "de", "fr", "ru", "es", "zh", "fa"]


def load_letters(path: str = PIECES_TSV) -> tuple[dict, dict]:
    """Returns (writer, reader): writer[lang][piece_type] = the letter writers use
    (first row of the role); reader[lang] = [(letter, piece_type)] longest first."""
    writer: dict[str, dict[int, str]] = {}
    reader: dict[str, list[tuple[str, int]]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            code, _name, role, letter = line.rstrip("\n").split("\t")[:4]
            pt = ROLES[role]
            writer.setdefault(code, {}).setdefault(pt, letter)
            reader.setdefault(code, []).append((letter, pt))
    for code in reader:
        reader[code].sort(key=lambda lp: -len(lp[0]))
    return writer, reader


WRITER, READER = load_letters()


# Styles: how each language's sheets are written (documented in README.md).
#   castle: "O" (O-O) or "0" (0-0); promo: "=" (e8=Q) or "" (e8Q, FIDE);
#   form: "short" (SAN, Nf3) or "long" (Ng1-f3, e4:d5, Russian tradition);
#   capture: the capture mark.
LANG_STYLE = {
    "en": {"castle": "O", "promo": "=", "form": "short", "capture": "x"},
    "vi": {"castle": "0", "promo": "", "form": "short", "capture": "x"},
    "de": {"castle": "0", "promo": "", "form": "short", "capture": "x"},
    "fr": {"castle": "O", "promo": "=", "form": "short", "capture": "x"},
    "ru": {"castle": "0", "promo": "", "form": "long", "capture": ":"},
    "es": {"castle": "O", "promo": "=", "form": "short", "capture": "x"},
    "zh": {"castle": "O", "promo": "=", "form": "short", "capture": "x"},
    "fa": {"castle": "O", "promo": "=", "form": "short", "capture": "x"},
}


class Parts:
    """A move as written, in parts, so that a slip can change one part."""

    def __init__(self, board: chess.Board, move: chess.Move, lang: str, style: dict):
        self.lang = lang
        self.style = style
        self.castle = None
        if board.is_castling(move):
            self.castle = "long" if chess.square_file(move.to_square) < 4 else "short"
        pt = board.piece_type_at(move.from_square)
        self.piece = "" if pt == chess.PAWN else WRITER[lang][pt]
        self.piece_type = pt
        self.from_sq = chess.square_name(move.from_square)
        self.dest = chess.square_name(move.to_square)
        self.capture = board.is_capture(move)
        self.promo = WRITER[lang][move.promotion] if move.promotion else ""
        # SAN disambiguation, taken from python-chess's SAN.
        san = board.san(move)
        self.disamb = ""
        if pt != chess.PAWN and self.castle is None:
            core = san[1:].replace("x", "").rstrip("+#")
            self.disamb = core[: len(core) - 2]
        elif pt == chess.PAWN and self.capture:
            self.disamb = self.from_sq[0]
        board.push(move)
        self.check = "#" if board.is_checkmate() else ("+" if board.is_check() else "")
        board.pop()

    def text(self) -> str:
        st = self.style
        mark = self.check if st["checks"] else ""
        if self.castle:
            o = st["castle"]
            return "-".join([o] * (3 if self.castle == "long" else 2)) + mark
        promo = (st["promo"] + self.promo) if self.promo else ""
        if st["form"] == "long":
            sep = st["capture"] if self.capture else "-"
            return f"{self.piece}{self.from_sq}{sep}{self.dest}{promo}{mark}"
        cap = st["capture"] if self.capture else ""
        return f"{self.piece}{self.disamb}{cap}{self.dest}{promo}{mark}"


# ---------------------------------------------------------------------------
# The benchmark's own reader: which legal moves a written token can mean.

CASTLE_RE = re.compile(r"^[0Oo]-?[0Oo](-?[0Oo])?$")
MOVE_RE = re.compile(
    r"^(?P<from>[a-h]?[1-8]?)(?P<sep>[x:\-]?)(?P<dest>[a-h][1-8])(?P<promo>=?.*)?$"
)


def _strip(text: str) -> str:
    t = text.strip().rstrip("+#!?")
    # e.p. marks
    for ep in ("e.p.", "ep"):
        if t.endswith(ep) and len(t) > len(ep) + 1:
            t = t[: -len(ep)].rstrip()
    return t


def resolve(board: chess.Board, text: str, langs: list[str]) -> list[chess.Move] | None:
    """The legal moves `text` can mean in `board` under the first language of
    `langs` that reads it; None when no language can read its form at all
    (unreadable). The capture mark is not used to choose (it is optional)."""
    t = _strip(text)
    if not t:
        return None
    if CASTLE_RE.match(t):
        long = sum(c in "0Oo" for c in t) == 3
        out = []
        for m in board.legal_moves:
            if board.is_castling(m):
                is_long = chess.square_file(m.to_square) < 4
                if is_long == long:
                    out.append(m)
        return out
    # UCI
    if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?$", t):
        try:
            m = chess.Move.from_uci(t)
            return [m] if m in board.legal_moves else []
        except ValueError:
            pass
    readable = False
    for lang in langs:
        pt = chess.PAWN
        rest = t
        for letter, p in READER.get(lang, []):
            if letter and t.startswith(letter) and (letter[0].isupper() or not letter.isascii()):
                pt = p
                rest = t[len(letter):]
                break
        m = MOVE_RE.match(rest)
        if not m:
            continue
        promo_txt = (m.group("promo") or "").lstrip("=()/")
        promo = None
        if promo_txt:
            for letter, p in READER.get(lang, []):
                if promo_txt == letter:
                    promo = p
            if promo is None:
                continue
        readable = True
        frm = m.group("from")
        dest = chess.parse_square(m.group("dest"))
        out = []
        for mv in board.legal_moves:
            if mv.to_square != dest or board.piece_type_at(mv.from_square) != pt:
                continue
            if board.is_castling(mv):
                continue
            name = chess.square_name(mv.from_square)
            if any(c.isalpha() for c in frm) and name[0] not in frm:
                continue
            if any(c.isdigit() for c in frm) and name[1] not in frm:
                continue
            if pt == chess.PAWN and not frm and board.is_capture(mv):
                continue
            if (mv.promotion or None) != promo and not (promo is None and mv.promotion is None):
                continue
            out.append(mv)
        if out:
            return out
        # readable under this language but no move: try the next language
        # only when this one gave nothing.
    return [] if readable else None


def effect(board: chess.Board, text: str, lang: str, true_move: chess.Move | None) -> str:
    """How a written token reads in the true position, under the sheet's language:
    same (the meant move, harmless), other-legal, ambiguous, illegal, unreadable."""
    moves = resolve(board, text, [lang])
    if moves is None:
        return "unreadable"
    if not moves:
        return "illegal"
    if len(moves) > 1:
        return "ambiguous"
    return "same" if moves[0] == true_move else "other-legal"


def fen_key(fen: str) -> str:
    """Placement, side to move and castling rights: the en passant field is left
    out, since writers differ on it (kyphu names the square after every double
    step, python-chess only when a capture there is legal)."""
    return " ".join(fen.split()[:3])
