//! Selecting games while streaming (issue 28): by any tag (equal, contains, regular
//! expression, numeric and date ranges), by player on either side with names compared
//! after folding, by result, by number of moves or plies, by the final position
//! (checkmate, stalemate), by a position reached at any ply, by variant. Criteria
//! combine with *and*; a game is kept when every criterion holds.
//!
//! Each criterion is written as one string ([`Criterion::parse`]), the same string the
//! command line takes (`docs/cli.md`, "Selecting games"):
//!
//! | criterion | keeps games whose |
//! |---|---|
//! | `Tag=Value` / `Tag!=Value` | tag equals (does not equal) the value exactly |
//! | `Tag~text` | tag contains `text` after folding (case, accents, letter variants) |
//! | `Tag=~regex` | tag matches the regular expression (`regex` crate syntax) |
//! | `Tag>=V`, `Tag<=V`, `Tag>V`, `Tag<V` | tag compares as a number when both are numbers, else as a PGN date (`2001`, `2001.06`, `2001.06.15`; a `??` part never compares) |
//! | `player:NAME`, `white:NAME`, `black:NAME` | player (either side, White/Red, Black) is NAME after folding: every word of NAME is a word of the tag, in any order, an initial matching a word it begins (`Magnus Carlsen`, `carlsen`, `Carlsen, M.` all match `Carlsen, Magnus`) |
//! | `result:1-0` (`0-1`, `1/2-1/2`, `*`) | result |
//! | `moves:MIN..MAX`, `plies:MIN..MAX` | main line length in moves (a move = White's and Black's) or plies; either bound may be left out (`moves:..20`, `plies:100..`) |
//! | `ends:checkmate`, `ends:stalemate`, `ends:mate-or-stalemate` | final position |
//! | `reaches:FEN` | the main line passes through the position: a whole FEN (placement and side to move compared), or a placement alone (`rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR`), at any ply including the start |
//! | `variant:chess` (`chess960`, `xiangqi`) | variant |

use std::cmp::Ordering;

use unicode_normalization::UnicodeNormalization;

use crate::color::Color;
use crate::model::board::Board;
use crate::model::game::{Game, GameResult, Variant};

/// One criterion of a selection.
#[derive(Clone, Debug)]
pub enum Criterion {
    /// A tag tested by value.
    Tag {
        name: String,
        test: TagTest,
    },
    /// A player, on one side or either.
    Player {
        side: Option<Color>,
        words: Vec<String>,
    },
    Result(GameResult),
    /// Main line length: `plies` counts half-moves; bounds inclusive.
    Length {
        plies: bool,
        min: Option<u32>,
        max: Option<u32>,
    },
    Ends(End),
    /// A position the main line passes through: the FEN's placement, and its side to
    /// move when one was given.
    Reaches {
        placement: String,
        turn: Option<Color>,
    },
    Variant(Variant),
}

/// How a tag's value is tested.
#[derive(Clone, Debug)]
pub enum TagTest {
    Equal(String),
    NotEqual(String),
    /// Folded text the folded value contains.
    Contains(String),
    Regex(regex::Regex),
    /// The value compared with the operand: the orderings that keep the game.
    Compare(Vec<Ordering>, String),
}

/// A final position criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Checkmate,
    Stalemate,
    Either,
}

/// Why a criterion string was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectError(pub String);

impl std::fmt::Display for SelectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelectError {}

fn error<T>(text: &str, expected: &str) -> Result<T, SelectError> {
    Err(SelectError(format!(
        "invalid selection `{text}`: expected {expected}"
    )))
}

impl Criterion {
    /// Reads one criterion (see the module docs for the forms).
    pub fn parse(text: &str) -> Result<Criterion, SelectError> {
        let t = text.trim();
        if let Some((key, value)) = t.split_once(':')
            && !key.is_empty()
            && key.chars().all(|c| c.is_ascii_alphanumeric())
        {
            let value = value.trim();
            match key.to_ascii_lowercase().as_str() {
                "player" => return Ok(player(None, value)),
                "white" | "red" => return Ok(player(Some(Color::White), value)),
                "black" => return Ok(player(Some(Color::Black), value)),
                "result" => {
                    return GameResult::parse(value)
                        .map(Criterion::Result)
                        .ok_or(())
                        .or_else(|()| error(text, "a result: 1-0, 0-1, 1/2-1/2 or *"));
                }
                "moves" | "plies" => {
                    let plies = key.eq_ignore_ascii_case("plies");
                    return range(value)
                        .map(|(min, max)| Criterion::Length { plies, min, max })
                        .ok_or(())
                        .or_else(|()| {
                            error(text, "a range MIN..MAX, MIN.. or ..MAX, or a number")
                        });
                }
                "ends" => {
                    let end = match value.to_ascii_lowercase().as_str() {
                        "checkmate" | "mate" => End::Checkmate,
                        "stalemate" => End::Stalemate,
                        "mate-or-stalemate" => End::Either,
                        _ => return error(text, "checkmate, stalemate or mate-or-stalemate"),
                    };
                    return Ok(Criterion::Ends(end));
                }
                "reaches" => return reaches(text, value),
                "variant" => {
                    let v = match value.to_ascii_lowercase().as_str() {
                        "chess" | "standard" => Variant::Chess,
                        "chess960" | "fischerandom" | "fischer random" => Variant::Chess960,
                        "xiangqi" | "chinese chess" => Variant::Xiangqi,
                        _ => return error(text, "chess, chess960 or xiangqi"),
                    };
                    return Ok(Criterion::Variant(v));
                }
                _ => {}
            }
        }
        tag(text, t)
    }

