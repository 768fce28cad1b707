//! Matching request paths against a set of templates.

use std::borrow::Cow;
use std::collections::HashSet;
use std::convert::Infallible;
use std::fmt;
use std::ops::ControlFlow;
use std::str::Utf8Error;

use super::decode::{Keep, decode};
use super::parse::{PathTemplate, Segment, Variable};

/// Routes HTTP requests, by method and path, to the values registered with
/// `google.api.http` templates; the module documentation gives the rules.
///
/// It is built once with [`insert`](Self::insert) and then only read, so
/// it can be shared between threads for the lookups.
///
/// ```
/// use protojsonx_transcode::template::{Lookup, PathMatcher, PathTemplate};
///
/// let mut routes = PathMatcher::new();
/// let get_book = PathTemplate::parse("/v1/{name=shelves/*/books/*}")?;
/// routes.insert("GET", get_book, "GetBook")?;
/// let Lookup::Found { value, bindings } = routes.lookup("GET", "/v1/shelves/1/books/a%20b")
/// else {
///     unreachable!()
/// };
/// assert_eq!(*value, "GetBook");
/// assert_eq!(bindings[0].field_path, ["name"]);
/// assert_eq!(bindings[0].value_str(), Ok("shelves/1/books/a b"));
/// assert_eq!(
///     routes.lookup("DELETE", "/v1/shelves/1/books/2"),
///     Lookup::MethodNotAllowed { allowed: vec!["GET"] }
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PathMatcher<T> {
    root: Node,
    routes: Vec<Route<T>>,
    /// The verbs of all templates: a request's verb is cut off its path
    /// only when it is one of them.
    verbs: HashSet<String>,
}

struct Route<T> {
    method: String,
    template: PathTemplate,
    value: T,
}

/// A node of the template trie, reached by the segments before it.
#[derive(Default)]
struct Node {
    /// Children by literal, sorted for binary search.
    literals: Vec<(Box<str>, Node)>,
    wildcard: Option<Box<Node>>,
    /// The routes whose template ends here.
    ends: Vec<usize>,
    /// The routes whose template ends here with a `**`.
    rest: Vec<usize>,
}

/// The answer of [`PathMatcher::lookup`].
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup<'a, T> {
    /// A template matches the path for the request's method.
    Found {
        /// The value registered with the template.
        value: &'a T,
        /// The template's variables with their values, in template order.
        bindings: Vec<Binding<'a>>,
    },
    /// Templates match the path, but none for the request's method.
    MethodNotAllowed {
        /// The methods that would match, sorted and without duplicates,
        /// for the `Allow` header of a 405 answer.
        allowed: Vec<&'a str>,
    },
    /// No template matches the path.
    NotFound,
}

/// A variable of the matched template and its value in the request path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding<'a> {
    /// The path of the request field the variable sets.
    pub field_path: &'a [String],
    /// The percent-decoded value (see the module documentation), borrowed
    /// from the path when it has no escapes. Escapes can make bytes that
    /// are not UTF-8, hence bytes rather than a string.
    pub value: Cow<'a, [u8]>,
}

impl Binding<'_> {
    /// The value as text, or why it is not UTF-8 (a request to answer with
    /// 400 when the field is a string).
    pub fn value_str(&self) -> Result<&str, Utf8Error> {
        std::str::from_utf8(&self.value)
    }
}

/// Why [`PathMatcher::insert`] refused a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertError {
    /// The method is not an HTTP method name (an RFC 9110 token).
    InvalidMethod(String),
    /// The same method already has a template of the same shape (the same
    /// segments and verb, whatever its variables), which would make one of
    /// them unreachable.
    Duplicate {
        /// The method of both templates.
        method: String,
        /// The template registered first, in canonical text.
        existing: String,
        /// The template refused, in canonical text.
        new: String,
    },
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InsertError::InvalidMethod(method) => write!(
                f,
                "`{method}` is not an HTTP method name (a token such as GET or LIST, or `*`)"
            ),
            InsertError::Duplicate {
                method,
                existing,
                new,
            } => write!(
                f,
                "{method} `{new}` matches the same paths as {method} `{existing}`"
            ),
        }
    }
}

impl std::error::Error for InsertError {}

impl<T> fmt::Debug for PathMatcher<T> {
    /// Lists the routes as `METHOD /template`, in insertion order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let routes = self.routes.iter();
        let routes = routes.map(|route| format!("{} {}", route.method, route.template));
        f.debug_list().entries(routes).finish()
    }
}

