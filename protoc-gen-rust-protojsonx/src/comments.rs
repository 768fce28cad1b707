//! `.proto` comments for descriptors that came without them.
//!
//! protobuf-parse's pure-Rust parser records no `source_code_info`, so the
//! build.rs front end would lose the doc comments prost-build makes out of it.
//! [`source_code_info`] rebuilds the comment part of that info from the file's
//! text, attaching comments the way protoc does: its tokenizer's
//! `NextWithComments` and its parser's `TryConsumeEndOfDeclaration` are ported
//! here, on a reader that knows just enough of the grammar to tell which
//! declaration each `;`, `{` and `}` ends.
//!
//! Declarations are matched to descriptors by name, not position, and every
//! message, field, oneof, enum, enum value, service and method of the
//! descriptor gets a location, commented or not: prost-build looks each of
//! them up and panics on a missing one. Text this reader cannot follow only
//! costs comments, never a failure.

use prost_types::source_code_info::Location;
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FileDescriptorProto, ServiceDescriptorProto,
    SourceCodeInfo,
};

/// Builds the `source_code_info` protoc would give `file`, whose text is
/// `text`, as far as comments go.
pub(crate) fn source_code_info(text: &str, file: &FileDescriptorProto) -> SourceCodeInfo {
    let decls = Reader::new(text).file();
    let mut out = Vec::new();
    let mut path = vec![4];
    for (i, message) in file.message_type.iter().enumerate() {
        path.push(i as i32);
        message_locations(
            message,
            find(&decls, Kind::Message, message.name()),
            &mut path,
            &mut out,
        );
        path.pop();
    }
    path[0] = 5;
    for (i, e) in file.enum_type.iter().enumerate() {
        path.push(i as i32);
        enum_locations(e, find(&decls, Kind::Enum, e.name()), &mut path, &mut out);
        path.pop();
    }
    path[0] = 6;
    for (i, service) in file.service.iter().enumerate() {
        path.push(i as i32);
        service_locations(
            service,
            find(&decls, Kind::Service, service.name()),
            &mut path,
            &mut out,
        );
        path.pop();
    }
    SourceCodeInfo { location: out }
}

/// The comments protoc attaches to one declaration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Comments {
    leading: Option<String>,
    trailing: Option<String>,
    detached: Vec<String>,
}

/// What a declaration in the text declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Message,
    Field,
    Oneof,
    Enum,
    Value,
    Service,
    Method,
    /// Options, imports, `reserved`, `extend` and the like: they take
    /// comments, so they must be read, but prost-build shows none of them.
    Other,
}

/// One declaration of the text with its comments and what it contains.
#[derive(Debug, Clone)]
struct Decl {
    kind: Kind,
    name: String,
    comments: Comments,
    children: Vec<Decl>,
}

impl Decl {
    fn new(kind: Kind, name: String) -> Self {
        Decl {
            kind,
            name,
            comments: Comments::default(),
            children: Vec::new(),
        }
    }
}

/// The declaration of `kind` named `name` among `decls`, looking into oneofs
/// for fields (a oneof's fields are its message's fields in descriptors).
fn find<'a>(decls: &'a [Decl], kind: Kind, name: &str) -> Option<&'a Decl> {
    decls.iter().find_map(|d| {
        if d.kind == kind && d.name == name {
            Some(d)
        } else if kind == Kind::Field && d.kind == Kind::Oneof {
            find(&d.children, kind, name)
        } else {
            None
        }
    })
}

fn children(decl: Option<&Decl>) -> &[Decl] {
    decl.map_or(&[], |d| &d.children)
}

/// Adds the location at `path`, with `decl`'s comments if it was found.
fn push(path: &[i32], decl: Option<&Decl>, out: &mut Vec<Location>) {
    let comments = decl.map(|d| d.comments.clone()).unwrap_or_default();
    out.push(Location {
        path: path.to_vec(),
        span: vec![0, 0, 0],
        leading_comments: comments.leading,
        trailing_comments: comments.trailing,
        leading_detached_comments: comments.detached,
    });
}

/// Adds locations for the items of a list field (`field` is its number in
/// descriptor.proto), given by index and name, found among `decls`.
fn push_list<'a>(
    field: i32,
    items: impl Iterator<Item = (usize, &'a str)>,
    (decls, kind): (&[Decl], Kind),
    path: &mut Vec<i32>,
    out: &mut Vec<Location>,
) {
    path.push(field);
    for (i, name) in items {
        path.push(i as i32);
        push(path, find(decls, kind, name), out);
        path.pop();
    }
    path.pop();
}

