//! Line and column of the spans of a game's text, found by a cursor that moves
//! forward with the moves ([`LineCursor`]) rather than by a search per span; the test
//! below compares it with [`LineIndex::locate`](crate::model::diag::LineIndex::locate).

use super::{buf::DIGITS, *};

impl Lines<'_> {
    /// Locates `offset`, leaving `,"line":N,"column":` of its line in `field`, and
    /// returns its column.
    #[inline(always)]
    pub(super) fn field_for(&mut self, offset: usize) -> u32 {
        // on the ASCII line of `field`, the column counts bytes
        let from_start = offset.wrapping_sub(self.fast_start);
        if from_start <= self.fast_len {
            return column_number(from_start);
        }
        self.field_for_slow(offset)
    }

    /// [`Lines::field_for`] with the column as its entry of [`DIGITS`] (`None` past
    /// 999): on the line of the fast path, from the offset without a conversion.
    #[inline(always)]
    pub(super) fn column_digits(&mut self, offset: usize) -> Option<&'static [u8; 4]> {
        let from_start = offset.wrapping_sub(self.fast_start);
        if from_start <= self.fast_len {
            return DIGITS.get(from_start.checked_add(1)?);
        }
        DIGITS.get(self.field_for_slow(offset) as usize)
    }

    /// [`Lines::field_for`] of an offset off the line of the fast path.
    #[inline(never)]
    pub(super) fn field_for_slow(&mut self, offset: usize) -> u32 {
        let lc = self.cursor.locate(offset);
        // written again only when the line changes
        if self.field_line != Some(lc.line) {
            self.set_field(lc.line);
        }
        let c = &self.cursor;
        (self.fast_start, self.fast_len) = if c.line_ascii {
            (c.line_start, c.line_end - c.line_start)
        } else {
            (usize::MAX, 0)
        };
        lc.column
    }

    /// Writes the `field` of line `line`: the number of the line before counted up in
    /// place (the usual step), any other written anew.
    pub(super) fn set_field(&mut self, line: u64) {
        if self.field_line.and_then(|l| l.checked_add(1)) == Some(line) && self.count_up() {
            self.field_line = Some(line);
            return;
        }
        self.write_field(line);
    }

    /// Adds one to the line number in `field`, its last digit up and the nines
    /// before it to zeros; `false` when it gains a digit (then to be written anew).
    #[inline(always)]
    pub(super) fn count_up(&mut self) -> bool {
        let digits = self.field.get_mut(8..self.field_len.saturating_sub(10));
        for d in digits.into_iter().flatten().rev() {
            if *d != b'9' {
                *d += 1;
                return true;
            }
            *d = b'0';
        }
        false
    }

    /// Writes the `field` of line `line` anew.
    #[cold]
    pub(super) fn write_field(&mut self, line: u64) {
        let mut number = itoa::Buffer::new();
        let digits = number.format(line).as_bytes();
        let (key, rest) = self.field.split_at_mut(8);
        key.copy_from_slice(b",\"line\":");
        let n = digits.len().min(rest.len() - 10);
        if let (Some(to), Some(from)) = (rest.get_mut(..n), digits.get(..n)) {
            to.copy_from_slice(from);
        }
        if let Some(to) = rest.get_mut(n..n + 10) {
            to.copy_from_slice(b",\"column\":");
        }
        self.field_len = 8 + n + 10;
        self.field_line = Some(line);
    }
}

/// Locations of spans in a game's text.
pub(super) struct Lines<'a> {
    pub(super) cursor: LineCursor<'a>,
    /// The `line` field of the line `field_line`, with the key of `column`: the first
    /// `field_len` bytes.
    pub(super) field: [u8; FIELD],
    pub(super) field_len: usize,
    pub(super) field_line: Option<u64>,
    /// The offsets `o` with `o - fast_start <= fast_len` (wrapping) are on the line of
    /// `field`, an ASCII line starting at `fast_start`: none before the first
    /// location ([`Lines::field_for`]) and on a line that is not ASCII.
    pub(super) fast_start: usize,
    pub(super) fast_len: usize,
}

