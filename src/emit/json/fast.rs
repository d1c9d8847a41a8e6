//! The JSON writer's fast paths: the tags written in one piece of fixed room
//! ([`put_plain_tags`]) and the moves of the usual kind written from their hints and
//! SAN words ([`put_plain_run`], [`put_plain_move`]). Each writes what the general path
//! of `mod.rs` writes, or nothing; the tests below compare them on random input.

use super::{
    buf::{DIGITS, digits_len, plain_ascii_word},
    *,
};

/// Longest tag list [`put_plain_tags`] writes.
pub(super) const PLAIN_TAGS: usize = 32;

/// Room of [`put_plain_tags`] (a power of two): for tags whose text (twice) and signs
/// ([`plain_tags_fit`]) fit in it.
pub(super) const TAGS_ROOM: usize = 1024;

/// Whether [`put_plain_tags`] writes tags of `text_len` bytes in `items` items: they
/// fit in [`TAGS_ROOM`] with room for a piece of 16 bytes written past them (each
/// tag's signs take 14 bytes, and 14 more once).
pub(super) fn plain_tags_fit(text_len: usize, items: usize) -> bool {
    items <= PLAIN_TAGS && 2 * text_len + 16 * items + 16 <= TAGS_ROOM
}

/// Appends what [`put_tags`] appends and returns `true` when no name or value needs an
/// escape and the tags fit ([`plain_tags_fit`]; otherwise `false`, and nothing
/// appended): every name and value is copied from the tags' text
/// ([`crate::model::game::Tags::raw_parts`]) in pieces of 16 bytes into room of a fixed
/// size in `b`; names are compared for the first value of each name only when a mask
/// of their words says they may repeat.
pub(super) fn put_plain_tags(b: &mut JsonBuf, tags: &crate::model::game::Tags) -> bool {
    let (text, items) = tags.raw_parts();
    let text = text.as_bytes();
    if !plain_tags_fit(text.len(), items.len()) || !all_plain(text) {
        return false;
    }
    let at = b.len();
    let Some(room) = b.room_at::<{ TAGS_ROOM + 16 }>(at) else {
        return false;
    };
    let len = fill_plain_tags(room, text, items);
    b.len = at + len;
    true
}

