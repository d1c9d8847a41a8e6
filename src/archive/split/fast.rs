//! The splitter's fast path, behind [`ArchiveReader::step`]: whole input buffers handled
//! at once ([`ArchiveReader::step_buffer`]) instead of one line at a time
//! ([`ArchiveReader::step_line`], the plain reading that defines the result), and the
//! line-end search eight bytes at a time. The tests beside them keep each in agreement
//! with its plain counterpart: the same games, spans and diagnostics from every input,
//! every buffer size and every budget.

use std::io::{self, BufRead};

use super::{
    ArchiveReader, ChunkText, LineKind, classify, note_line, only_comment, starts_game, tag_name,
    tagless_start,
};

impl<R: BufRead> ArchiveReader<R> {
    /// The fast path of [`Self::step`]: handles the complete lines of the input buffer up
    /// to the next chunk boundary, exactly as [`Self::step_line`] would one at a time,
    /// with one search per line and one copy into the chunk. Stops before a line that
    /// is not complete in the buffer (or whose `\r` line end may be followed by a `\n`
    /// of the next buffer) and before a line over a budget: those are left to
    /// [`Self::step_line`]. `false` when it handled nothing.
    pub(super) fn step_buffer(&mut self) -> io::Result<bool> {
        if self.after_cr {
            // the end of the previous line, as `read_line` would take it
            match self.input.fill_buf()?.first() {
                None => return Ok(false),
                Some(b'\n') => {
                    self.input.consume(1);
                    self.offset += 1;
                    self.chunk.push(b'\n');
                }
                Some(_) => self.lone_cr = true,
            }
            self.after_cr = false;
        }
        let max = self.options.limits.max_game_bytes;
        let max_line = self.options.limits.max_line_bytes;
        let buf = self.input.fill_buf()?;
        let chunk = &self.chunk;
        let clen = chunk.len();
        let tag_lines = &mut self.tag_lines;
        let notes = &mut self.notes;
        let mut has_movetext = self.has_movetext;
        let mut prev_blank = self.prev_blank;
        let mut lone_cr = self.lone_cr;
        let mut lines = 0u64;
        let mut boundary = false;
        // the lines handled so far are `buf[..pos]`, not yet copied to the chunk: at
        // chunk positions `clen..clen + pos`
        let mut pos = 0usize;
        while let Some(rest) = buf.get(pos..) {
            let Some(k) = memchr::memchr2(b'\n', b'\r', rest) else {
                break;
            };
            let next = match rest.get(k..k + 2) {
                Some([b'\r', b'\n']) => k + 2,
                Some(_) => k + 1,
                // a `\r` ending the buffer: a lone `\r` or half of `\r\n`
                None if rest[k] == b'\r' => break,
                None => k + 1,
            };
            let at = clen + pos;
            if k > max_line || at + k + 1 > max {
                break;
            }
            let line = &rest[..=k];
            let kind = classify(line);
            boundary = starts_game(
                kind,
                has_movetext,
                prev_blank,
                || {
                    tag_lines.iter().any(|&x| {
                        let earlier = match x.checked_sub(clen) {
                            Some(x) => buf.get(x..),
                            None => chunk.get(x..),
                        };
                        earlier.map(tag_name) == Some(tag_name(line))
                    })
                },
                || {
                    let text = ChunkText {
                        chunk,
                        buf: &buf[..pos],
                    };
                    tagless_start(line, text, at, notes)
                },
            );
            if boundary {
                break;
            }
            let kind = match kind {
                LineKind::FirstMove | LineKind::Other
                    if !has_movetext
                        && notes.from_comment
                        && only_comment(
                            ChunkText {
                                chunk,
                                buf: &buf[..pos + next],
                            },
                            at + next,
                            notes,
                        ) =>
                {
                    LineKind::Comment
                }
                kind => kind,
            };
            note_line(
                kind,
                at,
                tag_lines,
                &mut has_movetext,
                &mut prev_blank,
                notes,
            );
            lone_cr |= next == k + 1 && rest[k] == b'\r';
            lines += 1;
            pos += next;
        }
        self.chunk.extend_from_slice(&buf[..pos]);
        self.input.consume(pos);
        self.offset += pos as u64;
        self.line += lines;
        self.has_movetext = has_movetext;
        self.prev_blank = prev_blank;
        self.lone_cr = lone_cr;
        if boundary {
            // the line at `self.offset` starts a new chunk; handled on the next call
            self.finish_chunk(self.chunk.len(), self.offset);
            self.chunk.clear();
            self.new_chunk(self.offset, self.line);
            return Ok(true);
        }
        Ok(pos > 0)
    }
}

