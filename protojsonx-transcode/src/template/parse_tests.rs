use super::{PathTemplate, Segment, Variable};

fn lit(text: &str) -> Segment {
    Segment::Literal(text.to_owned())
}

fn var(path: &str, segments: std::ops::Range<usize>) -> Variable {
    Variable {
        field_path: path.split('.').map(str::to_owned).collect(),
        segments,
    }
}

fn parse(text: &str) -> PathTemplate {
    PathTemplate::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> String {
    match PathTemplate::parse(text) {
        Ok(t) => panic!("`{text}` parsed as {t:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn root() {
    let t = parse("/");
    assert!(t.segments().is_empty());
    assert!(t.variables().is_empty());
    assert_eq!(t.verb(), None);
    assert_eq!(t.to_string(), "/");
}

#[test]
fn literals_and_wildcards() {
    let t = parse("/v1/shelves/*/books/**");
    assert_eq!(
        t.segments(),
        [
            lit("v1"),
            lit("shelves"),
            Segment::Wildcard,
            lit("books"),
            Segment::DoubleWildcard,
        ]
    );
    assert!(t.variables().is_empty());
    assert_eq!(parse("/*").segments(), [Segment::Wildcard]);
    assert_eq!(parse("/**").segments(), [Segment::DoubleWildcard]);
}

#[test]
fn literal_characters() {
    let t = parse("/a-b.c_d~e!$&'()+,;=@/%2Fx%e9");
    assert_eq!(t.segments(), [lit("a-b.c_d~e!$&'()+,;=@"), lit("%2Fx%e9")]);
}

#[test]
fn variables() {
    let t = parse("/v1/{name}");
    assert_eq!(t.segments(), [lit("v1"), Segment::Wildcard]);
    assert_eq!(t.variables(), [var("name", 1..2)]);

    let t = parse("/v1/{a.b.c}/{d_1=*}");
    assert_eq!(t.variables(), [var("a.b.c", 1..2), var("d_1", 2..3)]);

    let t = parse("/v1/{name=shelves/*/books/*}");
    assert_eq!(
        t.segments(),
        [
            lit("v1"),
            lit("shelves"),
            Segment::Wildcard,
            lit("books"),
            Segment::Wildcard
        ]
    );
    assert_eq!(t.variables(), [var("name", 1..5)]);

    let t = parse("/v1/{name=**}");
    assert_eq!(t.segments(), [lit("v1"), Segment::DoubleWildcard]);
    assert_eq!(t.variables(), [var("name", 1..2)]);

    let t = parse("/{_x=lit}");
    assert_eq!(t.segments(), [lit("lit")]);
    assert_eq!(t.variables(), [var("_x", 0..1)]);
}

#[test]
fn verbs() {
    let t = parse("/v1/{name=shelves/*}:archive");
    assert_eq!(t.verb(), Some("archive"));
    assert_eq!(t.variables(), [var("name", 1..3)]);
    assert_eq!(parse("/a:b-c.d%20").verb(), Some("b-c.d%20"));
    assert_eq!(parse("/*:verb").segments(), [Segment::Wildcard]);
    assert_eq!(parse("/**:verb").segments(), [Segment::DoubleWildcard]);
    assert_eq!(parse("/{x=**}:verb").variables(), [var("x", 0..1)]);
    assert_eq!(parse("/v1/{x}").verb(), None);
}

#[test]
fn display_is_canonical() {
    for (text, canonical) in [
        ("/", "/"),
        ("/v1/{name=*}", "/v1/{name}"),
        ("/v1/{a.b=*}/c:x", "/v1/{a.b}/c:x"),
        ("/{x=*/*}", "/{x=*/*}"),
    ] {
        assert_eq!(parse(text).to_string(), canonical);
    }
    for text in [
        "/v1/shelves/*/books/**",
        "/v1/{name}",
        "/v1/{a.b.c}/{d=shelves/*}/x",
        "/v1/{name=shelves/*/books/*}:archive",
        "/v1/{name=**}",
        "/{x=a/**}:verb",
        "/a%2Fb/{x=lit}/*:v",
    ] {
        let t = parse(text);
        assert_eq!(t.to_string(), text);
        assert_eq!(parse(&t.to_string()), t);
    }
}

#[test]
fn from_str() {
    let t: PathTemplate = "/v1/{name}".parse().unwrap();
    assert_eq!(t, parse("/v1/{name}"));
    assert!("v1".parse::<PathTemplate>().is_err());
}

#[test]
fn error_accessors() {
    let e = PathTemplate::parse("/v1/{name=shelves/*").unwrap_err();
    assert_eq!(e.template(), "/v1/{name=shelves/*");
    assert_eq!(e.offset(), 19);
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().contains("not closed"));
}

#[test]
fn leading_slash_and_empty_segments() {
    assert_eq!(
        error(""),
        "`` at byte 0: a template starts with `/`, found the end of the template"
    );
    assert_eq!(
        error("v1/a"),
        "`v1/a` at byte 0: a template starts with `/`, found `v`"
    );
    assert_eq!(
        error("{x}"),
        "`{x}` at byte 0: a template starts with `/`, found `{`"
    );
    let expected = "expected a segment (a literal, `*`, `**` or a variable)";
    assert_eq!(
        error("//"),
        format!("`//` at byte 1: {expected}, found `/`")
    );
    assert_eq!(
        error("/a//b"),
        format!("`/a//b` at byte 3: {expected}, found `/`")
    );
    assert_eq!(
        error("/a/"),
        format!("`/a/` at byte 3: {expected}, found the end of the template")
    );
    assert_eq!(
        error("/:verb"),
        format!("`/:verb` at byte 1: {expected}, found `:`")
    );
    assert_eq!(
        error("/a/:v"),
        format!("`/a/:v` at byte 3: {expected}, found `:`")
    );
    assert_eq!(
        error("/{x=}"),
        format!("`/{{x=}}` at byte 4: {expected}, found `}}`")
    );
    assert_eq!(
        error("/{x=a/}"),
        format!("`/{{x=a/}}` at byte 6: {expected}, found `}}`")
    );
}

#[test]
fn double_wildcard_not_last() {
    let message = "`**` must be the last segment (only a verb may follow it)";
    assert_eq!(error("/a/**/b"), format!("`/a/**/b` at byte 3: {message}"));
    assert_eq!(error("/**/*"), format!("`/**/*` at byte 1: {message}"));
    assert_eq!(error("/**/**"), format!("`/**/**` at byte 1: {message}"));
    assert_eq!(
        error("/{x=**}/{y}"),
        format!("`/{{x=**}}/{{y}}` at byte 4: {message}")
    );
    assert_eq!(
        error("/{x=a/**/b}"),
        format!("`/{{x=a/**/b}}` at byte 6: {message}")
    );
}

#[test]
fn partial_segments() {
    assert_eq!(
        error("/a{x}"),
        "`/a{x}` at byte 2: a variable must be a whole segment"
    );
    assert_eq!(
        error("/{x}a"),
        "`/{x}a` at byte 4: a variable must be a whole segment"
    );
    assert_eq!(
        error("/{x}{y}"),
        "`/{x}{y}` at byte 4: a variable must be a whole segment"
    );
    assert_eq!(error("/*a"), "`/*a` at byte 2: `*` must be a whole segment");
    assert_eq!(error("/a*"), "`/a*` at byte 2: `*` must be a whole segment");
    assert_eq!(
        error("/***"),
        "`/***` at byte 3: `*` must be a whole segment"
    );
    assert_eq!(
        error("/**a"),
        "`/**a` at byte 3: `**` must be a whole segment"
    );
}

#[test]
fn bad_characters() {
    let message = "cannot appear in a literal (percent-encode it)";
    assert_eq!(error("/a b"), format!("`/a b` at byte 2: ` ` {message}"));
    assert_eq!(error("/é"), format!("`/é` at byte 1: `é` {message}"));
    assert_eq!(error("/a/?"), format!("`/a/?` at byte 3: `?` {message}"));
    assert_eq!(error("/*#"), format!("`/*#` at byte 2: `#` {message}"));
    assert_eq!(error("/a:v^"), format!("`/a:v^` at byte 4: `^` {message}"));
    assert_eq!(error("/a}"), "`/a}` at byte 2: `}` closes no variable");
    assert_eq!(error("/{x}}"), "`/{x}}` at byte 4: `}` closes no variable");
}

#[test]
fn bad_escapes() {
    let message = "`%` must start a percent-escape of two hex digits";
    assert_eq!(error("/a%zz"), format!("`/a%zz` at byte 2: {message}"));
    assert_eq!(error("/a%2"), format!("`/a%2` at byte 2: {message}"));
    assert_eq!(error("/%"), format!("`/%` at byte 1: {message}"));
    assert_eq!(error("/a:%g0"), format!("`/a:%g0` at byte 3: {message}"));
}

#[test]
fn nested_variables() {
    assert_eq!(
        error("/{x=a/{y}}"),
        "`/{x=a/{y}}` at byte 6: variables do not nest: `{` inside the variable `x`"
    );
    assert_eq!(
        error("/{x={y}}"),
        "`/{x={y}}` at byte 4: variables do not nest: `{` inside the variable `x`"
    );
}

#[test]
fn bad_identifiers() {
    let expected = "expected a field name (a letter or `_`, then letters, digits or `_`)";
    assert_eq!(
        error("/{}"),
        format!("`/{{}}` at byte 2: {expected}, found `}}`")
    );
    assert_eq!(
        error("/{1a}"),
        format!("`/{{1a}}` at byte 2: {expected}, found `1`")
    );
    assert_eq!(
        error("/{a.}"),
        format!("`/{{a.}}` at byte 4: {expected}, found `}}`")
    );
    assert_eq!(
        error("/{a..b}"),
        format!("`/{{a..b}}` at byte 4: {expected}, found `.`")
    );
    assert_eq!(
        error("/{=a}"),
        format!("`/{{=a}}` at byte 2: {expected}, found `=`")
    );
    assert_eq!(
        error("/a/{var."),
        format!("`/a/{{var.` at byte 8: {expected}, found the end of the template")
    );
    assert_eq!(
        error("/{a-b}"),
        "`/{a-b}` at byte 3: expected `.`, `=` or `}` after the field path `a`, found `-`"
    );
    assert_eq!(
        error("/{a.b c}"),
        "`/{a.b c}` at byte 5: expected `.`, `=` or `}` after the field path `a.b`, found ` `"
    );
}

#[test]
fn unclosed_variables() {
    assert_eq!(
        error("/v1/{name=shelves/*"),
        "`/v1/{name=shelves/*` at byte 19: the variable `name` is not closed with `}`"
    );
    assert_eq!(
        error("/a/{var"),
        "`/a/{var` at byte 7: the variable `var` is not closed with `}`"
    );
    assert_eq!(
        error("/a/{x.y="),
        "`/a/{x.y=` at byte 8: expected a segment (a literal, `*`, `**` or a variable), \
         found the end of the template"
    );
    assert_eq!(
        error("/a/{x=var:verb}"),
        "`/a/{x=var:verb}` at byte 9: the variable `x` is not closed with `}` before the verb"
    );
    assert_eq!(
        error("/a/{"),
        "`/a/{` at byte 4: expected a field name (a letter or `_`, then letters, digits or `_`), \
         found the end of the template"
    );
}

#[test]
fn duplicate_variables() {
    assert_eq!(
        error("/{a}/{a}"),
        "`/{a}/{a}` at byte 5: the field path `a` is bound twice (first at byte 1)"
    );
    assert_eq!(
        error("/v1/{a.b}/x/{a.b=**}"),
        "`/v1/{a.b}/x/{a.b=**}` at byte 12: the field path `a.b` is bound twice (first at byte 4)"
    );
    // Different paths sharing a prefix are different fields.
    assert_eq!(parse("/{a}/{a.b}").variables().len(), 2);
}

#[test]
fn verb_errors() {
    assert_eq!(error("/a:"), "`/a:` at byte 3: the verb after `:` is empty");
    assert_eq!(error("/*:"), "`/*:` at byte 3: the verb after `:` is empty");
    assert_eq!(
        error("/**:"),
        "`/**:` at byte 4: the verb after `:` is empty"
    );
    assert_eq!(
        error("/{var}:"),
        "`/{var}:` at byte 7: the verb after `:` is empty"
    );
    assert_eq!(
        error("/a::b"),
        "`/a::b` at byte 3: the verb after `:` is empty"
    );
    assert_eq!(
        error("/a:b/c"),
        "`/a:b/c` at byte 4: the verb must end the template, found `/`"
    );
    assert_eq!(
        error("/a:b:c"),
        "`/a:b:c` at byte 4: the verb must end the template, found `:`"
    );
    assert_eq!(
        error("/a:b*"),
        "`/a:b*` at byte 4: the verb must end the template, found `*`"
    );
    assert_eq!(
        error("/a:*"),
        "`/a:*` at byte 3: the verb after `:` is empty"
    );
}