impl<T> Default for PathMatcher<T> {
    fn default() -> Self {
        PathMatcher {
            root: Node::default(),
            routes: Vec::new(),
            verbs: HashSet::new(),
        }
    }
}

impl<T> PathMatcher<T> {
    /// A matcher with no templates, which finds nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `value` for requests with `method` whose path matches
    /// `template`.
    ///
    /// `method` is an HTTP method name, case-sensitive: GET, PUT, POST,
    /// DELETE, PATCH or a custom one (HEAD, OPTIONS, LIST...); `*` matches
    /// any method, as a custom rule of kind `*` does. A template of the same
    /// shape as one already registered for the same method is refused.
    pub fn insert(
        &mut self,
        method: &str,
        template: PathTemplate,
        value: T,
    ) -> Result<(), InsertError> {
        if !is_token(method) {
            return Err(InsertError::InvalidMethod(method.to_owned()));
        }
        let list = self.root.terminal(&template);
        let same = |&&i: &&usize| {
            let route: &Route<T> = &self.routes[i];
            route.method == method && route.template.verb() == template.verb()
        };
        if let Some(&existing) = list.iter().find(same) {
            return Err(InsertError::Duplicate {
                method: method.to_owned(),
                existing: self.routes[existing].template.to_string(),
                new: template.to_string(),
            });
        }
        list.push(self.routes.len());
        if let Some(verb) = template.verb() {
            self.verbs.insert(verb.to_owned());
        }
        self.routes.push(Route {
            method: method.to_owned(),
            template,
            value,
        });
        Ok(())
    }

    /// Finds the template for a request: `method` is its HTTP method and
    /// `path` its raw path, without the query string, still percent-encoded.
    pub fn lookup<'a>(&'a self, method: &str, path: &'a str) -> Lookup<'a, T> {
        let Some(request) = Request::split(path, &self.verbs) else {
            return Lookup::NotFound;
        };
        match self.find(method, &request) {
            Some(route) => Lookup::Found {
                value: &route.value,
                bindings: bindings(&route.template, request.body),
            },
            None => self.not_allowed(&request),
        }
    }

    /// The most specific route for the method, exact methods before `*`.
    fn find(&self, method: &str, request: &Request<'_>) -> Option<&Route<T>> {
        let mut pick = |list: &[usize]| {
            let route = self
                .with_verb(list, request.verb)
                .find(|route| route.method == method)
                .or_else(|| {
                    let mut any = self.with_verb(list, request.verb);
                    any.find(|route| route.method == "*")
                });
            match route {
                Some(route) => ControlFlow::Break(route),
                None => ControlFlow::Continue(()),
            }
        };
        self.root.visit(request.segments(), &mut pick).break_value()
    }

    /// 405 with the methods of every route matching the path, or 404.
    fn not_allowed(&self, request: &Request<'_>) -> Lookup<'_, T> {
        let mut allowed = Vec::new();
        let mut collect = |list: &[usize]| {
            let routes = self.with_verb(list, request.verb);
            allowed.extend(routes.map(|route| route.method.as_str()));
            ControlFlow::<Infallible>::Continue(())
        };
        let ControlFlow::Continue(()) = self.root.visit(request.segments(), &mut collect);
        if allowed.is_empty() {
            return Lookup::NotFound;
        }
        allowed.sort_unstable();
        allowed.dedup();
        Lookup::MethodNotAllowed { allowed }
    }

    /// The routes of `list` whose template has the request's verb.
    fn with_verb<'a: 'l, 'l>(
        &'a self,
        list: &'l [usize],
        verb: Option<&'l str>,
    ) -> impl Iterator<Item = &'a Route<T>> + 'l {
        let routes = list.iter().map(|&i| &self.routes[i]);
        routes.filter(move |route| route.template.verb() == verb)
    }
}

impl Node {
    /// The list of routes for `template`'s shape, creating the nodes.
    fn terminal(&mut self, template: &PathTemplate) -> &mut Vec<usize> {
        let mut node = self;
        for segment in template.segments() {
            node = match segment {
                Segment::Literal(text) => node.literal_mut(text),
                Segment::Wildcard => node.wildcard.get_or_insert_default(),
                Segment::DoubleWildcard => return &mut node.rest,
            };
        }
        &mut node.ends
    }

