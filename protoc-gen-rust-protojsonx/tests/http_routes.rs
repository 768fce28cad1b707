//! `http_routes` checks every `google.api.http` binding when it generates
//! the routes, as the router would when it starts: a rule it cannot serve
//! fails the build with a sentence naming the method and the binding.

use std::path::{Path, PathBuf};

use protoc_gen_rust_protojsonx::Builder;

/// Generates the routes of a service whose one method has `rule`.
fn generate(rule: &str) -> std::io::Result<String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("http-routes-{}", rule.len()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("svc")).unwrap();
    let proto = format!(
        "syntax = \"proto3\";\npackage svc;\nimport \"google/api/annotations.proto\";\n\
         message Req {{ string name = 1; Inner inner = 2; repeated string tags = 3; }}\n\
         message Inner {{ string id = 1; }}\n\
         service S {{ rpc Get(Req) returns (Req) {{ option (google.api.http) = {{ {rule} }}; }} }}\n"
    );
    std::fs::write(dir.join("svc/svc.proto"), proto).unwrap();
    let annotations: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-transcode/proto");
    Builder::new()
        .include(&dir)
        .include(annotations)
        .out_dir(&dir)
        .configure(|c| {
            c.json_only().http_routes();
        })
        .compile(&[dir.join("svc/svc.proto")])?;
    Ok(std::fs::read_to_string(dir.join("svc.protojsonx.rs")).unwrap())
}

#[test]
fn servable_rules_become_routes() {
    let code = generate(
        r#"get: "/v1/{name=things/*}" additional_bindings { post: "/v1/{inner.id}" body: "*" }"#,
    )
    .unwrap();
    assert!(code.contains("pub fn s_routes<S: s_server::S>("), "{code}");
    assert!(
        code.contains(r#"rt::binding("GET", "/v1/{name=things/*}", "", "")"#),
        "{code}"
    );
    assert!(
        code.contains(r#"rt::binding("POST", "/v1/{inner.id}", "*", "")"#),
        "{code}"
    );
}

#[test]
fn rules_that_cannot_be_served_fail_generation() {
    let cases = [
        (
            r#"get: "/v1/{name=things/*""#,
            "svc.S: /svc.S/Get: `GET /v1/{name=things/*`: `/v1/{name=things/*` at byte",
        ),
        (
            r#"get: "/v1/{missing}""#,
            "svc.S: /svc.S/Get: `GET /v1/{missing}`:",
        ),
        (
            r#"get: "/v1/{tags}""#,
            "svc.S: /svc.S/Get: `GET /v1/{tags}`:",
        ),
        (
            r#"post: "/v1/x" body: "nothing""#,
            "the body `nothing` is not a field of the message",
        ),
        (
            r#"get: "/v1/x" response_body: "nothing""#,
            "the response body `nothing` is not a field of the message",
        ),
        (
            r#"get: "/v1/x" additional_bindings { get: "/v1/x" }"#,
            "matches the same paths as",
        ),
    ];
    for (rule, expected) in cases {
        let error = generate(rule).unwrap_err().to_string();
        assert!(error.contains(expected), "{rule}: {error}");
    }
}

#[test]
fn the_error_names_the_method_and_the_binding() {
    let error = generate(r#"get: "/v1/{tags}""#).unwrap_err().to_string();
    assert_eq!(
        error,
        "svc.S: /svc.S/Get: `GET /v1/{tags}`: the path variable `tags` names a repeated field \
         (`tags`); a path variable fills a singular field"
    );
}
