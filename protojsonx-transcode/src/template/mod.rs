//! Path templates of `google.api.http` rules: parsing and matching.
//!
//! # Grammar
//!
//! ```text
//! Template  = "/" | "/" Segments [ Verb ] ;
//! Segments  = Segment { "/" Segment } ;
//! Segment   = "*" | "**" | LITERAL | Variable ;
//! Variable  = "{" FieldPath [ "=" Segments ] "}" ;
//! FieldPath = IDENT { "." IDENT } ;
//! Verb      = ":" LITERAL ;
//! ```
//!
//! `{name}` means `{name=*}`. `**` may only be the last segment (a verb may
//! follow it), variables do not nest, and a field path is bound at most once.
//! An IDENT is a protobuf field name (a letter or `_`, then letters, digits
//! or `_`); a LITERAL is one or more of RFC 3986's path characters but `:`,
//! `*` and `/`, percent-escapes (`%2F`) included. The root template `/`
//! matches the empty path, as in Envoy's transcoder.
//!
//! # Matching
//!
//! A request path (without its query string, still percent-encoded) is
//! split as Envoy's `grpc-httpjson-transcoding` splits it. If the text after
//! the last `:` of the last segment is the verb of some registered template,
//! it is the request's verb and is cut off; otherwise the `:` stays part of
//! the segment (so `/v1/a:b` binds `a:b` to `/v1/{name}` unless some template
//! has the verb `b`). Trailing slashes are then dropped (`/v1/shelves/` is
//! `/v1/shelves`), while empty segments inside the path are kept and match
//! `*` (`/v1//books` has an empty second segment). A path that does not start
//! with `/` matches nothing.
//!
//! The most specific template wins, segment by segment from the left: a
//! literal beats `*`, which beats `**`. When the more specific branch fails
//! further on, the next one is tried, so `/v1/shelves/{shelf}/books` and
//! `/v1/{name=**}` both stay reachable. `**` matches zero or more segments.
//! A template matches only requests with its verb and its HTTP method. The
//! method `*` stands for any method; on templates of the same shape an exact
//! method is preferred to it, but a more specific template for `*` beats a
//! less specific one for the exact method, since precedence is by segments
//! first. When templates match the path but none with the request's method,
//! the lookup answers "method not allowed" with the methods that would
//! match, for an `Allow` header.
//!
//! Lookups take time linear in the path for a given set of templates: the
//! verb is cut off once, each node of the template trie is visited at most
//! once, a `**` takes the rest of the path in one step, and the recursion is
//! no deeper than the longest template.
//!
//! # Decoding
//!
//! Literals are compared with the raw request segment, byte for byte:
//! `%73helves` is not `shelves`. A variable's value is percent-decoded: fully
//! when it covers a single segment (`%2F` becomes `/`); when it covers
//! several segments or ends with `**` (`{name=shelves/*}`, `{path=**}`),
//! everything is decoded but the RFC 6570 reserved characters
//! (`!#$&'()*+,/:;=?@[]`), whose escapes stay as they are, so that `%2F` is
//! not mistaken for a segment separator. A `%` that does not start a
//! two-hex-digit escape (`%zz`, a final `%2`) is kept as it is, and `+` is
//! not a space. Values are bytes: an escape may decode to bytes that are not
//! UTF-8, which a caller setting a string field rejects.
//!
//! # Differences from Envoy
//!
//! Envoy accepts literals after `**` (`/a/**/b`) and identifiers of any
//! characters; here, as in `google/api/http.proto`, `**` ends the segments
//! and field names are protobuf identifiers. Envoy answers a path that only
//! other methods match as not found, and lets a duplicate template silently
//! replace or shadow the first; here the first is a 405 with the allowed
//! methods and the second is refused. Envoy strips a query string from the
//! path it is given; here the caller passes the path without it.

mod decode;
mod matcher;
mod parse;

pub use matcher::{Binding, InsertError, Lookup, PathMatcher};
pub use parse::{PathTemplate, Segment, TemplateError, Variable};

#[cfg(test)]
mod matcher_tests;
#[cfg(test)]
mod parse_tests;
#[cfg(test)]
mod proptests;
