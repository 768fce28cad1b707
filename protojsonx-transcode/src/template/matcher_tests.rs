use super::{InsertError, Lookup, PathMatcher, PathTemplate};

/// A matcher whose values are the templates' texts.
fn matcher(routes: &[(&str, &str)]) -> PathMatcher<String> {
    let mut m = PathMatcher::new();
    for &(method, template) in routes {
        let t = PathTemplate::parse(template).unwrap();
        m.insert(method, t, format!("{method} {template}")).unwrap();
    }
    m
}

fn get(routes: &[&str]) -> PathMatcher<String> {
    let routes: Vec<_> = routes.iter().map(|t| ("GET", *t)).collect();
    matcher(&routes)
}

/// The value found, or `None` for 404 or 405.
fn found<'m>(m: &'m PathMatcher<String>, method: &str, path: &'m str) -> Option<&'m str> {
    match m.lookup(method, path) {
        Lookup::Found { value, .. } => Some(value),
        _ => None,
    }
}

fn get_found<'m>(m: &'m PathMatcher<String>, path: &'m str) -> Option<&'m str> {
    found(m, "GET", path).map(|v| v.strip_prefix("GET ").unwrap())
}

/// The bindings found, as `field.path=value` with the value as text.
fn bindings(m: &PathMatcher<String>, method: &str, path: &str) -> Vec<String> {
    match m.lookup(method, path) {
        Lookup::Found { bindings, .. } => bindings
            .iter()
            .map(|b| {
                let value = String::from_utf8_lossy(&b.value);
                format!("{}={value}", b.field_path.join("."))
            })
            .collect(),
        other => panic!("{method} {path}: {other:?}"),
    }
}

#[test]
fn literal_beats_wildcard_beats_double_wildcard() {
    let m = get(&["/a/b", "/a/*", "/a/**"]);
    assert_eq!(get_found(&m, "/a/b"), Some("/a/b"));
    assert_eq!(get_found(&m, "/a/c"), Some("/a/*"));
    assert_eq!(get_found(&m, "/a/b/c"), Some("/a/**"));
    assert_eq!(get_found(&m, "/a"), Some("/a/**"));
    assert_eq!(get_found(&m, "/b"), None);
}

#[test]
fn backtracks_to_less_specific_branches() {
    let m = get(&[
        "/v1/shelves/{shelf}/books",
        "/v1/{name=**}",
        "/c/*/d/**",
        "/c/*/d/e",
        "/c/f/d/e",
        "/x/lit/y",
        "/x/*/z",
    ]);
    assert_eq!(
        get_found(&m, "/v1/shelves/1/books"),
        Some("/v1/shelves/{shelf}/books")
    );
    assert_eq!(get_found(&m, "/v1/shelves/1/other"), Some("/v1/{name=**}"));
    assert_eq!(get_found(&m, "/v1/shelves"), Some("/v1/{name=**}"));
    // From Envoy's tests: the more specific template wins where both match.
    assert_eq!(get_found(&m, "/c/x/d/e"), Some("/c/*/d/e"));
    assert_eq!(get_found(&m, "/c/f/d/e"), Some("/c/f/d/e"));
    assert_eq!(get_found(&m, "/c/f/d/g"), Some("/c/*/d/**"));
    assert_eq!(get_found(&m, "/c/u/d/v/w"), Some("/c/*/d/**"));
    assert_eq!(get_found(&m, "/c/x/y/d/z"), None);
    assert_eq!(get_found(&m, "/c//v/d/w/x"), None);
    // The literal branch matches `lit` but fails at `z`: `*` is tried.
    assert_eq!(get_found(&m, "/x/lit/z"), Some("/x/*/z"));
    assert_eq!(get_found(&m, "/x/lit/y"), Some("/x/lit/y"));
}

#[test]
fn backtracks_per_method() {
    let m = matcher(&[("POST", "/v1/foo"), ("GET", "/v1/{name}")]);
    assert_eq!(found(&m, "GET", "/v1/foo"), Some("GET /v1/{name}"));
    assert_eq!(found(&m, "POST", "/v1/foo"), Some("POST /v1/foo"));
    assert_eq!(
        m.lookup("POST", "/v1/bar"),
        Lookup::MethodNotAllowed {
            allowed: vec!["GET"]
        }
    );
}

