//! The PGN writer's fast path: a move of the usual kind (a chess move with its
//! [`SanHint`], nothing around it) written from its hint, its number and SAN put
//! together in a [`Token`] of fixed room and appended with one copy, without
//! replaying the game ([`all_hinted`]). The test below compares it with the general
//! path of `mod.rs` on random games.

use super::*;

/// The move of `node` and its [`SanHint`] when it is of the usual kind, written by
/// [`PgnWriter::put_usual`]: a chess move with its hint, without comment, NAG, clock,
/// draw offer or variation, not illegal.
#[inline(always)]
pub(super) fn usual_move(node: &MoveNode) -> Option<(&Move, SanHint)> {
    match (&node.mv, node.san) {
        (AnyMove::Chess(m), Some(hint))
            if !node.has_extras() && node.clock.is_none() && !node.draw_offer && !node.illegal =>
        {
            Some((m, hint))
        }
        _ => None,
    }
}

/// Room of a [`Token`]: a move number, SAN and their separators. The longest usual
/// move of every letter table fits (test `longest_usual_move_fits_a_token`); a longer
/// one would be left to the general path ([`PgnWriter::put_usual`]).
pub(super) const TOKEN: usize = 32;

/// Move-number tokens below 1000, each after its separator and followed by the dots
/// of Black's move: ` 7...`, ` 12...`, ` 123...`; the last byte is the number of digits.
/// [`Token::push_number`] takes the first `2 + digits` bytes for White.
pub(super) const NUMBERS: [[u8; 8]; 1000] = {
    let mut t = [[0; 8]; 1000];
    let mut n = 0;
    while n < 1000 {
        let digits = if n < 10 {
            1
        } else if n < 100 {
            2
        } else {
            3
        };
        let mut w = [b' ', b'.', b'.', b'.', b'.', b'.', b'.', digits as u8];
        let mut i = digits;
        let mut rest = n;
        while i > 0 {
            w[i] = b'0' + (rest % 10) as u8;
            rest /= 10;
            i -= 1;
        }
        t[n] = w;
        n += 1;
    }
    t
};

/// Text put together in a fixed array, each byte stored without a check of a
/// buffer's capacity. `len` counts every byte pushed, also those past the array's
/// end (stored over earlier ones): `len > TOKEN` tells that the text did not fit.
pub(super) struct Token {
    pub(super) bytes: [u8; TOKEN],
    pub(super) len: usize,
}

impl Token {
    #[inline(always)]
    pub(super) fn new() -> Token {
        Token {
            bytes: [0; TOKEN],
            len: 0,
        }
    }

    /// Appends a move-number token after its separator (a space): ` 12.` for White,
    /// ` 12...` for Black, from [`NUMBERS`] when the number is below 1000.
    #[inline(always)]
    pub(super) fn push_number(&mut self, n: u32, turn: Color) {
        let dots = if turn == Color::White { 1 } else { 3 };
        match NUMBERS.get(n as usize) {
            Some(w) if self.len == 0 => {
                if let Some(b) = self.bytes.get_mut(..8) {
                    b.copy_from_slice(w);
                }
                self.len = 1 + usize::from(w[7]) + dots;
            }
            _ => {
                self.push_ascii(b' ');
                crate::emit::push_u64(self, u64::from(n));
                self.push_text(if dots == 1 { "." } else { "..." });
            }
        }
    }

    /// Writes `c` over the byte at `i` (a separator put in before it was known).
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, c: u8) {
        if let Some(b) = self.bytes.get_mut(i) {
            *b = c;
        }
    }
}

impl SanOut for Token {
    #[inline(always)]
    fn push_ascii(&mut self, c: u8) {
        // always in the array (no check): bytes past its end are written over earlier
        // ones, in a token `put_usual` drops
        if let Some(b) = self.bytes.get_mut(self.len % TOKEN) {
            *b = c;
        }
        self.len += 1;
    }

    #[inline(always)]
    fn push_text(&mut self, s: &str) {
        // most letters are one byte: no loop for them
        match s.as_bytes() {
            [c] => self.push_ascii(*c),
            bytes => {
                for &c in bytes {
                    self.push_ascii(c);
                }
            }
        }
    }
}

/// Whether every move of `line` and its variations is a chess move with its
/// [`crate::model::game::SanHint`] or a null move (iterative: no recursion on deep input).
pub(super) fn all_hinted(line: &Line) -> bool {
    let mut lines = Vec::new();
    let mut next = Some(line);
    while let Some(l) = next.take().or_else(|| lines.pop()) {
        for n in &l.moves {
            let hinted = match n.mv {
                AnyMove::Chess(_) => n.san.is_some(),
                AnyMove::Null => true,
                AnyMove::Xiangqi(_) => false,
            };
            if !hinted {
                return false;
            }
            let variations = n.variations();
            if !variations.is_empty() {
                lines.extend(variations);
            }
        }
    }
    true
}

