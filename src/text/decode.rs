//! Bytes to UTF-8 text, reporting the encoding used and whether anything was replaced.
//!
//! # Order of decisions
//!
//! 1. **Byte order mark.** A file that starts with the UTF-8, UTF-16LE or UTF-16BE BOM
//!    is in that encoding ([`sniff_bom`]). UTF-16 files are transcoded to UTF-8 as a
//!    stream ([`Utf16Reader`]) before anything else looks at them.
//! 2. **User override.** `--encoding LABEL` (an `Option<`[`TextEncoding`]`>`: an
//!    encoding_rs encoding or a Vietnamese legacy table) decodes every chunk with that
//!    encoding, replacing malformed sequences.
//! 3. **Strict UTF-8.** Otherwise each game chunk that is valid UTF-8 is UTF-8.
//! 4. **Guess.** A chunk that is not valid UTF-8 whose words read as Vietnamese
//!    syllables in VNI, TCVN3 or VISCII and not in windows-1252/1258 is in that encoding
//!    ([`crate::text::encoding`] gives the rule). Any other chunk that is not valid UTF-8
//!    is decoded with the legacy encoding that
//!    scores best among windows-1252, windows-1258, windows-1256, windows-1251, KOI8-R,
//!    IBM866, GBK (decoded as GB18030) and Big5 ([`guess_legacy`]). Only the non-ASCII
//!    parts of the chunk are scored: each run of bytes ≥ 0x80 together with the byte
//!    after it (a possible GBK/Big5 trail byte) and the ASCII letters around it.
//!
//! # Scoring heuristic
//!
//! Each candidate decodes the sample; every non-ASCII character adds to its score:
//!
//! | character | score |
//! |---|---|
//! | U+FFFD (malformed input) | −30 |
//! | C1 control, private use | −20 |
//! | CJK ideograph among ~600 common simplified/traditional ones (的 一 象 棋 车 車 马 馬 炮 …) | +6 |
//! | other CJK ideograph | 0 |
//! | CJK extension A, kana, Hangul, box drawing, blocks | −4 |
//! | Cyrillic letter | +1 … +3 by Russian letter frequency |
//! | Arabic letter | +3 |
//! | Arabic or Cyrillic letter right after an ASCII letter (`Hьbner`) | −4 |
//! | Arabic vowel mark after an Arabic letter | +1, elsewhere −6 |
//! | Latin letter with diacritic | +2 (+1 more for Vietnamese ă â đ ê ô ơ ư) |
//! | combining tone mark after a vowel (windows-1258) | +4, elsewhere −6 |
//! | uppercase letter right after a lowercase letter (`яЛ`, `NguyêÞn`) | −6 |
//! | third and later accented Latin letter in a row | −3 |
//! | other symbol inside a word | −5, elsewhere −1 |
//!
//! Ties go to the earlier candidate in the list above. The reader passes the
//! encoding it guessed for the previous chunk of the same file as a hint: the hint wins
//! when it decodes the chunk without replacement and scores at most 3 below the best, so
//! one file is not decoded with alternating encodings on weak evidence.
//!
//! Splitting raw bytes into game chunks before decoding is safe for all these
//! encodings: in GBK and Big5 a trail byte is ≥ 0x40, so the byte after `\n` or `\r`
//! always starts a character.
//!
//! All decoded text is put in Unicode NFC ([`crate::text::normalize::nfc`]):
//! windows-1258 writes Vietnamese tone marks as combining characters.

use crate::model::diag::Code;
use std::io::{self, Read};

use encoding_rs::{
    BIG5, CoderResult, Decoder, Encoding, GBK, IBM866, KOI8_R, UTF_8, UTF_16BE, UTF_16LE,
    WINDOWS_1251, WINDOWS_1252, WINDOWS_1256, WINDOWS_1258,
};

use crate::model::diag::Diagnostic;
use crate::text::encoding::{TextEncoding, vietnamese_guess};

/// The legacy encodings [`guess_legacy`] chooses from, in tie-break order.
pub const GUESS_CANDIDATES: [&Encoding; 8] = [
    WINDOWS_1252,
    WINDOWS_1258,
    WINDOWS_1256,
    WINDOWS_1251,
    KOI8_R,
    IBM866,
    GBK,
    BIG5,
];

