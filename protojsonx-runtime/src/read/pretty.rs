//! Pretty-printed input: the line break and indentation before each key,
//! element and closing bracket, predicted from the lines before (see
//! [`Indent`]), so that reading the next token need not wait for the scan
//! of the whitespace. Anything the prediction does not cover falls to the
//! general path ([`super`]).

use super::{Reader, starts_element};
use crate::error::Error;
use crate::text::scan;

/// Pretty-printed JSON's indentation as far as read: the length of the
/// last line break with its indentation, and the step by which a nested
/// object or array deepens it. The next line is predicted from them: as
/// long as the last after a value, a step longer after an opening brace or
/// bracket, a step shorter before a closing one. The scan of the
/// whitespace then only confirms where the next token is, and what reads
/// that token need not wait for the scan (only for the branch that checks
/// it to be predicted): a position loaded from the input would chain the
/// reading of every line to the scan of the one before. The benchmark
/// cases `large/indented` and `otlp/indented` guard it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Indent {
    line: usize,
    step: usize,
}

impl Indent {
    /// Before any line: a line break without indentation, and the step of
    /// most encoders (protojsonx's `indent(2)`, Python's `MessageToJson`).
    pub(super) const START: Indent = Indent { line: 1, step: 2 };

    /// The lengths predicted for the next line: before a key or element,
    /// and before the closing brace or bracket. After a value, the same as
    /// the last and a step shorter; after the opening brace or bracket, a
    /// step longer and the same.
    #[inline(always)]
    fn predict(&self, after_value: bool) -> (usize, usize) {
        match after_value {
            true => (self.line, self.line.wrapping_sub(self.step)),
            false => (self.line.wrapping_add(self.step), self.line),
        }
    }

    /// Learns a line of `len` bytes that was not predicted, and the step
    /// of nesting from it if it follows an opening brace or bracket
    /// (`opened`) and begins a key or element.
    #[inline(always)]
    fn learn(&mut self, len: usize, opened: bool) {
        if opened {
            self.step = len.wrapping_sub(self.line);
        }
        self.line = len;
    }
}

/// A line break that [`Reader::pretty_next`] found, after what, and where.
#[derive(Clone, Copy)]
struct Line {
    /// Where the comma before it is, or would be.
    pos: usize,
    /// Whether a comma came before it.
    comma: bool,
    /// Whether a comma was due: the line follows a value, not the opening
    /// brace or bracket.
    after_value: bool,
}

impl Line {
    /// The offset of the line break.
    #[inline(always)]
    fn at(self) -> usize {
        self.pos + usize::from(self.comma)
    }

    /// The outcome of [`Reader::pretty_next`] where the line in `window`
    /// (after the comma, if any), whose line break and spaces run for
    /// `run` bytes, is as long as `indent` predicts (see [`Indent`]). The
    /// offset is computed from the prediction, which `run` only confirms
    /// (as at least as long, the token after it as no space): a test that
    /// they are equal would let the optimizer take `run` for the prediction.
    #[inline(always)]
    fn predicted<const OBJECT: bool>(
        self,
        run: usize,
        window: &[u8; 34],
        indent: &mut Indent,
    ) -> Option<usize> {
        let (open, close) = indent.predict(self.after_value);
        let token = |len: usize| window[usize::from(self.comma) + len];
        // Offsets from what the caller knows (where a comma is due), not
        // from what was loaded (whether one is there): no wait for a load.
        if self.comma == self.after_value && run >= open && starts::<OBJECT>(token(open)) {
            indent.line = open;
            Some((self.pos + usize::from(self.after_value) + open) << 1 | 1)
        } else if !self.comma && run >= close && token(close) == closes::<OBJECT>() {
            indent.line = close;
            Some((self.pos + close + 1) << 1)
        } else {
            None
        }
    }

    /// The end of [`Reader::pretty_next`] where the line was not the one
    /// predicted: what `b`, the token at `next` after the indentation,
    /// means. The line's length is learned.
    #[inline(always)]
    fn token<const OBJECT: bool>(self, b: u8, next: usize, indent: &mut Indent) -> usize {
        if self.comma == self.after_value && starts::<OBJECT>(b) {
            indent.learn(next - self.at(), !self.after_value);
            next << 1 | 1
        } else if b == closes::<OBJECT>() && !self.comma {
            indent.learn(next - self.at(), false);
            (next + 1) << 1
        } else {
            0
        }
    }
}