impl<'a> Lines<'a> {
    /// Locations in `text`, whose first line is line `first_line` of its file.
    pub(super) fn new(text: &'a str, first_line: u64) -> Lines<'a> {
        Lines {
            cursor: LineCursor::new(text, first_line),
            field: [0; FIELD],
            field_len: 0,
            field_line: None,
            fast_start: usize::MAX,
            fast_len: 0,
        }
    }
}

/// The 1-based column of the character `from_start` bytes into an ASCII line, as
/// [`LineCursor::here`] gives it.
#[inline(always)]
pub(super) fn column_number(from_start: usize) -> u32 {
    u32::try_from(from_start)
        .unwrap_or(u32::MAX)
        .saturating_add(1)
}

/// Room for `,"line":N,"column":` with the longest `N`.
pub(super) const FIELD: usize = 40;

/// Line and column of byte offsets in one text, as
/// [`LineIndex::locate`](crate::model::diag::LineIndex::locate) gives them, for offsets
/// asked mostly in increasing order (the moves of a game, in the order of its text),
/// without allocating. The cursor stands on one line, whose end it knows: an offset
/// on that line costs a subtraction (on a line that is not ASCII, a count of the
/// characters since the previous offset); an offset on a later line moves the cursor
/// there, counting the line breaks it passes ([`LineCursor::seek`]); an offset
/// before the line moves it there from the start of the text.
pub(super) struct LineCursor<'a> {
    pub(super) text: &'a str,
    /// The 1-based number of the text's first line in its file.
    pub(super) first_line: u64,
    /// Line breaks (`\n`) before `line_start`.
    pub(super) breaks: u64,
    /// Offset of the start of the current line.
    pub(super) line_start: usize,
    /// Offset of the `\n` ending the current line (the text's length on the last line).
    pub(super) line_end: usize,
    /// The whole text is ASCII.
    pub(super) ascii: bool,
    /// The current line is ASCII: columns are byte counts.
    pub(super) line_ascii: bool,
    /// On a line that is not ASCII: the offset counted up to, and the characters
    /// (bytes that do not continue a UTF-8 sequence) from `line_start` to it.
    pub(super) pos: usize,
    pub(super) chars: usize,
}

