//! Every piece letter of every language table, and every collision between tables:
//! the same letter read under each table names that table's piece, and a letter a
//! table does not know is reported, never read as a pawn move.
#![allow(clippy::unwrap_used)]

use kyphu::chess::{Position, Role, Square};
use kyphu::notation::chess::{PieceTable, Remark, read, table, tables};

/// Every piece kind of White has exactly one legal move to d4: king c3, queen h8,
/// rook a4, bishop a7, knight f3, pawn d3.
const ALL_TO_D4: &str = "7Q/B7/8/8/R7/2KP1N2/8/1k6 w - - 0 1";

fn d4() -> Square {
    Square::parse("d4").unwrap()
}

fn role_read(letter: &str, t: &PieceTable, pos: &Position) -> Result<Role, String> {
    let tok = format!("{letter}d4");
    match read(&tok, t, pos) {
        Ok(r) => {
            let m = r.mv.unwrap();
            assert_eq!(m.to(), d4(), "{} {tok}", t.code);
            Ok(m.role())
        }
        Err(e) => Err(e.code().as_str().to_owned()),
    }
}

#[test]
fn every_letter_of_every_table() {
    let pos = Position::from_fen(ALL_TO_D4).unwrap();
    let mut n = 0;
    for t in tables() {
        for (letter, role) in t.letters() {
            assert_eq!(role_read(letter, t, &pos), Ok(role), "{} {letter}", t.code);
            n += 1;
        }
    }
    assert!(n >= 17 * 5, "{n} letters");
}

#[test]
fn every_collision_pair() {
    let pos = Position::from_fen(ALL_TO_D4).unwrap();
    let mut pairs = Vec::new();
    for a in tables() {
        for b in tables() {
            if a.preference >= b.preference {
                continue;
            }
            for (la, ra) in a.letters() {
                for (lb, rb) in b.letters() {
                    if la == lb && ra != rb {
                        assert_eq!(role_read(la, a, &pos), Ok(ra), "{} {la}", a.code);
                        assert_eq!(role_read(lb, b, &pos), Ok(rb), "{} {lb}", b.code);
                        pairs.push(format!("{la}:{}={ra}/{}={rb}", a.code, b.code));
                    }
                }
            }
        }
    }
    // the collisions the issue names, among all those found
    for want in [
        "R:en=rook/fr=king",
        "R:en=rook/fi=knight",
        "R:fr=king/fi=knight",
        "T:vi=bishop/de=rook",
        "B:en=bishop/hu=rook",
        "P:en=pawn/nl=knight",
        "S:de=knight/cs=bishop",
        "V:vi=king/cs=rook",
        "H:vi=queen/hu=knight",
    ] {
        let hit = pairs.iter().any(|p| p == want);
        assert!(hit, "missing collision {want}; found {pairs:?}");
    }
    assert!(pairs.len() >= 25, "{pairs:?}");
}

#[test]
fn unknown_letters_are_reported_never_pawn_moves() {
    let pos = Position::from_fen(ALL_TO_D4).unwrap();
    for a in tables() {
        for b in tables() {
            if b.code == "figurine" {
                continue; // figurines read under every table
            }
            for (letter, _) in b.letters() {
                if a.letters().any(|(l, _)| l == letter) {
                    continue;
                }
                let got = role_read(letter, a, &pos);
                assert_eq!(
                    got,
                    Err("unknown-piece".to_owned()),
                    "{letter}d4 under {}",
                    a.code
                );
            }
        }
    }
}

#[test]
fn longest_letter_first_and_lowercase() {
    let pos = Position::from_fen(ALL_TO_D4).unwrap();
    let ru = table("ru").unwrap();
    assert_eq!(role_read("Кр", ru, &pos), Ok(Role::King));
    assert_eq!(role_read("К", ru, &pos), Ok(Role::Knight));
    let fa = table("fa").unwrap();
    assert_eq!(role_read("اسب", fa, &pos), Ok(Role::Knight));
    assert_eq!(role_read("ا", fa, &pos), Ok(Role::Knight));
    // lower-case letters resolve with a warning
    for (code, tok, role) in [
        ("en", "kd4", Role::King),
        ("en", "nd4", Role::Knight),
        ("ru", "крd4", Role::King),
        ("de", "sd4", Role::Knight),
    ] {
        let r = read(tok, table(code).unwrap(), &pos).unwrap();
        assert_eq!(r.mv.unwrap().role(), role, "{code} {tok}");
        assert!(r.remarks.contains(Remark::LowercasePiece), "{code} {tok}");
    }
}

#[test]
fn persian_and_full_width_text() {
    let pos = Position::from_fen(ALL_TO_D4).unwrap();
    let fa = table("fa").unwrap();
    for tok in ["اd۴", "اd٤", "\u{200F}اسبd4", "ا\u{200C}d4"] {
        let r = read(tok, fa, &pos).unwrap_or_else(|e| panic!("{tok}: {e}"));
        assert_eq!(r.mv.unwrap().role(), Role::Knight, "{tok}");
    }
    let zh = table("zh").unwrap();
    for tok in ["马ｄ４", "馬d4", "ｄ４"] {
        assert!(read(tok, zh, &pos).is_ok(), "{tok}");
    }
}