/// How the encoding of a piece of text was decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EncodingSource {
    /// A byte order mark at the start of the file.
    Bom,
    /// Given by the user (`--encoding`).
    Forced,
    /// The bytes were valid UTF-8.
    Utf8,
    /// Not valid UTF-8; chosen by [`guess_legacy`].
    Guessed,
}

/// What decoding did to one chunk of bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DecodeReport {
    /// The encoding the bytes were decoded with.
    pub encoding: TextEncoding,
    /// How that encoding was chosen.
    pub source: EncodingSource,
    /// Some byte sequences were malformed and became U+FFFD.
    pub had_replacements: bool,
}

impl DecodeReport {
    /// What to tell the user: a note `encoding-guessed` when the encoding was guessed,
    /// a warning `encoding-replaced` when malformed bytes were replaced.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.source == EncodingSource::Guessed {
            // a note: a guess that decoded cleanly is no problem with the game; the
            // summary tells it once per file (issue 23)
            out.push(Diagnostic::note(
                Code::EncodingGuessed,
                format!(
                    "text is not valid utf-8; decoded as {} (guessed)",
                    self.encoding.name().to_lowercase()
                ),
            ));
        }
        if self.had_replacements {
            out.push(Diagnostic::warning(
                Code::EncodingReplaced,
                format!(
                    "malformed {} byte sequences were replaced with U+FFFD",
                    self.encoding.name().to_lowercase()
                ),
            ));
        }
        out
    }
}

/// The encoding named by a byte order mark at the start of `bytes` and the BOM length.
/// Recognizes UTF-8, UTF-16LE and UTF-16BE.
pub fn sniff_bom(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
    Encoding::for_bom(bytes)
}

