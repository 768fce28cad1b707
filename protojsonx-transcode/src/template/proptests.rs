//! Property tests: generated templates find the values put in paths made
//! for them, the matcher agrees with a naive model of Envoy's precedence,
//! and no input panics.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Lookup, PathMatcher, PathTemplate, Segment};

/// A segment of a generated template.
#[derive(Clone, Debug)]
enum Part {
    Literal(&'static str),
    Wildcard,
    /// A variable over these segments, `None` being `*`.
    Variable(Vec<Option<&'static str>>),
}

/// How a generated template ends.
#[derive(Clone, Debug)]
enum Tail {
    Nothing,
    /// `**`
    Rest,
    /// `{f=**}` or `{f=lit/**}`
    VariableRest(Option<&'static str>),
}

#[derive(Clone, Debug)]
struct Template {
    parts: Vec<Part>,
    tail: Tail,
    verb: Option<&'static str>,
}

const LITERALS: [&str; 4] = ["v1", "shelves", "a-b.c~", "x%20y"];

fn literal() -> impl Strategy<Value = &'static str> {
    select(&LITERALS[..])
}

fn part() -> impl Strategy<Value = Part> {
    // Variable literals are plain: their value is the literal itself.
    let plain = || select(&LITERALS[..3]);
    let inner = prop_oneof![Just(None), plain().prop_map(Some)];
    prop_oneof![
        literal().prop_map(Part::Literal),
        Just(Part::Wildcard),
        Just(Part::Variable(vec![None])),
        plain().prop_map(|l| Part::Variable(vec![Some(l)])),
        prop::collection::vec(inner, 2..4).prop_map(Part::Variable),
    ]
}

fn tail() -> impl Strategy<Value = Tail> {
    prop_oneof![
        Just(Tail::Nothing),
        Just(Tail::Rest),
        Just(Tail::VariableRest(None)),
        select(&LITERALS[..3]).prop_map(|l| Tail::VariableRest(Some(l))),
    ]
}

fn template() -> impl Strategy<Value = Template> {
    let verb = prop_oneof![Just(None), select(&["archive", "do-it"][..]).prop_map(Some)];
    (prop::collection::vec(part(), 0..4), tail(), verb).prop_map(|(parts, tail, verb)| {
        // The root template has no verb.
        let root = parts.is_empty() && matches!(tail, Tail::Nothing);
        let verb = verb.filter(|_| !root);
        Template { parts, tail, verb }
    })
}

/// Characters of values: unreserved, reserved, `%`, space, quotes, and
/// multi-byte UTF-8.
const CHARS: &[char] = &[
    'a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':',
    '@', '?', '#', '[', ']', '%', ' ', '"', 'é', '日', '😀',
];

/// A value of one segment, never empty (a trailing empty segment would be
/// dropped from the path).
fn value() -> impl Strategy<Value = String> {
    prop::collection::vec(select(CHARS), 1..6).prop_map(|cs| cs.into_iter().collect())
}

/// A value of a single-segment variable: any text, `/` included.
fn single_value() -> impl Strategy<Value = String> {
    let c = prop_oneof![9 => select(CHARS), 1 => Just('/')];
    prop::collection::vec(c, 1..6).prop_map(|cs| cs.into_iter().collect())
}

/// How a client writes `{x}` (RFC 6570 simple expansion): everything but
/// the unreserved characters is escaped.
fn encode_all(value: &str) -> String {
    encode(value, |b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
}

/// How a client writes a segment of `{+x}` (RFC 6570 reserved expansion):
/// the path characters stay as they are.
fn encode_reserved(value: &str) -> String {
    encode(value, |b| {
        b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b)
    })
}

fn encode(value: &str, raw: impl Fn(u8) -> bool) -> String {
    let mut out = Vec::new();
    for b in value.bytes() {
        match raw(b) {
            true => out.push(b),
            false => out.extend(format!("%{b:02X}").bytes()),
        }
    }
    String::from_utf8(out).unwrap()
}

/// What the matcher gives back for a segment written by `encode_reserved`:
/// the reserved characters a path cannot hold raw keep their escapes.
fn expected_reserved(value: &str) -> String {
    encode(value, |b| !b"#?[]".contains(&b))
}

/// A template's text, a path made for it, and the expected bindings.
#[derive(Debug, Default)]
struct Case {
    text: String,
    segments: Vec<String>,
    bindings: Vec<(String, String)>,
}

impl Case {
    fn new(t: &Template, values: &[String], singles: &[String], rest: usize) -> Case {
        let mut case = Case::default();
        let mut values = values.iter().map(String::as_str);
        let mut singles = singles.iter();
        for part in &t.parts {
            case.part(part, &mut values, &mut singles);
        }
        case.tail(&t.tail, values.take(rest));
        if case.text.is_empty() {
            case.text.push('/');
        }
        if let Some(verb) = t.verb {
            case.text.push_str(&format!(":{verb}"));
        }
        case
    }

    fn part<'v>(
        &mut self,
        part: &Part,
        values: &mut impl Iterator<Item = &'v str>,
        singles: &mut std::slice::Iter<'_, String>,
    ) {
        match part {
            Part::Literal(l) => self.push(l, l),
            Part::Wildcard => self.push("*", &encode_all(values.next().unwrap())),
            Part::Variable(inner) if inner.len() == 1 => {
                let field = self.field();
                let value = match inner[0] {
                    Some(l) => l,
                    None => singles.next().unwrap(),
                };
                let text = inner[0].unwrap_or("*");
                self.push(&format!("{{{field}={text}}}"), &encode_all(value));
                self.bindings.push((field, value.to_owned()));
            }
            Part::Variable(inner) => {
                let field = self.field();
                let mut text = Vec::new();
                let mut expected = Vec::new();
                for segment in inner {
                    text.push(segment.unwrap_or("*"));
                    let (raw, value) = match segment {
                        Some(l) => (l.to_string(), l.to_string()),
                        None => {
                            let value = values.next().unwrap();
                            (encode_reserved(value), expected_reserved(value))
                        }
                    };
                    self.segments.push(raw);
                    expected.push(value);
                }
                self.text
                    .push_str(&format!("/{{{field}={}}}", text.join("/")));
                self.bindings.push((field, expected.join("/")));
            }
        }
    }

    fn tail<'v>(&mut self, tail: &Tail, rest: impl Iterator<Item = &'v str>) {
        match tail {
            Tail::Nothing => {}
            Tail::Rest => {
                self.text.push_str("/**");
                self.segments.extend(rest.map(encode_all));
            }
            Tail::VariableRest(prefix) => {
                let field = self.field();
                let mut expected = Vec::new();
                if let Some(l) = prefix {
                    self.text.push_str(&format!("/{{{field}={l}/**}}"));
                    self.segments.push(l.to_string());
                    expected.push(l.to_string());
                } else {
                    self.text.push_str(&format!("/{{{field}=**}}"));
                }
                for value in rest {
                    self.segments.push(encode_reserved(value));
                    expected.push(expected_reserved(value));
                }
                self.bindings.push((field, expected.join("/")));
            }
        }
    }