    fn literal_mut(&mut self, text: &str) -> &mut Node {
        let i = match self.literals.binary_search_by(|(key, _)| (**key).cmp(text)) {
            Ok(i) => i,
            Err(i) => {
                self.literals.insert(i, (text.into(), Node::default()));
                i
            }
        };
        &mut self.literals[i].1
    }

    fn literal(&self, segment: &str) -> Option<&Node> {
        let i = self
            .literals
            .binary_search_by(|(key, _)| (**key).cmp(segment))
            .ok()?;
        Some(&self.literals[i].1)
    }

    /// Offers `f` the route lists matching `segments`, most specific first,
    /// until it breaks. `segments` is `None` when no segment is left, else
    /// the rest of the path (`a/b`); the recursion depth is bounded by the
    /// trie's, and each node is visited at most once.
    fn visit<B>(
        &self,
        segments: Option<&str>,
        f: &mut impl FnMut(&[usize]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let Some(segments) = segments else {
            f(&self.ends)?;
            return f(&self.rest);
        };
        let (segment, tail) = match slash(segments) {
            Some(at) => (&segments[..at], Some(&segments[at + 1..])),
            None => (segments, None),
        };
        if let Some(child) = self.literal(segment) {
            child.visit(tail, f)?;
        }
        if let Some(child) = &self.wildcard {
            child.visit(tail, f)?;
        }
        f(&self.rest)
    }
}

/// A request path split as Envoy splits it.
struct Request<'p> {
    /// The path without its leading `/`, its verb and trailing slashes.
    body: &'p str,
    verb: Option<&'p str>,
}

impl<'p> Request<'p> {
    /// Cuts off the verb (the text after the last `:` of the last segment,
    /// when some template has it), then the trailing slashes; `None` for a
    /// path not starting with `/`.
    fn split(path: &'p str, verbs: &HashSet<String>) -> Option<Self> {
        let mut rest = path.strip_prefix('/')?;
        let mut verb = None;
        let last = rest.rfind('/').map_or(0, |i| i + 1);
        if let Some(colon) = rest[last..].rfind(':') {
            let colon = last + colon;
            if verbs.contains(&rest[colon + 1..]) {
                verb = Some(&rest[colon + 1..]);
                rest = &rest[..colon];
            }
        }
        Some(Request {
            body: rest.trim_end_matches('/'),
            verb,
        })
    }

    fn segments(&self) -> Option<&'p str> {
        Some(self.body).filter(|body| !body.is_empty())
    }
}

/// The template's variables with their decoded values in `body`.
fn bindings<'a>(template: &'a PathTemplate, body: &'a str) -> Vec<Binding<'a>> {
    let mut cursor = Cursor {
        body,
        index: 0,
        offset: 0,
    };
    let variables = template.variables().iter();
    variables
        .map(|var| {
            let rest = ends_with_rest(template, var);
            let start = cursor.seek(var.segments.start).min(body.len());
            let end = match rest {
                true => body.len(),
                false => cursor.seek(var.segments.end) - 1,
            };
            let keep = match rest || var.segments.len() > 1 {
                true => Keep::Reserved,
                false => Keep::Nothing,
            };
            Binding {
                field_path: &var.field_path,
                value: decode(&body[start..end], keep),
            }
        })
        .collect()
}

fn ends_with_rest(template: &PathTemplate, var: &Variable) -> bool {
    template.segments()[var.segments.end - 1] == Segment::DoubleWildcard
}

/// Walks the segments of a path forward, once for all the variables.
struct Cursor<'p> {
    body: &'p str,
    index: usize,
    /// Where segment `index` starts; past the end (`body.len() + 1`) when
    /// there is no such segment.
    offset: usize,
}

impl Cursor<'_> {
    /// The byte offset where segment `index` starts (`index` never goes
    /// back); one past the end of the body for the segment after the last.
    fn seek(&mut self, index: usize) -> usize {
        while self.index < index {
            let next = self.body.get(self.offset..).and_then(slash);
            self.offset = match next {
                Some(slash) => self.offset + slash + 1,
                None => self.body.len() + 1,
            };
            self.index += 1;
        }
        self.offset
    }
}

/// Where the first `/` of `path` is: searched as a byte, as `/` is ASCII.
fn slash(path: &str) -> Option<usize> {
    path.bytes().position(|b| b == b'/')
}

/// An RFC 9110 token, as HTTP method names are.
fn is_token(method: &str) -> bool {
    !method.is_empty()
        && method
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