#[test]
fn rejects_partial_and_overlong_matches() {
    let m = get(&["/prefix/middle/suffix", "/prefix/middle", "/prefix"]);
    assert_eq!(
        get_found(&m, "/prefix/middle/suffix"),
        Some("/prefix/middle/suffix")
    );
    assert_eq!(get_found(&m, "/prefix/middle"), Some("/prefix/middle"));
    assert_eq!(get_found(&m, "/prefix"), Some("/prefix"));
    for path in [
        "/prefix/middle/suffix/other",
        "/prefix/middle/other",
        "/prefix/other",
        "/other",
        "/",
        "",
        "prefix",
    ] {
        assert_eq!(m.lookup("GET", path), Lookup::NotFound, "{path}");
    }
}

#[test]
fn root_template() {
    let m = get(&["/"]);
    assert_eq!(get_found(&m, "/"), Some("/"));
    assert_eq!(get_found(&m, "//"), Some("/"));
    assert_eq!(get_found(&m, "/a"), None);
    assert_eq!(get_found(&m, ""), None);

    // `**` matches zero segments, the root included.
    let m = get(&["/**"]);
    assert_eq!(get_found(&m, "/"), Some("/**"));
    assert_eq!(get_found(&m, "/a"), Some("/**"));
    assert_eq!(get_found(&m, "/a/"), Some("/**"));
}

#[test]
fn trailing_and_empty_segments() {
    let m = get(&["/v1/shelves", "/v1/{a}/{b}", "/w/{x=**}"]);
    assert_eq!(get_found(&m, "/v1/shelves/"), Some("/v1/shelves"));
    assert_eq!(get_found(&m, "/v1/shelves///"), Some("/v1/shelves"));
    // Empty segments inside the path are segments, which `*` matches.
    assert_eq!(get_found(&m, "/v1//shelves"), Some("/v1/{a}/{b}"));
    assert_eq!(bindings(&m, "GET", "/v1//shelves"), ["a=", "b=shelves"]);
    assert_eq!(get_found(&m, "//v1/shelves"), None);
    assert_eq!(bindings(&m, "GET", "/w/a//b/"), ["x=a//b"]);
}

#[test]
fn double_wildcard_matches_zero_or_more_segments() {
    let m = get(&["/a/{x=**}", "/b/{x=c/**}", "/d/{y}/{x=**}:v"]);
    assert_eq!(bindings(&m, "GET", "/a"), ["x="]);
    assert_eq!(bindings(&m, "GET", "/a/"), ["x="]);
    assert_eq!(bindings(&m, "GET", "/a/b"), ["x=b"]);
    assert_eq!(bindings(&m, "GET", "/a/b/c/d"), ["x=b/c/d"]);
    assert_eq!(bindings(&m, "GET", "/b/c"), ["x=c"]);
    assert_eq!(bindings(&m, "GET", "/b/c/d/e"), ["x=c/d/e"]);
    assert_eq!(get_found(&m, "/b"), None);
    assert_eq!(bindings(&m, "GET", "/d/1:v"), ["y=1", "x="]);
    assert_eq!(bindings(&m, "GET", "/d/1/2/3:v"), ["y=1", "x=2/3"]);
}

#[test]
fn verbs() {
    let m = get(&[
        "/some/const:verb",
        "/some/*:verb",
        "/some/*/foo:verb",
        "/other/**:verb",
        "/v1/{name}",
    ]);
    assert_eq!(get_found(&m, "/some/const:verb"), Some("/some/const:verb"));
    assert_eq!(get_found(&m, "/some/other:verb"), Some("/some/*:verb"));
    assert_eq!(
        get_found(&m, "/some/bar/foo:verb"),
        Some("/some/*/foo:verb")
    );
    assert_eq!(get_found(&m, "/other/bar/foo:verb"), Some("/other/**:verb"));
    assert_eq!(get_found(&m, "/some/foo1/foo2/foo:verb"), None);
    // A `:` before the last `/` is no verb.
    assert_eq!(get_found(&m, "/some/other:verb/"), None);
    // Without its verb, a template does not match.
    assert_eq!(get_found(&m, "/some/const"), None);
    // An unregistered verb stays part of the segment...
    assert_eq!(bindings(&m, "GET", "/v1/a:other"), ["name=a:other"]);
    // ...but a registered one is cut off, even for a template without it.
    assert_eq!(get_found(&m, "/v1/a:verb"), None);
    // An escaped `:` is no verb separator.
    assert_eq!(bindings(&m, "GET", "/v1/a%3Averb"), ["name=a:verb"]);
}

