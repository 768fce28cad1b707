//! The parser of path templates and its errors.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// One segment of a [`PathTemplate`], after variables are flattened: the
/// variable `{name=shelves/*}` is the two segments `shelves` and `*`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A literal, compared byte for byte with the raw (still
    /// percent-encoded) request segment.
    Literal(String),
    /// `*`: any one segment, the empty one included.
    Wildcard,
    /// `**`: zero or more segments; only ever the last segment.
    DoubleWildcard,
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Literal(text) => f.write_str(text),
            Segment::Wildcard => f.write_str("*"),
            Segment::DoubleWildcard => f.write_str("**"),
        }
    }
}

/// A variable of a [`PathTemplate`]: the request field it sets and the
/// segments whose text becomes the field's value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    /// The field's path in the request message: `{shelf.name}` is
    /// `["shelf", "name"]`.
    pub field_path: Vec<String>,
    /// The indices in [`PathTemplate::segments`] the variable covers, never
    /// empty: `{name}` covers one `*`, `{name=shelves/*}` two segments.
    pub segments: Range<usize>,
}

/// A parsed path template of a `google.api.http` rule, such as
/// `/v1/{name=shelves/*}:archive`.
///
/// Its [`Display`](fmt::Display) gives back a canonical text: `{name=*}`
/// is written `{name}`, which parses back to an equal template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathTemplate {
    segments: Vec<Segment>,
    variables: Vec<Variable>,
    verb: Option<String>,
}

impl PathTemplate {
    /// Parses a template; the module documentation gives its grammar.
    ///
    /// The error says what is wrong and at which byte, so that a bad rule
    /// is reported when the routes are built rather than when requests
    /// fail to match.
    pub fn parse(text: &str) -> Result<PathTemplate, TemplateError> {
        Parser::new(text).template()
    }

    /// The segments, variables flattened into them; empty for the root
    /// template `/`.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The variables, in the order they appear in the template.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// The custom verb after the last `:`, without the `:`.
    pub fn verb(&self) -> Option<&str> {
        self.verb.as_deref()
    }
}

impl FromStr for PathTemplate {
    type Err = TemplateError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        PathTemplate::parse(text)
    }
}

impl fmt::Display for PathTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.segments.is_empty() {
            f.write_str("/")?;
        }
        let mut variables = self.variables.iter().peekable();
        let mut index = 0;
        while index < self.segments.len() {
            f.write_str("/")?;
            match variables.next_if(|var| var.segments.start == index) {
                Some(var) => {
                    self.write_variable(f, var)?;
                    index = var.segments.end;
                }
                None => {
                    write!(f, "{}", self.segments[index])?;
                    index += 1;
                }
            }
        }
        match &self.verb {
            Some(verb) => write!(f, ":{verb}"),
            None => Ok(()),
        }
    }
}

impl PathTemplate {
    fn write_variable(&self, f: &mut fmt::Formatter<'_>, var: &Variable) -> fmt::Result {
        write!(f, "{{{}", var.field_path.join("."))?;
        let covered = &self.segments[var.segments.clone()];
        if covered != [Segment::Wildcard] {
            f.write_str("=")?;
            for (i, segment) in covered.iter().enumerate() {
                let slash = if i == 0 { "" } else { "/" };
                write!(f, "{slash}{segment}")?;
            }
        }
        f.write_str("}")
    }
}

/// Why a path template does not parse: what is wrong, at which byte.
///
/// Its [`Display`](fmt::Display) quotes the template, e.g.
/// ``` `/v1/{name=shelves/*` at byte 19: the variable `name` is not closed with `}` ```.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    template: String,
    offset: usize,
    kind: ErrorKind,
}

impl TemplateError {
    /// The template that failed to parse.
    pub fn template(&self) -> &str {
        &self.template
    }

