//! The JSON writer's bytes, shaped for speed: [`JsonBuf`] (a buffer kept at its full
//! length and written in place), [`Out`] (a move object put together in a fixed array
//! and appended in one copy), and strings, numbers and clocks written without `fmt`,
//! the bytes to escape found a word at a time. Each is checked against the plain
//! meaning by the tests below.

use super::*;

/// The writer's output: `bytes`, of which the first `len` are written.
///
/// The bytes are never cut back to `len`. Safe code can only lengthen a `Vec` by
/// writing what it adds (zeros, as room to be written over), so a buffer kept at its
/// full length is reused without that second store of every byte: the moves of the
/// usual kind are written in place into the room past `len` ([`put_plain_run`]), and
/// a buffer is zeroed only where it grows, once in its life, whether the writer keeps
/// it from game to game ([`JsonWriter`]) or a caller hands it back
/// ([`JsonBuf::from_vec`]).
#[derive(Debug, Default)]
pub struct JsonBuf {
    pub(super) bytes: Vec<u8>,
    pub(super) len: usize,
}

impl JsonBuf {
    /// An empty buffer whose room is the whole of `bytes` (written over, not read).
    pub fn from_vec(bytes: Vec<u8>) -> JsonBuf {
        JsonBuf { bytes, len: 0 }
    }

    /// What is written.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    /// Forgets what is written, keeping the room.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The whole vector and how many of its first bytes are written: the vector can be
    /// handed back to [`JsonBuf::from_vec`] without being zeroed again.
    pub fn into_parts(self) -> (Vec<u8>, usize) {
        (self.bytes, self.len)
    }

    /// What is written, as a vector of its own length.
    pub fn into_written(self) -> Vec<u8> {
        let mut bytes = self.bytes;
        bytes.truncate(self.len);
        bytes
    }

    /// How many bytes are written.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Forgets what is written past `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Makes the bytes at least `end` long, and half as long again as before (zeros
    /// as room), keeping the first `keep` (those written, and those written in place
    /// past them and not yet counted: see [`put_plain_run`]): in a new vector that
    /// only they are copied to (a `Vec` growing in place would copy its room too).
    #[cold]
    #[inline(never)]
    pub(super) fn grow(&mut self, keep: usize, end: usize) {
        let want = end.max(self.bytes.len() / 2 * 3).max(256);
        // allocated zeroed: memory fresh from the system is not zeroed again
        let mut bytes = vec![0; want];
        let keep = keep.max(self.len);
        if let (Some(to), Some(from)) = (bytes.get_mut(..keep), self.bytes.get(..keep)) {
            to.copy_from_slice(from);
        }
        self.bytes = bytes;
    }

    /// Makes room for `n` more bytes past what is written.
    pub(super) fn reserve(&mut self, n: usize) {
        let end = self.len.saturating_add(n);
        if end > self.bytes.len() {
            self.grow(self.len, end);
        }
    }

    /// The `K` bytes of room at `at` (made when there is too little, keeping the
    /// bytes before `at`), written over in place.
    #[inline(always)]
    pub(super) fn room_at<const K: usize>(&mut self, at: usize) -> Option<&mut [u8; K]> {
        if self.bytes.len() < at.checked_add(K)? {
            self.grow(at, at + K);
        }
        <&mut [u8; K]>::try_from(self.bytes.get_mut(at..at + K)?).ok()
    }

    /// Appends `s`.
    #[inline(always)]
    pub(super) fn extend_from_slice(&mut self, s: &[u8]) {
        let (at, end) = (self.len, self.len.saturating_add(s.len()));
        if end > self.bytes.len() {
            self.grow(at, end);
        }
        if let Some(to) = self.bytes.get_mut(at..end) {
            to.copy_from_slice(s);
            self.len = end;
        }
    }

    /// Appends a byte.
    #[inline(always)]
    pub(super) fn push(&mut self, c: u8) {
        if self.len >= self.bytes.len() {
            self.grow(self.len, self.len + 1);
        }
        if let Some(to) = self.bytes.get_mut(self.len) {
            *to = c;
            self.len += 1;
        }
    }
}