/// [`put_plain_tags`] into `room`: the length written. Every offset written at is
/// below [`TAGS_ROOM`] ([`plain_tags_fit`]): taken below it by a mask, which changes
/// none but spares the checks of the room's length.
pub(super) fn fill_plain_tags(
    room: &mut [u8; TAGS_ROOM + 16],
    text: &[u8],
    items: &[(usize, usize, usize)],
) -> usize {
    // each name as its length and its first eight bytes, compared at once
    let mut keys = [(0, 0); PLAIN_TAGS];
    for (key, &(a, b, _)) in keys.iter_mut().zip(items) {
        *key = (b - a, head_word(text, a, b));
    }
    let o = &mut 0;
    let mut first = true;
    // a bit for each name written, picked by its key: only a name whose bit is set
    // may repeat one
    let mut seen = 0u64;
    for (i, (&(a, b, c), key)) in items.iter().zip(&keys).enumerate() {
        let bit = 1u64 << ((key.1 ^ key.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        // first value of a name wins; the full list is in `tag_list`
        let repeat = seen & bit != 0
            && items.iter().zip(&keys).take(i).any(|(&(a2, b2, _), k)| {
                k == key && (key.0 <= 8 || text.get(a2..b2) == text.get(a..b))
            });
        seen |= bit;
        if repeat {
            continue;
        }
        // the first pair without its comma
        put_tag(
            room,
            o,
            if first { b"\"\"" } else { b",\"" },
            2 - usize::from(first),
        );
        first = false;
        copy_text(room, o, text, a, b);
        put_tag(room, o, b"\":\"", 3);
        copy_text(room, o, text, b, c);
        put_tag(room, o, b"\"", 1);
    }
    put_tag(room, o, b"},\"tag_list\":[", 14);
    for (i, &(a, b, c)) in items.iter().enumerate() {
        put_tag(
            room,
            o,
            if i > 0 { b",[\"" } else { b"[\"\"" },
            3 - usize::from(i == 0),
        );
        copy_text(room, o, text, a, b);
        put_tag(room, o, b"\",\"", 3);
        copy_text(room, o, text, b, c);
        put_tag(room, o, b"\"]", 2);
    }
    *o
}

/// The first eight bytes of `text[a..b]` (zeros past `b`) as a word.
pub(super) fn head_word(text: &[u8], a: usize, b: usize) -> u64 {
    let mut word = [0; 8];
    let name = text.get(a..b).unwrap_or(&[]);
    for (w, &c) in word.iter_mut().zip(name) {
        *w = c;
    }
    u64::from_le_bytes(word)
}

/// Copies all of `s` into `room` at `*at` (below [`TAGS_ROOM`]: see
/// [`fill_plain_tags`]) and counts `n` of its bytes as used (at most `K`: the rest is
/// room written over later).
#[inline(always)]
pub(super) fn put_tag<const K: usize>(
    room: &mut [u8; TAGS_ROOM + 16],
    at: &mut usize,
    s: &[u8; K],
    n: usize,
) {
    const { assert!(K <= 16 && TAGS_ROOM.is_power_of_two()) };
    let from = *at & (TAGS_ROOM - 1);
    if let Some(to) = room.get_mut(from..from + K) {
        to.copy_from_slice(s);
    }
    *at = from + n;
}

/// Copies `text[from..to]` into `room` at `*o` (below [`TAGS_ROOM`]: see
/// [`fill_plain_tags`]) in pieces of 16 bytes (read past `to` while `text` goes on,
/// written past the copy in `room`, which is room), and counts its bytes.
#[inline(always)]
pub(super) fn copy_text(
    room: &mut [u8; TAGS_ROOM + 16],
    o: &mut usize,
    text: &[u8],
    from: usize,
    to: usize,
) {
    let len = to.saturating_sub(from);
    let mut p = 0;
    while p < len {
        let (at, q) = (from + p, (*o + p) & (TAGS_ROOM - 1));
        let Some(piece) = text
            .get(at..at + 16)
            .and_then(|s| <&[u8; 16]>::try_from(s).ok())
        else {
            // the end of the text: less than 16 bytes
            copy_exact(room.get_mut(q..q + 16), text.get(at..to));
            break;
        };
        if let Some(to) = room.get_mut(q..q + 16) {
            to.copy_from_slice(piece);
        }
        p += 16;
    }
    *o += len;
}

/// Copies `s` to the start of `room` when both are there and it fits.
#[cold]
#[inline(never)]
pub(super) fn copy_exact(room: Option<&mut [u8]>, s: Option<&[u8]>) {
    if let (Some(room), Some(s)) = (room, s)
        && let Some(to) = room.get_mut(..s.len())
    {
        to.copy_from_slice(s);
    }
}

/// The fields of a move object after `column` when the move has no comment, NAG,
/// clock, draw offer or variation and is legal: the usual case, written in one piece.
pub(super) const PLAIN_TAIL: &[u8; 100] =
    b",\"comments\":[],\"nags\":[],\"clock\":null,\"emt\":null,\
\"draw_offer\":false,\"illegal\":false,\"variations\":[]}";

/// Appends the objects of the moves of the usual kind at the head of `nodes` (see
/// [`put_plain_move`]), as the general path of [`write_line`] writes them, and returns
/// how many: the objects of a run of such moves go one after the other into the room
/// of `b` ([`JsonBuf`]), counted as written at the end of the run. `first`: the first of
/// `nodes` is its line's first move; `ply`: its ply; `chess960`: the game's castling
/// is written king-takes-rook in UCI.
///
/// Not inlined into [`write_line`]: on its own, the loop keeps its values in
/// registers rather than on the stack, which the general path's did not leave free.
#[inline(never)]
pub(super) fn put_plain_run(
    b: &mut JsonBuf,
    ctx: &mut Ctx<'_>,
    nodes: &[MoveNode],
    first: bool,
    ply: u64,
    chess960: bool,
) -> usize {
    let start = b.len();
    // The first move of a line is written as the others, with a comma before it, over
    // the line's `[` just written (put back after it).
    let first = first && b.as_bytes().last() == Some(&b'[');
    let mut end = start - usize::from(first);
    let mut n = 0;
    // what the moves read of the context, taken out of it once
    let (text, words, lines) = (&ctx.game.source.text, ctx.san_words, &mut ctx.lines);
    for node in nodes {
        let Some(len) = put_plain_move(b, end, (text, words, lines), node, ply + n, chess960)
        else {
            break;
        };
        end += len;
        n += 1;
    }
    // (also when no move was written: the room may have grown without it)
    if first && let Some(open) = b.bytes.get_mut(start - 1) {
        *open = b'[';
    }
    if n > 0 {
        b.len = end;
    }
    n as usize
}

/// Writes the object of a move of the usual kind at `at` in `b`, as the general path
/// of [`write_line`] writes it, into the room of `b` past `at` (made when there is
/// too little; what is past the object stays room: see [`put_plain_run`]), and
/// returns its length: a chess move with its [`crate::model::game::SanHint`], without
/// comment, NAG, clock, draw offer or variation, not illegal, written in the text (a
/// span) as up to eight bytes that need no escape, with a ply and a column below 1000
/// (the first move of a line: without comments before it, which the caller checks).
/// Every other move is left to the general path: `None`, and nothing written before
/// `at`.
///
/// The pieces are copied at lengths known when compiling ([`put_in`]); the SAN is put
/// together in a word ([`SanWords::san`]), compared with the move's text at once (a SAN
/// longer than eight bytes is left to the general path). The object starts with the comma that comes
/// between two (see [`put_plain_run`] for a line's first move). `ply`: its ply;
/// `chess960`: the game's castling is written king-takes-rook in UCI.
#[inline(always)]
pub(super) fn put_plain_move(
    b: &mut JsonBuf,
    at: usize,
    (text, words, lines): (&str, &SanWords, &mut Lines<'_>),
    node: &MoveNode,
    ply: u64,
    chess960: bool,
) -> Option<usize> {
    let (AnyMove::Chess(m), Some(hint)) = (&node.mv, node.san) else {
        return None;
    };
    let span = node.span;
    let (start, len) = (span.start as usize, span.len() as usize);
    if !is_plain(node) || len == 0 || len > 8 {
        return None;
    }
    let word = <[u8; 8]>::try_from(text.as_bytes().get(start..start + 8)?).ok()?;
    let ply = DIGITS.get(usize::try_from(ply).ok()?)?;
    let column = lines.column_digits(start)?;
    let san = words.san(m, hint);
    // the move written as its SAN (plain: see `plain_moves`) needs no more checks
    let keep = u64::MAX >> (64 - 8 * len);
    let as_san = san.len == len && (san.word ^ u64::from_le_bytes(word)) & keep == 0;
    if !as_san && !plain_written(text, start, len, word) {
        return None;
    }
    if san.len > 8 {
        return None;
    }
    let room = b.room_at::<SCRATCH>(at)?;
    let o = &mut 0;
    put_in(room, o, b",{\"ply\":", 8)?;
    put_in(room, o, ply, digits_len(ply))?;
    put_in(room, o, b",\"uci\":\"", 8)?;
    let (uci, uci_len) = chess_coords(m, chess960);
    put_in(room, o, &uci, uci_len)?;
    put_in(room, o, b"\",\"san\":\"", 9)?;
    put_in(room, o, &san.word.to_le_bytes(), san.len)?;
    put_in(room, o, b"\",\"written\":\"", 13)?;
    put_in(room, o, &word, len)?;
    put_in(room, o, b"\"", 1)?;
    put_in(room, o, &lines.field, lines.field_len)?;
    put_in(room, o, column, digits_len(column))?;
    put_in(room, o, PLAIN_TAIL, PLAIN_TAIL.len())?;
    Some(*o)
}

/// Copies all of `s` into `room` at `*at` and counts `n` of its bytes as used (at most
/// all: the rest is room written over later), for [`put_plain_move`]; `None`, and
/// nothing written, when `s` does not fit.
#[inline(always)]
pub(super) fn put_in<const K: usize>(
    room: &mut [u8],
    at: &mut usize,
    s: &[u8; K],
    n: usize,
) -> Option<()> {
    room.get_mut(*at..*at + K)?.copy_from_slice(s);
    *at += n.min(K);
    Some(())
}

/// Whether the `len` bytes of `text` from `start` (up to 8, the first of `word`) are
/// written as they are in a JSON string: plain ASCII ([`plain_ascii_word`]), or whole
/// characters (as [`Span::slice`] takes them) that need no escape ([`needs_escape`]:
/// letters of other scripts, figurines, whose UTF-8 may start with the byte of
/// U+2028 and U+2029).
#[inline(never)]
pub(super) fn plain_written(text: &str, start: usize, len: usize, word: [u8; 8]) -> bool {
    plain_ascii_word(u64::from_le_bytes(word), len)
        || text
            .get(start..start + len)
            .is_some_and(|w| !needs_escape(w))
}

/// Whether the fields after `column` of `node`'s object are those of [`PLAIN_TAIL`]
/// (comments before a line's first move aside).
pub(super) fn is_plain(node: &MoveNode) -> bool {
    !node.has_extras() && node.clock.is_none() && !node.draw_offer && !node.illegal
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::tests::four_styles;
    use super::*;

    /// [`put_plain_tags`] appends what the general path ([`put_tags`]) appends, or
    /// nothing, on random tag lists: repeated names (also long ones sharing their first
    /// eight bytes), empty and long values, values to escape, the text's end within 16
    /// bytes of a name or value, more tags than [`PLAIN_TAGS`].
    #[test]
    fn plain_tags_agree_with_general() {
        let names = [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "WhiteElo",
            "BlackElo",
            "ECO",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "WhiteRatingDiffX",
            "WhiteRatingDiffY",
            "A",
            "Trắng",
        ];
        let values = [
            "",
            "?",
            "1-0",
            "Abdusattorov,Nodirbek",
            "a value of exactly 32 bytes, ok.",
            "a value longer than thirty-two bytes, read in three pieces",
            "Trắng đi trước",
            "quote \" inside",
            "tab\there",
        ];
        let mut rng = crate::testing::XorShift::new(5);
        let (mut fast, mut plain) = (0, 0);
        for _ in 0..3000 {
            let mut tags = crate::model::game::Tags::default();
            let many = rng.below(10) == 0;
            let n = rng.below(if many { 40 } else { 12 });
            for _ in 0..n {
                tags.push(
                    names[rng.below(names.len())],
                    values[rng.below(values.len())],
                );
            }
            let mut general = JsonBuf::written(b"x");
            put_tags(&mut general, &mut [0; SCRATCH], &tags);
            let mut got = JsonBuf::written(b"x");
            if put_plain_tags(&mut got, &tags) {
                assert_eq!(
                    String::from_utf8(got.into_written()).unwrap(),
                    String::from_utf8(general.into_written()).unwrap()
                );
                fast += 1;
            } else {
                assert_eq!(got.as_bytes(), b"x");
            }
            let escapes = tags.iter().any(|(n, v)| needs_escape(n) || needs_escape(v));
            let fits = plain_tags_fit(tags.raw_parts().0.len(), n);
            plain += usize::from(fits && !escapes);
        }
        assert!(fast > 300 && fast == plain, "{fast} {plain}");
    }
    /// A random chess record from `choices`: tags, then moves picked among the legal
    /// ones, each written in one of several ways, among them all that takes a move off
    /// [`put_plain_move`]'s path (comments, also before a line's first move, clocks,
    /// NAGs, variations, null moves, an illegal move, long or non-ASCII text, a column
    /// past 999, plies past 999, chess960 castling, promotions, the text's end).
    fn random_record(choices: &[u16]) -> String {
        use crate::chess::Position;
        use crate::notation::chess::{SanStyle, write_san};
        let first = choices.first().copied().unwrap_or(0);
        let (tags, fen) = match first % 6 {
            0 => ("", crate::chess::START_FEN),
            1 => (
                "[Variant \"Chess960\"]\n",
                "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1",
            ),
            2 => (
                "",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 497",
            ),
            3 => ("", "r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R w KQkq - 0 1"),
            // few moves, an en-passant capture among them, and more pawns to come
            4 => ("", "8/1p6/8/k2pP3/1pP5/8/P7/K7 w - d6 0 1"),
            _ => ("[White \"Trắng\"]\n", crate::chess::START_FEN),
        };
        let mut s = format!("[Event \"e\"]\n{tags}[FEN \"{fen}\"]\n\n");
        if first & 0x100 != 0 {
            s.push_str("{before} ");
        }
        let chess960 = first % 6 == 1;
        let Ok(mut pos) = (if chess960 {
            Position::from_fen_chess960(fen)
        } else {
            Position::from_fen(fen)
        }) else {
            return s;
        };
        for (i, &c) in choices.iter().enumerate().skip(1) {
            let moves = pos.legal_moves();
            let Some(&m) = moves.get(usize::from(c) % moves.len().max(1)) else {
                break;
            };
            let number = pos.fullmoves();
            s.push_str(&if pos.turn() == crate::color::Color::White {
                format!("{number}. ")
            } else {
                format!("{number}... ")
            });
            let mut san = String::new();
            write_san(&mut san, &pos, &m, &SanStyle::pgn());
            match (c >> 8) % 24 {
                0 => s.push_str(&format!("{san}!? ")),
                1 => s.push_str(&format!("{san} {{một ghi chú}} ")),
                2 => s.push_str(&format!("{san} {{[%clk 0:0{}:0{}]}} ", c % 10, c % 7)),
                3 => s.push_str(&format!("{san} $4 ")),
                4 => {
                    s.push_str(&san);
                    if let Some(a) = moves.iter().find(|&&a| a != m) {
                        let mut alt = String::new();
                        write_san(&mut alt, &pos, a, &SanStyle::pgn());
                        s.push_str(&format!(" ({alt} {{x}} ) "));
                    }
                }
                5 => s.push_str(&format!("{} ", m.uci(chess960))),
                6 => s.push_str(&format!("{san}\n")),
                7 => s.push_str(&format!("{san}{} ", " ".repeat(1000))),
                8 => s.push_str(&format!("{san} {{é}}\n")),
                9 => s.push_str(&format!("{san}     {{ghi chú dài hơn tám}}  ")),
                10 if i % 3 == 0 => {
                    s.push_str("-- ");
                    pos.play_null();
                    continue;
                }
                // an invalid move and an illegal one (kept or not), rarely: both
                // stop the main line
                11 if c % 8 == 0 => s.push_str(&format!("{san}!!!!!!!! ")),
                13 if c % 8 == 0 => s.push_str("Ke4 "),
                12 => s.push_str(&format!("{san} =\n")),
                14 | 15 => {
                    write_san(&mut s, &pos, &m, &SanStyle::figurine());
                    s.push(' ');
                }
                _ => s.push_str(&format!("{san} ")),
            }
            pos.play_unchecked(&m);
        }
        match first % 3 {
            0 => s.push_str("Qh9 *\n"),
            1 => s.push('*'),
            _ => {}
        }
        s
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// [`put_plain_move`] writes what the general path of [`write_line`] writes,
        /// in every style, on random games with and without kept illegal moves; the
        /// plain path into small buffers that grow as it writes, and into one buffer
        /// reused from game to game, as the command line reuses them, whose room
        /// starts with bytes other than zeros.
        #[test]
        fn plain_path_agrees_with_general(
            choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..160),
        ) {
            let text = random_record(&choices);
            let mut fast = JsonBuf::from_vec(vec![b'#'; 37 * choices.len()]);
            for keep_illegal in [false, true] {
                let options = crate::replay::ReplayOptions {
                    keep_illegal,
                    ..crate::replay::ReplayOptions::default()
                };
                for raw in crate::archive::read_str(&text) {
                    let mut game = crate::replay::replay(raw, &options);
                    // a byte of some moves' written text made one to escape (or not)
                    let mut bytes = std::mem::take(&mut game.source.text).into_bytes();
                    for (node, &c) in game.moves.moves.iter().zip(&choices).filter(|(_, c)| **c % 5 == 0) {
                        let at = node.span.start as usize + usize::from(c >> 12) % 5;
                        if let Some(b) = bytes.get_mut(at).filter(|b| b.is_ascii() && at < node.span.end as usize) {
                            *b = [b'"', b'\\', b'\t', 0x7F, b'x'][usize::from(c >> 8) % 5];
                        }
                    }
                    game.source.text = String::from_utf8(bytes).unwrap();
                    for (k, chess) in four_styles().into_iter().enumerate() {
                        let opts = JsonOptions {
                            moves: MoveStyle { chess, ..MoveStyle::default() },
                        };
                        fast.clear();
                        let mut small = JsonBuf::from_vec(vec![b'#'; 100 * k]);
                        let fast = if k % 2 == 0 { &mut fast } else { &mut small };
                        let mut general = JsonBuf::default();
                        let renderer = JsonRenderer::new(&opts);
                        let line = render_with(fast, &game, &renderer, true);
                        render_with(&mut general, &game, &renderer, false);
                        // the main line as the plain path saw it, as a pass over it
                        proptest::prop_assert_eq!(line, game.main_line());
                        proptest::prop_assert_eq!(
                            String::from_utf8_lossy(fast.as_bytes()),
                            String::from_utf8_lossy(general.as_bytes())
                        );
                    }
                }
            }
        }
    }

    /// The random records of [`plain_path_agrees_with_general`] take the plain path
    /// and leave it, in every way.
    #[test]
    fn random_records_cover_both_paths() {
        let mut rng = crate::testing::XorShift::new(99);
        let (mut moves, mut kinds) = (0, [0usize; 5]);
        for _ in 0..200 {
            let choices: Vec<u16> = (0..160).map(|_| rng.next() as u16).collect();
            for raw in crate::archive::read_str(&random_record(&choices)) {
                let game = crate::replay::replay(raw, &crate::replay::ReplayOptions::default());
                for node in &game.moves.moves {
                    moves += 1;
                    kinds[0] += usize::from(is_plain(node) && node.san.is_some());
                    kinds[1] += usize::from(!node.comments().is_empty());
                    kinds[2] += usize::from(!node.variations().is_empty());
                    kinds[3] += usize::from(node.clock.is_some());
                    kinds[4] += usize::from(
                        is_plain(node)
                            && node.san.is_some()
                            && matches!(
                                node.mv,
                                AnyMove::Chess(crate::chess::Move::EnPassant { .. })
                            ),
                    );
                }
            }
        }
        assert!(
            moves > 10_000 && kinds[..4].iter().all(|&k| k > 200) && kinds[4] > 3,
            "{moves} {kinds:?}"
        );
    }
}
