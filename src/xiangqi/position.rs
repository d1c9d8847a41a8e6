//! The xiangqi position. (Rules engine to be completed: issue 5.)

use crate::color::Color;

use super::types::{Piece, Square};

/// The standard start position, in the common xiangqi FEN form.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A xiangqi position: a mailbox of 90 points, the side to move and the move counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; Square::COUNT],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
}

impl Default for Position {
    fn default() -> Position {
        let mut board = [None; Square::COUNT];
        let back = "rnbakabnr";
        for (file, c) in back.chars().enumerate() {
            let file = file as u8;
            if let (Some(p), Some(sq)) = (
                super::Piece::from_fen_char(c.to_ascii_uppercase()),
                Square::new(file, 0),
            ) {
                board[sq.index() as usize] = Some(p);
            }
            if let (Some(p), Some(sq)) = (super::Piece::from_fen_char(c), Square::new(file, 9)) {
                board[sq.index() as usize] = Some(p);
            }
        }
        Position {
            board,
            turn: Color::White,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Position {
    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index() as usize]
    }

    /// The FEN: ranks from Black's side (rank 9) down, Red upper case.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match Square::new(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.char());
        s.push_str(&format!(" - - {} {}", self.halfmoves, self.fullmoves));
        s
    }
}