/// UTF-16 without a byte order mark, told from the start of a file: game records begin
/// with ASCII (`[Event`, `1.`, a heading), which UTF-16 writes as a letter and a NUL.
/// Little-endian when at least 3 of 4 of the first code units (at least 4 units, at
/// most 256) have their high byte, and only it, zero; big-endian mirrored. A unit of
/// two NULs, or a NUL on the other side, is taken for binary, not UTF-16.
pub fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let units = (bytes.len() / 2).min(256);
    if units < 4 {
        return None;
    }
    let (mut le, mut be) = (0usize, 0usize);
    for pair in bytes[..2 * units].chunks_exact(2) {
        match (pair[0] == 0, pair[1] == 0) {
            (true, true) => return None,
            (false, true) => le += 1,
            (true, false) => be += 1,
            (false, false) => {}
        }
    }
    if be == 0 && 4 * le >= 3 * units {
        Some(UTF_16LE)
    } else if le == 0 && 4 * be >= 3 * units {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Decodes one chunk (one game's bytes, without BOM) to NFC text.
///
/// `forced` is the user's `--encoding`; `hint` the encoding guessed for the previous
/// chunk of the same file (see the module docs). UTF-16 given as `forced` decodes the
/// chunk as UTF-16 (callers should transcode whole files with [`Utf16Reader`] instead).
pub fn decode_chunk(
    bytes: &[u8],
    forced: Option<TextEncoding>,
    hint: Option<TextEncoding>,
) -> (String, DecodeReport) {
    if let Some(enc) = forced {
        let (text, had_replacements) = enc.decode(bytes);
        let report = DecodeReport {
            encoding: enc,
            source: EncodingSource::Forced,
            had_replacements,
        };
        return (super::normalize::nfc(text), report);
    }
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        return decode_utf8(s);
    }
    if mostly_utf8(bytes) {
        // UTF-8 text with a few stray bytes: keep the UTF-8 and replace the strays,
        // rather than turn every valid character into mojibake with a legacy guess.
        let (text, _) = decode_with(UTF_8, bytes);
        let report = DecodeReport {
            encoding: UTF_8.into(),
            source: EncodingSource::Utf8,
            had_replacements: true,
        };
        return (super::normalize::nfc(text), report);
    }
    let enc = guess_legacy(bytes, hint);
    let (text, had_replacements) = enc.decode(bytes);
    let report = DecodeReport {
        encoding: enc,
        source: EncodingSource::Guessed,
        had_replacements,
    };
    (super::normalize::nfc(text), report)
}

/// What [`decode_chunk`] gives, without `forced`, for bytes that are valid UTF-8
/// (`text`): for a caller that has validated them already.
pub fn decode_utf8(text: &str) -> (String, DecodeReport) {
    let report = DecodeReport {
        encoding: UTF_8.into(),
        source: EncodingSource::Utf8,
        had_replacements: false,
    };
    (super::normalize::nfc(text.to_owned()), report)
}

/// The code point and length of the two- or three-byte character `bytes` starts
/// with, decoded straight from its bytes without the checks of a general decoder:
/// for valid UTF-8 text read at a character boundary (a scanner that knows the text
/// is a `str`). `None` when `bytes` starts with ASCII, a four-byte character or a
/// continuation byte (off a boundary), or is too short.
#[inline]
pub(crate) fn bmp_char(bytes: &[u8]) -> Option<(u32, usize)> {
    let lead = *bytes.first()?;
    if lead < 0xC0 {
        return None;
    }
    let b1 = u32::from(*bytes.get(1)? & 0x3F);
    if lead < 0xE0 {
        return Some(((u32::from(lead & 0x1F) << 6) | b1, 2));
    }
    if lead >= 0xF0 {
        return None;
    }
    let b2 = u32::from(*bytes.get(2)? & 0x3F);
    Some(((u32::from(lead & 0x0F) << 12) | (b1 << 6) | b2, 3))
}

/// Does `bytes` hold at least two valid multi-byte UTF-8 characters for every invalid
/// sequence? Legacy-encoded text almost never forms valid UTF-8 sequences, so this
/// tells UTF-8 with stray bytes from a legacy encoding.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut valid, mut invalid) = (0usize, 0usize);
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                valid += s.chars().filter(|c| !c.is_ascii()).count();
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                valid += std::str::from_utf8(good)
                    .map_or(0, |s| s.chars().filter(|c| !c.is_ascii()).count());
                invalid += 1;
                let skip = e.error_len().unwrap_or(bad.len()).max(1);
                rest = bad.get(skip..).unwrap_or(&[]);
            }
        }
    }
    valid >= 2 * invalid.max(1)
}

fn decode_with(enc: &'static Encoding, bytes: &[u8]) -> (String, bool) {
    let (text, had_replacements) = enc.decode_without_bom_handling(bytes);
    (text.into_owned(), had_replacements)
}

/// The maximum number of sample bytes [`guess_legacy`] scores.
const SAMPLE_LIMIT: usize = 4096;

/// Collects the non-ASCII parts of `bytes`: each run of bytes ≥ 0x80 with up to three
/// ASCII letters before it and the byte after it, separated by spaces.
fn sample(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() && out.len() < SAMPLE_LIMIT {
        if bytes[i] < 0x80 {
            i += 1;
            continue;
        }
        let mut start = i;
        while start > 0 && i - start < 3 && bytes[start - 1].is_ascii_alphabetic() {
            start -= 1;
        }
        let mut end = i;
        while end < bytes.len() && bytes[end] >= 0x80 {
            end += 1;
        }
        // the byte after the run: a GBK/Big5 trail byte, or a letter giving context
        if end < bytes.len() && !bytes[end].is_ascii_whitespace() {
            end += 1;
        }
        out.extend_from_slice(&bytes[start..end]);
        out.push(b' ');
        i = end;
    }
    out
}

/// Guesses the legacy encoding of `bytes` (which are not valid UTF-8): a Vietnamese
/// legacy encoding when [`vietnamese_guess`] finds one, else one of
/// [`GUESS_CANDIDATES`], by the heuristic in the module docs. `hint` is the encoding
/// chosen for the previous chunk of the same file.
pub fn guess_legacy(bytes: &[u8], hint: Option<TextEncoding>) -> TextEncoding {
    if let Some(l) = vietnamese_guess(bytes, hint) {
        return TextEncoding::Legacy(l);
    }
    let hint = hint.and_then(TextEncoding::std);
    TextEncoding::Std(guess_standard(bytes, hint))
}