/// Whether oneof `index` of `message` is the synthetic one of a proto3
/// `optional` field: not in the text, and prost-build looks none up.
fn synthetic_oneof(message: &DescriptorProto, index: usize) -> bool {
    message
        .field
        .iter()
        .any(|f| f.proto3_optional() && f.oneof_index == Some(index as i32))
}

fn message_locations(
    message: &DescriptorProto,
    decl: Option<&Decl>,
    path: &mut Vec<i32>,
    out: &mut Vec<Location>,
) {
    push(path, decl, out);
    let decls = children(decl);
    let fields = message.field.iter().map(|f| f.name()).enumerate();
    push_list(2, fields, (decls, Kind::Field), path, out);
    let oneofs = message.oneof_decl.iter().map(|o| o.name()).enumerate();
    let oneofs = oneofs.filter(|(i, _)| !synthetic_oneof(message, *i));
    push_list(8, oneofs, (decls, Kind::Oneof), path, out);
    path.push(3);
    for (i, nested) in message.nested_type.iter().enumerate() {
        // Map entries are not in the text, and prost-build looks none up.
        if nested.options.as_ref().is_some_and(|o| o.map_entry()) {
            continue;
        }
        path.push(i as i32);
        message_locations(nested, find(decls, Kind::Message, nested.name()), path, out);
        path.pop();
    }
    path.pop();
    path.push(4);
    for (i, e) in message.enum_type.iter().enumerate() {
        path.push(i as i32);
        enum_locations(e, find(decls, Kind::Enum, e.name()), path, out);
        path.pop();
    }
    path.pop();
}

fn enum_locations(
    e: &EnumDescriptorProto,
    decl: Option<&Decl>,
    path: &mut Vec<i32>,
    out: &mut Vec<Location>,
) {
    push(path, decl, out);
    let values = e.value.iter().map(|v| v.name()).enumerate();
    push_list(2, values, (children(decl), Kind::Value), path, out);
}

fn service_locations(
    service: &ServiceDescriptorProto,
    decl: Option<&Decl>,
    path: &mut Vec<i32>,
    out: &mut Vec<Location>,
) {
    push(path, decl, out);
    let methods = service.method.iter().map(|m| m.name()).enumerate();
    push_list(2, methods, (children(decl), Kind::Method), path, out);
}

/// A token of the text: protoc's token types matter only as far as telling
/// the start, the end and everything else apart.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Start,
    End,
    Text(String),
}

/// Where a comment-collecting read puts what it finds: a port of protoc's
/// `CommentCollector`.
#[derive(Default)]
struct Collector {
    trailing: String,
    detached: Vec<String>,
    buffer: String,
    count: usize,
    has_trailing: bool,
    has_comment: bool,
    is_line: bool,
    detached_from_prev: bool,
}

impl Collector {
    fn start_line_comment(&mut self) {
        if self.has_comment && !self.is_line {
            self.flush();
        }
        self.has_comment = true;
        self.is_line = true;
    }

    fn start_block_comment(&mut self) {
        if self.has_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line = false;
    }

    fn clear_buffer(&mut self) {
        self.buffer.clear();
        self.has_comment = false;
    }

    /// The buffered comment is complete and not the next token's.
    fn flush(&mut self) {
        if !self.has_comment {
            return;
        }
        if self.detached_from_prev {
            self.detached.push(std::mem::take(&mut self.buffer));
        } else {
            self.trailing.push_str(&self.buffer);
            self.has_trailing = true;
            self.detached_from_prev = true;
        }
        self.clear_buffer();
        self.count += 1;
    }

    /// With the tokens around it on one line, a lone comment belongs to
    /// neither of them.
    fn maybe_detach(&mut self) {
        if self.count + usize::from(self.has_comment) != 1 {
            return;
        }
        if self.has_trailing {
            self.detached.insert(0, std::mem::take(&mut self.trailing));
        }
        self.detached_from_prev = true;
        self.flush();
    }

    /// The trailing, detached and leading comments found.
    fn finish(self) -> (String, Vec<String>, String) {
        let leading = if self.has_comment {
            self.buffer
        } else {
            String::new()
        };
        (self.trailing, self.detached, leading)
    }
}

/// What the text at the reading position starts.
enum Start {
    LineComment,
    BlockComment,
    /// A `/` on its own, now the current token.
    Slash,
    Other,
}

