use super::*;

/// A request without path variables.
const NO_VARIABLES: &[(Vec<String>, String)] = &[];
use crate::schema::{EnumDefault, SchemaField};

fn field(name: &'static str, json_name: &'static str, kind: FieldKind) -> SchemaField {
    SchemaField {
        name: name.into(),
        json_name: json_name.into(),
        kind,
        cardinality: Cardinality::Singular,
    }
}

fn repeated(mut f: SchemaField) -> SchemaField {
    f.cardinality = Cardinality::Repeated;
    f
}

fn map(mut f: SchemaField) -> SchemaField {
    f.cardinality = Cardinality::Map;
    f
}

fn message(full_name: &'static str, fields: Vec<SchemaField>) -> SchemaMessage {
    SchemaMessage {
        full_name: full_name.into(),
        fields: fields.into(),
    }
}

const REQUEST: usize = 0;

/// A request with every kind of field, a list, a map, nested messages
/// and a recursive one.
fn schema() -> Schema {
    let color = || FieldKind::Enum {
        default: Some(EnumDefault {
            name: "COLOR_UNSPECIFIED".into(),
            number: 0,
        }),
    };
    Schema::new(vec![
        message(
            "test.Request",
            vec![
                field("name", "name", FieldKind::Text),
                field("page_size", "pageSize", FieldKind::Number),
                field("big", "big", FieldKind::Int64),
                field("flag", "flag", FieldKind::Bool),
                field("color", "color", color()),
                field("delay", "delay", FieldKind::WellKnown),
                repeated(field("tags", "tags", FieldKind::Text)),
                repeated(field("colors", "colors", color())),
                map(field("labels", "labels", FieldKind::Text)),
                field("shelf", "shelf", FieldKind::Message(1)),
                repeated(field("books", "books", FieldKind::Message(2))),
                field("node", "node", FieldKind::Message(3)),
                repeated(field("flags", "flags", FieldKind::Bool)),
                field("book", "book", FieldKind::Message(2)),
                repeated(field("page_tokens", "pageTokens", FieldKind::Text)),
            ],
        ),
        message(
            "test.Shelf",
            vec![
                field("name", "name", FieldKind::Text),
                field("theme", "theme", FieldKind::Text),
                field("book", "book", FieldKind::Message(2)),
            ],
        ),
        message(
            "test.Book",
            vec![
                field("name", "name", FieldKind::Text),
                field("shelf", "shelf", FieldKind::Text),
                field("page_count", "pageCount", FieldKind::Number),
            ],
        ),
        message(
            "test.Node",
            vec![
                field("value", "value", FieldKind::Text),
                field("child", "child", FieldKind::Message(3)),
                repeated(field("values", "values", FieldKind::Text)),
            ],
        ),
    ])
}

fn variables(vars: &[(&str, &str)]) -> Vec<(Vec<String>, String)> {
    vars.iter()
        .map(|(path, value)| {
            (
                path.split('.').map(str::to_owned).collect(),
                (*value).to_owned(),
            )
        })
        .collect()
}

fn build_with(
    vars: &[(&str, &str)],
    query: &str,
    body: &Body,
    unknown: UnknownParameters,
) -> Result<String, String> {
    Params::build(
        &schema(),
        REQUEST,
        &variables(vars),
        Some(query),
        body,
        unknown,
    )
    .map(|p| String::from_utf8(p.json().to_vec()).unwrap())
    .map_err(|e| e.to_string())
}

fn build(vars: &[(&str, &str)], query: &str) -> Result<String, String> {
    build_with(vars, query, &Body::None, UnknownParameters::Reject)
}

fn ok(query: &str) -> String {
    build(&[], query).unwrap()
}

fn err(query: &str) -> String {
    build(&[], query).unwrap_err()
}

