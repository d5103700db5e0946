//! Reading lines from input that nobody vouches for (a GUI's commands, another engine's
//! output, result files): at most a given number of bytes of a line is kept, so an
//! endless line (`/dev/zero`) never fills the memory. What to do with a longer line
//! (skip it, refuse it, keep its start) is the caller's choice.

use std::io::{self, BufRead};

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line (its `\n`, and a `\r` before it, removed).
    Whole,
    /// The start of a line longer than the bound; the rest is still unread
    /// ([`skip_line`] drops it).
    Long,
    /// The end of the input: nothing was read.
    End,
}

/// Reads the next line of `input` into `line` (emptied first), at most `max` bytes of
/// it. The last line counts even without a line break. Bytes are kept as they are (no
/// UTF-8 check).
pub fn read_line<R: BufRead + ?Sized>(
    input: &mut R,
    max: usize,
    line: &mut Vec<u8>,
) -> io::Result<Line> {
    line.clear();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (part, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = max - line.len();
        if part.len() > room {
            line.extend_from_slice(&part[..room]);
            input.consume(room);
            return Ok(Line::Long);
        }
        line.extend_from_slice(part);
        input.consume(used);
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Whole);
        }
    }
    Ok(if line.is_empty() {
        Line::End
    } else {
        Line::Whole
    })
}

/// Reads and drops `input` up to and including the next `\n` (or to its end).
pub fn skip_line<R: BufRead + ?Sized>(input: &mut R) -> io::Result<()> {
    loop {
        let (used, done) = match input.fill_buf()? {
            [] => return Ok(()),
            buf => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            },
        };
        input.consume(used);
        if done {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` as [`read_line`] gives them with `max`, the rest of a long
    /// one skipped; read through a 3-byte buffer so that lines span many reads.
    fn all(input: &[u8], max: usize) -> Vec<(Line, String)> {
        let mut input = io::BufReader::with_capacity(3, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            let kind = read_line(&mut input, max, &mut line).expect("a slice reads");
            match kind {
                Line::End => return out,
                Line::Long => skip_line(&mut input).expect("a slice reads"),
                Line::Whole => {}
            }
            out.push((kind, String::from_utf8_lossy(&line).into_owned()));
        }
    }

    fn whole(text: &str) -> (Line, String) {
        (Line::Whole, text.to_string())
    }

    #[test]
    fn whole_lines_lose_their_line_breaks() {
        let got = all(b"ab\r\ncd\n\nef", 10);
        assert_eq!(got, [whole("ab"), whole("cd"), whole(""), whole("ef")]);
        assert!(all(b"", 10).is_empty());
        assert_eq!(
            all(b"abcd\n", 4),
            [whole("abcd")],
            "exactly the bound is whole"
        );
    }

    #[test]
    fn long_lines_keep_their_start_and_the_next_line_is_whole() {
        let input = format!("{}\nok\n{}", "x".repeat(100), "y".repeat(9));
        let long = |text: &str| (Line::Long, text.to_string());
        assert_eq!(
            all(input.as_bytes(), 8),
            [long("xxxxxxxx"), whole("ok"), long("yyyyyyyy")]
        );
    }

    #[test]
    fn an_endless_line_is_not_read_past_the_bound() {
        let mut endless = io::BufReader::new(io::repeat(b'z'));
        let mut line = Vec::new();
        let kind = read_line(&mut endless, 1000, &mut line).expect("reads");
        assert_eq!((kind, line.len()), (Line::Long, 1000));
    }
}