impl SanOut for JsonBuf {
    fn push_ascii(&mut self, c: u8) {
        self.push(c);
    }
    fn push_text(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
}

/// Copies all of `s` into `bytes` at `*len` and counts `n` of its bytes as used
/// (`n` ≤ `s.len()`: the rest is room written over later); `false`, and nothing
/// written, when `s` does not fit: the copy of [`Out`].
#[inline(always)]
pub(super) fn copy_at(bytes: &mut [u8], len: &mut usize, s: &[u8], n: usize) -> bool {
    match bytes.get_mut(*len..*len + s.len()) {
        Some(to) => {
            to.copy_from_slice(s);
            *len += n;
            true
        }
        None => false,
    }
}

/// Room of [`Out`]: a move object without comments, variations or long text.
pub(super) const SCRATCH: usize = 256;

/// Output put together in a fixed array before it is appended to the buffer `b`
/// with one copy ([`Out::flush`]): each piece is copied at a known length without a
/// check of the buffer's capacity, the usual move object in one piece. A piece that
/// does not fit is appended to `b` after the bytes before it, so nothing is lost
/// whatever the lengths; what is left in the array must be flushed before `b` is
/// written otherwise.
pub(super) struct Out<'a> {
    pub(super) b: &'a mut JsonBuf,
    pub(super) bytes: &'a mut [u8; SCRATCH],
    /// The bytes of the array in use.
    pub(super) len: usize,
}

impl<'a> Out<'a> {
    /// Starts an empty piece of output to be appended to `b`, put together in `bytes`.
    pub(super) fn new(b: &'a mut JsonBuf, bytes: &'a mut [u8; SCRATCH]) -> Out<'a> {
        Out { b, bytes, len: 0 }
    }

    /// Appends `s`.
    #[inline(always)]
    pub(super) fn put(&mut self, s: &[u8]) {
        if !copy_at(self.bytes, &mut self.len, s, s.len()) {
            self.spill(s);
        }
    }

    /// Appends the first `n` bytes of `s` (all of it when `n` is larger), copying
    /// all of it: one copy of a known length, cheaper than one of `n` bytes.
    #[inline(always)]
    pub(super) fn put_prefix<const K: usize>(&mut self, s: &[u8; K], n: usize) {
        let n = n.min(K);
        if !copy_at(self.bytes, &mut self.len, s, n) {
            self.spill(s.get(..n).unwrap_or(s));
        }
    }

    /// Appends what does not fit: the array's bytes, then `s`, to `b`.
    #[cold]
    #[inline(never)]
    pub(super) fn spill(&mut self, s: &[u8]) {
        self.flush();
        self.b.extend_from_slice(s);
    }

    /// Appends the bytes of the array to `b` and empties it.
    pub(super) fn flush(&mut self) {
        self.b
            .extend_from_slice(self.bytes.get(..self.len).unwrap_or(&[]));
        self.len = 0;
    }

    /// Appends a decimal number, as [`push_u64`].
    #[inline(always)]
    pub(super) fn put_u64(&mut self, v: u64) {
        match usize::try_from(v).ok().and_then(|i| DIGITS.get(i)) {
            Some(d) => self.put_prefix(d, digits_len(d)),
            None => self.put(itoa::Buffer::new().format(v).as_bytes()),
        }
    }

    /// Appends the inside of `s` as a JSON string literal, as [`push_escaped`]: a
    /// string that needs no escape ([`all_plain`]) copied at once.
    #[inline(always)]
    pub(super) fn put_escaped(&mut self, s: &str) {
        if all_plain(s.as_bytes()) {
            return self.put(s.as_bytes());
        }
        self.flush();
        push_escaped(self.b, s);
    }

    /// `,"uci":"…","san":"` with the coordinates of `mv` ([`coords`]).
    #[inline(always)]
    pub(super) fn put_coords(&mut self, board: &Board, mv: &AnyMove) {
        let (c, len) = coords(board, mv);
        self.put(b",\"uci\":\"");
        self.put_prefix(&c, len);
        self.put(b"\",\"san\":\"");
    }

    /// Appends `n`, `sep` and `v`, the strings as JSON string literals ([`push_str`]);
    /// `plain`: neither needs an escape ([`all_plain`]).
    #[inline(always)]
    pub(super) fn put_pair(&mut self, n: &str, sep: &[u8], v: &str, plain: bool) {
        if !plain {
            self.put_str(n);
            self.put(sep);
            return self.put_str(v);
        }
        self.put(b"\"");
        self.put(n.as_bytes());
        self.put(b"\"");
        self.put(sep);
        self.put(b"\"");
        self.put(v.as_bytes());
        self.put(b"\"");
    }

    /// Appends `s` as a JSON string literal, as [`push_str`].
    #[inline(always)]
    pub(super) fn put_str(&mut self, s: &str) {
        self.put(b"\"");
        self.put_escaped(s);
        self.put(b"\"");
    }

    /// The end of the `san` field and the `written` field of a move read from
    /// `span` of `text` (its [`Span::slice`]): `","written":"…"`, or
    /// `","written":null` without a span.
    #[inline(always)]
    pub(super) fn put_written(&mut self, text: &str, span: Option<Span>) {
        let Some(span) = span else {
            return self.put(b"\",\"written\":null");
        };
        self.put(b"\",\"written\":\"");
        // the usual move, up to eight ASCII bytes, checked as one word
        let (start, len) = (span.start as usize, span.len() as usize);
        if let Some(word) = text
            .as_bytes()
            .get(start..start + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            && len <= 8
            && plain_ascii_word(u64::from_le_bytes(word), len)
        {
            self.put_prefix(&word, len);
        } else {
            self.put_escaped(span.slice(text));
        }
        self.put(b"\"");
    }

    /// `,"line":…,"column":…` for a span (nulls without one).
    #[inline(always)]
    pub(super) fn put_location(&mut self, lines: &mut Lines<'_>, span: Option<Span>) {
        match span {
            Some(s) => {
                let column = lines.field_for(s.start as usize);
                self.put_prefix(&lines.field, lines.field_len);
                self.put_u64(u64::from(column));
            }
            None => self.put(b",\"line\":null,\"column\":null"),
        }
    }
}

