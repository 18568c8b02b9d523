//! Reading the terminal's bytes as keys and clicks. Our own small parser rather than
//! crossterm's reader: crossterm holds every key after a bracketed-paste start until the paste
//! ends, and retries a hung-up terminal forever; this one never holds anything longer than a
//! frame (`flush`), drops what it does not know, and leaves the hang-up to the reader's end.

use super::app::Key;

/// A mouse button's change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// The left button went down.
    Down,
    /// The left button came up.
    Up,
}

/// One thing the person did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key.
    Key(Key),
    /// A left-button click or release at a 0-based screen cell.
    Mouse {
        /// Down or up.
        button: Button,
        /// Column.
        column: u16,
        /// Row.
        row: u16,
    },
}

/// The longest escape sequence kept while waiting for its end; longer ones are dropped.
const MAX_SEQUENCE: usize = 64;

/// Turns bytes into inputs, keeping an unfinished sequence or character until more bytes or
/// `flush`.
#[derive(Debug, Default)]
pub struct Parser {
    pending: Vec<u8>,
}

/// What the start of a buffer holds.
enum Step {
    /// `n` bytes make this input (or nothing to report, for `None`).
    Done(usize, Option<Input>),
    /// The bytes so far may still become something: wait for more.
    More,
}

impl Parser {
    /// Adds `bytes` and returns the inputs they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Input> {
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match step(&self.pending[at..]) {
                Step::Done(n, input) => {
                    out.extend(input);
                    at += n.max(1);
                }
                Step::More if self.pending.len() - at > MAX_SEQUENCE => {
                    // Too long to be anything we read: drop its first byte and go on.
                    at += 1;
                }
                Step::More => break,
            }
        }
        self.pending.drain(..at);
        out
    }

    /// Nothing more came for a while: an escape on its own is the Esc key; anything else
    /// unfinished is dropped, so that no byte can hold the keys after it.
    pub fn flush(&mut self) -> Vec<Input> {
        let lone_escape = self.pending == [0x1b];
        self.pending.clear();
        if lone_escape {
            vec![Input::Key(Key::Esc)]
        } else {
            Vec::new()
        }
    }
}

/// Reads one input from the start of `b` (not empty).
fn step(b: &[u8]) -> Step {
    let key = |k| Some(Input::Key(k));
    match b[0] {
        0x1b => escape(b),
        b'\r' | b'\n' => Step::Done(1, key(Key::Enter)),
        0x7f | 0x08 => Step::Done(1, key(Key::Backspace)),
        b'\t' => Step::Done(1, key(Key::Tab)),
        // Ctrl-C, Ctrl-D, Ctrl-Q.
        0x03 | 0x04 | 0x11 => Step::Done(1, key(Key::Quit)),
        c if c < 0x20 => Step::Done(1, None),
        c if c < 0x80 => Step::Done(1, key(Key::Char(char::from(c)))),
        _ => utf8(b),
    }
}

/// A UTF-8 character, or the invalid byte dropped.
fn utf8(b: &[u8]) -> Step {
    let len = match b[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Step::Done(1, None),
    };
    if b.len() < len {
        return Step::More;
    }
    match std::str::from_utf8(&b[..len])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => Step::Done(len, Some(Input::Key(Key::Char(c)))),
        None => Step::Done(1, None),
    }
}

/// An escape sequence: CSI (`ESC [`), SS3 (`ESC O`), or Esc followed by something else.
fn escape(b: &[u8]) -> Step {
    let key = |n, k| Step::Done(n, Some(Input::Key(k)));
    match b.get(1) {
        None => Step::More,
        Some(b'[') => csi(b),
        Some(b'O') => match b.get(2) {
            None => Step::More,
            Some(b'A') => key(3, Key::Up),
            Some(b'B') => key(3, Key::Down),
            Some(b'C') => key(3, Key::Right),
            Some(b'D') => key(3, Key::Left),
            Some(b'H') => key(3, Key::Home),
            Some(b'F') => key(3, Key::End),
            Some(_) => Step::Done(3, None),
        },
        // Esc, then whatever follows is read on its own.
        Some(_) => key(1, Key::Esc),
    }
}