/// Requests whose every value names a top-level field that is not a
/// message take the direct path, with the general builder's document;
/// others are left to the general builder.
#[test]
fn flat_requests_take_the_direct_path() {
    let schema = schema();
    let direct = |vars: &[(&str, &str)], query: &str| {
        let json = flat::document(
            schema.message(REQUEST),
            &variables(vars),
            Some(query),
            &Body::None,
        )?;
        Some(String::from_utf8(json).unwrap())
    };
    let taken = [
        (
            &[("name", "shelves/1")][..],
            "color=RED&tags=b&pageSize=3&tags=a&flag=true",
        ),
        (&[][..], "colors=2&delay=1.5s&big=-7&name=%22q%22+%C3%A9"),
        (&[("name", "n")][..], ""),
    ];
    for (vars, query) in taken {
        assert_eq!(
            direct(vars, query).as_deref(),
            Some(&*build(vars, query).unwrap()),
            "{query}"
        );
    }
    assert_eq!(
        direct(&[("name", "shelves/1")], "tags=b&color=1&tags=a").as_deref(),
        Some(r#"{"name":"shelves/1","color":1,"tags":["b","a"]}"#)
    );
    let left = [
        (&[][..], "shelf.name=x"),
        (&[][..], "unknown=1"),
        (&[][..], "labels=x"),
        (&[][..], "shelf=x"),
        (&[][..], "name=a&name=b"),
        (&[("name", "n")][..], "name=b"),
        (&[("shelf.name", "n")][..], ""),
        (&[][..], "name=%FF"),
        (
            &[][..],
            "tags=1&tags=2&tags=3&tags=4&tags=5&tags=6&tags=7&tags=8&tags=9",
        ),
    ];
    for (vars, query) in left {
        assert_eq!(direct(vars, query), None, "{query}");
    }
    let shelf = Body::Field("shelf".into());
    let taken = flat::document(
        schema.message(REQUEST),
        NO_VARIABLES,
        Some("shelf=x"),
        &shelf,
    );
    assert_eq!(taken, None);
    let taken = flat::document(
        schema.message(REQUEST),
        NO_VARIABLES,
        Some("name=x"),
        &Body::Whole,
    );
    assert_eq!(taken, None);
}

#[test]
fn each_kind_is_written_as_its_json() {
    assert_eq!(
        ok("name=a&page_size=10&big=-5&flag=true&color=RED&delay=1.5s"),
        r#"{"name":"a","pageSize":"10","big":"-5","flag":true,"color":"RED","delay":"1.5s"}"#
    );
    assert_eq!(
        ok("page_size=NaN&big=1e3&delay=2017-01-15T01:30:15Z"),
        r#"{"pageSize":"NaN","big":"1e3","delay":"2017-01-15T01:30:15Z"}"#
    );
}

#[test]
fn bools_are_bare_only_when_exactly_true_or_false() {
    assert_eq!(ok("flag=false"), r#"{"flag":false}"#);
    assert_eq!(ok("flag=True"), r#"{"flag":"True"}"#);
    assert_eq!(ok("flag=1"), r#"{"flag":"1"}"#);
    assert_eq!(ok("flag="), r#"{"flag":""}"#);
}

#[test]
fn enums_are_numbers_when_the_text_is_an_i32_else_names() {
    assert_eq!(ok("color=2"), r#"{"color":2}"#);
    assert_eq!(ok("color=-1"), r#"{"color":-1}"#);
    assert_eq!(ok("color=%2B3"), r#"{"color":3}"#);
    assert_eq!(ok("color=007"), r#"{"color":7}"#);
    assert_eq!(ok("color=2147483648"), r#"{"color":"2147483648"}"#);
    assert_eq!(ok("color=1.0"), r#"{"color":"1.0"}"#);
    assert_eq!(ok("color=BLUE"), r#"{"color":"BLUE"}"#);
}

#[test]
fn each_occurrence_of_a_repeated_field_adds_an_element() {
    assert_eq!(
        ok("tags=a&colors=1&tags=b&colors=BLUE&flags=false&flags=x"),
        r#"{"tags":["a","b"],"colors":[1,"BLUE"],"flags":[false,"x"]}"#
    );
    assert_eq!(ok("tags="), r#"{"tags":[""]}"#);
}

#[test]
fn names_are_proto_or_json_names_and_keys_are_json_names() {
    assert_eq!(ok("pageSize=1"), r#"{"pageSize":"1"}"#);
    assert_eq!(ok("page_size=1"), r#"{"pageSize":"1"}"#);
    assert_eq!(ok("book.pageCount=3"), r#"{"book":{"pageCount":"3"}}"#);
}

#[test]
fn a_singular_field_given_twice_is_refused() {
    assert_eq!(
        err("name=a&name=b"),
        "query parameter `name` is given more than once, and its field is not repeated"
    );
    assert_eq!(
        err("page_size=1&pageSize=2"),
        "query parameter `pageSize` sets the field `pageSize` that query parameter `page_size` sets, and it is not repeated"
    );
    assert_eq!(
        build(&[("name", "a"), ("name", "b")], "").unwrap_err(),
        "path variable `name` is given more than once, and its field is not repeated"
    );
}

#[test]
fn maps_messages_and_paths_through_lists_are_refused() {
    assert_eq!(
        err("labels=x"),
        "query parameter `labels` names a map field, which parameters cannot set"
    );
    assert_eq!(
        err("labels.k=v"),
        "query parameter `labels.k` goes through the map field `labels`, which parameters cannot set"
    );
    assert_eq!(
        err("shelf=x"),
        "query parameter `shelf` names a message field; give its fields instead (`shelf.<field>`)"
    );
    assert_eq!(
        err("shelf.book=x"),
        "query parameter `shelf.book` names a message field; give its fields instead (`shelf.book.<field>`)"
    );
    assert_eq!(
        err("books=x"),
        "query parameter `books` names a repeated message field, which parameters cannot set"
    );
    assert_eq!(
        err("books.name=x"),
        "query parameter `books.name` goes through the repeated field `books`, whose elements' fields parameters cannot set"
    );
    assert_eq!(
        err("tags.x=1"),
        "query parameter `tags.x` goes through the repeated field `tags`, whose elements' fields parameters cannot set"
    );
}

#[test]
fn unknown_names_are_refused_or_ignored() {
    assert_eq!(err("pagesize=1"), "unknown query parameter `pagesize`");
    assert_eq!(err("shelf.nope=1"), "unknown query parameter `shelf.nope`");
    assert_eq!(
        err("name.first=1"),
        "unknown query parameter `name.first` (`name` has no fields)"
    );
    assert_eq!(err("=1"), "unknown query parameter ``");
    assert_eq!(
        err("shelf..name=1"),
        "unknown query parameter `shelf..name`"
    );
    let ignore = |query| build_with(&[], query, &Body::None, UnknownParameters::Ignore);
    // A parameter skipped leaves no empty object (which would set the field).
    assert_eq!(
        ignore("pagesize=1&name=a&shelf.nope=2&node.child.nope=3&name.first=3&=4").unwrap(),
        r#"{"name":"a"}"#
    );
    // Ignoring unknown names does not let through what breaks a rule.
    assert_eq!(
        ignore("labels=x").unwrap_err(),
        "query parameter `labels` names a map field, which parameters cannot set"
    );
}

#[test]
fn an_empty_query_is_an_empty_object() {
    assert_eq!(ok(""), "{}");
    assert_eq!(ok("&&"), "{}");
    let params = Params::build(
        &schema(),
        REQUEST,
        NO_VARIABLES,
        None,
        &Body::None,
        UnknownParameters::Reject,
    )
    .unwrap();
    assert_eq!(params.json(), b"{}");
}

#[test]
fn fields_bound_by_the_path_are_not_set_by_the_query() {
    assert_eq!(
        build(&[("name", "shelves/1")], "name=x&name.y=z&page_size=2").unwrap(),
        r#"{"name":"shelves/1","pageSize":"2"}"#
    );
    // The field is the same whichever name spells it.
    assert_eq!(
        build(&[("page_size", "1")], "pageSize=2").unwrap(),
        r#"{"pageSize":"1"}"#
    );
    assert_eq!(
        build(
            &[("shelf.name", "s1")],
            "shelf.theme=t&shelf.name=x&shelf.name=y"
        )
        .unwrap(),
        r#"{"shelf":{"name":"s1","theme":"t"}}"#
    );
}

#[test]
fn the_bodys_field_is_not_set_by_the_query() {
    let field = Body::Field("shelf".into());
    assert_eq!(
        build_with(
            &[],
            "shelf.theme=x&shelf=y&shelf.nope=z&name=a",
            &field,
            UnknownParameters::Reject
        )
        .unwrap(),
        r#"{"name":"a"}"#
    );
    assert_eq!(
        build_with(
            &[("name", "n")],
            "name=a",
            &Body::Whole,
            UnknownParameters::Reject
        )
        .unwrap_err(),
        "unknown query parameter `name` (the request body sets every field)"
    );
    assert_eq!(
        build_with(
            &[("name", "n")],
            "name=a&tags=b",
            &Body::Whole,
            UnknownParameters::Ignore
        )
        .unwrap(),
        r#"{"name":"n"}"#
    );
}

#[test]
fn path_variables_are_typed_and_share_their_parents() {
    assert_eq!(
        build(
            &[
                ("book.name", "b"),
                ("page_size", "7"),
                ("book.shelf", "s"),
                ("flag", "true"),
                ("color", "3")
            ],
            "book.pageCount=9"
        )
        .unwrap(),
        r#"{"pageSize":"7","flag":true,"color":3,"book":{"name":"b","shelf":"s","pageCount":"9"}}"#
    );
}

#[test]
fn path_variables_that_fill_no_singular_field_are_refused() {
    let refused = |path: &str| build(&[(path, "v")], "").unwrap_err();
    assert_eq!(
        refused("nope"),
        "path variable `nope` names no field of `test.Request`"
    );
    assert_eq!(
        refused("name.x"),
        "path variable `name.x` names no field of `test.Request` (`name` has no fields)"
    );
    assert_eq!(
        refused("tags"),
        "path variable `tags` names a repeated field; a path variable fills a singular field"
    );
    assert_eq!(
        refused("shelf"),
        "path variable `shelf` names a message field; give its fields instead (`shelf.<field>`)"
    );
}

#[test]
fn members_of_one_message_share_one_object_whatever_the_order() {
    let expected =
        r#"{"name":"n","tags":["1","2"],"shelf":{"name":"s","theme":"t","book":{"name":"b"}}}"#;
    for query in [
        "shelf.theme=t&name=n&shelf.name=s&tags=1&shelf.book.name=b&tags=2",
        "tags=1&shelf.book.name=b&shelf.name=s&tags=2&name=n&shelf.theme=t",
        "shelf.book.name=b&tags=1&tags=2&shelf.theme=t&shelf.name=s&name=n",
    ] {
        assert_eq!(ok(query), expected, "{query}");
    }
}

#[test]
fn the_query_is_form_urlencoded() {
    assert_eq!(ok("name=a+b%20c%2B%26%3D%25"), r#"{"name":"a b c+&=%"}"#);
    assert_eq!(ok("page%5Fsize=1"), r#"{"pageSize":"1"}"#);
    assert_eq!(ok("shelf%2Ename=x"), r#"{"shelf":{"name":"x"}}"#);
    // Malformed escapes stay as written.
    assert_eq!(ok("name=%zz%4"), r#"{"name":"%zz%4"}"#);
    assert_eq!(ok("name"), r#"{"name":""}"#);
    assert_eq!(ok("name=a=b"), r#"{"name":"a=b"}"#);
}

#[test]
fn unicode_is_kept_and_bad_utf8_refused() {
    assert_eq!(
        ok("name=%C3%A9%E2%82%AC%F0%9F%98%80&tags=日本"),
        "{\"name\":\"é€😀\",\"tags\":[\"日本\"]}"
    );
    assert_eq!(ok("name=%EF%BF%BD"), "{\"name\":\"\u{fffd}\"}");
    assert_eq!(
        err("name=%FF"),
        "query parameter `name` is not UTF-8 once decoded"
    );
    assert_eq!(
        err("tags=a&na%C3me=x"),
        "query parameter `na%C3me` is not UTF-8 once decoded"
    );
}

#[test]
fn strings_are_escaped() {
    assert_eq!(
        ok("name=%22%5C%0A%0D%09%01%1F%7F/%E2%80%A8"),
        "{\"name\":\"\\\"\\\\\\n\\r\\t\\u0001\\u001f\u{7f}/\u{2028}\"}"
    );
    let json = build(&[("name", "\"}\u{0}")], "").unwrap();
    assert_eq!(json, r#"{"name":"\"}\u0000"}"#);
}

#[test]
fn names_deeper_than_the_limit_are_refused() {
    let path = |depth: usize| {
        let mut name = "node".to_owned();
        for _ in 2..depth {
            name.push_str(".child");
        }
        name.push_str(".value");
        name
    };
    let deepest = ok(&format!("{}=x", path(MAX_DEPTH)));
    let value: serde_json::Value = serde_json::from_str(&deepest).unwrap();
    let mut at = &value["node"];
    for _ in 2..MAX_DEPTH {
        at = &at["child"];
    }
    assert_eq!(at["value"], "x");

    let too_deep = path(MAX_DEPTH + 1);
    let error = Params::build(
        &schema(),
        REQUEST,
        NO_VARIABLES,
        Some(&format!("{too_deep}=x")),
        &Body::None,
        UnknownParameters::Ignore,
    )
    .unwrap_err();
    assert_eq!(error.parameter(), Some(too_deep.as_str()));
    assert_eq!(
        error.to_string(),
        format!(
            "query parameter `{}...` has more than 64 segments",
            &too_deep[..100]
        )
    );
    // A name of dots alone is refused before it is split further.
    let dots = ".".repeat(100_000);
    assert!(err(&dots).ends_with("has more than 64 segments"));
    assert!(
        build(&[(path(MAX_DEPTH + 1).as_str(), "x")], "")
            .unwrap_err()
            .ends_with("has more than 64 segments")
    );
}

#[test]
fn more_parameters_than_the_limit_are_refused() {
    let query = |n: usize| vec!["tags=x"; n].join("&");
    let json = ok(&query(MAX_PARAMETERS));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["tags"].as_array().unwrap().len(), MAX_PARAMETERS);
    let error = Params::build(
        &schema(),
        REQUEST,
        NO_VARIABLES,
        Some(&query(MAX_PARAMETERS + 1)),
        &Body::None,
        UnknownParameters::Ignore,
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "more than 1024 query parameters");
    assert_eq!(error.parameter(), None);
}

#[test]
fn the_most_parameters_at_the_deepest_path_build() {
    // Each parameter resolves the most segments there may be.
    let mut name = "node".to_owned();
    for _ in 2..MAX_DEPTH {
        name.push_str(".child");
    }
    name.push_str(".values");
    let query = vec![format!("{name}=v"); MAX_PARAMETERS].join("&");
    let json = ok(&query);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut at = &value["node"];
    for _ in 2..MAX_DEPTH {
        at = &at["child"];
    }
    assert_eq!(at["values"].as_array().unwrap().len(), MAX_PARAMETERS);
}

#[test]
fn error_messages_cut_long_names() {
    let name = "x".repeat(10_000);
    assert_eq!(
        err(&format!("{name}=1")),
        format!("unknown query parameter `{}...`", &name[..100])
    );
}

#[test]
fn check_variable_accepts_singular_scalars_through_singular_messages() {
    let schema = schema();
    let check = |path: &str| {
        let path: Vec<String> = path.split('.').map(str::to_owned).collect();
        check_variable(&schema, REQUEST, &path)
    };
    for path in [
        "name",
        "pageSize",
        "color",
        "delay",
        "shelf.book.page_count",
        "node.child.value",
    ] {
        assert_eq!(check(path), Ok(()), "{path}");
    }
    let refused = |path: &str| check(path).unwrap_err();
    assert_eq!(
        refused("nope"),
        "the path variable `nope` names no field: `test.Request` has no field `nope`"
    );
    assert_eq!(
        refused("shelf.nope"),
        "the path variable `shelf.nope` names no field: `test.Shelf` has no field `nope`"
    );
    assert_eq!(
        refused("name.x"),
        "the path variable `name.x` names no field: `name` is not a message"
    );
    assert_eq!(
        refused("shelf"),
        "the path variable `shelf` names a message field; it must name one of its fields"
    );
    assert_eq!(
        refused("tags"),
        "the path variable `tags` names a repeated field (`tags`); a path variable fills a singular field"
    );
    assert_eq!(
        refused("books.name"),
        "the path variable `books.name` names a repeated field (`books`); a path variable fills a singular field"
    );
    assert_eq!(
        refused("labels"),
        "the path variable `labels` names a map field (`labels`); a path variable fills a singular field"
    );
    assert_eq!(
        check_variable(&schema, REQUEST, &[]).unwrap_err(),
        "a path variable names no field"
    );
    let deep = vec!["node".to_owned(); MAX_DEPTH + 1];
    assert!(
        check_variable(&schema, REQUEST, &deep)
            .unwrap_err()
            .ends_with(&format!("has more than {MAX_DEPTH} segments"))
    );
}

/// A decoding error with `path` (outermost first), of any message: the
/// runtime makes errors only while decoding.
fn error_at(path: &[PathSegment]) -> Error {
    let mut error =
        protojsonx_runtime::from_slice::<crate::types::rpc::ErrorInfo>(b"x").unwrap_err();
    for segment in path.iter().rev() {
        error = match segment {
            PathSegment::Field(key) => error.in_field(key.as_bytes()),
            PathSegment::Index(i) => error.in_index(*i),
            PathSegment::Key(key) => error.in_key(key),
        };
    }
    error
}

#[test]
fn describe_names_the_parameter_of_the_value_at_the_errors_path() {
    let params = Params::build(
        &schema(),
        REQUEST,
        &variables(&[("shelf.name", "s")]),
        Some("page_tokens=a&pageTokens=b&book.name=x&book.shelf=y&name=n"),
        &Body::None,
        UnknownParameters::Reject,
    )
    .unwrap();
    let field = |name: &str| PathSegment::Field(name.into());
    let describe = |path: &[PathSegment]| {
        let error = error_at(path);
        let text = params.describe(&error);
        let message = error.message();
        text.strip_suffix(message)
            .unwrap_or_else(|| panic!("{text}"))
            .to_owned()
    };
    assert_eq!(
        describe(&[field("name")]),
        "invalid query parameter `name`: "
    );
    assert_eq!(
        describe(&[field("pageTokens"), PathSegment::Index(0)]),
        "invalid query parameter `page_tokens`: "
    );
    assert_eq!(
        describe(&[field("pageTokens"), PathSegment::Index(1)]),
        "invalid query parameter `pageTokens`: "
    );
    // A decoder spelling keys as `.proto` names is understood too.
    assert_eq!(
        describe(&[field("page_tokens"), PathSegment::Index(1)]),
        "invalid query parameter `pageTokens`: "
    );
    assert_eq!(
        describe(&[field("shelf"), field("name")]),
        "invalid path variable `shelf.name`: "
    );
    // An object given by one parameter is that parameter's.
    assert_eq!(
        describe(&[field("shelf")]),
        "invalid path variable `shelf.name`: "
    );
    // Else the error is about no one parameter: its path is told.
    let error = error_at(&[]);
    assert_eq!(
        params.describe(&error),
        format!("invalid request parameters: {}", error.message())
    );
    let error = error_at(&[field("book")]);
    assert_eq!(
        params.describe(&error),
        format!("invalid request parameters: {} at `book`", error.message())
    );
    let error = error_at(&[field("book"), field("pages")]);
    assert_eq!(
        params.describe(&error),
        format!(
            "invalid request parameters: {} at `book.pages`",
            error.message()
        )
    );
    let error = error_at(&[field("pageTokens"), PathSegment::Index(2)]);
    assert_eq!(
        params.describe(&error),
        format!(
            "invalid request parameters: {} at `pageTokens[2]`",
            error.message()
        )
    );
    assert!(!params.describe(&error).contains("line"));
}

/// The documents decoded by generated messages (the crate's
/// checked-in `google.rpc` and `google.api` types), with a schema
/// written to match them.
mod decoding {
    use protojsonx_runtime::DecodeOptions;

    use super::*;
    use crate::types::api::{Http, HttpRule, http_rule::Pattern};
    use crate::types::rpc::{ErrorInfo, RetryInfo, bad_request, quota_failure};

    const ERROR_INFO: usize = 0;
    const RETRY_INFO: usize = 1;
    const VIOLATION: usize = 2;
    const FIELD_VIOLATION: usize = 3;
    const HTTP_RULE: usize = 5;
    const HTTP: usize = 7;

    fn schema() -> Schema {
        let text = |name, json| field(name, json, FieldKind::Text);
        Schema::new(vec![
            message(
                "google.rpc.ErrorInfo",
                vec![
                    text("reason", "reason"),
                    text("domain", "domain"),
                    map(text("metadata", "metadata")),
                ],
            ),
            message(
                "google.rpc.RetryInfo",
                vec![field("retry_delay", "retryDelay", FieldKind::WellKnown)],
            ),
            message(
                "google.rpc.QuotaFailure.Violation",
                vec![
                    text("subject", "subject"),
                    text("description", "description"),
                    text("api_service", "apiService"),
                    text("quota_metric", "quotaMetric"),
                    text("quota_id", "quotaId"),
                    map(text("quota_dimensions", "quotaDimensions")),
                    field("quota_value", "quotaValue", FieldKind::Int64),
                    field("future_quota_value", "futureQuotaValue", FieldKind::Int64),
                ],
            ),
            message(
                "google.rpc.BadRequest.FieldViolation",
                vec![
                    text("field", "field"),
                    text("description", "description"),
                    text("reason", "reason"),
                    field(
                        "localized_message",
                        "localizedMessage",
                        FieldKind::Message(4),
                    ),
                ],
            ),
            message(
                "google.rpc.LocalizedMessage",
                vec![text("locale", "locale"), text("message", "message")],
            ),
            message(
                "google.api.HttpRule",
                vec![
                    text("selector", "selector"),
                    text("get", "get"),
                    text("put", "put"),
                    text("post", "post"),
                    text("delete", "delete"),
                    text("patch", "patch"),
                    text("body", "body"),
                    field("custom", "custom", FieldKind::Message(6)),
                    text("response_body", "responseBody"),
                    repeated(field(
                        "additional_bindings",
                        "additionalBindings",
                        FieldKind::Message(HTTP_RULE),
                    )),
                ],
            ),
            message(
                "google.api.CustomHttpPattern",
                vec![text("kind", "kind"), text("path", "path")],
            ),
            message(
                "google.api.Http",
                vec![
                    repeated(field("rules", "rules", FieldKind::Message(HTTP_RULE))),
                    field(
                        "fully_decode_reserved_expansion",
                        "fullyDecodeReservedExpansion",
                        FieldKind::Bool,
                    ),
                ],
            ),
        ])
    }

    fn params(message: usize, vars: &[(&str, &str)], query: &str) -> Params {
        Params::build(
            &schema(),
            message,
            &variables(vars),
            Some(query),
            &Body::None,
            UnknownParameters::Reject,
        )
        .unwrap()
    }

    /// Merges `params` into `msg`, and describes the error if any.
    fn merge<M: protojsonx_runtime::ProtoJson>(msg: &mut M, params: &Params) -> Result<(), String> {
        DecodeOptions::new()
            .merge(msg, params.json())
            .map_err(|e| params.describe(&e))
    }

    #[test]
    fn the_document_merges_after_the_body() {
        let mut info: ErrorInfo = DecodeOptions::new()
            .from_str(r#"{"reason":"r","metadata":{"k":"v"}}"#)
            .unwrap();
        let params = params(
            ERROR_INFO,
            &[("domain", "example.com")],
            "reason=overridden",
        );
        merge(&mut info, &params).unwrap();
        assert_eq!(info.reason, "overridden");
        assert_eq!(info.domain, "example.com");
        assert_eq!(info.metadata.get("k").map(String::as_str), Some("v"));
    }

    #[test]
    fn values_of_every_kind_decode() {
        let mut violation = quota_failure::Violation::default();
        let params = params(
            VIOLATION,
            &[("subject", "projects/1")],
            "quotaValue=-12&future_quota_value=9007199254740993&api_service=a+b",
        );
        merge(&mut violation, &params).unwrap();
        assert_eq!(violation.subject, "projects/1");
        assert_eq!(violation.quota_value, -12);
        assert_eq!(violation.future_quota_value, Some(9_007_199_254_740_993));
        assert_eq!(violation.api_service, "a b");

        let mut retry = RetryInfo::default();
        merge(
            &mut retry,
            &Params::build(
                &schema(),
                RETRY_INFO,
                &variables(&[("retry_delay", "1.5s")]),
                None,
                &Body::None,
                UnknownParameters::Reject,
            )
            .unwrap(),
        )
        .unwrap();
        let delay = retry.retry_delay.unwrap();
        assert_eq!((delay.seconds, delay.nanos), (1, 500_000_000));

        let mut http = Http::default();
        merge(
            &mut http,
            &params_of(HTTP, "fullyDecodeReservedExpansion=true"),
        )
        .unwrap();
        assert!(http.fully_decode_reserved_expansion);

        let mut violation = bad_request::FieldViolation::default();
        merge(
            &mut violation,
            &params_of(
                FIELD_VIOLATION,
                "localized_message.locale=fr&localizedMessage.message=%C3%A9t%C3%A9&field=x",
            ),
        )
        .unwrap();
        let localized = violation.localized_message.unwrap();
        assert_eq!(
            (localized.locale.as_str(), localized.message.as_str()),
            ("fr", "été")
        );
        assert_eq!(violation.field, "x");
    }

    fn params_of(message: usize, query: &str) -> Params {
        params(message, &[], query)
    }

    #[test]
    fn a_bad_value_is_described_by_the_name_the_client_wrote() {
        let mut violation = quota_failure::Violation::default();
        let error = merge(
            &mut violation,
            &params_of(VIOLATION, "subject=s&quota_value=abc"),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "invalid query parameter `quota_value`: invalid value for int64: invalid number"
        );
        assert!(!error.contains("line"), "{error}");
        let error = merge(&mut violation, &params_of(VIOLATION, "quotaValue=1.5")).unwrap_err();
        assert_eq!(
            error,
            "invalid query parameter `quotaValue`: invalid value for int64: number has a fractional part"
        );

        let mut retry = RetryInfo::default();
        let error = merge(
            &mut retry,
            &params(RETRY_INFO, &[("retry_delay", "soon")], ""),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "invalid path variable `retry_delay`: invalid value for google.protobuf.Duration: expected seconds with the suffix 's', like \"1.5s\" or \"-0.001s\""
        );

        let mut http = Http::default();
        let error = merge(
            &mut http,
            &params_of(HTTP, "fully_decode_reserved_expansion=yes"),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "invalid query parameter `fully_decode_reserved_expansion`: expected bool, found string"
        );

        let mut violation = bad_request::FieldViolation::default();
        let error = merge(
            &mut violation,
            &params_of(
                FIELD_VIOLATION,
                "field=f&localizedMessage.locale=%EF%BF%BD%00",
            ),
        );
        // A string with a replacement character and NUL is a valid string.
        assert_eq!(error, Ok(()));
        assert_eq!(violation.localized_message.unwrap().locale, "\u{fffd}\0");
    }

    #[test]
    fn a_conflict_between_parameters_is_described() {
        let mut rule = HttpRule::default();
        let params = params_of(HTTP_RULE, "get=/a&put=/b");
        let error = merge(&mut rule, &params).unwrap_err();
        assert_eq!(
            error,
            "invalid query parameter `put`: more than one field of oneof `pattern` is set"
        );

        let mut rule = HttpRule::default();
        merge(
            &mut rule,
            &params_of(HTTP_RULE, "custom.kind=HEAD&custom.path=/x&selector=a.B"),
        )
        .unwrap();
        let Some(Pattern::Custom(custom)) = rule.pattern else {
            panic!("{rule:?}");
        };
        assert_eq!((custom.kind.as_str(), custom.path.as_str()), ("HEAD", "/x"));
    }

    #[test]
    fn maps_and_lists_of_messages_of_generated_types_are_refused() {
        let refused = |message, query: &str| {
            Params::build(
                &schema(),
                message,
                NO_VARIABLES,
                Some(query),
                &Body::None,
                UnknownParameters::Reject,
            )
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            refused(ERROR_INFO, "metadata.k=v"),
            "query parameter `metadata.k` goes through the map field `metadata`, which parameters cannot set"
        );
        assert_eq!(
            refused(HTTP_RULE, "additionalBindings.get=/x"),
            "query parameter `additionalBindings.get` goes through the repeated field `additionalBindings`, whose elements' fields parameters cannot set"
        );
    }
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// Pieces query strings are made of: names of every kind of field,
    /// separators, escapes (good and bad) and odd characters.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("name".to_owned()),
            Just("pageSize".to_owned()),
            Just("color".to_owned()),
            Just("flag".to_owned()),
            Just("tags".to_owned()),
            Just("labels".to_owned()),
            Just("shelf".to_owned()),
            Just("books".to_owned()),
            Just("node".to_owned()),
            Just("child".to_owned()),
            Just("book".to_owned()),
            Just(".".to_owned()),
            Just("=".to_owned()),
            Just("&".to_owned()),
            Just("+".to_owned()),
            Just("%".to_owned()),
            Just("%22".to_owned()),
            Just("%5C".to_owned()),
            Just("%00".to_owned()),
            Just("%FF".to_owned()),
            Just("%C3%A9".to_owned()),
            Just("true".to_owned()),
            Just("-1".to_owned()),
            "[\\PC\u{0}-\u{1f}]{0,3}",
        ]
    }

    fn query() -> impl Strategy<Value = String> {
        prop::collection::vec(piece(), 0..40).prop_map(|pieces| pieces.concat())
    }

    /// A request's other parts: a path variable bound to one of `bound`
    /// (`""`: none), a body rule, and whether unknown parameters are ignored.
    fn shape(
        bound: Vec<&'static str>,
    ) -> impl Strategy<Value = (Vec<(&'static str, &'static str)>, Body, UnknownParameters)> {
        let choices = (prop::sample::select(bound), 0..3, any::<bool>());
        choices.prop_map(|(bound, body, ignore)| {
            let vars = if bound.is_empty() {
                vec![]
            } else {
                vec![(bound, "v")]
            };
            let body = match body {
                0 => Body::None,
                1 => Body::Whole,
                _ => Body::Field("shelf".into()),
            };
            let unknown = match ignore {
                true => UnknownParameters::Ignore,
                false => UnknownParameters::Reject,
            };
            (vars, body, unknown)
        })
    }

    /// Well-formed query strings: names of top-level fields (most of
    /// them), of nested and unknown ones, each with a value.
    fn well_formed_query() -> impl Strategy<Value = String> {
        let name = prop::sample::select(vec![
            "name",
            "pageSize",
            "page_size",
            "big",
            "flag",
            "color",
            "delay",
            "tags",
            "colors",
            "flags",
            "pageTokens",
            "labels",
            "shelf",
            "shelf.name",
            "book.shelf",
            "unknown",
        ]);
        let value = prop_oneof![
            Just("true".to_owned()),
            Just("7".to_owned()),
            Just("RED".to_owned()),
            Just("a+b%22".to_owned()),
            Just("%FF".to_owned()),
            "[a-z0-9]{0,4}",
        ];
        prop::collection::vec((name, value), 0..6).prop_map(|pairs| {
            let pairs = pairs.iter().map(|(name, value)| format!("{name}={value}"));
            pairs.collect::<Vec<_>>().join("&")
        })
    }

    proptest! {
        /// The direct path writes what the general builder writes, and
        /// `document` answers as `Params::build` does, error or document.
        #[test]
        fn the_direct_path_writes_the_general_document(
            query in prop_oneof![1 => query(), 3 => well_formed_query()],
            (vars, body, unknown) in shape(vec!["", "name", "pageSize", "tags", "shelf.name"]),
        ) {
            let general = build_with(&vars, &query, &body, unknown);
            let (schema, vars) = (schema(), variables(&vars));
            if let Some(json) = flat::document(schema.message(REQUEST), &vars, Some(&query), &body) {
                prop_assert_eq!(Ok(String::from_utf8(json).unwrap()), general.clone());
            }
            let document = document(&schema, REQUEST, &vars, Some(&query), &body, unknown)
                .map(|json| String::from_utf8(json).unwrap())
                .map_err(|e| e.to_string());
            prop_assert_eq!(document, general);
        }

        #[test]
        fn any_query_builds_valid_json_or_an_error(
            query in query(),
            (vars, body, unknown) in shape(vec!["", "name", "shelf.name", "node.child.value"]),
        ) {
            if let Ok(json) = build_with(&vars, &query, &body, unknown) {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
            }
        }

        #[test]
        fn pairs_are_split_at_every_ampersand_and_the_first_equals_sign(query in "[a=&é]{0,12}") {
            let expected: Vec<(&str, &str)> = query
                .split('&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
                .collect();
            prop_assert_eq!(pairs(&query).collect::<Vec<_>>(), expected);
        }

        #[test]
        fn arbitrary_text_builds_valid_json_or_an_error(query in "\\PC*") {
            if let Ok(json) = build(&[], &query) {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
            }
        }

        #[test]
        fn any_value_comes_back_as_written(value in any::<String>()) {
            let query: String = form_urlencoded::Serializer::new(String::new())
                .append_pair("name", &value)
                .append_pair("tags", &value)
                .finish();
            let json = ok(&query);
            let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(parsed["name"].as_str(), Some(value.as_str()));
            prop_assert_eq!(parsed["tags"][0].as_str(), Some(value.as_str()));
            let json = build(&[("name", &value)], "").unwrap();
            let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(parsed["name"].as_str(), Some(value.as_str()));
        }
    }
}