/// [`guess_legacy`] among [`GUESS_CANDIDATES`] only.
fn guess_standard(bytes: &[u8], hint: Option<&'static Encoding>) -> &'static Encoding {
    let sample = sample(bytes);
    let mut best = WINDOWS_1252;
    let mut best_score = i64::MIN;
    let mut hint_score = None;
    for enc in GUESS_CANDIDATES {
        let (text, had_replacements) = enc.decode_without_bom_handling(&sample);
        let score = score_text(&text);
        if Some(enc) == hint && !had_replacements {
            hint_score = Some(score);
        }
        if score > best_score {
            best = enc;
            best_score = score;
        }
    }
    match (hint, hint_score) {
        (Some(h), Some(s)) if s + 3 >= best_score => h,
        _ => best,
    }
}

/// Common CJK ideographs, simplified and traditional, including xiangqi vocabulary.
const COMMON_CJK: &str = "的一是不了人我在有他这這中大来來上国國个個到说說们們为為子和你地出道也时時年得就那要下以生会會自着著去之过過家学學对對可她里裡后後小么麼心多天而能好都然没沒日于於起还還发發成事只作当當想看文无無开開手十用主行方又如前所本见見经經头頭面公同三已老从從动動两兩长長知民样樣现現分将將外但身些与與高意进進把法此实實回二理美点點月明其种種声聲全工己话話儿兒者向情部正名定女问問力机機给給等几幾很业業最间間新什打便位因重被走电電四第门門相次东東政海口使教西再平真听聽世气氣信北少关關并並内內加化由却卻代军軍产產入先山五太水万萬市眼体體别別处處总總才场場师師书書比住员員九笑性通目华華报報立马馬命张張活难難神数數件安表原车車白应應路期叫死常提感金何更反合放做系计計或司利受光王果亲親界及今京务務制解各任至清物台象记記边邊共风風战戰干接它许許八特觉覺望直服毛林题題建南度统統色字请請交爱愛让讓认認算论論百吃义義科怎元社术術结結六功指思非流每青管夫连連远遠资資队隊跟带帶花快条條院变變联聯言权權往展该該领領传傳近留红紅治决決周保达達办辦运運武半候七必城父强強步完革深区區即求品士转轉量空甚众眾技轻輕程告江语語英基派满滿式李息写寫呢识識极極令黄黃德收脸臉钱錢党黨倒未持音始议議质質云雲帝兵棋炮帅帥卒仕退黑胜勝负負局杯赛賽届屆全锦錦标標队隊冠军軍胡荣榮华許银銀川吕呂钦欽徐天红谢謝靖洪智蒋蔣汪洋赵趙鑫孙孫勇征郑鄭惟桐卜凤凤波柳大华陶汉漢明廖二平宗翰阮成保黎德志范启啟源楠阳陽谷霍羡勇对對负負和局先手后後着法炮二平五马八进七车九平八兵三进一卒七进一将帅士象马车炮兵卒一二三四五六七八九";

fn is_common_cjk(c: char) -> bool {
    COMMON_CJK.contains(c)
}

/// Russian letter frequency class: 3 for the most frequent, 1 for rare letters.
fn cyrillic_weight(c: char) -> i64 {
    let lower = c.to_lowercase().next().unwrap_or(c);
    if "оеаинтсрвлкмдпу".contains(lower) {
        3
    } else if "яыьгзбчйхжшюцщэфъё".contains(lower) {
        2
    } else {
        1
    }
}

fn is_latin_vowel(c: char) -> bool {
    "aeiouyAEIOUYâêôăơưÂÊÔĂƠƯ".contains(c)
}

fn is_lower_letter(c: char) -> bool {
    c.is_alphabetic() && c.is_lowercase()
}

/// Scores decoded sample text by the table in the module docs.
fn score_text(text: &str) -> i64 {
    let mut score = 0i64;
    let mut prev = ' ';
    let mut accented_run = 0u32;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        let cp = c as u32;
        if c.is_ascii() {
            accented_run = 0;
            prev = c;
            continue;
        }
        let mut s = 0i64;
        let latin = matches!(cp, 0xC0..=0x24F | 0x1E00..=0x1EFF) && c.is_alphabetic();
        if latin {
            accented_run += 1;
        } else if !matches!(cp, 0x300..=0x36F) {
            accented_run = 0;
        }
        match cp {
            0xFFFD => s -= 30,
            0x80..=0x9F | 0xE000..=0xF8FF => s -= 20,
            0x4E00..=0x9FFF => {
                if is_common_cjk(c) {
                    s += 6;
                }
            }
            0x3400..=0x4DBF | 0x3040..=0x30FF | 0xAC00..=0xD7AF | 0x2500..=0x259F => s -= 4,
            0x400..=0x4FF if c.is_alphabetic() => {
                s += cyrillic_weight(c);
                if prev.is_ascii_alphabetic() {
                    s -= 4;
                }
            }
            0x64B..=0x65F | 0x670 => {
                // Arabic vowel marks: only after an Arabic letter
                if matches!(prev as u32, 0x620..=0x64A | 0x671..=0x6FF) {
                    s += 1;
                } else {
                    s -= 6;
                }
            }
            0x600..=0x6FF if c.is_alphabetic() => {
                s += 3;
                if prev.is_ascii_alphabetic() {
                    s -= 4;
                }
            }
            0x300..=0x36F => {
                if is_latin_vowel(prev) {
                    s += 4;
                } else {
                    s -= 6;
                }
            }
            _ if latin => {
                s += 2;
                if "ăâđêôơưĂÂĐÊÔƠƯ".contains(c) {
                    s += 1;
                }
                if accented_run >= 3 {
                    s -= 3;
                }
            }
            _ if c.is_alphabetic() => {}
            _ => {
                if prev.is_alphabetic() && next.is_alphabetic() {
                    s -= 5;
                } else {
                    s -= 1;
                }
            }
        }
        if c.is_alphabetic() && c.is_uppercase() && is_lower_letter(prev) {
            s -= 6;
        }
        score += s;
        prev = c;
    }
    score
}