/// A port of protoc's tokenizer, as far as comments need it.
struct Tokenizer<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    current: Token,
}

/// Whether `c` belongs to an identifier or number. Numbers like `1e-5` come
/// out in pieces, which is all the same to telling declarations apart.
fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn no_newline_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Tokenizer<'a> {
    fn new(text: &'a str) -> Self {
        Tokenizer {
            text: text.as_bytes(),
            pos: 0,
            line: 0,
            current: Token::Start,
        }
    }

    fn peek(&self) -> u8 {
        self.text.get(self.pos).copied().unwrap_or(0)
    }

    fn bump(&mut self) {
        if self.pos >= self.text.len() {
            return;
        }
        if self.peek() == b'\n' {
            self.line += 1;
        }
        self.pos += 1;
    }

    fn try_consume(&mut self, c: u8) -> bool {
        let hit = self.pos < self.text.len() && self.peek() == c;
        if hit {
            self.bump();
        }
        hit
    }

    fn skip_no_newline_space(&mut self) {
        while self.pos < self.text.len() && no_newline_space(self.peek()) {
            self.bump();
        }
    }

    fn slice(&self, from: usize) -> String {
        String::from_utf8_lossy(&self.text[from..self.pos]).into_owned()
    }

    /// Reads past `//` or `/*` if there is one. A lone `/` becomes the
    /// current token.
    fn comment_start(&mut self) -> Start {
        if !self.try_consume(b'/') {
            Start::Other
        } else if self.try_consume(b'/') {
            Start::LineComment
        } else if self.try_consume(b'*') {
            Start::BlockComment
        } else {
            self.current = Token::Text("/".into());
            Start::Slash
        }
    }

    /// The rest of a `//` comment, with its newline.
    fn line_comment(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.text.len() && self.peek() != b'\n' {
            self.bump();
        }
        self.try_consume(b'\n');
        self.slice(start)
    }

    /// The rest of a `/*` comment without the `*/`, leading space and `*`
    /// of each following line removed.
    fn block_comment(&mut self) -> String {
        let mut out = String::new();
        let mut start = self.pos;
        loop {
            while self.pos < self.text.len() && !matches!(self.peek(), b'*' | b'/' | b'\n') {
                self.bump();
            }
            if self.try_consume(b'\n') {
                out.push_str(&self.slice(start));
                self.skip_no_newline_space();
                if self.try_consume(b'*') && self.try_consume(b'/') {
                    return out;
                }
                start = self.pos;
            } else if self.try_consume(b'*') && self.try_consume(b'/') {
                out.push_str(&self.slice(start));
                out.truncate(out.len().saturating_sub(2));
                return out;
            } else if self.try_consume(b'/') {
                continue;
            } else if self.pos >= self.text.len() {
                out.push_str(&self.slice(start));
                return out;
            }
        }
    }

    /// Reads a `//` comment (`line`) or a `/*` one into `collector`.
    fn comment(&mut self, line: bool, collector: &mut Collector) {
        if line {
            collector.start_line_comment();
            let text = self.line_comment();
            collector.buffer.push_str(&text);
        } else {
            collector.start_block_comment();
            let text = self.block_comment();
            collector.buffer.push_str(&text);
        }
    }

    /// Moves to the next token, skipping comments.
    fn next(&mut self) {
        loop {
            while self.pos < self.text.len() && self.peek().is_ascii_whitespace() {
                self.bump();
            }
            match self.comment_start() {
                Start::LineComment => {
                    self.line_comment();
                }
                Start::BlockComment => {
                    self.block_comment();
                }
                Start::Slash => return,
                _ => break,
            }
        }
        self.current = self.token();
    }

    /// Reads one token at the current position.
    fn token(&mut self) -> Token {
        let start = self.pos;
        let Some(&c) = self.text.get(self.pos) else {
            return Token::End;
        };
        if c == b'"' || c == b'\'' {
            self.bump();
            while self.pos < self.text.len() && !matches!(self.peek(), b'\n') {
                if self.try_consume(c) {
                    break;
                }
                if self.peek() == b'\\' {
                    self.bump();
                }
                self.bump();
            }
        } else if word_char(c) {
            while self.pos < self.text.len() && word_char(self.peek()) {
                self.bump();
            }
        } else {
            self.bump();
        }
        Token::Text(self.slice(start))
    }

    /// Moves past the current token like protoc's `NextWithComments`,
    /// returning the previous token's trailing comment, the detached ones and
    /// the next token's leading comment.
    fn next_with_comments(&mut self) -> (String, Vec<String>, String) {
        let mut collector = Collector::default();
        let prev_line = self.line;
        let mut trailing_end_line = None;
        if self.current == Token::Start {
            if self.text.starts_with(b"\xEF\xBB\xBF") {
                self.pos = 3;
            }
            collector.detached_from_prev = true;
        } else {
            self.skip_no_newline_space();
            match self.comment_start() {
                Start::LineComment => {
                    trailing_end_line = Some(self.line);
                    self.comment(true, &mut collector);
                    collector.flush();
                }
                Start::BlockComment => {
                    self.comment(false, &mut collector);
                    trailing_end_line = Some(self.line);
                    self.skip_no_newline_space();
                    if !self.try_consume(b'\n') {
                        collector.maybe_detach();
                        self.next();
                        return collector.finish();
                    }
                    collector.flush();
                }
                Start::Slash => return collector.finish(),
                _ => {
                    if !self.try_consume(b'\n') {
                        self.next();
                        return collector.finish();
                    }
                }
            }
        }
        self.comments_before_token(collector, prev_line, trailing_end_line)
    }

    /// The lines after the previous token's: comments and blank lines up
    /// to the next token.
    fn comments_before_token(
        &mut self,
        mut collector: Collector,
        prev_line: usize,
        trailing_end_line: Option<usize>,
    ) -> (String, Vec<String>, String) {
        loop {
            self.skip_no_newline_space();
            match self.comment_start() {
                Start::LineComment => self.comment(true, &mut collector),
                Start::BlockComment => {
                    self.comment(false, &mut collector);
                    self.skip_no_newline_space();
                    self.try_consume(b'\n');
                }
                Start::Slash => return collector.finish(),
                _ if self.try_consume(b'\n') => {
                    collector.flush();
                    collector.detached_from_prev = true;
                }
                _ => {
                    self.next();
                    let scope_end = match &self.current {
                        Token::End => true,
                        Token::Text(t) => matches!(t.as_str(), "}" | "]" | ")"),
                        Token::Start => false,
                    };
                    if scope_end {
                        collector.flush();
                    }
                    if self.current != Token::End
                        && (prev_line == self.line || trailing_end_line == Some(self.line))
                    {
                        collector.maybe_detach();
                    }
                    return collector.finish();
                }
            }
        }
    }
}