impl SanOut for Out<'_> {
    #[inline(always)]
    fn push_ascii(&mut self, c: u8) {
        self.put(&[c]);
    }
    #[inline(always)]
    fn push_text(&mut self, s: &str) {
        self.put(s.as_bytes());
    }
}

/// `"H:MM:SS"` (a fraction only when there is one) as [`Clock`]'s `Display`, or
/// `null`.
pub(super) fn push_clock(b: &mut JsonBuf, c: Option<Clock>) {
    let Some(c) = c else {
        b.extend_from_slice(b"null");
        return;
    };
    let secs = c.millis / 1000;
    b.push(b'"');
    push_u64(b, secs / 3600);
    b.push(b':');
    push_two_digits(b, secs / 60 % 60);
    b.push(b':');
    push_two_digits(b, secs % 60);
    let ms = c.millis % 1000;
    if ms != 0 {
        b.push(b'.');
        let keep = if ms % 100 == 0 {
            1
        } else if ms % 10 == 0 {
            2
        } else {
            3
        };
        for d in [ms / 100, ms / 10, ms].iter().take(keep) {
            b.push(digit(*d));
        }
    }
    b.push(b'"');
}

/// `v % 100` in two digits.
pub(super) fn push_two_digits(b: &mut JsonBuf, v: u64) {
    b.extend_from_slice(&[digit(v / 10), digit(v)]);
}

/// The ASCII decimal digit of `d % 10`.
pub(super) fn digit(d: u64) -> u8 {
    b'0' + (d % 10) as u8
}

/// The ASCII lowercase hexadecimal digit of `d & 0xF`.
pub(super) fn hex_digit(d: u8) -> u8 {
    let d = d & 0xF;
    if d < 10 { b'0' + d } else { b'a' + d - 10 }
}

/// Appends a decimal number.
pub(super) fn push_u64(b: &mut JsonBuf, v: u64) {
    match usize::try_from(v).ok().and_then(|i| DIGITS.get(i)) {
        Some(d) => b.extend_from_slice(d.get(..digits_len(d)).unwrap_or(d)),
        None => b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes()),
    }
}