/// Whether a member (`OBJECT`: its key) or element can start with `b`.
#[inline(always)]
fn starts<const OBJECT: bool>(b: u8) -> bool {
    if OBJECT { b == b'"' } else { starts_element(b) }
}

/// The byte that closes an object (`OBJECT`) or array.
#[inline(always)]
fn closes<const OBJECT: bool>() -> u8 {
    if OBJECT { b'}' } else { b']' }
}

impl Reader<'_> {
    /// In pretty-printed JSON, where the next member (`OBJECT`) or element
    /// starts: after a comma at `pos` when `after_value` (one is then due),
    /// a line break and an indentation of spaces, then a key (or value) or
    /// the closing brace (bracket), which no comma may precede. Packed as
    /// `next << 1 | more`: `next` is the offset of the key (value), or the
    /// offset past the closing brace (`more` false), computed from the
    /// `indent` predicted where that held (see [`Indent`]). 0 for anything
    /// else (other whitespace, errors, fewer than 34 bytes left, as on the
    /// input's last lines), which the general path reads.
    ///
    /// Inlined into [`pretty_member`](Self::pretty_member), the leaf
    /// function the member path calls, and into the element path's glue.
    #[inline(always)]
    fn pretty_next<const OBJECT: bool>(
        input: &[u8],
        pos: usize,
        after_value: bool,
        indent: &mut Indent,
    ) -> usize {
        // The comma, the 32 bytes of line break and indentation tested and
        // the byte after them, bounds checked once: no offset computed
        // below can leave the window.
        let Some(window) = input.get(pos..).and_then(<[u8]>::first_chunk::<34>) else {
            return 0;
        };
        let comma = after_value & (window[0] == b',');
        let at = usize::from(comma);
        let lines = window[at..at + 32].try_into().expect("32 bytes");
        let run = scan::line_indent_end(lines);
        let line = Line {
            pos,
            comma,
            after_value,
        };
        if let Some(packed) = line.predicted::<OBJECT>(run, window, indent) {
            return packed;
        }
        match run {
            0 => 0,
            32 => Self::pretty_next_deep::<OBJECT>(input, pos, comma, after_value, indent),
            end => line.token::<OBJECT>(window[at + end], line.at() + end, indent),
        }
    }

    /// [`pretty_next`](Self::pretty_next) for members after a value
    /// (`AFTER_VALUE`) or the first: a leaf function that takes and returns
    /// integers in registers, so that the call
    /// [`next_member_slow`](Self::next_member_slow) inlines into every
    /// field of generated code stays small.
    #[inline(never)]
    fn pretty_member<const AFTER_VALUE: bool>(
        input: &[u8],
        pos: usize,
        indent: &mut Indent,
    ) -> usize {
        Self::pretty_next::<true>(input, pos, AFTER_VALUE, indent)
    }

    /// [`pretty_next`](Self::pretty_next) where the indentation of `line`
    /// is longer than its first 32 bytes tested: the rest counted in
    /// blocks, out of the common path's way (a tail call: the line comes
    /// as its three fields, in registers, where a `Line` would be passed
    /// through the stack).
    #[cold]
    #[inline(never)]
    fn pretty_next_deep<const OBJECT: bool>(
        input: &[u8],
        pos: usize,
        comma: bool,
        after_value: bool,
        indent: &mut Indent,
    ) -> usize {
        let line = Line {
            pos,
            comma,
            after_value,
        };
        let Some(rest) = scan::spaces_len(&input[line.at() + 32..]) else {
            return 0;
        };
        let next = line.at() + 32 + rest;
        match input.get(next) {
            Some(&b) => line.token::<OBJECT>(b, next, indent),
            None => 0,
        }
    }

    /// [`next_member`](Self::next_member) with whitespace, and its errors:
    /// pretty-printed JSON read by [`pretty_member`](Self::pretty_member), any
    /// other by [`next_member_general`](Self::next_member_general). Inlined
    /// into every field of generated code: the call it makes there passes
    /// and returns integers in registers (and the indentation's address),
    /// to the version for a member after a value or for the first, which
    /// the field's place in generated code decides at compile time.
    #[inline(always)]
    pub(super) fn next_member_slow(&mut self, first: &mut bool) -> Result<(bool, usize), Error> {
        let (input, pos, indent) = (self.input, self.pos, &mut self.indent);
        let packed = match *first {
            true => Self::pretty_member::<false>(input, pos, indent),
            false => Self::pretty_member::<true>(input, pos, indent),
        };
        let (more, pos) = match packed {
            0 => (self.next_member_general(*first)?, self.pos),
            packed => (packed & 1 != 0, packed >> 1),
        };
        // Past a member's start, the object's first member has been read.
        *first &= !more;
        Ok((more, pos))
    }

    /// [`next_element`](Self::next_element) with whitespace, and its errors,
    /// as [`next_member_slow`](Self::next_member_slow) for members.
    #[inline(never)]
    pub(super) fn next_element_slow(&mut self, first: &mut bool) -> Result<bool, Error> {
        let (input, pos, indent) = (self.input, self.pos, &mut self.indent);
        // One version each, as `pretty_member`'s: the line predicted after
        // a value (after a comma) or after the opening bracket.
        let packed = match *first {
            true => Self::pretty_next::<false>(input, pos, false, indent),
            false => Self::pretty_next::<false>(input, pos, true, indent),
        };
        match packed {
            0 => self.next_element_general(first),
            packed => {
                *first = false;
                self.pos = packed >> 1;
                Ok(packed & 1 != 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pretty-printed paths of the member and element loops read what
    /// the general paths read, where they end, on every line break and
    /// indentation around a key, a value and the closing bracket, whatever
    /// line [`Indent`] predicts: the one there (after a value, after the
    /// opening, and before the closing bracket), or others.
    #[test]
    fn line_breaks_are_read_as_whitespace() {
        let (mut shallow, mut deep) = (0, 0);
        let mut gaps = vec![String::new(), " ".into(), "\t".into(), "\r\n ".into()];
        for spaces in [0, 1, 2, 15, 16, 17, 30, 31, 32, 33, 40, 64] {
            gaps.push(format!("\n{}", " ".repeat(spaces)));
            gaps.push(format!("\n{}\t", " ".repeat(spaces)));
            gaps.push(format!("\n{}\n", " ".repeat(spaces)));
        }
        for gap in &gaps {
            for comma in ["", ","] {
                for next in ["\"k\":1", "}", "]", "1", "{", "x", ""] {
                    // Unpadded, and padded past the 32 bytes the pretty path tests.
                    for pad in ["", &" ".repeat(40)] {
                        let json = format!("{comma}{gap}{next}{pad}");
                        let states = [false, true]
                            .into_iter()
                            .flat_map(|first| indents(gap).into_iter().map(move |i| (first, i)));
                        for (first, indent) in states {
                            let run = |slow: bool, member: bool| {
                                let mut r = Reader::new(json.as_bytes());
                                r.indent = indent;
                                let mut f = first;
                                let result = match (member, slow) {
                                    (true, true) => {
                                        r.next_member_slow(&mut f).map(|(more, pos)| {
                                            r.pos = pos;
                                            more
                                        })
                                    }
                                    (true, false) => r.next_member_general(f).inspect(|&more| {
                                        f &= !more;
                                    }),
                                    (false, true) => r.next_element_slow(&mut f),
                                    (false, false) => r.next_element_general(&mut f),
                                };
                                (result.map_err(|e| e.to_string()), r.offset(), f)
                            };
                            for member in [true, false] {
                                assert_eq!(
                                    run(true, member),
                                    run(false, member),
                                    "{json:?} {first} {indent:?}"
                                );
                            }
                            let pretty =
                                Reader::pretty_next::<true>(json.as_bytes(), 0, !first, &mut {
                                    indent
                                });
                            // 31 spaces or more continue in `pretty_next_deep`.
                            let indent = gap.bytes().skip(1).take_while(|&b| b == b' ').count();
                            deep += usize::from(pretty != 0 && indent >= 31);
                            shallow += usize::from(pretty != 0 && indent < 31);
                        }
                    }
                }
            }
        }
        // Both the pretty path and its deep continuation were taken.
        assert!(shallow > 0 && deep > 0, "{shallow} {deep}");
    }

    /// Predictions of the line of `gap` for [`line_breaks_are_read_as_whitespace`]:
    /// right for each kind of line (`step` 0 predicts every kind right,
    /// the others one each), and wrong, one shorter or longer, or none.
    fn indents(gap: &str) -> Vec<Indent> {
        let len = gap.len();
        let mut indents = vec![Indent::START];
        for line in [len, len.wrapping_sub(1), len + 1] {
            let deeper = line.wrapping_add(2);
            for (line, step) in [(line, 0), (line, 2), (deeper, 2), (line.wrapping_sub(2), 2)] {
                indents.push(Indent { line, step });
            }
        }
        indents.push(Indent {
            line: usize::MAX,
            step: usize::MAX,
        });
        indents
    }
}