impl<'a> LineCursor<'a> {
    pub(super) fn new(text: &'a str, first_line: u64) -> LineCursor<'a> {
        let mut cursor = LineCursor {
            text,
            first_line,
            breaks: 0,
            line_start: 0,
            line_end: 0,
            ascii: text.is_ascii(),
            line_ascii: true,
            pos: 0,
            chars: 0,
        };
        cursor.enter_line(0);
        cursor
    }

    /// The line and column of `offset` (past the end: of the end).
    #[inline(always)]
    pub(super) fn locate(&mut self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        if offset < self.line_start || offset > self.line_end {
            self.seek(offset);
        }
        if self.line_ascii {
            return self.here(offset - self.line_start);
        }
        self.locate_in_line(offset)
    }

    /// Moves the cursor to the line holding `offset` (at most the text's length), not
    /// the current one: forward to the next line (the usual step), then past the
    /// lines between at once; back from the text's start.
    #[inline(never)]
    pub(super) fn seek(&mut self, offset: usize) {
        if offset < self.line_start {
            let bytes = self.text.as_bytes().get(..offset).unwrap_or(&[]);
            self.breaks = memchr::memchr_iter(b'\n', bytes).count() as u64;
            return self.enter_line(memchr::memrchr(b'\n', bytes).map_or(0, |last| last + 1));
        }
        // the next line, then, when the offset is further on, the lines before its
        // line at once
        if self.line_end < self.text.len() {
            self.breaks += 1;
            self.enter_line(self.line_end + 1);
        }
        if offset > self.line_end && self.line_end < self.text.len() {
            let from = self.line_end + 1;
            let between = self.text.as_bytes().get(from..offset).unwrap_or(&[]);
            self.breaks += 1 + memchr::memchr_iter(b'\n', between).count() as u64;
            self.enter_line(memchr::memrchr(b'\n', between).map_or(from, |last| from + last + 1));
        }
    }

    /// Makes the line starting at `start` the current one.
    pub(super) fn enter_line(&mut self, start: usize) {
        let rest = self.text.as_bytes().get(start..).unwrap_or(&[]);
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        self.line_start = start;
        self.line_end = start + len;
        self.line_ascii = self.ascii || rest.get(..len).is_some_and(|l| l.is_ascii());
        self.pos = start;
        self.chars = 0;
    }

    /// [`LineCursor::locate`] of `offset` on the current line, which is not ASCII.
    #[inline(never)]
    pub(super) fn locate_in_line(&mut self, offset: usize) -> LineCol {
        if offset < self.pos {
            self.pos = self.line_start;
            self.chars = 0;
        }
        let bytes = self.text.as_bytes().get(self.pos..offset).unwrap_or(&[]);
        self.chars += bytes.iter().filter(|&&c| !is_continuation(c)).count();
        self.pos = offset;
        // inside a character, `LineIndex` counts bytes
        let column = if self.text.is_char_boundary(offset) {
            self.chars
        } else {
            offset - self.line_start
        };
        self.here(column)
    }

    /// The location on the current line at 0-based `column`.
    pub(super) fn here(&self, column: usize) -> LineCol {
        LineCol {
            line: self.first_line + self.breaks,
            column: column_number(column),
        }
    }
}

/// Whether `c` continues a UTF-8 sequence (`10xxxxxx`).
pub(super) const fn is_continuation(c: u8) -> bool {
    c & 0xC0 == 0x80
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::diag::LineIndex;

    #[test]
    fn cursor_agrees_with_line_index() {
        let texts = [
            "",
            "1. e4 e5 2. Nf3\n",
            "[Event \"x\"]\r\n\r\n1. e4 ệ5 Nf3\r\n2. 中 \t\tNc6 😀 a6\n\n",
            "\t\t1.\te4\r\n\te5 {Trắng đi trước}\r\n 2. Nf3",
            "\n\n\n",
            "ééé\néé\r\né",
            "[White \"Trắng\"]\n\n1. e4 e5 2. Nf3\nNc6 3. Bb5\r\n3... a6 {é}\n4. Ba4\n",
        ];
        let mut rng = crate::testing::XorShift::new(7);
        // the line field of every offset, in increasing order, and by random steps
        // (numbers gaining digits, lines skipped, empty lines, going back)
        let many: String = (0..1200)
            .map(|i| ["a\n", "bc d\n", "\n", "é e\n"][i % 7 % 4])
            .collect();
        for (text, first) in texts.iter().map(|t| (*t, 7)).chain([
            (many.as_str(), 1),
            (many.as_str(), 95),
            (many.as_str(), 9_990),
            (many.as_str(), 99_999_990),
        ]) {
            let index = LineIndex::new(text, first);
            let mut lines = Lines::new(text, first);
            let check = |o: usize, lines: &mut Lines<'_>| {
                let want = index.locate(text, o);
                let digits = lines.column_digits(o);
                assert_eq!(digits, DIGITS.get(want.column as usize), "{first} at {o}");
                let column = lines.field_for(o);
                let field = lines.field.get(..lines.field_len).unwrap();
                assert_eq!(column, want.column, "{first} at {o}");
                let want_field = format!(",\"line\":{},\"column\":", want.line);
                assert_eq!(String::from_utf8_lossy(field), want_field, "{first} at {o}");
            };
            for o in 0..=text.len() + 2 {
                check(o, &mut lines);
            }
            let mut lines = Lines::new(text, first);
            let mut o = 0usize;
            for _ in 0..2000 {
                o = match rng.below(16) {
                    0 => rng.below(text.len() + 3),
                    1 => o.saturating_sub(rng.below(6)),
                    2 => o + rng.below(40),
                    _ => o + rng.below(4),
                } % (text.len() + 3);
                check(o, &mut lines);
            }
        }
        for text in texts {
            let index = LineIndex::new(text, 7);
            let want = |o: usize| index.locate(text, o);
            // in increasing order, every offset (inside characters and past the end too)
            let mut cursor = LineCursor::new(text, 7);
            for o in 0..=text.len() + 2 {
                assert_eq!(cursor.locate(o), want(o), "{text:?} at {o}");
            }
            // going back, by small and large steps, then forward again
            let mut cursor = LineCursor::new(text, 7);
            let len = text.len();
            let order = [len, len / 2, len / 2 + 1, len / 3, 0, len, 1, len / 4, len];
            for o in order {
                assert_eq!(cursor.locate(o), want(o), "{text:?} at {o}");
            }
            // mostly forward by small steps, now and then back or far ahead
            let mut cursor = LineCursor::new(text, 7);
            let mut o = 0usize;
            for _ in 0..200 {
                o = match rng.below(8) {
                    0 => rng.below(len + 3),
                    1 => o.saturating_sub(rng.below(6)),
                    _ => o + rng.below(4),
                } % (len + 3);
                assert_eq!(cursor.locate(o), want(o), "{text:?} at {o}");
            }
        }
    }
}