    /// Does `game` meet the criterion?
    pub fn holds(&self, game: &Game) -> bool {
        match self {
            Criterion::Tag { name, test } => {
                let value = game.tags.get(name);
                match test {
                    TagTest::NotEqual(v) => value != Some(v.as_str()),
                    _ => value.is_some_and(|value| test.holds(value)),
                }
            }
            Criterion::Player { side, words } => {
                let names: &[&str] = match side {
                    Some(Color::White) => &["White"],
                    Some(Color::Black) => &["Black"],
                    None => &["White", "Black"],
                };
                names.iter().any(|tag| {
                    let value = game.tags.get(tag).or_else(|| match *tag {
                        "White" => game.tags.get("Red"),
                        _ => None,
                    });
                    value.is_some_and(|v| same_player(words, &name_words(v)))
                })
            }
            Criterion::Result(r) => game.result == *r,
            Criterion::Length { plies, min, max } => {
                let n = game.moves.moves.len() as u32;
                let n = if *plies { n } else { n.div_ceil(2) };
                min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
            }
            Criterion::Ends(end) => {
                let (mate, stalemate) = match game.end_position() {
                    Board::Chess(p) => (p.is_checkmate(), p.is_stalemate()),
                    Board::Xiangqi(p) => (p.is_checkmate(), p.is_stalemate()),
                };
                match end {
                    End::Checkmate => mate,
                    End::Stalemate => stalemate,
                    End::Either => mate || stalemate,
                }
            }
            Criterion::Reaches { placement, turn } => {
                let mut board = Board::new(&game.start);
                let at = |b: &Board| {
                    let fen = b.fen();
                    fen.split(' ').next() == Some(placement.as_str())
                        && turn.is_none_or(|t| b.turn() == t)
                };
                if at(&board) {
                    return true;
                }
                game.moves.moves.iter().any(|node| {
                    board.play(&node.mv);
                    at(&board)
                })
            }
            Criterion::Variant(v) => game.variant == *v,
        }
    }
}

impl TagTest {
    fn holds(&self, value: &str) -> bool {
        match self {
            TagTest::Equal(v) => value == v,
            TagTest::NotEqual(v) => value != v,
            TagTest::Contains(folded) => fold(value).contains(folded.as_str()),
            TagTest::Regex(re) => re.is_match(value),
            TagTest::Compare(keep, operand) => {
                compare(value, operand).is_some_and(|o| keep.contains(&o))
            }
        }
    }
}

/// `Tag OP Value` (the module docs' first rows).
fn tag(text: &str, t: &str) -> Result<Criterion, SelectError> {
    let Some(at) = t.find(['=', '!', '~', '<', '>']) else {
        return error(
            text,
            "TAG=VALUE, TAG!=VALUE, TAG~TEXT, TAG=~REGEX, TAG>=VALUE (or > <= <), or one of player:, white:, black:, result:, moves:, plies:, ends:, reaches:, variant:",
        );
    };
    let name = t[..at].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return error(text, "a tag name (letters, digits, _) before the operator");
    }
    let rest = &t[at..];
    let (op, value) = ["=~", "!=", ">=", "<=", "=", "~", ">", "<"]
        .iter()
        .find_map(|op| rest.strip_prefix(op).map(|v| (*op, v.trim())))
        .map_or(("", ""), |x| x);
    let test = match op {
        "=" => TagTest::Equal(value.to_owned()),
        "!=" => TagTest::NotEqual(value.to_owned()),
        "~" => TagTest::Contains(fold(value)),
        "=~" => match regex::Regex::new(value) {
            Ok(re) => TagTest::Regex(re),
            Err(e) => {
                return Err(SelectError(format!(
                    "invalid selection `{text}`: the regular expression does not compile: {e}"
                )));
            }
        },
        ">=" => TagTest::Compare(vec![Ordering::Greater, Ordering::Equal], value.to_owned()),
        "<=" => TagTest::Compare(vec![Ordering::Less, Ordering::Equal], value.to_owned()),
        ">" => TagTest::Compare(vec![Ordering::Greater], value.to_owned()),
        "<" => TagTest::Compare(vec![Ordering::Less], value.to_owned()),
        _ => return error(text, "an operator: = != ~ =~ >= <= > <"),
    };
    Ok(Criterion::Tag {
        name: name.to_owned(),
        test,
    })
}