impl<W: io::Write> PgnWriter<W> {
    /// Appends a move of the usual kind ([`usual_move`]) as the general path of
    /// [`Self::write_line`] writes it, its move number first when White plays it or
    /// when `need_number` (`fullmoves`: the move number; `turn`: the side playing it),
    /// and returns `true`; returns `false`, with nothing written, when the tokens do
    /// not fit in a [`Token`] (long piece letters and a long move number).
    ///
    /// The number and move tokens are put together in a [`Token`], each after its
    /// separator, and appended with one copy of a known length; the separators are
    /// laid out by [`Self::place`], the rule of [`Self::token`].
    #[inline(always)]
    pub(super) fn put_usual(
        &mut self,
        fullmoves: u32,
        turn: Color,
        need_number: bool,
        m: &Move,
        hint: SanHint,
    ) -> bool {
        let mut t = Token::new();
        let number = turn == Color::White || need_number;
        if number {
            t.push_number(fullmoves, turn);
        }
        let san_at = t.len;
        t.push_ascii(b' ');
        San::from_hint(*m, hint).write(&mut t, &self.opts.moves.chess);
        if t.len > TOKEN {
            return false;
        }
        // the separator before the first token is left out when the line is empty
        // (the movetext's first token): every offset in `buf` is one less
        let end = self.buf.len();
        let skip = usize::from(self.line_chars == 0);
        let at = end - skip;
        if number {
            let sep = self.place(at + 1, san_at - 1);
            t.set(0, sep);
        }
        let san = t.bytes.get(san_at + 1..t.len).unwrap_or(&[]);
        let chars = if self.ascii_letters {
            san.len()
        } else {
            utf8_chars(san)
        };
        let sep = self.place(at + san_at + 1, chars);
        t.set(san_at, sep);
        self.buf.extend_from_slice(&t.bytes);
        self.buf.truncate(end + t.len);
        if skip == 1 {
            self.buf.remove(end);
        }
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{chess::Position, model::diag::Span};

    /// A random PGN record for [`usual_path_agrees_with_general`]: random legal moves
    /// from one of a few starts (the standard one, Black to move, move numbers about
    /// to grow a digit or past 999, chess960, pawns about to promote), some moves
    /// with what takes them off the usual path (NAGs, comments, clocks, variations,
    /// draw offers, null moves, an illegal move) or with a long comment.
    fn random_record(rng: &mut crate::testing::XorShift) -> String {
        use crate::notation::chess::{SanStyle, write_san};
        let starts = [
            crate::chess::START_FEN,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 97",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 996",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967290",
            "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1",
            "r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R w KQkq - 0 1",
        ];
        let which = rng.below(starts.len());
        let fen = starts[which];
        let chess960 = which == 5;
        let variant = if chess960 {
            "[Variant \"Chess960\"]\n"
        } else {
            ""
        };
        let mut s = format!("[Event \"e\"]\n{variant}[FEN \"{fen}\"]\n\n");
        if rng.below(8) == 0 {
            s.push_str("{before the first move} ");
        }
        let pos = if chess960 {
            crate::chess::Position::from_fen_chess960(fen)
        } else {
            crate::chess::Position::from_fen(fen)
        };
        let mut pos = pos.unwrap();
        let plies = rng.below(160);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let number = pos.fullmoves();
            if pos.turn() == Color::White {
                s.push_str(&format!("{number}. "));
            } else {
                s.push_str(&format!("{number}... "));
            }
            let mut san = String::new();
            write_san(&mut san, &pos, &m, &SanStyle::pgn());
            match rng.below(40) {
                0 => s.push_str(&format!("{san}!? ")),
                1 => s.push_str(&format!("{san} {{a comment}} ")),
                2 => s.push_str(&format!("{san} {{[%clk 0:0{}:05]}} ", rng.below(10))),
                3 => s.push_str(&format!("{san} $4 $18 ")),
                4 => {
                    s.push_str(&san);
                    if let Some(a) = moves.iter().find(|&&a| a != m) {
                        let mut alt = String::new();
                        write_san(&mut alt, &pos, a, &SanStyle::pgn());
                        s.push_str(&format!(" ({alt} {{x}}) "));
                    }
                }
                5 => {
                    s.push_str("-- ");
                    pos.play_null();
                    continue;
                }
                6 => s.push_str(&format!("{san} (=) ")),
                7 => s.push_str(&format!(
                    "{san} {{[a] %b [c {} d}} ",
                    "w ".repeat(rng.below(40))
                )),
                8 => s.push_str(&format!("{san} {{[%emt 0:00:07]}} ")),
                // an illegal move (kept or not): it ends the main line
                9 if rng.below(4) == 0 => s.push_str("Ke4 "),
                _ => s.push_str(&format!("{san} ")),
            }
            pos.play_unchecked(&m);
        }
        s.push('*');
        s
    }