    /// The byte offset in [`template`](Self::template) where the problem
    /// is (its length when the template ends too early).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is found at the offset, for the messages.
    fn found(&self) -> String {
        match self.template[self.offset..].chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end of the template".to_owned(),
        }
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` at byte {}: ", self.template, self.offset)?;
        let found = self.found();
        match &self.kind {
            ErrorKind::NoLeadingSlash => write!(f, "a template starts with `/`, found {found}"),
            ErrorKind::ExpectedSegment => write!(
                f,
                "expected a segment (a literal, `*`, `**` or a variable), found {found}"
            ),
            ErrorKind::DoubleWildcardNotLast => {
                f.write_str("`**` must be the last segment (only a verb may follow it)")
            }
            ErrorKind::NotWholeSegment(what) => write!(f, "{what} must be a whole segment"),
            ErrorKind::BadLiteralChar => {
                write!(f, "{found} cannot appear in a literal (percent-encode it)")
            }
            ErrorKind::BadEscape => {
                f.write_str("`%` must start a percent-escape of two hex digits")
            }
            ErrorKind::UnmatchedClose => f.write_str("`}` closes no variable"),
            ErrorKind::NestedVariable { outer } => {
                write!(
                    f,
                    "variables do not nest: `{{` inside the variable `{outer}`"
                )
            }
            ErrorKind::ExpectedIdent => write!(
                f,
                "expected a field name (a letter or `_`, then letters, digits or `_`), found {found}"
            ),
            ErrorKind::BadFieldPath { name } => write!(
                f,
                "expected `.`, `=` or `}}` after the field path `{name}`, found {found}"
            ),
            ErrorKind::Unclosed { name } => {
                write!(f, "the variable `{name}` is not closed with `}}`")
            }
            ErrorKind::VerbInVariable { name } => write!(
                f,
                "the variable `{name}` is not closed with `}}` before the verb"
            ),
            ErrorKind::DuplicateVariable { name, first } => write!(
                f,
                "the field path `{name}` is bound twice (first at byte {first})"
            ),
            ErrorKind::EmptyVerb => f.write_str("the verb after `:` is empty"),
            ErrorKind::AfterVerb => write!(f, "the verb must end the template, found {found}"),
        }
    }
}

impl std::error::Error for TemplateError {}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    NoLeadingSlash,
    ExpectedSegment,
    DoubleWildcardNotLast,
    NotWholeSegment(&'static str),
    BadLiteralChar,
    BadEscape,
    UnmatchedClose,
    NestedVariable { outer: String },
    ExpectedIdent,
    BadFieldPath { name: String },
    Unclosed { name: String },
    VerbInVariable { name: String },
    DuplicateVariable { name: String, first: usize },
    EmptyVerb,
    AfterVerb,
}

/// A recursive-descent parser; its recursion is at most two levels deep
/// (a variable's segments inside the template's).
struct Parser<'t> {
    text: &'t str,
    pos: usize,
    segments: Vec<Segment>,
    variables: Vec<Variable>,
    /// The byte offset of each variable's `{`, for duplicate errors.
    variable_offsets: Vec<usize>,
    /// The byte offset of a `**` once seen: no segment may follow it.
    double_wildcard_at: Option<usize>,
}

type Parsed<T> = Result<T, TemplateError>;

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Self {
        Parser {
            text,
            pos: 0,
            segments: Vec::new(),
            variables: Vec::new(),
            variable_offsets: Vec::new(),
            double_wildcard_at: None,
        }
    }

    /// `Template = "/" | "/" Segments [ Verb ]`
    fn template(mut self) -> Parsed<PathTemplate> {
        if !self.eat(b'/') {
            return Err(self.error_at(0, ErrorKind::NoLeadingSlash));
        }
        if self.peek().is_some() {
            self.segments_until(None)?;
        }
        let verb = if self.eat(b':') {
            Some(self.verb()?)
        } else {
            None
        };
        Ok(PathTemplate {
            segments: self.segments,
            variables: self.variables,
            verb,
        })
    }

    /// Verb = ":" LITERAL, the end of the template.
    fn verb(&mut self) -> Parsed<String> {
        let verb = self.literal()?;
        if verb.is_empty() {
            return Err(self.error(ErrorKind::EmptyVerb));
        }
        match self.peek() {
            None => Ok(verb),
            Some(b'/' | b':' | b'{' | b'}' | b'*') => Err(self.error(ErrorKind::AfterVerb)),
            Some(_) => Err(self.error(ErrorKind::BadLiteralChar)),
        }
    }

    /// Segments = Segment { "/" Segment }; `variable` names the enclosing
    /// variable, if any.
    fn segments_until(&mut self, variable: Option<&str>) -> Parsed<()> {
        self.segment(variable)?;
        while self.eat(b'/') {
            self.segment(variable)?;
        }
        Ok(())
    }

    /// Segment = "*" | "**" | LITERAL | Variable
    fn segment(&mut self, variable: Option<&str>) -> Parsed<()> {
        let at = self.pos;
        match self.peek() {
            Some(b'*') => {
                self.pos += 1;
                let (segment, what) = match self.eat(b'*') {
                    true => (Segment::DoubleWildcard, "`**`"),
                    false => (Segment::Wildcard, "`*`"),
                };
                self.push(segment, at)?;
                self.boundary(variable, what)
            }
            Some(b'{') => match variable {
                Some(outer) => Err(self.error(ErrorKind::NestedVariable {
                    outer: outer.to_owned(),
                })),
                None => self.variable(),
            },
            Some(b) if is_literal_byte(b) || b == b'%' => {
                let literal = self.literal()?;
                self.push(Segment::Literal(literal), at)?;
                self.boundary(variable, "a literal")
            }
            None | Some(b'/' | b':' | b'}') => Err(self.error(ErrorKind::ExpectedSegment)),
            Some(_) => Err(self.error(ErrorKind::BadLiteralChar)),
        }
    }

    /// `Variable = "{" FieldPath [ "=" Segments ] "}"`
    fn variable(&mut self) -> Parsed<()> {
        let open = self.pos;
        self.pos += 1;
        let field_path = self.field_path()?;
        let text = self.text;
        let name = &text[open + 1..self.pos];
        let first = self.segments.len();
        match self.peek() {
            Some(b'=') => {
                self.pos += 1;
                self.segments_until(Some(name))?;
            }
            Some(b'}') => self.push(Segment::Wildcard, open)?,
            None => return Err(self.unclosed(name)),
            Some(_) => return Err(self.error(bad_field_path(name))),
        }
        match self.peek() {
            Some(b'}') => self.pos += 1,
            Some(b':') => return Err(self.error(verb_in_variable(name))),
            _ => return Err(self.unclosed(name)),
        }
        self.check_unique(&field_path, name, open)?;
        self.variables.push(Variable {
            field_path,
            segments: first..self.segments.len(),
        });
        self.variable_offsets.push(open);
        self.boundary(None, "a variable")
    }

    /// FieldPath = IDENT { "." IDENT }
    fn field_path(&mut self) -> Parsed<Vec<String>> {
        let mut path = vec![self.ident()?];
        while self.eat(b'.') {
            path.push(self.ident()?);
        }
        Ok(path)
    }

    /// IDENT = ( letter | "_" ) { letter | digit | "_" }, a protobuf field
    /// name.
    fn ident(&mut self) -> Parsed<String> {
        let start = self.pos;
        match self.peek() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => self.pos += 1,
            _ => return Err(self.error(ErrorKind::ExpectedIdent)),
        }
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.pos += 1;
        }
        Ok(self.text[start..self.pos].to_owned())
    }

    /// LITERAL: the path characters of RFC 3986 but `:`, `*` and `/`, and
    /// percent-escapes; possibly empty, which the callers check.
    fn literal(&mut self) -> Parsed<String> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b'%' {
                self.escape()?;
            } else if is_literal_byte(b) {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(self.text[start..self.pos].to_owned())
    }

    fn escape(&mut self) -> Parsed<()> {
        let hex = |i: usize| {
            self.text
                .as_bytes()
                .get(i)
                .is_some_and(u8::is_ascii_hexdigit)
        };
        if !(hex(self.pos + 1) && hex(self.pos + 2)) {
            return Err(self.error(ErrorKind::BadEscape));
        }
        self.pos += 3;
        Ok(())
    }

    /// After a segment: a `/`, the verb's `:`, the end, or the `}` of the
    /// enclosing variable.
    fn boundary(&self, variable: Option<&str>, what: &'static str) -> Parsed<()> {
        let kind = match self.peek() {
            None | Some(b'/' | b':') => return Ok(()),
            Some(b'}') if variable.is_some() => return Ok(()),
            Some(b'}') => ErrorKind::UnmatchedClose,
            Some(b'{') => ErrorKind::NotWholeSegment("a variable"),
            Some(b'*') => ErrorKind::NotWholeSegment("`*`"),
            Some(b) if is_literal_byte(b) || b == b'%' => ErrorKind::NotWholeSegment(what),
            Some(_) => ErrorKind::BadLiteralChar,
        };
        Err(self.error(kind))
    }

    fn push(&mut self, segment: Segment, at: usize) -> Parsed<()> {
        if let Some(double_wildcard) = self.double_wildcard_at {
            return Err(self.error_at(double_wildcard, ErrorKind::DoubleWildcardNotLast));
        }
        if segment == Segment::DoubleWildcard {
            self.double_wildcard_at = Some(at);
        }
        self.segments.push(segment);
        Ok(())
    }

    fn check_unique(&self, field_path: &[String], name: &str, open: usize) -> Parsed<()> {
        match self
            .variables
            .iter()
            .position(|v| v.field_path == field_path)
        {
            Some(i) => Err(self.error_at(
                open,
                ErrorKind::DuplicateVariable {
                    name: name.to_owned(),
                    first: self.variable_offsets[i],
                },
            )),
            None => Ok(()),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        if found {
            self.pos += 1;
        }
        found
    }

    fn unclosed(&self, name: &str) -> TemplateError {
        self.error(ErrorKind::Unclosed {
            name: name.to_owned(),
        })
    }

    fn error(&self, kind: ErrorKind) -> TemplateError {
        self.error_at(self.pos, kind)
    }

    fn error_at(&self, offset: usize, kind: ErrorKind) -> TemplateError {
        TemplateError {
            template: self.text.to_owned(),
            offset,
            kind,
        }
    }
}

fn bad_field_path(name: &str) -> ErrorKind {
    ErrorKind::BadFieldPath {
        name: name.to_owned(),
    }
}

fn verb_in_variable(name: &str) -> ErrorKind {
    ErrorKind::VerbInVariable {
        name: name.to_owned(),
    }
}

/// The bytes a literal may hold besides percent-escapes: RFC 3986's
/// unreserved characters, its sub-delimiters but `*`, and `@`.
fn is_literal_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()+,;=@".contains(&b)
}
