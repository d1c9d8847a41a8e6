//! Issue 25: descriptive notation, English (`P-K4`, `Kt-KB3`, `PxP`, `KR-Q1`) and
//! Spanish (`P4R`, `C3AR`, `A5C`), read as a notation of its own and resolved by replay.
//!
//! The real records are those of `corpus/text/` written in descriptive notation by
//! others (books, blogs, wiki pages); their `.expect` sidecars hold the main line a
//! human reads, transcribed into SAN by hand and replayed by python-chess
//! (`corpus/text/tools/mkexpect.py`), so each record here is compared move for move
//! with python-chess. Before the descriptive reader every one of them read 0 plies.

mod common;

use common::records::{longest_game, main_line, record_bytes, sidecar_text};
use kyphu::{
    archive::read_str,
    model::{
        diag::{Code, Severity},
        game::Game,
    },
    replay::{ReplayOptions, replay},
};

/// The games of `bytes` read as the command line reads them (headings joined); the one
/// with the longest main line.
fn read_with(bytes: &[u8], options: &ReplayOptions) -> Game {
    longest_game(bytes, options).expect("a game")
}

fn read(text: &str) -> Game {
    read_with(text.as_bytes(), &ReplayOptions::default())
}

fn uci(g: &Game) -> Vec<String> {
    main_line(g)
}

fn errors(g: &Game) -> Vec<&Code> {
    g.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| &d.code)
        .collect()
}

