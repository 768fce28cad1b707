//! `google.api.HttpRule`s as the bindings a router serves: one per HTTP
//! method and path template, the rule's `additional_bindings` flattened.

use std::fmt;

use crate::query;
use crate::schema::{Schema, SchemaField};
use crate::template::PathTemplate;
use crate::types::api::{HttpRule, http_rule::Pattern};

/// One way of calling a method over HTTP: a rule or one of its additional
/// bindings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The HTTP method: `GET`, `PUT`, `POST`, `DELETE`, `PATCH`, or a custom
    /// rule's kind (`HEAD`, `OPTIONS`, ...).
    pub method: String,
    /// The path template (`/v1/{name=shelves/*}`), not yet parsed.
    pub path: String,
    /// Where the request body goes.
    pub body: Body,
    /// The response field answered instead of the whole response, if any
    /// (its `.proto` name).
    pub response_body: Option<String>,
}

/// Where a binding's request body goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// No body: every field not bound by the path comes from the query.
    None,
    /// `body: "*"`: the body is the request message; the query sets nothing.
    Whole,
    /// `body: "field"`: the body is that top-level field's value (its `.proto` name).
    Field(String),
}

/// A binding checked against its method's messages, ready to route.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The request message's index in the schema.
    pub request: usize,
    /// The parsed path template.
    pub template: PathTemplate,
    /// The JSON name of the body field (`body: "field"`), the key of the
    /// document `{"field": body}` the request is read from.
    pub body_key: Option<String>,
    /// The field `response_body` names.
    pub response_body: Option<SchemaField>,
}

impl Binding {
    /// Checks the binding against its method's `request` and `response`
    /// messages (full names) in `schema`: a template that parses, whose
    /// variables name fields a path can fill, and body and response body
    /// naming top-level fields. The generator checks generated routes so,
    /// and routers check every binding again when they are built.
    pub fn check(
        &self,
        schema: &Schema,
        request: &str,
        response: &str,
    ) -> Result<Checked, RuleError> {
        let fail = |why: String| RuleError {
            message: format!("`{} {}`: {why}", self.method, self.path),
        };
        let index = |full_name: &str| {
            schema
                .index_of(full_name)
                .ok_or_else(|| fail(format!("the schema has no message `{full_name}`")))
        };
        let (request, response) = (index(request)?, index(response)?);
        let template = PathTemplate::parse(&self.path).map_err(|e| fail(e.to_string()))?;
        for variable in template.variables() {
            query::check_variable(schema, request, &variable.field_path).map_err(&fail)?;
        }
        let top_field = |message: usize, field: &str, what: &str| {
            schema
                .message(message)
                .fields
                .iter()
                .find(|f| f.name == field)
                .cloned()
                .ok_or_else(|| {
                    fail(format!(
                        "the {what} `{field}` is not a field of the message"
                    ))
                })
        };
        let body_key = match &self.body {
            Body::Field(field) => Some(top_field(request, field, "body")?.json_name.into_owned()),
            _ => None,
        };
        let response_body = match &self.response_body {
            Some(field) => Some(top_field(response, field, "response body")?),
            None => None,
        };
        Ok(Checked {
            request,
            template,
            body_key,
            response_body,
        })
    }
}

/// An `HttpRule` that cannot be served, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// The bindings of `rule`: its own, then its additional bindings', in order.
/// An additional binding may not have additional bindings itself
/// (`google/api/http.proto`: "must not contain an `additional_bindings`
/// field themselves").
pub fn bindings(rule: &HttpRule) -> Result<Vec<Binding>, RuleError> {
    let mut out = vec![binding(rule)?];
    for extra in &rule.additional_bindings {
        let made = binding(extra)?;
        if !extra.additional_bindings.is_empty() {
            return Err(RuleError {
                message: format!(
                    "the additional binding `{} {}` has additional bindings of its own",
                    made.method, made.path
                ),
            });
        }
        out.push(made);
    }
    Ok(out)
}

/// The binding of one rule, without its additional bindings.
fn binding(rule: &HttpRule) -> Result<Binding, RuleError> {
    let (method, path) = match &rule.pattern {
        Some(Pattern::Get(path)) => ("GET", path),
        Some(Pattern::Put(path)) => ("PUT", path),
        Some(Pattern::Post(path)) => ("POST", path),
        Some(Pattern::Delete(path)) => ("DELETE", path),
        Some(Pattern::Patch(path)) => ("PATCH", path),
        Some(Pattern::Custom(custom)) => (custom.kind.as_str(), &custom.path),
        None => {
            return Err(RuleError {
                message: "a rule has no pattern (get, put, post, delete, patch or custom)".into(),
            });
        }
    };
    if method.is_empty() || http::Method::from_bytes(method.as_bytes()).is_err() {
        return Err(RuleError {
            message: format!("`{method}` is not an HTTP method (the kind of a custom rule)"),
        });
    }
    let body = match rule.body.as_str() {
        "" => Body::None,
        "*" => Body::Whole,
        field => Body::Field(field.to_owned()),
    };
    let response_body = Some(rule.response_body.clone()).filter(|field| !field.is_empty());
    Ok(Binding {
        method: method.to_owned(),
        path: path.clone(),
        body,
        response_body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::api::CustomHttpPattern;

    fn rule(pattern: Pattern, body: &str) -> HttpRule {
        HttpRule {
            pattern: Some(pattern),
            body: body.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_rule_and_its_additional_bindings_are_flattened_in_order() {
        let mut main = rule(Pattern::Post("/v1/shelves".into()), "shelf");
        main.response_body = "name".into();
        main.additional_bindings = vec![
            rule(Pattern::Put("/v1/shelves/{shelf.name}".into()), "*"),
            rule(
                Pattern::Custom(CustomHttpPattern {
                    kind: "HEAD".into(),
                    path: "/v1/shelves".into(),
                }),
                "",
            ),
        ];
        let got = bindings(&main).unwrap();
        let methods: Vec<_> = got.iter().map(|b| b.method.as_str()).collect();
        assert_eq!(methods, ["POST", "PUT", "HEAD"]);
        assert_eq!(got[0].body, Body::Field("shelf".into()));
        assert_eq!(got[0].response_body.as_deref(), Some("name"));
        assert_eq!(got[1].body, Body::Whole);
        assert_eq!(got[1].path, "/v1/shelves/{shelf.name}");
        assert_eq!(got[2].body, Body::None);
        assert_eq!(got[2].response_body, None);
    }

    #[test]
    fn rules_that_cannot_be_served_are_refused() {
        let none = HttpRule::default();
        assert!(
            bindings(&none)
                .unwrap_err()
                .to_string()
                .contains("no pattern")
        );
        let custom = rule(
            Pattern::Custom(CustomHttpPattern {
                kind: "NO SPACE".into(),
                path: "/x".into(),
            }),
            "",
        );
        assert_eq!(
            bindings(&custom).unwrap_err().to_string(),
            "`NO SPACE` is not an HTTP method (the kind of a custom rule)"
        );
        let mut nested = rule(Pattern::Get("/a".into()), "");
        let mut extra = rule(Pattern::Get("/b".into()), "");
        extra.additional_bindings = vec![rule(Pattern::Get("/c".into()), "")];
        nested.additional_bindings = vec![extra];
        assert_eq!(
            bindings(&nested).unwrap_err().to_string(),
            "the additional binding `GET /b` has additional bindings of its own"
        );
    }
}