/// `ESC [ params final`: arrows, Home/End, PgUp/PgDn, SGR mouse reports; the rest dropped.
fn csi(b: &[u8]) -> Step {
    let body = &b[2..];
    let Some(end) = body.iter().position(|c| !(0x20..=0x3f).contains(c)) else {
        return Step::More;
    };
    let fin = body[end];
    let n = 2 + end + 1;
    if !(0x40..=0x7e).contains(&fin) {
        // Not a CSI after all: drop `ESC [` and read the rest as it comes.
        return Step::Done(2, None);
    }
    let params = &body[..end];
    let key = |k| Step::Done(n, Some(Input::Key(k)));
    match (params, fin) {
        (_, b'A') => key(Key::Up),
        (_, b'B') => key(Key::Down),
        (_, b'C') => key(Key::Right),
        (_, b'D') => key(Key::Left),
        (_, b'H') => key(Key::Home),
        (_, b'F') => key(Key::End),
        (b"1" | b"7", b'~') => key(Key::Home),
        (b"4" | b"8", b'~') => key(Key::End),
        (b"5", b'~') => key(Key::PageUp),
        (b"6", b'~') => key(Key::PageDown),
        ([b'<', rest @ ..], b'M' | b'm') => Step::Done(n, mouse(rest, fin == b'M')),
        _ => Step::Done(n, None),
    }
}

/// An SGR mouse report `b;x;y` (1-based); only the left button's press and release count.
fn mouse(params: &[u8], pressed: bool) -> Option<Input> {
    let text = std::str::from_utf8(params).ok()?;
    let mut it = text.split(';').map(|p| p.parse::<u32>().ok());
    let (code, x, y) = (it.next()??, it.next()??, it.next()??);
    // Button bits 0-1 = 0 is the left one; 32 is motion, 64 the wheel.
    if code & 0b1100_0011 != 0 {
        return None;
    }
    let cell = |v: u32| u16::try_from(v.saturating_sub(1)).ok();
    Some(Input::Mouse {
        button: if pressed { Button::Down } else { Button::Up },
        column: cell(x)?,
        row: cell(y)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Input> {
        let mut p = Parser::default();
        let mut v = p.feed(bytes);
        v.extend(p.flush());
        v
    }

    #[test]
    fn keys_arrows_and_clicks() {
        use Key::*;
        let k = |k| Input::Key(k);
        assert_eq!(
            keys(b"e4\r\x7f\t\x1b[A\x1bOB\x1b[C\x1b[D\x1b[5~\x1b[6~\x1b[H\x1b[4~\x03"),
            [
                k(Char('e')),
                k(Char('4')),
                k(Enter),
                k(Backspace),
                k(Tab),
                k(Up),
                k(Down),
                k(Right),
                k(Left),
                k(PageUp),
                k(PageDown),
                k(Home),
                k(End),
                k(Quit)
            ]
        );
        assert_eq!(
            keys(b"\x1b[<0;27;20M\x1b[<0;27;20m\x1b[<35;5;5M\x1b[<64;5;5M"),
            [
                Input::Mouse {
                    button: Button::Down,
                    column: 26,
                    row: 19
                },
                Input::Mouse {
                    button: Button::Up,
                    column: 26,
                    row: 19
                },
            ]
        );
        assert_eq!(keys("♞é".as_bytes()), [k(Char('♞')), k(Char('é'))]);
    }

    #[test]
    fn nothing_holds_the_keys_after_it() {
        let k = |c| Input::Key(Key::Char(c));
        // A paste start without its end, unknown sequences, bad UTF-8: dropped, the keys after
        // them arrive.
        assert_eq!(keys(b"\x1b[200~ab\x1b[201~"), [k('a'), k('b')]);
        assert_eq!(keys(b"\x1b[999~\x1b[1;9Q\x1bOZx"), [k('x')]);
        assert_eq!(keys(b"\xff\xc3y"), [k('y')]);
        // An escape alone is Esc once nothing more comes; Esc then a letter is both.
        let mut p = Parser::default();
        assert!(p.feed(b"\x1b").is_empty());
        assert_eq!(p.flush(), [Input::Key(Key::Esc)]);
        assert_eq!(keys(b"\x1bf"), [Input::Key(Key::Esc), k('f')]);
        // An unfinished sequence is dropped at the flush, and a very long one on the way.
        let mut p = Parser::default();
        assert!(p.feed(b"\x1b[12;").is_empty());
        assert!(p.flush().is_empty());
        // A sequence that never ends is given up past MAX_SEQUENCE bytes: what follows arrives.
        let mut p = Parser::default();
        let _ = p.feed(&[b"\x1b[".as_slice(), &[b'1'; 200]].concat());
        assert_eq!(p.feed(b"x").last(), Some(&k('x')));
    }

    #[test]
    fn any_bytes_never_panic() {
        // A cheap sweep: every byte after every prefix shape.
        for prefix in [
            &b""[..],
            b"\x1b",
            b"\x1b[",
            b"\x1b[<",
            b"\x1bO",
            b"\xe2\x99",
        ] {
            for b in 0..=255u8 {
                let mut p = Parser::default();
                let _ = p.feed(&[prefix, &[b], b"\x1b[<0;1;1M"].concat());
                let _ = p.flush();
            }
        }
    }
}