    /// A fresh field path, nested for every other variable.
    fn field(&self) -> String {
        match self.bindings.len() % 2 {
            0 => format!("f{}", self.bindings.len()),
            _ => format!("m.f{}", self.bindings.len()),
        }
    }

    fn push(&mut self, text: &str, segment: &str) {
        self.text.push('/');
        self.text.push_str(text);
        self.segments.push(segment.to_owned());
    }

    fn path(&self, verb: Option<&str>) -> String {
        let mut path = format!("/{}", self.segments.join("/"));
        if let Some(verb) = verb {
            path.push_str(&format!(":{verb}"));
        }
        path
    }
}

proptest! {
    #[test]
    fn generated_paths_are_found_with_their_values(
        t in template(),
        values in prop::collection::vec(value(), 12),
        singles in prop::collection::vec(single_value(), 4),
        rest in 0..4usize,
    ) {
        let case = Case::new(&t, &values, &singles, rest);
        let template = PathTemplate::parse(&case.text).unwrap();
        prop_assert_eq!(template.to_string().replace("=*}", "}"), case.text.replace("=*}", "}"));
        let mut m = PathMatcher::new();
        m.insert("GET", template, 7).unwrap();
        let path = case.path(t.verb);
        match m.lookup("GET", &path) {
            Lookup::Found { value, bindings } => {
                prop_assert_eq!(*value, 7);
                let got: Vec<_> = bindings
                    .iter()
                    .map(|b| (b.field_path.join("."), b.value_str().unwrap().to_owned()))
                    .collect();
                prop_assert_eq!(got, case.bindings, "path {}", path);
            }
            other => prop_assert!(false, "{} for {}: {:?}", path, case.text, other),
        }
        prop_assert_eq!(
            m.lookup("POST", &path),
            Lookup::MethodNotAllowed { allowed: vec!["GET"] }
        );
    }
}