/// Reads the declarations of a file, attaching comments where protoc's
/// parser does: at the `;`, `{` and `}` that end declarations.
struct Reader<'a> {
    tokens: Tokenizer<'a>,
    upcoming_leading: String,
    upcoming_detached: Vec<String>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            tokens: Tokenizer::new(text),
            upcoming_leading: String::new(),
            upcoming_detached: Vec::new(),
        }
    }

    fn at(&self, text: &str) -> bool {
        matches!(&self.tokens.current, Token::Text(t) if t == text)
    }

    fn at_end(&self) -> bool {
        self.tokens.current == Token::End
    }

    fn word(&self) -> String {
        match &self.tokens.current {
            Token::Text(t) => t.clone(),
            _ => String::new(),
        }
    }

    /// protoc's `TryConsumeEndOfDeclaration` on the current token: `decl` is
    /// the declaration it ends, if any.
    fn end_of_declaration(&mut self, decl: Option<&mut Decl>) {
        let closing = self.at("}");
        let (trailing, detached, leading) = self.tokens.next_with_comments();
        let leading = std::mem::replace(&mut self.upcoming_leading, leading);
        match decl {
            Some(decl) => {
                let detached = std::mem::replace(&mut self.upcoming_detached, detached);
                decl.comments = Comments {
                    leading: Some(leading).filter(|s| !s.is_empty()),
                    trailing: Some(trailing).filter(|s| !s.is_empty()),
                    detached,
                };
            }
            None if closing => self.upcoming_detached = detached,
            None => self.upcoming_detached.extend(detached),
        }
    }

    /// The whole file's top-level declarations.
    fn file(mut self) -> Vec<Decl> {
        let (_, detached, leading) = self.tokens.next_with_comments();
        self.upcoming_detached = detached;
        self.upcoming_leading = leading;
        let mut decls = Vec::new();
        while !self.at_end() {
            self.statement(Scope::File, &mut decls);
        }
        decls
    }

    /// Declarations up to the `}` closing a block, then that `}`.
    fn block(&mut self, scope: Scope, decl: &mut Decl) {
        let mut children = Vec::new();
        while !self.at_end() && !self.at("}") {
            self.statement(scope, &mut children);
        }
        decl.children = children;
        if !self.at_end() {
            self.end_of_declaration(None);
        }
    }

    /// One statement of `scope`, read up to and including its end.
    fn statement(&mut self, scope: Scope, out: &mut Vec<Decl>) {
        if self.at(";") {
            return self.end_of_declaration(None);
        }
        let word = self.word();
        let block = match (scope, word.as_str()) {
            (Scope::File | Scope::Message, "message") => Some((Kind::Message, Scope::Message)),
            (Scope::File | Scope::Message, "enum") => Some((Kind::Enum, Scope::Enum)),
            (Scope::File, "service") => Some((Kind::Service, Scope::Service)),
            (Scope::File | Scope::Message, "extend") => Some((Kind::Other, Scope::Extend)),
            (Scope::Message, "oneof") => Some((Kind::Oneof, Scope::Oneof)),
            _ => None,
        };
        let simple = matches!(
            word.as_str(),
            "syntax" | "edition" | "package" | "import" | "option" | "reserved" | "extensions"
        ) || scope == Scope::File;
        if let Some((kind, inner)) = block {
            out.push(self.named_block(kind, inner));
        } else if simple {
            out.push(self.simple());
        } else {
            out.extend(self.member(scope));
        }
    }

    /// `message Name {`, `enum Name {` and the like, with their block.
    fn named_block(&mut self, kind: Kind, scope: Scope) -> Decl {
        self.tokens.next();
        let mut decl = Decl::new(kind, self.word());
        self.skip_to_end(true);
        if self.at("{") {
            self.end_of_declaration(Some(&mut decl));
            self.block(scope, &mut decl);
        } else if !self.at_end() {
            self.end_of_declaration(Some(&mut decl));
        }
        decl
    }

    /// A statement ending at `;` whose braces are all values.
    fn simple(&mut self) -> Decl {
        let mut decl = Decl::new(Kind::Other, String::new());
        self.skip_to_end(false);
        if !self.at_end() {
            self.end_of_declaration(Some(&mut decl));
        }
        decl
    }

    /// A field, enum value or method: what a scope holds besides nested
    /// blocks and options.
    fn member(&mut self, scope: Scope) -> Vec<Decl> {
        let kind = match scope {
            Scope::Message | Scope::Oneof => Kind::Field,
            Scope::Enum => Kind::Value,
            Scope::Service if self.at("rpc") => Kind::Method,
            _ => Kind::Other,
        };
        let mut words = Vec::new();
        let mut decl = Decl::new(kind, String::new());
        while !self.at_end() && !self.at(";") && !self.at("{") && !self.at("}") {
            words.push(self.word());
            self.skip_token_or_group();
        }
        decl.name = member_name(kind, &words);
        if self.at("}") || self.at_end() {
            return vec![decl];
        }
        let brace = self.at("{");
        if !(brace && words.iter().any(|w| w == "group")) {
            self.end_of_declaration(Some(&mut decl));
            if brace {
                self.block(Scope::Method, &mut Decl::new(Kind::Other, String::new()));
            }
            return vec![decl];
        }
        let mut message = Decl::new(Kind::Message, group_name(&words));
        decl.name = message.name.to_ascii_lowercase();
        self.end_of_declaration(Some(&mut message));
        self.block(Scope::Message, &mut message);
        vec![decl, message]
    }

    /// Moves to the `;` (or, when `braces_end` is set, the `{`) ending the
    /// current statement, skipping bracketed and braced values.
    fn skip_to_end(&mut self, braces_end: bool) {
        let end = |r: &Self| r.at_end() || r.at(";") || r.at("}") || (braces_end && r.at("{"));
        while !end(self) {
            self.skip_token_or_group();
        }
    }

    /// Moves past one token, or past a whole `[...]`, `(...)` or `{...}`
    /// group starting there.
    fn skip_token_or_group(&mut self) {
        let close = match self.word().as_str() {
            "[" => "]",
            "(" => ")",
            "{" => "}",
            _ => "",
        };
        self.tokens.next();
        if close.is_empty() {
            return;
        }
        while !self.at_end() && !self.at(close) {
            self.skip_token_or_group();
        }
        self.tokens.next();
    }
}