/// The `moves:` of a record's sidecar (UCI, made by python-chess).
fn expected(record: &str) -> Vec<String> {
    sidecar_text(record)
        .lines()
        .find_map(|l| l.strip_prefix("moves:"))
        .map(|m| m.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

fn record(record: &str) -> Vec<u8> {
    record_bytes(record)
}

/// The real records in the short descriptive form (`P-K4`, `P4R`) read exactly as a
/// human reads them, move for move the python-chess line of their sidecars.
#[test]
fn real_descriptive_records_read_exactly() {
    let records = [
        "ca/wmcloud-descriptiva-1",
        "en/bookrags-5614-1",
        "en/eudesign-1",
        "en/eudesign-2",
        "en/eudesign-3",
        "en/eudesign-4",
        "es/c3ar-1",
        "es/c3ar-2",
        "es/c3ar-3",
        "es/c3ar-4",
    ];
    let mut wrong = Vec::new();
    for r in records {
        let game = read_with(&record(r), &ReplayOptions::default());
        let want = expected(r);
        assert!(!want.is_empty(), "{r}: no moves in the sidecar");
        let got = uci(&game);
        if got != want {
            wrong.push(format!("{r}: read {got:?}\n   want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn english_descriptive_told_from_the_content() {
    let g = read("1. P-K4 P-K4 2. Kt-KB3 N-QB3 3. B-N5 P-QR3 4. BxN QPxB 5. O-O B-KKt5\n");
    assert_eq!(
        uci(&g),
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "c8g4"
        ]
    );
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.code == Code::Language && d.message.contains("English descriptive")),
        "{:?}",
        g.diagnostics
    );
}

#[test]
fn spanish_descriptive_with_checks_and_mate() {
    // the Scholar's mate: `D5T` (queen to h5), `AxP++` (mate written ++)
    let g = read("1. P4R P4R 2. A4A C3AD 3. D5T C3A 4. DxP++\n");
    assert_eq!(
        uci(&g),
        ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    );
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
}

#[test]
fn descriptive_check_written_ch_and_en_dashes() {
    // Légal's mate, as books printed it
    let g = read(
        "1. P–K4 P–K4 2. Kt–KB3 P–Q3 3. B–B4 B–Kt5 4. Kt–B3 P–KKt3 5. KtxP BxQ 6. BxP ch K–K2 7. Kt–Q5 mate\n",
    );
    assert_eq!(
        uci(&g),
        [
            "e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "f3e5", "g4d1", "c4f7",
            "e8e7", "c3d5"
        ]
    );
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
}

/// An ambiguous descriptive move is reported as SAN's are: every candidate listed.
#[test]
fn ambiguous_descriptive_move_lists_the_candidates() {
    let g = read("1. P-K4 P-Q4 2. P-QB4 P-K3 3. PxP PxP\n");
    assert_eq!(uci(&g), ["e2e4", "d7d5", "c2c4", "e7e6"]);
    let d = g
        .diagnostics
        .iter()
        .find(|d| d.code == Code::AmbiguousMove)
        .unwrap_or_else(|| panic!("{:?}", g.diagnostics));
    assert_eq!(d.candidates, ["cxd5", "exd5"]);
    assert_eq!(g.unparsed.as_deref(), Some("PxP PxP"));
}

/// Captures name the piece taken (`KtxP`), castling long, a pawn by its file (`P-KR3`).
#[test]
fn captures_name_the_piece_taken() {
    let g = read(
        "1. P-Q4 P-Q4 2. N-QB3 N-QB3 3. B-B4 B-B4 4. Q-Q2 Q-Q2 5. O-O-O O-O-O 6. P-KR3 P-KR3 7. KtxP KtxP\n",
    );
    // 7. Nxd5 (the c3 knight takes the d5 pawn), Nxd4
    assert_eq!(uci(&g)[12..], ["c3d5", "c6d4"]);
}

/// `--notation descriptive` forces the notation: the record is read as descriptive
/// from its first move, and a SAN record under it stops at its first move.
#[test]
fn notation_descriptive_option_forces_it() {
    let options = ReplayOptions {
        descriptive: true,
        ..ReplayOptions::default()
    };
    let g = read_with(b"1. P-Q4 Kt-KB3 2. P-QB4 P-K3\n", &options);
    assert_eq!(uci(&g), ["d2d4", "g8f6", "c2c4", "e7e6"]);
    // a SAN game under the option is not read as SAN
    let g = read_with(b"1. e4 e5\n", &options);
    assert!(uci(&g).is_empty());
    assert_eq!(errors(&g), [&Code::InvalidMove]);
}

/// A SAN game is read as before: descriptive notation is only tried where SAN stops.
#[test]
fn san_games_unchanged() {
    let g = read("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4\n");
    assert_eq!(uci(&g).len(), 10);
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    let mut raws = read_str("1. e4 e5 2. Nf3 Nc6\n");
    let g = replay(raws.remove(0), &ReplayOptions::default());
    assert!(!g.diagnostics.iter().any(|d| d.code == Code::Language));
}

/// The long form in words of 19th-century books (`P. to K's 4th.`, `K. Kt. to K. B's
/// 3d.`, `P. takes P.`, `Castles on K's side.`): each move several words, read as the
/// short form they stand for (en/bookrags-bluebook, en/pbooks-bluebook: Morphy –
/// Harrwitz from Staunton's Blue Book of Chess).
#[test]
fn long_form_in_words() {
    let g = read(
        "GAME II.\nWHITE. BLACK.\n1. P. to K’s 4th. 1. P. to K’s 4th.\n2. K. Kt. to K. B’s 3d. 2. P. to Q’s 3d.\n3. P. to Q's 4th. 3. P. takes P.\n4. Q. takes P. 4. Q. Kt. to Q. B's 3d.\n5. K. B. to Q. Kt's 5th. 5. Q. B. to Q's 2d.\n6. B. takes Kt. 6. B. takes B.\n7. Castles on K's side.\n",
    );
    assert_eq!(
        uci(&g),
        [
            "e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "e5d4", "d1d4", "b8c6", "f1b5", "c8d7", "b5c6",
            "d7c6", "e1g1"
        ]
    );
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
}

/// Both moves of a pair numbered, on one line after a heading (`WHITE. (Mr. M.) BLACK.
/// (Mr. H.) 1. P-K4 1. P-K4 2. Kt-KB3 2. P-Q3`): Black's `1.` is not the game's move 1
/// coming later, so White's is not taken for a plan in the prose (en/pbooks-bluebook:
/// the Blue Book's two columns run together).
#[test]
fn both_moves_numbered_on_one_line() {
    let g = read(
        "GAME II.—Between Mr. Morphy and Mr. Harrwitz.\nWHITE. (Mr. M.) BLACK. (Mr. H.) 1. P-K4 1. P-K4 2. Kt-KB3 2. P-Q3 3. P-Q4 3. PxP\n",
    );
    assert_eq!(uci(&g), ["e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "e5d4"]);
}

/// Issue 25's `R(R5)-QR5`: an origin in brackets glued to the piece, which the movetext
/// reader takes for a variation, is one descriptive move (the rook on the fifth rank,
/// not the one on the first, goes to QR5), in a record with a FEN tag too.
#[test]
fn origin_in_brackets_glued_to_the_piece() {
    let g = read("[FEN \"8/6k1/8/7R/8/8/8/R6K w - - 0 1\"]\n\n1. R(R5)-QR5 K-R2 2. R-R7ch *\n");
    assert_eq!(uci(&g), ["h5a5", "g7h7", "a5a7"]);
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
}

/// `R(1)-Q1`: a bare rank in brackets, which the movetext reader takes for a variation
/// opened with the move number `1)`, is the origin of one move (the rook on the first
/// rank), and the game goes on outside any variation.
#[test]
fn rank_in_brackets_glued_to_the_piece() {
    let g = read("[FEN \"8/6k1/8/R7/8/8/8/R6K w - - 0 1\"]\n\n1. R(1)-R4 K-R2 2. R-R8 K-N3 *\n");
    assert_eq!(uci(&g), ["a1a4", "g7h7", "a5a8", "h7g6"]);
    assert!(errors(&g).is_empty(), "{:?}", g.diagnostics);
}