/// How many digits an entry of [`DIGITS`] has: its last byte, 1 to 3 (masked so
/// that it is seen to be below 4 when compiling).
#[inline(always)]
pub(super) fn digits_len(d: &[u8; 4]) -> usize {
    usize::from(d[3] & 3)
}

/// The numbers below 1000 in decimal: the digits, then how many they are (the last
/// byte).
pub(super) const DIGITS: [[u8; 4]; 1000] = {
    let mut t = [[0; 4]; 1000];
    let mut i = 0;
    while i < 1000 {
        t[i] = if i < 10 {
            [b'0' + i as u8, 0, 0, 1]
        } else if i < 100 {
            [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8, 0, 2]
        } else {
            [
                b'0' + (i / 100) as u8,
                b'0' + (i / 10 % 10) as u8,
                b'0' + (i % 10) as u8,
                3,
            ]
        };
        i += 1;
    }
    t
};

/// Bytes that stand for themselves in a JSON string: not a control character, `"`
/// or `\`, nor `0xE2`, which may start U+2028 or U+2029 (escaped, for JavaScript).
pub(super) const PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = false;
        c += 1;
    }
    t[b'"' as usize] = false;
    t[b'\\' as usize] = false;
    t[0xE2] = false;
    t
};

/// Whether `s` needs an escape in a JSON string.
pub(super) fn needs_escape(s: &str) -> bool {
    !s.bytes().all(|c| PLAIN[usize::from(c)])
        && (s.bytes().any(|c| c < 0x20 || c == b'"' || c == b'\\')
            || s.contains(['\u{2028}', '\u{2029}']))
}

/// Whether the first `len` bytes of `w` (little-endian, `len` from 1 to 8) are ASCII
/// characters that stand for themselves in a JSON string ([`PLAIN`]): none below
/// U+0020, `"` or `\\`.
pub(super) fn plain_ascii_word(w: u64, len: usize) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // the bytes after `len` read as `a`, which is plain
    let keep = u64::MAX
        .checked_shr(64u32.saturating_sub(8 * len as u32))
        .unwrap_or(0);
    let y = (w & keep) | ((ONES * u64::from(b'a')) & !keep);
    // with every byte below 0x80, `v - ONES * n` borrows into the high bit of a
    // byte exactly when some byte (that one or one before it) is below `n`
    let below = |v: u64, n: u8| v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH != 0;
    y & HIGH == 0
        && !below(y, 0x20)
        && !below(y ^ (ONES * u64::from(b'"')), 1)
        && !below(y ^ (ONES * u64::from(b'\\')), 1)
}

/// Appends `s` as a JSON string literal (`"`, `\\`, control characters, U+2028 and
/// U+2029 escaped).
pub(super) fn push_str(b: &mut JsonBuf, s: &str) {
    b.push(b'"');
    push_escaped(b, s);
    b.push(b'"');
}

/// Appends the inside of `s` as a JSON string literal: see [`push_str`].
pub(super) fn push_escaped(b: &mut JsonBuf, s: &str) {
    let bytes = s.as_bytes();
    // the usual string needs no escape: short ones (move text) copied while they are
    // read, longer ones read, then copied at once
    if bytes.len() <= 8 {
        let at = b.len();
        b.reserve(bytes.len());
        for &c in bytes {
            if !PLAIN[usize::from(c)] {
                b.truncate(at);
                return push_escaped_slow(b, bytes);
            }
            b.push(c);
        }
        return;
    }
    if all_plain(bytes) {
        b.extend_from_slice(bytes);
        return;
    }
    push_escaped_slow(b, bytes);
}

/// Whether every byte of `bytes` stands for itself in a JSON string ([`PLAIN`]): ASCII
/// checked eight bytes at a time ([`plain_ascii_word`]), other words byte by byte.
pub(super) fn all_plain(bytes: &[u8]) -> bool {
    let plain = |w: &[u8]| w.iter().all(|&c| PLAIN[usize::from(c)]);
    let mut words = bytes.chunks_exact(8);
    let whole = words.all(|w| {
        <[u8; 8]>::try_from(w).is_ok_and(|a| plain_ascii_word(u64::from_le_bytes(a), 8)) || plain(w)
    });
    whole && plain(words.remainder())
}

