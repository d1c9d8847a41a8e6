//! A buffered reader with its first short reads gathered in front: a magic number, a
//! BOM or a first line split over the reads of a pipe is seen whole (used by the input
//! sniffing of the command line and by the archive reader's BOM sniffing).

use std::io::{self, BufRead, Read};

/// A buffered reader with the bytes of its first short reads gathered in front, so
/// that a magic number or a first line split over reads of a pipe is seen whole.
pub struct Head<R> {
    head: Vec<u8>,
    pos: usize,
    inner: R,
}

impl<R: BufRead> Head<R> {
    pub fn new(inner: R) -> Head<R> {
        Head {
            head: Vec::new(),
            pos: 0,
            inner,
        }
    }

    /// Makes the buffer hold at least `n` bytes, unless the input ends first.
    pub fn fill_to(&mut self, n: usize) -> io::Result<&[u8]> {
        self.fill_while(|b| b.len() < n)?;
        self.fill_buf()
    }

    /// Gathers reads while `more` says the bytes so far are not enough and the input
    /// has not ended. The first read is left in the inner buffer when it is enough.
    pub fn fill_while(&mut self, more: impl Fn(&[u8]) -> bool) -> io::Result<()> {
        loop {
            let avail = self.fill_buf()?;
            if avail.is_empty() || !more(avail) {
                return Ok(());
            }
            if self.pos >= self.head.len() {
                // the first read is short: move it to the front buffer
                self.head.clear();
                self.pos = 0;
                let chunk = self.inner.fill_buf()?;
                self.head.extend_from_slice(chunk);
                let n = chunk.len();
                self.inner.consume(n);
            }
            let chunk = self.inner.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            self.head.extend_from_slice(chunk);
            let n = chunk.len();
            self.inner.consume(n);
        }
    }
}

impl<R: BufRead> Read for Head<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Head<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.head.len() {
            Ok(&self.head[self.pos..])
        } else {
            self.inner.fill_buf()
        }
    }

    fn consume(&mut self, n: usize) {
        if self.pos < self.head.len() {
            self.pos = (self.pos + n).min(self.head.len());
            if self.pos == self.head.len() {
                self.head = Vec::new();
                self.pos = 0;
            }
        } else {
            self.inner.consume(n);
        }
    }
}