fn player(side: Option<Color>, value: &str) -> Criterion {
    Criterion::Player {
        side,
        words: name_words(value),
    }
}

fn reaches(text: &str, value: &str) -> Result<Criterion, SelectError> {
    let mut fields = value.split_whitespace();
    let Some(placement) = fields.next() else {
        return error(text, "a FEN or a piece placement");
    };
    let rows = placement.split('/').count();
    if !(rows == 8 || rows == 10) {
        return error(text, "a piece placement of 8 (chess) or 10 (xiangqi) ranks");
    }
    let turn = match fields.next() {
        None => None,
        Some("w" | "r") => Some(Color::White),
        Some("b") => Some(Color::Black),
        Some(_) => return error(text, "the side to move, w or b, after the placement"),
    };
    Ok(Criterion::Reaches {
        placement: placement.to_owned(),
        turn,
    })
}

/// `MIN..MAX`, `MIN..`, `..MAX` or `N`.
fn range(value: &str) -> Option<(Option<u32>, Option<u32>)> {
    let bound = |s: &str| -> Option<Option<u32>> {
        let s = s.trim();
        if s.is_empty() {
            Some(None)
        } else {
            s.parse().ok().map(Some)
        }
    };
    match value.split_once("..") {
        Some((a, b)) => Some((bound(a)?, bound(b)?)),
        None => {
            let n = value.trim().parse().ok()?;
            Some((Some(n), Some(n)))
        }
    }
}

/// The value against the operand: as numbers when both are, else as PGN dates
/// compared on the operand's parts (`2001.06` against `2001.06.15` is equal); `None`
/// when a compared part is unknown (`??`) or the value is neither.
fn compare(value: &str, operand: &str) -> Option<Ordering> {
    if let (Ok(a), Ok(b)) = (value.trim().parse::<f64>(), operand.trim().parse::<f64>()) {
        return a.partial_cmp(&b);
    }
    let parts =
        |s: &str| -> Vec<String> { s.trim().split(['.', '-', '/']).map(str::to_owned).collect() };
    let (v, o) = (parts(value), parts(operand));
    for (i, op) in o.iter().enumerate() {
        let a: u32 = v.get(i)?.parse().ok()?;
        let b: u32 = op.parse().ok()?;
        match a.cmp(&b) {
            Ordering::Equal => continue,
            other => return Some(other),
        }
    }
    Some(Ordering::Equal)
}