/// The position of the first `\n` or `\r` in `buf`, eight bytes at a time.
pub(super) fn find_line_end(buf: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(LO) & !x & HI != 0;
    let mut i = 0;
    for chunk in buf.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        if has_zero(x ^ (LO * u64::from(b'\n'))) || has_zero(x ^ (LO * u64::from(b'\r'))) {
            break;
        }
        i += 8;
    }
    buf.get(i..)?
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|k| i + k)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::io::BufReader;

    use super::*;
    use crate::archive::{Limits, RawGame, ReadOptions};

    #[test]
    fn line_end_search() {
        let cases: &[(&[u8], Option<usize>)] = &[
            (b"", None),
            (b"abc", None),
            (b"abcdefghijklmnop", None),
            (b"\n", Some(0)),
            (b"abcdefgh\r\n", Some(8)),
            (b"abcdefghijk\nx", Some(11)),
            (b"ab\x8a\x8d\xff\rdefgh", Some(5)),
        ];
        for (buf, want) in cases {
            assert_eq!(find_line_end(buf), *want, "{buf:?}");
        }
    }

    /// Reads `bytes` through a buffer of `cap` bytes, with the fast path or line by line.
    fn read_with(
        bytes: &[u8],
        cap: usize,
        options: ReadOptions,
        line_by_line: bool,
    ) -> Vec<RawGame> {
        let mut reader = ArchiveReader::new(BufReader::with_capacity(cap, bytes), options);
        reader.line_by_line = line_by_line;
        reader.collect::<io::Result<_>>().unwrap()
    }

    /// Option sets the comparisons run with: default budgets, and budgets small enough
    /// that lines and games go over them.
    fn budget_options() -> [ReadOptions; 4] {
        let small = |game: usize, line: usize| ReadOptions {
            limits: Limits {
                max_game_bytes: game,
                max_line_bytes: line,
                ..Limits::default()
            },
            ..ReadOptions::default()
        };
        [
            ReadOptions::default(),
            small(64, 1000),
            small(1000, 12),
            small(40, 20),
        ]
    }

    /// The fast path (whole buffers) gives exactly what reading line by line gives.
    fn assert_same_as_line_by_line(bytes: &[u8]) {
        for options in budget_options() {
            // (the same buffer size: which budget a line crossing buffers goes over
            // first may depend on where the buffers end)
            for cap in [1, 2, 3, 5, 8, 13, 31, 64, 1 << 16] {
                assert_eq!(
                    read_with(bytes, cap, options, false),
                    read_with(bytes, cap, options, true),
                    "cap {cap}, {:?}: {:?}",
                    options.limits,
                    String::from_utf8_lossy(bytes)
                );
            }
        }
    }

    #[test]
    fn fast_path_matches_line_by_line() {
        let inputs: &[&[u8]] = &[
            b"[Event \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n",
            b"[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n",
            b"[Event \"a\"]\r[Result \"*\"]\r\r1. e4 e5\r2. Nf3 *\r\r[Event \"b\"]\r\r1. d4 *\r",
            b"[Event \"a\"]\r\n[Site \"b\"]\r\r\n1. e4\r\r2. d4 *\n\r\n\r",
            b"[Event \"a\"] 1. e4 *\n[Event \"b\"] [Site \"x\"]\n1. d4 *",
            b"[Event \"a\"\n[Site \"x\"]\n\n1. e4 *",
            b"  [Event \"a\"]\n  1. e4 *\n\t[Event \"b\"]\n1. d4 *",
            b"[Event \"a\"]\n\n[Site \"x\"]\n\n[Event \"b\"]\n\n[Site \"y\"]\n[Event \"c\"]\n\n1. e4 *\n",
            b"[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n\n1. d4 *\n",
            b"1. e4 e5 2. Nf3 1-0\n\n1. d4 d5 0-1\n1. c4 *\n\n1) c4\n\n1 c4\n\n1\tc4\n\n10. c4\n",
            b"Generated by X\n\n[Event \"a\"]\n\n1. e4 1-0\nDownloaded from Y\n\n%escape\n[Event \"b\"]\n\n1. d4 *\n{trailer}\n",
            b"\xef\xbb\xbf[Event \"a\"]\n1. e4 *\n\xef\xbb\xbf[Event \"b\"]\n1. d4 *\n",
            b"[A \"1\"]\n1. e4 *\n\xff\xfe\n[A \"1\"]\r1. e4 *\r\r\x01\xff",
            b"[White \"\xd1\xec\xfb\xf1\xeb\xee\xe2\"]\n\n1. e4 *\n\n[White \"\xd1\xec\xfb\xf1\xeb\xee\xe2\"]\n\n1. d4 *\n",
            b"[White \"\xcd\xf5\xcc\xec\xd2\xbb\"]\r\n\r\n1. e4 *\r\n",
            b"\xff\xfe[\x00A\x00 \x00\"\x001\x00\"\x00]\x00\n\x00\n\x001\x00.\x00 \x00e\x004\x00 \x00*\x00\r\x00\n\x00",
            b"[Event \"long\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 *\n\n[Event \"c\"]\n\n1. d4 *\n",
            b"[Event \"a\"]\n\n1. e4 e5 2. Nf3\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\n\n[Event \"b\"]\n1. d4 *",
            b"\n\n  \r\n",
            b"",
            b"no line end at all",
            b"[Event \"a\"]\n\n1. e4 *\r",
        ];
        for input in inputs {
            assert_same_as_line_by_line(input);
        }
    }

    #[test]
    fn fast_path_matches_line_by_line_on_generated_inputs() {
        let lines: &[&[u8]] = &[
            b"[Event \"a\"]",
            b"[Event \"b\"]",
            b"[Site \"x\"] 1. e4",
            b"  [Result \"*\"]",
            b"\xef\xbb\xbf[Event \"a\"]",
            b"[Event \"a\"",
            b"[ x ]",
            b"1. e4 e5",
            b"1)d4",
            b"12. Nf3 *",
            b"1-0",
            b"*",
            b"",
            b"  ",
            b"%comment",
            b"junk text",
            b"{a comment that goes on and on and on and on}",
            b"{a comment over",
            b"two lines} 1. d4",
            b"two lines}",
            b"\xe9t\xe9",
            b"\xc3\xa9t\xc3\xa9",
        ];
        let ends: &[&[u8]] = &[b"\n", b"\r\n", b"\r", b"\n", b"\n"];
        let mut rng = crate::testing::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..300 {
            let mut input = Vec::new();
            for _ in 0..next(24) {
                input.extend_from_slice(lines[next(lines.len())]);
                input.extend_from_slice(ends[next(ends.len())]);
            }
            if next(2) == 0 {
                input.extend_from_slice(lines[next(lines.len())]);
            }
            assert_same_as_line_by_line(&input);
        }
    }
}