/// A [`Read`] that transcodes a UTF-16 byte stream (after its BOM) to UTF-8, in
/// bounded memory, with encoding_rs's streaming [`Decoder`]. Malformed input becomes
/// U+FFFD and is remembered in [`Utf16Reader::had_replacements`].
pub struct Utf16Reader<R> {
    inner: R,
    decoder: Decoder,
    input: Vec<u8>,
    in_start: usize,
    in_end: usize,
    eof: bool,
    finished: bool,
    output: Vec<u8>,
    out_start: usize,
    out_end: usize,
    had_replacements: bool,
}

impl<R: Read> Utf16Reader<R> {
    /// Transcodes `inner`, whose BOM has already been consumed, from `encoding`
    /// (UTF-16LE or UTF-16BE).
    pub fn new(inner: R, encoding: &'static Encoding) -> Utf16Reader<R> {
        let encoding = if encoding == UTF_16BE {
            UTF_16BE
        } else {
            UTF_16LE
        };
        Utf16Reader {
            inner,
            decoder: encoding.new_decoder_without_bom_handling(),
            input: vec![0; 32 * 1024],
            in_start: 0,
            in_end: 0,
            eof: false,
            finished: false,
            output: vec![0; 64 * 1024],
            out_start: 0,
            out_end: 0,
            had_replacements: false,
        }
    }

    /// Whether malformed UTF-16 was replaced so far.
    pub fn had_replacements(&self) -> bool {
        self.had_replacements
    }