    /// The game rendered with the usual path (`true`) or only the general path.
    fn render_path(game: &Game, opts: &PgnOptions, usual_path: bool) -> String {
        let mut w = PgnWriter::new(io::sink(), *opts);
        w.usual_path = usual_path;
        w.render(game);
        String::from_utf8(w.buf).unwrap()
    }

    /// [`PgnWriter::put_usual`] writes what the general path of
    /// [`PgnWriter::write_line`] writes, on random games with and without kept illegal
    /// moves, in SAN styles with one-byte and longer letters, with and without check
    /// marks, in every line width from 1 to 99, reduced or not, whatever the draw
    /// offers' style.
    #[test]
    fn usual_path_agrees_with_general() {
        use crate::notation::chess::{SanStyle, table};
        let styles = [
            SanStyle::pgn(),
            SanStyle::figurine(),
            SanStyle::fide(table("vi").unwrap()),
            SanStyle::fide(table("zh").unwrap()),
            SanStyle::fide(table("fa").unwrap()),
            SanStyle {
                check_marks: false,
                ..SanStyle::pgn()
            },
        ];
        let draws = [DrawOffers::Mark, DrawOffers::Comment, DrawOffers::Omit];
        let mut rng = crate::testing::XorShift::new(0x5851_f42d_4c95_7f2d);
        let (mut usual, mut moves) = (0, 0);
        for round in 0..600 {
            let text = random_record(&mut rng);
            let options = crate::replay::ReplayOptions {
                keep_illegal: round % 2 == 0,
                ..crate::replay::ReplayOptions::default()
            };
            for raw in crate::archive::read_str(&text) {
                let game = crate::replay::replay(raw, &options);
                for node in &game.moves.moves {
                    moves += 1;
                    usual += usize::from(usual_move(node).is_some());
                }
                for (i, chess) in styles.iter().enumerate() {
                    let opts = PgnOptions {
                        moves: MoveStyle {
                            chess: *chess,
                            ..MoveStyle::default()
                        },
                        reduced: rng.below(6) == 0,
                        draw_offers: draws[rng.below(3)],
                        max_line: if (round + i) % 3 == 0 {
                            79
                        } else {
                            1 + rng.below(99)
                        },
                        ..PgnOptions::default()
                    };
                    let fast = render_path(&game, &opts, true);
                    let general = render_path(&game, &opts, false);
                    assert_eq!(
                        fast, general,
                        "{} width {} reduced {} {:?}\n{text}",
                        chess.table.code, opts.max_line, opts.reduced, opts.draw_offers
                    );
                }
            }
        }
        // both paths are taken, many times
        assert!(
            usual > 20_000 && moves - usual > 2_000,
            "{usual} of {moves}"
        );
    }

    /// [`NUMBERS`] holds ` n...` and the digits of `n`, as `format!` writes them.
    #[test]
    fn numbers_table() {
        for (n, w) in NUMBERS.iter().enumerate() {
            let want = format!(" {n}...");
            assert_eq!(&w[..want.len()], want.as_bytes());
            assert_eq!(usize::from(w[7]), want.len() - 4);
        }
    }

    /// The longest usual move of every letter table (its longest letter for the piece
    /// and the promotion, both origin coordinates, a capture, mate), Black's move
    /// numbered with the largest move number, fits in a [`Token`]: the usual path
    /// writes it, as the general path does.
    #[test]
    fn longest_usual_move_fits_a_token() {
        use crate::chess::{Role, Square};
        use crate::notation::chess::{SanStyle, tables};
        let pos = Position::from_fen("4k3/1Q6/8/8/8/8/8/Q3K2Q b - - 0 4294967295").unwrap();
        let hint = SanHint {
            file: true,
            rank: true,
            check: true,
            mate: true,
        };
        for table in tables() {
            let role = *Role::ALL
                .iter()
                .max_by_key(|&&r| table.letter(r).len())
                .unwrap();
            let m = Move::Normal {
                role,
                from: Square::A1,
                capture: Some(Role::Queen),
                to: Square::new(9).unwrap(),
                promotion: Some(role),
            };
            let mut node = MoveNode::new(AnyMove::Chess(m), Span::default());
            node.san = Some(hint);
            let mut g = Game::new_chess();
            g.start = StartPosition::Chess(Box::new(pos.clone()));
            g.moves.moves.push(node);
            for chess in [
                SanStyle::fide(table),
                SanStyle {
                    table,
                    ..SanStyle::pgn()
                },
            ] {
                let opts = PgnOptions {
                    moves: MoveStyle {
                        chess,
                        ..MoveStyle::default()
                    },
                    ..PgnOptions::default()
                };
                let mut w = PgnWriter::new(io::sink(), opts);
                w.line_chars = 1;
                assert!(
                    w.put_usual(u32::MAX, Color::Black, true, &m, hint),
                    "{}",
                    table.code
                );
                let fast = render_path(&g, &opts, true);
                assert_eq!(fast, render_path(&g, &opts, false));
                assert!(fast.contains("\n\n4294967295... "), "{fast}");
            }
        }
    }
}