/// Text folded for comparison: NFD without combining marks, lower case, and the
/// letters written two ways folded to one (đ → d, ø → o, ß → ss, æ → ae; Arabic and
/// Persian yeh, kaf, alef and teh marbuta variants; tatweel and ZWNJ removed).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.nfd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        match c {
            'đ' | 'Đ' | 'ð' | 'Ð' => out.push('d'),
            'ø' | 'Ø' => out.push('o'),
            'ł' | 'Ł' => out.push('l'),
            'ß' => out.push_str("ss"),
            'æ' | 'Æ' => out.push_str("ae"),
            'œ' | 'Œ' => out.push_str("oe"),
            'ı' => out.push('i'),
            'ي' | 'ى' | 'ئ' => out.push('ی'),
            'ك' => out.push('ک'),
            'ة' => out.push('ه'),
            'أ' | 'إ' | 'آ' | 'ٱ' => out.push('ا'),
            'ؤ' => out.push('و'),
            '\u{0640}' | '\u{200C}' | '\u{200D}' => {}
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// A name's folded words (`Carlsen, Magnus` → `carlsen`, `magnus`).
fn name_words(name: &str) -> Vec<String> {
    fold(name)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Is the player `query` (words) the player `name` (words)? Every query word is a word
/// of the name, a one-letter word matching a word it begins, either way round; and at
/// least one word longer than a letter is the same in both (an initial alone never
/// names a player: `Kasparov` is not `Alekseenko, K`).
fn same_player(query: &[String], name: &[String]) -> bool {
    query
        .iter()
        .any(|q| q.chars().count() > 1 && name.contains(q))
        && query.iter().all(|q| {
            name.iter().any(|n| {
                q == n
                    || (q.chars().count() == 1 && n.starts_with(q.as_str()))
                    || (n.chars().count() == 1 && q.starts_with(n.as_str()))
            })
        })
}

/// A selection: every criterion must hold.
#[derive(Clone, Debug, Default)]
pub struct Selection(pub Vec<Criterion>);

impl Selection {
    /// Reads every criterion string; the first that is not understood is the error.
    pub fn parse<'a>(texts: impl IntoIterator<Item = &'a str>) -> Result<Selection, SelectError> {
        texts
            .into_iter()
            .map(Criterion::parse)
            .collect::<Result<_, _>>()
            .map(Selection)
    }

    /// No criterion: every game is kept.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Does `game` meet every criterion?
    pub fn keeps(&self, game: &Game) -> bool {
        self.0.iter().all(|c| c.holds(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        crate::read_games(text.as_bytes(), &Default::default())
            .next()
            .and_then(|i| i.ok())
            .map(|i| match i {
                crate::Item::Game(g) | crate::Item::NonGame(g) => g,
            })
            .expect("a game")
    }

    fn keeps(criterion: &str, text: &str) -> bool {
        Criterion::parse(criterion)
            .expect("parses")
            .holds(&game(text))
    }

    const CARLSEN: &str = "[White \"Carlsen, Magnus\"]\n[Black \"Nguyễn Ngọc Trường Sơn\"]\n[Date \"2014.10.??\"]\n[WhiteElo \"2863\"]\n[Event \"Olympiad\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

    #[test]
    fn players_are_found_after_folding_in_any_order() {
        for q in [
            "player:Magnus Carlsen",
            "player:carlsen",
            "white:Carlsen, M.",
            "player:M Carlsen",
        ] {
            assert!(keeps(q, CARLSEN), "{q}");
        }
        assert!(keeps("black:nguyen ngoc truong son", CARLSEN));
        assert!(keeps("player:Truong Son Nguyen", CARLSEN));
        assert!(!keeps("black:Carlsen", CARLSEN));
        assert!(!keeps("player:Magnus Karlsen", CARLSEN));
        // an initial alone does not name a player
        let g = "[White \"Alekseenko,K\"]\n[Black \"X\"]\n\n1. e4 *\n";
        assert!(!keeps("player:Kasparov", g));
        assert!(keeps("player:K Alekseenko", g));
    }

    #[test]
    fn persian_letter_variants_fold_together() {
        // Arabic yeh and kaf typed for the Persian ones
        let g = "[White \"مرتضی محجوب\"]\n[Black \"X\"]\n\n1. e4 *\n";
        assert!(keeps("white:مرتضي", g));
        assert_eq!(fold("كريمی"), fold("کریمی"));
    }

    #[test]
    fn tags_by_value_text_regex_number_and_date() {
        assert!(keeps("Event=Olympiad", CARLSEN));
        assert!(!keeps("Event=olympiad", CARLSEN));
        assert!(keeps("Event~OLYMP", CARLSEN));
        assert!(keeps("Event!=Match", CARLSEN));
        assert!(
            keeps("Site!=Anywhere", CARLSEN),
            "an absent tag is not equal"
        );
        assert!(keeps("White=~^Carl.*Magnus$", CARLSEN));
        assert!(keeps("WhiteElo>=2800", CARLSEN));
        assert!(!keeps("WhiteElo<2800", CARLSEN));
        assert!(keeps("Date>=2014", CARLSEN));
        assert!(keeps("Date<=2014.10", CARLSEN));
        assert!(
            !keeps("Date<2014.10.15", CARLSEN),
            "an unknown day never compares"
        );
        assert!(!keeps("Date>2014", CARLSEN));
    }

    #[test]
    fn result_length_end_reach_and_variant() {
        assert!(keeps("result:1-0", CARLSEN));
        assert!(!keeps("result:1/2-1/2", CARLSEN));
        assert!(keeps("moves:4", CARLSEN));
        assert!(keeps("plies:7", CARLSEN));
        assert!(keeps("moves:..20", CARLSEN));
        assert!(!keeps("plies:8..", CARLSEN));
        assert!(keeps("ends:checkmate", CARLSEN));
        assert!(!keeps("ends:stalemate", CARLSEN));
        assert!(keeps(
            "reaches:r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w",
            CARLSEN
        ));
        assert!(!keeps(
            "reaches:r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b",
            CARLSEN
        ));
        assert!(keeps("variant:chess", CARLSEN));
        assert!(!keeps("variant:xiangqi", CARLSEN));
    }

    #[test]
    fn errors_say_what_was_expected() {
        let e = Criterion::parse("result:win").unwrap_err();
        assert!(e.0.contains("expected a result"), "{e}");
        let e = Criterion::parse("White=~(").unwrap_err();
        assert!(e.0.contains("does not compile"), "{e}");
        assert!(Criterion::parse("just words").is_err());
        assert!(Criterion::parse("reaches:8/8/8").is_err());
    }
}