#[test]
fn verbs_from_envoy_tests() {
    let m = get(&["/person", "/person/{id=*}", "/{x=**}:verb"]);
    assert_eq!(bindings(&m, "GET", "/person:verb"), ["x=person"]);
    assert_eq!(
        bindings(&m, "GET", "/person/jason:verb"),
        ["x=person/jason"]
    );
    assert_eq!(get_found(&m, "/person"), Some("/person"));
    assert_eq!(bindings(&m, "GET", "/person/jason"), ["id=jason"]);
    assert_eq!(get_found(&m, "/animal"), None);
    assert_eq!(get_found(&m, "/person:other"), None);
    assert_eq!(
        bindings(&m, "GET", "/person/jason:other"),
        ["id=jason:other"]
    );

    let m = get(&["/{a=*}/{b=*}:verb"]);
    assert_eq!(
        bindings(&m, "GET", "/some:verb/const:verb"),
        ["a=some:verb", "b=const"]
    );

    let m = get(&["/foo/*/hello"]);
    assert_eq!(get_found(&m, "/foo/other:verb/hello"), Some("/foo/*/hello"));

    let m = get(&["/{a=**}:verb", "/{a=**}"]);
    assert_eq!(
        bindings(&m, "GET", "/some:verb/const:verb"),
        ["a=some:verb/const"]
    );
    assert_eq!(
        bindings(&m, "GET", "/some:verb/const"),
        ["a=some:verb/const"]
    );
    assert_eq!(
        bindings(&m, "GET", "/some:verb2/const:verb2"),
        ["a=some:verb2/const:verb2"]
    );
    // Envoy cuts the verb before dropping trailing slashes.
    assert_eq!(bindings(&m, "GET", "/a/:verb"), ["a=a"]);
}

#[test]
fn not_found_and_method_not_allowed() {
    let m = matcher(&[
        ("GET", "/v1/{name}"),
        ("DELETE", "/v1/{name}"),
        ("PATCH", "/v1/{name=shelves/*}"),
        ("POST", "/v1/{name}:archive"),
        ("LIST", "/v1/**"),
        ("GET", "/v2/**"),
    ]);
    assert_eq!(found(&m, "DELETE", "/v1/x"), Some("DELETE /v1/{name}"));
    assert_eq!(
        m.lookup("PUT", "/v1/x"),
        Lookup::MethodNotAllowed {
            allowed: vec!["DELETE", "GET", "LIST"]
        }
    );
    assert_eq!(
        m.lookup("PUT", "/v1/shelves/1"),
        Lookup::MethodNotAllowed {
            allowed: vec!["LIST", "PATCH"]
        }
    );
    assert_eq!(
        m.lookup("GET", "/v1/x:archive"),
        Lookup::MethodNotAllowed {
            allowed: vec!["POST"]
        }
    );
    // Methods are case-sensitive.
    assert_eq!(
        m.lookup("get", "/v2/a"),
        Lookup::MethodNotAllowed {
            allowed: vec!["GET"]
        }
    );
    assert_eq!(m.lookup("GET", "/v3"), Lookup::NotFound);
    assert_eq!(m.lookup("GET", "/v2/a:archive"), Lookup::NotFound);
}

#[test]
fn any_method() {
    let m = matcher(&[
        ("*", "/v1/{name}"),
        ("GET", "/v1/{name}"),
        ("HEAD", "/v1/a"),
    ]);
    assert_eq!(found(&m, "GET", "/v1/a"), Some("GET /v1/{name}"));
    assert_eq!(found(&m, "POST", "/v1/a"), Some("* /v1/{name}"));
    assert_eq!(found(&m, "HEAD", "/v1/a"), Some("HEAD /v1/a"));
    assert_eq!(found(&m, "OPTIONS", "/v1/b"), Some("* /v1/{name}"));

    // Precedence goes by segments first: a literal for any method beats a
    // wildcard for the exact one.
    let m = matcher(&[("GET", "/v1/{name}"), ("*", "/v1/a")]);
    assert_eq!(found(&m, "GET", "/v1/a"), Some("* /v1/a"));
    assert_eq!(found(&m, "GET", "/v1/b"), Some("GET /v1/{name}"));
    assert_eq!(found(&m, "PUT", "/v1/a"), Some("* /v1/a"));
    assert_eq!(
        m.lookup("PUT", "/v1/b"),
        Lookup::MethodNotAllowed {
            allowed: vec!["GET"]
        }
    );
}