    fn refill(&mut self) -> io::Result<()> {
        while self.out_start == self.out_end {
            if self.in_start == self.in_end && !self.eof {
                let n = self.inner.read(&mut self.input)?;
                self.in_start = 0;
                self.in_end = n;
                self.eof = n == 0;
            }
            if self.in_start == self.in_end && self.eof {
                if self.finished {
                    return Ok(());
                }
                self.finished = true;
                // flush the decoder once at the end
                let (_, _, written, repl) =
                    self.decoder.decode_to_utf8(&[], &mut self.output, true);
                self.had_replacements |= repl;
                self.out_start = 0;
                self.out_end = written;
                return Ok(());
            }
            let (result, read, written, repl) = self.decoder.decode_to_utf8(
                &self.input[self.in_start..self.in_end],
                &mut self.output,
                false,
            );
            self.had_replacements |= repl;
            self.in_start += read;
            self.out_start = 0;
            self.out_end = written;
            if result == CoderResult::OutputFull && written == 0 {
                return Err(io::Error::other("utf-16 decoder made no progress"));
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_start == self.out_end {
            self.refill()?;
        }
        let avail = &self.output[self.out_start..self.out_end];
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.out_start += n;
        Ok(n)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["Nguyễn Ngọc Trường Sơn", "王天一", "بهروز", "Смыслов"];

    /// `bmp_char` decodes every two- and three-byte character as `chars()` does, and
    /// gives `None` for the others and off a character boundary.
    #[test]
    fn bmp_char_decodes_every_character() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let text = format!("{c}x");
            let want = matches!(c.len_utf8(), 2 | 3).then_some((u32::from(c), c.len_utf8()));
            assert_eq!(bmp_char(text.as_bytes()), want, "{c:?}");
            for i in 1..c.len_utf8() {
                assert_eq!(bmp_char(&text.as_bytes()[i..]), None, "{c:?} {i}");
            }
        }
    }

    fn tag_bytes(enc: &'static Encoding, name: &str) -> Vec<u8> {
        let text = format!("[White \"{name}\"]\n[Black \"Test\"]\n\n1. e4 e5 *\n");
        let (bytes, _, unmappable) = enc.encode(&text);
        assert!(!unmappable, "{} cannot encode {name}", enc.name());
        bytes.into_owned()
    }

    /// Vietnamese as windows-1258 writes it: letters with circumflex, breve and horn
    /// precomposed, the five tone marks as combining characters.
    pub(crate) fn tones_decomposed(s: &str) -> String {
        use unicode_normalization::UnicodeNormalization;
        let tone = |c: &char| matches!(*c as u32, 0x300 | 0x301 | 0x303 | 0x309 | 0x323);
        let mut out = String::new();
        for c in s.chars() {
            let d: Vec<char> = c.nfd().collect();
            out.extend(d.iter().copied().filter(|c| !tone(c)).nfc());
            out.extend(d.iter().filter(|c| tone(c)));
        }
        out
    }

    #[test]
    fn guesses_each_encoding() {
        let cases: [(&Encoding, &str); 7] = [
            (WINDOWS_1252, "Hübner, Würishofen"),
            (WINDOWS_1251, NAMES[3]),
            (KOI8_R, NAMES[3]),
            (IBM866, NAMES[3]),
            (WINDOWS_1256, NAMES[2]),
            (GBK, NAMES[1]),
            (BIG5, NAMES[1]),
        ];
        for (enc, name) in cases {
            let bytes = tag_bytes(enc, name);
            let (text, report) = decode_chunk(&bytes, None, None);
            assert_eq!(report.source, EncodingSource::Guessed, "{}", enc.name());
            assert!(
                text.contains(name),
                "{} decoded as {}: {text}",
                enc.name(),
                report.encoding.name()
            );
            assert!(!report.had_replacements);
        }
    }

    #[test]
    fn guesses_decomposed_windows_1258() {
        // windows-1258 encodes most tone marks as combining characters: encode the
        // decomposed form, and decoding must give back the NFC text
        let name = NAMES[0];
        let bytes = tag_bytes(WINDOWS_1258, &tones_decomposed(name));
        let (text, report) = decode_chunk(&bytes, None, None);
        assert_eq!(report.encoding, WINDOWS_1258);
        assert!(text.contains(name), "{text}");
    }

    /// What a caller that validated the bytes gets is what `decode_chunk` gives them,
    /// NFC applied (decomposed Vietnamese), for every script.
    #[test]
    fn decode_utf8_is_decode_chunk_of_valid_bytes() {
        for text in [
            "1. e4 e5",
            "[White \"Nguye\u{0302}\u{0303}n\"] 1. Me\u{0302}\u{0301}f3",
            "1. 马f3 ♞c6 اf3 Кf6\n",
            "1. ♘f3",
        ] {
            let chunk = decode_chunk(text.as_bytes(), None, Some(WINDOWS_1252.into()));
            assert_eq!(decode_utf8(text), chunk, "{text:?}");
        }
    }

    #[test]
    fn utf8_is_not_guessed() {
        let (text, report) = decode_chunk("Смыслов".as_bytes(), None, None);
        assert_eq!(text, "Смыслов");
        assert_eq!(report.source, EncodingSource::Utf8);
        assert!(report.diagnostics().is_empty());
    }

    #[test]
    fn forced_encoding_and_diagnostics() {
        let (text, report) = decode_chunk(b"H\xfcbner \x81", Some(WINDOWS_1251.into()), None);
        assert_eq!(text, "Hьbner Ѓ");
        assert_eq!(report.source, EncodingSource::Forced);
        let (_, report) = decode_chunk(b"ab\xff", Some(UTF_8.into()), None);
        assert!(report.had_replacements);
        let codes: Vec<_> = report.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, ["encoding-replaced"]);
        let (_, report) = decode_chunk(b"H\xfcbner", None, None);
        let codes: Vec<_> = report.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, ["encoding-guessed"]);
    }

    #[test]
    fn hint_is_kept_when_plausible() {
        // a lone "é" scores the same in 1252 and 1258; the hint decides
        assert_eq!(
            guess_legacy(b"Andr\xe9", Some(WINDOWS_1258.into())),
            WINDOWS_1258
        );
        // but a hint that cannot decode the chunk loses
        assert_eq!(
            guess_legacy(b"\xcd\xf5\xcc\xec\xd2\xbb", Some(WINDOWS_1252.into())),
            GBK
        );
    }

    #[test]
    fn bom_sniffing() {
        assert_eq!(sniff_bom(b"\xef\xbb\xbf[E"), Some((UTF_8, 3)));
        assert_eq!(sniff_bom(b"\xff\xfe[\0"), Some((UTF_16LE, 2)));
        assert_eq!(sniff_bom(b"\xfe\xff\0["), Some((UTF_16BE, 2)));
        assert_eq!(sniff_bom(b"[Event"), None);
    }

    #[test]
    fn utf16_without_bom_sniffing() {
        let le: Vec<u8> = "[Event \"Müller\"]"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "1. e4 e5 *"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(sniff_utf16(&le), Some(UTF_16LE));
        assert_eq!(sniff_utf16(&be), Some(UTF_16BE));
        // an odd byte count at the end (a stream cut mid-unit) does not matter
        assert_eq!(sniff_utf16(&le[..le.len() - 1]), Some(UTF_16LE));
        // ASCII, UTF-8, Chinese in UTF-16 (no NULs), binary and short inputs are not
        for not in [
            &b"[Event \"a\"]"[..],
            "[Event \"炮二平五\"]".as_bytes(),
            &b"\0\0\0\0[\0E\0v\0e\0n\0t\0"[..],
            &b"[\0E\0"[..],
            &b"[\0E\0\0v\0e\0n\0t"[..],
        ] {
            assert_eq!(sniff_utf16(not), None, "{not:?}");
        }
        let zh: Vec<u8> = "炮二平五马８进７"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(sniff_utf16(&zh), None);
    }

    #[test]
    fn utf16_stream_transcoding() {
        let text = NAMES.join(" ").repeat(5000);
        for enc in [UTF_16LE, UTF_16BE] {
            let mut bytes = Vec::new();
            for u in text.encode_utf16() {
                let b = if enc == UTF_16LE {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                };
                bytes.extend_from_slice(&b);
            }
            let mut out = String::new();
            let mut r = Utf16Reader::new(&bytes[..], enc);
            r.read_to_string(&mut out).unwrap();
            assert_eq!(out, text);
            assert!(!r.had_replacements());
        }
        // an odd trailing byte is malformed
        let mut r = Utf16Reader::new(&b"a\0b"[..], UTF_16LE);
        let mut out = String::new();
        r.read_to_string(&mut out).unwrap();
        assert_eq!(out, "a\u{fffd}");
        assert!(r.had_replacements());
    }
}