/// The kind of block a statement is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    File,
    Message,
    Oneof,
    Enum,
    Service,
    Method,
    Extend,
}

/// The declared name among a member's tokens: the one before `=` for
/// fields and values, the one after `rpc` for methods.
fn member_name(kind: Kind, words: &[String]) -> String {
    let at = match kind {
        Kind::Method => words.iter().position(|w| w == "rpc").map(|i| i + 1),
        _ => words
            .iter()
            .position(|w| w == "=")
            .and_then(|i| i.checked_sub(1)),
    };
    at.and_then(|i| words.get(i)).cloned().unwrap_or_default()
}

/// A group's message name: the word after `group`.
fn group_name(words: &[String]) -> String {
    let at = words.iter().position(|w| w == "group").map(|i| i + 1);
    at.and_then(|i| words.get(i)).cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;
    use std::path::Path;

    /// protoc's descriptor of `tests/comments/<name>`, with source info.
    /// `test` names the calling test, so tests running at once use their
    /// own output files.
    fn protoc_descriptor(name: &str, test: &str) -> FileDescriptorProto {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/comments");
        let out = std::env::temp_dir().join(format!(
            "protojsonx-comments-{}-{test}.pb",
            std::process::id()
        ));
        let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
            .arg("-I")
            .arg(&dir)
            .arg("-I")
            .arg(protoc_bin_vendored::include_path().unwrap())
            .arg("--include_source_info")
            .arg(format!("--descriptor_set_out={}", out.display()))
            .arg(dir.join(name))
            .status()
            .unwrap();
        assert!(status.success());
        let set = prost_types::FileDescriptorSet::decode(&*std::fs::read(&out).unwrap()).unwrap();
        std::fs::remove_file(&out).unwrap();
        set.file.into_iter().next().unwrap()
    }

    fn comments(location: &Location) -> Comments {
        Comments {
            leading: location.leading_comments.clone(),
            trailing: location.trailing_comments.clone(),
            detached: location.leading_detached_comments.clone(),
        }
    }

    /// Checks the comments of every location made for `name` against
    /// protoc's, returning how many locations have comments.
    fn check_against_protoc(name: &str) -> usize {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/comments");
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut file = protoc_descriptor(name, name);
        let expected = file.source_code_info.take().unwrap();
        let ours = source_code_info(&text, &file);
        let mut commented = 0;
        for location in &ours.location {
            let theirs = expected
                .location
                .iter()
                .find(|l| l.path == location.path)
                .unwrap_or_else(|| panic!("{name}: protoc has no location {:?}", location.path));
            assert_eq!(
                comments(location),
                comments(theirs),
                "{name} at {:?}",
                location.path
            );
            commented += usize::from(comments(location) != Comments::default());
        }
        commented
    }

    #[test]
    fn comments_match_protoc_in_every_position() {
        // The file comments nearly every element: the comparison is not vacuous.
        let commented = check_against_protoc("every_position.proto");
        assert!(commented > 20, "only {commented} commented locations");
    }

    /// Strings holding comment markers, option values with braces and `;`,
    /// tabs, empty statements, no newline at the end.
    #[test]
    fn comments_match_protoc_around_strings_and_option_values() {
        assert!(check_against_protoc("editions.proto") > 5);
    }

    /// CRLF line ends and proto3 `optional`, whose synthetic oneof prost
    /// skips.
    #[test]
    fn comments_match_protoc_with_crlf_and_proto3_optional() {
        assert!(check_against_protoc("proto3_crlf.proto") >= 3);
    }

    /// Text that is not the descriptor's, cut short or broken costs the
    /// comments, never a location prost-build looks up, and never a panic.
    #[test]
    fn unreadable_text_keeps_every_location_and_no_comments() {
        let name = "every_position.proto";
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/comments");
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut file = protoc_descriptor(name, "unreadable");
        file.source_code_info = None;
        let paths = |info: &SourceCodeInfo| -> Vec<Vec<i32>> {
            info.location.iter().map(|l| l.path.clone()).collect()
        };
        let good = source_code_info(&text, &file);
        for bad in [
            "message { ; } } = /* \"",
            "message Outer { // x\n optional",
            "\"//\n/",
        ] {
            let info = source_code_info(bad, &file);
            assert_eq!(paths(&info), paths(&good), "{bad}");
            assert!(info.location.iter().all(|l| l.leading_comments.is_none()));
        }
        let mut unique = paths(&good);
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), good.location.len(), "paths are unique");
    }
}