#[test]
fn debug_lists_the_routes() {
    let m = matcher(&[("GET", "/v1/{name=*}"), ("*", "/")]);
    assert_eq!(format!("{m:?}"), r#"["GET /v1/{name}", "* /"]"#);
}

#[test]
fn escapes_in_single_segment_variables() {
    let m = get(&["/a/{x}/c", "/{y}"]);
    assert_eq!(bindings(&m, "GET", "/a/p%20q%2Fr+/c"), ["x=p q/r+"]);
    assert_eq!(
        bindings(
            &m,
            "GET",
            "/a/%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D/c"
        ),
        ["x=!#$&'()*+,/:;=?@[]"]
    );
    assert_eq!(bindings(&m, "GET", "/a/%C3%A9t%c3%a9/c"), ["x=été"]);
    // Invalid escapes are kept as they are.
    assert_eq!(bindings(&m, "GET", "/a/%zz%2/c"), ["x=%zz%2"]);
    assert_eq!(bindings(&m, "GET", "/a/%/c"), ["x=%"]);
    for c in 0u8..0x80 {
        for path in [format!("/%{c:02X}"), format!("/%{c:02x}")] {
            match m.lookup("GET", &path) {
                Lookup::Found { bindings, .. } => assert_eq!(*bindings[0].value, [c]),
                other => panic!("{path}: {other:?}"),
            }
        }
    }
}

#[test]
fn escapes_in_multi_segment_variables() {
    let m = get(&["/a/{x=p/*/q/*}/c", "/b/{x=**}"]);
    assert_eq!(
        bindings(&m, "GET", "/a/p/foo%20foo/q/bar%2Fbar/c"),
        ["x=p/foo foo/q/bar%2Fbar"]
    );
    let reserved = "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D";
    assert_eq!(
        bindings(&m, "GET", &format!("/b/{reserved}")),
        [format!("x={reserved}")]
    );
    assert_eq!(
        bindings(&m, "GET", "/b/p/foo%20foo/q/bar%2fbar+%25%zz"),
        ["x=p/foo foo/q/bar%2fbar+%%zz"]
    );
    // `**` over a single segment is still several segments for decoding.
    assert_eq!(bindings(&m, "GET", "/b/%2F%20"), ["x=%2F "]);
}

#[test]
fn literals_are_compared_raw() {
    let m = get(&["/shelves", "/a%20b"]);
    assert_eq!(get_found(&m, "/shelves"), Some("/shelves"));
    assert_eq!(get_found(&m, "/%73helves"), None);
    assert_eq!(get_found(&m, "/a%20b"), Some("/a%20b"));
    assert_eq!(get_found(&m, "/a%20B"), None);
}

#[test]
fn values_that_are_not_utf8() {
    let m = get(&["/{x}"]);
    match m.lookup("GET", "/%FF%C3") {
        Lookup::Found { bindings, .. } => {
            assert_eq!(*bindings[0].value, *b"\xff\xc3");
            assert!(bindings[0].value_str().is_err());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bindings_in_template_order() {
    let m = get(&[
        "/a/{x}/c/d/e",
        "/{x=a/*}/b/{y=*}/c",
        "/a/{y=*}/b/{x=**}",
        "/alpha/{x=*}/beta/{y=**}",
        "/c/{x}/d/{y=*/*}/e",
        "/f/{x}/{y}/{z=**}:v",
    ]);
    assert_eq!(bindings(&m, "GET", "/a/book/c/d/e"), ["x=book"]);
    assert_eq!(
        bindings(&m, "GET", "/a/hello/b/world/c"),
        ["x=a/hello", "y=world"]
    );
    assert_eq!(
        bindings(&m, "GET", "/a/b/b/zoo/d/animal"),
        ["y=b", "x=zoo/d/animal"]
    );
    assert_eq!(
        bindings(&m, "GET", "/alpha/dog/beta/eat/bones"),
        ["x=dog", "y=eat/bones"]
    );
    assert_eq!(
        bindings(&m, "GET", "/c/hello/d/esp/world/e"),
        ["x=hello", "y=esp/world"]
    );
    assert_eq!(bindings(&m, "GET", "/f/1/2/3/4:v"), ["x=1", "y=2", "z=3/4"]);
    let m = get(&["/v1/{shelf.theme.name}/{b_1.c}"]);
    match m.lookup("GET", "/v1/red/x") {
        Lookup::Found { bindings, .. } => {
            assert_eq!(bindings[0].field_path, ["shelf", "theme", "name"]);
            assert_eq!(bindings[0].value_str(), Ok("red"));
            assert_eq!(bindings[1].field_path, ["b_1", "c"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn duplicates_are_refused() {
    let mut m = matcher(&[("GET", "/v1/{a}"), ("GET", "/v1/x:verb"), ("*", "/w")]);
    let duplicate = |m: &mut PathMatcher<String>, method: &str, template: &str| {
        let t = PathTemplate::parse(template).unwrap();
        m.insert(method, t, String::new()).unwrap_err()
    };
    assert_eq!(
        duplicate(&mut m, "GET", "/v1/{b=*}"),
        InsertError::Duplicate {
            method: "GET".into(),
            existing: "/v1/{a}".into(),
            new: "/v1/{b}".into(),
        }
    );
    assert_eq!(
        duplicate(&mut m, "GET", "/v1/*").to_string(),
        "GET `/v1/*` matches the same paths as GET `/v1/{a}`"
    );
    assert_eq!(
        duplicate(&mut m, "GET", "/{x=v1/x}:verb").to_string(),
        "GET `/{x=v1/x}:verb` matches the same paths as GET `/v1/x:verb`"
    );
    assert_eq!(
        duplicate(&mut m, "*", "/w").to_string(),
        "* `/w` matches the same paths as * `/w`"
    );
    // Other methods, verbs or shapes are no duplicates.
    for (method, template) in [
        ("POST", "/v1/{a}"),
        ("GET", "/v1/{a}:verb"),
        ("GET", "/v1/x"),
        ("GET", "/v1/**"),
        ("GET", "/w"),
    ] {
        let t = PathTemplate::parse(template).unwrap();
        m.insert(method, t, String::new()).unwrap();
    }
    // The first registration still answers.
    assert_eq!(found(&m, "GET", "/v1/y"), Some("GET /v1/{a}"));
}

#[test]
fn invalid_methods_are_refused() {
    let mut m = PathMatcher::new();
    for method in ["", "GE T", "GET\n", "GÉT", "a/b"] {
        let t = PathTemplate::parse("/").unwrap();
        let e = m.insert(method, t, ()).unwrap_err();
        assert_eq!(e, InsertError::InvalidMethod(method.to_owned()));
    }
    let e = m
        .insert("", PathTemplate::parse("/").unwrap(), ())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`` is not an HTTP method name (a token such as GET or LIST, or `*`)"
    );
    assert_eq!(m.lookup("GET", "/"), Lookup::NotFound);
}

#[test]
fn empty_matcher() {
    let m: PathMatcher<()> = PathMatcher::default();
    assert_eq!(m.lookup("GET", "/"), Lookup::NotFound);
    assert_eq!(m.lookup("GET", "/a/b:c"), Lookup::NotFound);
}

#[test]
fn hostile_paths() {
    let m = get(&["/a/{x=**}:verb", "/a/*/b", "/{x}/{y}", "/a/**"]);
    let many = "/x".repeat(100_000);
    assert_eq!(
        get_found(&m, &format!("/a{many}:verb")),
        Some("/a/{x=**}:verb")
    );
    assert_eq!(get_found(&m, &format!("/a{many}")), Some("/a/**"));
    assert_eq!(get_found(&m, &format!("/b{many}")), None);
    let slashes = "/".repeat(100_000);
    assert_eq!(get_found(&m, &format!("/a{slashes}x")), Some("/a/**"));
    let colons = ":".repeat(100_000);
    assert_eq!(get_found(&m, &format!("/a/{colons}")), Some("/a/**"));
    assert_eq!(
        bindings(&m, "GET", &format!("/a/b{colons}verb")),
        [format!("x=b{}", &colons[1..])]
    );
}
