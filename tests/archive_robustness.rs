//! The archive reader never panics and keeps its invariants on random input: random
//! bytes, and random soups of PGN fragments (tags, comments, variations, numbers, CR/LF,
//! multi-byte text), read whole and through one-byte buffers.

#![allow(clippy::unwrap_used)]

use std::io::BufReader;

use kyphu::archive::{ArchiveReader, Element, Limits, RawGame, ReadOptions, read_bytes};

/// xorshift64*: a small deterministic generator, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "[Event \"",
    "\"]",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "$",
    "$12",
    "1.",
    "1...",
    "12.",
    "1)",
    "1…",
    "１．",
    "۱.",
    "e4",
    "Nf3",
    "O-O",
    "0-0",
    "exd6",
    "e.p.",
    " ep",
    "(e.p.)",
    "(=)",
    "a8(Q)",
    "!?",
    "+-",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "½-½",
    "0:1",
    "炮二平五",
    "马８进７",
    "-Tg6.1",
    "M2.3",
    "Смыслов",
    "Nguyễn",
    "بهروز",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\u{feff}",
    "\u{a0}",
    "e\u{301}",
];

fn check(games: &[RawGame]) {
    let mut index = 0;
    for g in games {
        if g.junk {
            assert!(g.movetext.is_empty());
        } else {
            assert_eq!(g.index, index);
            index += 1;
        }
        assert!(g.byte_start <= g.byte_end);
        let mut depth = 0i64;
        for e in &g.movetext {
            let sp = e.span();
            assert!(sp.start <= sp.end && sp.end as usize <= g.text.len());
            assert!(g.text.is_char_boundary(sp.start as usize));
            assert!(g.text.is_char_boundary(sp.end as usize));
            match e {
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0);
        }
        assert_eq!(depth, 0);
        for t in &g.tags {
            for sp in [t.span, t.name, t.value] {
                assert!(sp.end as usize <= g.text.len());
                assert!(g.text.is_char_boundary(sp.start as usize));
                assert!(g.text.is_char_boundary(sp.end as usize));
            }
            let _ = g.tag_value(t);
        }
    }
}

fn options() -> ReadOptions {
    ReadOptions {
        limits: Limits {
            max_game_bytes: 2048,
            max_elements: 300,
            max_depth: 8,
            max_comment_bytes: 64,
            max_line_bytes: 1 << 20,
        },
        ..ReadOptions::default()
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        let len = rng.below(3000);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        check(&read_bytes(&bytes, options()));
        check(&read_bytes(&bytes, ReadOptions::default()));
    }
}

#[test]
fn random_fragment_soups() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for round in 0..500 {
        let n = rng.below(400);
        let text: String = (0..n)
            .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
            .collect();
        let games = read_bytes(text.as_bytes(), options());
        check(&games);
        if round % 10 == 0 {
            let slow: Vec<RawGame> =
                ArchiveReader::new(BufReader::with_capacity(1, text.as_bytes()), options())
                    .collect::<std::io::Result<_>>()
                    .unwrap();
            assert_eq!(slow, games, "{text:?}");
        }
    }
}