/// [`push_escaped`] of a string that needs an escape.
pub(super) fn push_escaped_slow(b: &mut JsonBuf, bytes: &[u8]) {
    let mut start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        if PLAIN[usize::from(c)] || i < start {
            continue;
        }
        let esc: &[u8] = match c {
            // U+2028 / U+2029 are E2 80 A8 / E2 80 A9; other E2 sequences pass
            0xE2 => match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(0x80), Some(0xA8)) => b"\\u2028",
                (Some(0x80), Some(0xA9)) => b"\\u2029",
                _ => continue,
            },
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            c => &[b'\\', b'u', b'0', b'0', hex_digit(c >> 4), hex_digit(c)],
        };
        b.extend_from_slice(bytes.get(start..i).unwrap_or(&[]));
        b.extend_from_slice(esc);
        start = i + if c == 0xE2 { 3 } else { 1 };
    }
    b.extend_from_slice(bytes.get(start..).unwrap_or(&[]));
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    impl JsonBuf {
        /// A buffer holding `bytes` as written, its room past them not zeros.
        pub(crate) fn written(bytes: &[u8]) -> JsonBuf {
            let mut b = JsonBuf::from_vec(vec![b'#'; 3 * bytes.len()]);
            b.extend_from_slice(bytes);
            b
        }
    }

    fn quoted(s: &str) -> String {
        let mut b = JsonBuf::default();
        push_str(&mut b, s);
        String::from_utf8(b.into_written()).unwrap()
    }

    #[test]
    fn string_escapes() {
        let cases = [
            ("", "\"\""),
            ("abc", "\"abc\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("l1\nl2\t", "\"l1\\nl2\\t\""),
            ("\u{1}x", "\"\\u0001x\""),
            ("\u{1f}\r", "\"\\u001f\\r\""),
            ("Trắng", "\"Trắng\""),
            ("a\u{2028}b…", "\"a\\u2028b…\""),
            ("\u{2029}", "\"\\u2029\""),
            ("♘f3", "\"♘f3\""),
            // long strings take the read-then-copy path
            (
                "a long comment \"quoted\"\u{2028}…\u{7}",
                "\"a long comment \\\"quoted\\\"\\u2028…\\u0007\"",
            ),
            (
                "a long comment, nothing to escape",
                "\"a long comment, nothing to escape\"",
            ),
        ];
        for (s, want) in cases {
            let got = quoted(s);
            assert_eq!(got, want);
            // into a move object, after other bytes
            let mut b = JsonBuf::default();
            let mut scratch = [0; SCRATCH];
            let mut o = Out::new(&mut b, &mut scratch);
            o.put(b"\"");
            o.put_escaped(s);
            o.put(b"\"");
            o.flush();
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), want);
            let back: String = serde_json::from_str(&got).unwrap();
            assert_eq!(back, s);
            assert_eq!(needs_escape(s), got.len() != s.len() + 2, "{s:?}");
        }
    }

    #[test]
    fn plain_words_as_plain_bytes() {
        let want = |w: &[u8]| w.iter().all(|&c| c < 0x80 && PLAIN[usize::from(c)]);
        let mut words = vec![*b"Nf3 Nc6 ", *b"exd8=Q+#", *b"O-O-O\r\n1", *b"aaaaaaaa"];
        // every byte at every place, amid plain and other bytes
        for c in 0..=255u8 {
            for at in 0..8 {
                for fill in [b'e', 0, b'"', 0xE2, 0x7F] {
                    let mut w = [fill; 8];
                    w[at] = c;
                    words.push(w);
                    let mut w = *b"Qh4xe1+ ";
                    w[at] = c;
                    words.push(w);
                }
            }
        }
        for w in words {
            for len in 1..=8 {
                assert_eq!(
                    plain_ascii_word(u64::from_le_bytes(w), len),
                    want(&w[..len]),
                    "{w:?} {len}"
                );
            }
        }
    }

    /// [`all_plain`] is the byte-by-byte check of [`PLAIN`] on strings of every
    /// length up to 40, with any byte anywhere.
    #[test]
    fn all_plain_agrees_with_table() {
        let mut rng = crate::testing::XorShift::new(11);
        let alphabet = [
            b'a', b' ', b'"', b'\\', b'\n', 0, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xFF,
        ];
        for len in 0..=40 {
            for _ in 0..400 {
                let mut s: Vec<u8> = (0..len).map(|_| b'a' + rng.below(26) as u8).collect();
                // one to three bytes of the alphabet at random places
                for _ in 0..=rng.below(3) {
                    if len > 0 {
                        let at = rng.below(len);
                        s[at] = alphabet[rng.below(alphabet.len())];
                    }
                }
                let want = s.iter().all(|&c| PLAIN[usize::from(c)]);
                assert_eq!(all_plain(&s), want, "{s:?}");
            }
        }
    }

    #[test]
    fn written_as_escaped_slice() {
        let texts = [
            "1. e4 e5 2. Nf3 Nc6",
            "1.e4!? e5 2.Nf3\r\n{a \"b\" \\c} 2... Nc6 3. Bb5\t0-1",
            "1. Mf3 ệ5 2. ♘f3 \u{2028} Trắng 中 a\u{1}b",
        ];
        for text in texts {
            for start in 0..=text.len() as u32 {
                for end in start + 1..=(start + 12).min(text.len() as u32 + 2) {
                    let span = Span { start, end };
                    let mut want = JsonBuf::written(b"\",\"written\":\"");
                    push_escaped(&mut want, span.slice(text));
                    want.push(b'"');
                    let mut got = JsonBuf::written(b"x");
                    let mut scratch = [0; SCRATCH];
                    let mut o = Out::new(&mut got, &mut scratch);
                    o.put_written(text, Some(span));
                    o.flush();
                    assert_eq!(
                        got.as_bytes()[1..],
                        want.as_bytes()[..],
                        "{text:?} {span:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn numbers() {
        let mut cases = vec![u64::MAX, 99_999_999, 100_000_000, 123_456_789];
        cases.extend(0..=1100);
        cases.extend((1..20).map(|e| 10u64.pow(e) - 1));
        for n in cases {
            let mut b = JsonBuf::default();
            push_u64(&mut b, n);
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), n.to_string());
            let mut b = JsonBuf::default();
            let mut scratch = [0; SCRATCH];
            let mut o = Out::new(&mut b, &mut scratch);
            o.put_u64(n);
            o.flush();
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), n.to_string());
        }
    }

    #[test]
    fn out_keeps_every_byte_in_order() {
        let mut want = Vec::new();
        let mut b = JsonBuf::written(b"before");
        let mut scratch = [0; SCRATCH];
        let mut o = Out::new(&mut b, &mut scratch);
        for n in (0..40).chain([255, 256, 257, 300, 600]).chain(0..40) {
            let piece: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            o.put(&piece);
            want.extend_from_slice(&piece);
            let prefix = [b'0', b'1', b'2', b'3', b'4'];
            o.put_prefix(&prefix, n % 7);
            want.extend_from_slice(&prefix[..(n % 7).min(5)]);
            o.put_u64(n as u64 * 997);
            want.extend_from_slice((n * 997).to_string().as_bytes());
        }
        o.flush();
        assert_eq!(b.as_bytes(), [&b"before"[..], &want].concat());
    }

    #[test]
    fn clocks_as_display() {
        for millis in [
            0,
            5,
            50,
            120,
            200,
            999,
            1000,
            5_200,
            59_999,
            60_000,
            3_599_000,
            3_600_000,
            5_400_000,
            5_400_010,
            36_000_000,
            359_999_999,
            400_000_001,
        ] {
            let c = Clock { millis };
            let mut b = JsonBuf::default();
            push_clock(&mut b, Some(c));
            assert_eq!(
                String::from_utf8(b.into_written()).unwrap(),
                format!("\"{c}\"")
            );
        }
        let mut b = JsonBuf::default();
        push_clock(&mut b, None);
        assert_eq!(b.as_bytes(), b"null");
    }
}