/// What the model expects of a lookup; `Found` holds the route's index.
#[derive(Debug, PartialEq, Eq)]
enum Expect<'m> {
    Found(usize),
    NotAllowed(Vec<&'m str>),
    NotFound,
}

impl<'m> Expect<'m> {
    fn of(lookup: Lookup<'m, usize>) -> Self {
        match lookup {
            Lookup::Found { value, .. } => Expect::Found(*value),
            Lookup::MethodNotAllowed { allowed } => Expect::NotAllowed(allowed),
            Lookup::NotFound => Expect::NotFound,
        }
    }
}

/// The precedence of Envoy's trie, stated naively: among the templates that
/// match, the one whose segments are smallest in the order literal, `*`,
/// `**` (a template ending before another being smaller), then an exact
/// method before `*`.
fn model<'m>(routes: &'m [(&'m str, PathTemplate)], method: &str, path: &str) -> Expect<'m> {
    let verbs: Vec<&str> = routes.iter().filter_map(|(_, t)| t.verb()).collect();
    let Some((parts, verb)) = split(path, &verbs) else {
        return Expect::NotFound;
    };
    let matching: Vec<usize> = (0..routes.len())
        .filter(|&i| routes[i].1.verb() == verb && matches(&routes[i].1, &parts))
        .collect();
    let rank = |&i: &usize| {
        let kinds: Vec<u8> = routes[i].1.segments().iter().map(kind).collect();
        (kinds, routes[i].0 != method)
    };
    let found = matching
        .iter()
        .copied()
        .filter(|&i| routes[i].0 == method || routes[i].0 == "*")
        .min_by_key(rank);
    match found {
        Some(i) => Expect::Found(i),
        None if matching.is_empty() => Expect::NotFound,
        None => {
            let mut allowed: Vec<&str> = matching.iter().map(|&i| routes[i].0).collect();
            allowed.sort_unstable();
            allowed.dedup();
            Expect::NotAllowed(allowed)
        }
    }
}

/// A template of `a`, `b`, `*`, `**` and variables, with or without the
/// verb `v`.
fn small_template() -> impl Strategy<Value = String> {
    let segment = select(&["a", "b", "*", "{x#}", "{y#=a/*}"][..]);
    let tail = select(&["", "/**", "/{z=**}"][..]);
    let verb = select(&["", ":v"][..]);
    (prop::collection::vec(segment, 0..4), tail, verb).prop_map(|(segments, tail, verb)| {
        let numbered: Vec<String> = (0..segments.len())
            .map(|i| segments[i].replace('#', &i.to_string()))
            .collect();
        let text = format!("/{}{tail}", numbered.join("/"));
        match text.as_str() {
            "/" => text,
            _ => format!("{}{verb}", text.replace("//", "/")),
        }
    })
}

/// A path of the small templates' literals, empty segments, trailing
/// slashes, verbs and escapes.
fn small_path() -> impl Strategy<Value = String> {
    let segment = select(&["a", "b", "c", "", "a:v", "%61"][..]);
    let end = select(&["", "/", ":v", ":w", "/:v", "//"][..]);
    (prop::collection::vec(segment, 0..6), end)
        .prop_map(|(segments, end)| format!("/{}{end}", segments.join("/")))
}

const METHODS: [&str; 4] = ["GET", "POST", "PUT", "*"];

proptest! {
    #[test]
    fn matcher_agrees_with_the_model(
        routes in prop::collection::vec((select(&METHODS[..]), small_template()), 0..10),
        paths in prop::collection::vec((select(&METHODS[..3]), small_path()), 1..10),
    ) {
        let mut m = PathMatcher::new();
        let mut accepted = Vec::new();
        for (method, text) in routes {
            let template = PathTemplate::parse(&text).unwrap();
            if m.insert(method, template.clone(), accepted.len()).is_ok() {
                accepted.push((method, template));
            }
        }
        for (method, path) in paths {
            let got = Expect::of(m.lookup(method, &path));
            prop_assert_eq!(got, model(&accepted, method, &path), "{} {}", method, path);
        }
    }

    #[test]
    fn random_paths_never_panic(path in "[/a-c:%0-9A-Fé\\x00]{0,40}", method in "[A-Z*]{0,4}") {
        let mut m = PathMatcher::new();
        for (i, text) in [
            "/", "/a", "/a/{x}", "/a/{x=b/*}:c", "/{x=**}", "/b/*/{y=**}:c", "/{p.q}/a",
        ]
        .into_iter()
        .enumerate()
        {
            m.insert(if i % 2 == 0 { "GET" } else { "*" }, PathTemplate::parse(text).unwrap(), i)
                .unwrap();
        }
        m.insert("PUT", PathTemplate::parse("/c/{x}").unwrap(), 9).unwrap();
        if let Lookup::MethodNotAllowed { allowed } = m.lookup(&method, &path) {
            prop_assert!(!allowed.is_empty());
            for other in allowed {
                let found = matches!(m.lookup(other, &path), Lookup::Found { .. });
                prop_assert!(found);
            }
        }
    }

    #[test]
    fn random_templates_never_panic(text in "[/{}=*.:%a1_é ]{0,16}") {
        match PathTemplate::parse(&text) {
            Ok(t) => prop_assert_eq!(PathTemplate::parse(&t.to_string()), Ok(t)),
            Err(e) => {
                let prefix = format!("`{}` at byte {}: ", text, e.offset());
                prop_assert!(e.to_string().starts_with(&prefix));
            }
        }
    }
}

fn kind(segment: &Segment) -> u8 {
    match segment {
        Segment::Literal(_) => 0,
        Segment::Wildcard => 1,
        Segment::DoubleWildcard => 2,
    }
}

/// Envoy's split of a path: the verb, then the segments without the
/// trailing empty ones.
fn split<'p>(path: &'p str, verbs: &[&str]) -> Option<(Vec<&'p str>, Option<&'p str>)> {
    let mut path = path.strip_prefix('/')?;
    let mut verb = None;
    let last = path.rsplit('/').next().unwrap();
    if let Some((_, v)) = last.rsplit_once(':') {
        if verbs.contains(&v) {
            verb = Some(v);
            path = &path[..path.len() - v.len() - 1];
        }
    }
    let mut parts: Vec<&str> = path.split('/').collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    Some((parts, verb))
}

fn matches(template: &PathTemplate, parts: &[&str]) -> bool {
    let segments = template.segments();
    if segments.last() == Some(&Segment::DoubleWildcard) {
        let fixed = &segments[..segments.len() - 1];
        return parts.len() >= fixed.len() && matches_fixed(fixed, &parts[..fixed.len()]);
    }
    segments.len() == parts.len() && matches_fixed(segments, parts)
}

fn matches_fixed(segments: &[Segment], parts: &[&str]) -> bool {
    segments.iter().zip(parts).all(|(s, p)| match s {
        Segment::Literal(l) => l == p,
        _ => true,
    })
}
