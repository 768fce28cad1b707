//! The protoc/buf plugin front end: a `CodeGeneratorRequest` in, a
//! `CodeGeneratorResponse` out. The binary is a few lines around [`execute`].
//!
//! Both are the current schema's ([`protojsonx_descriptor::types`]):
//! prost-types' older copy would drop the `edition` and `features` of
//! editions files, and cannot tell protoc which editions the plugin reads.

use protojsonx_descriptor::types::Edition;
use protojsonx_descriptor::types::compiler::code_generator_response::{Feature, File};
use protojsonx_descriptor::types::compiler::{CodeGeneratorRequest, CodeGeneratorResponse};

use prost::Message;
use protojsonx_descriptor::options::request_method_extensions;

use crate::config::Config;
use crate::routes::{HTTP_EXTENSION, HttpRules};

/// What the plugin tells protoc and buf it supports: proto3 `optional`
/// and editions, from proto2 (the oldest) to 2024.
fn supports(response: CodeGeneratorResponse) -> CodeGeneratorResponse {
    CodeGeneratorResponse {
        supported_features: Some(Feature::Proto3Optional as u64 | Feature::SupportsEditions as u64),
        minimum_edition: Some(Edition::Proto2 as i32),
        maximum_edition: Some(Edition::Edition2024 as i32),
        ..response
    }
}

/// Runs the generator on a plugin request. Problems (a bad parameter, an
/// edition it does not know, a failure in prost-build) are reported in the
/// response's `error`, as protoc expects.
pub fn execute(request: CodeGeneratorRequest) -> CodeGeneratorResponse {
    respond(run(request, &HttpRules::new()))
}

/// Runs the generator on an encoded plugin request, as protoc and buf write
/// it to the plugin's standard input. Unlike [`execute`], it sees the
/// methods' custom options, which decoding drops: the `google.api.http`
/// rules [`Config::http_routes`] serves.
pub fn execute_encoded(request: &[u8]) -> Result<CodeGeneratorResponse, prost::DecodeError> {
    let decoded = CodeGeneratorRequest::decode(request)?;
    let rules = request_method_extensions(request, HTTP_EXTENSION).map_err(|e| e.to_string());
    Ok(respond(rules.and_then(|rules| run(decoded, &rules))))
}

fn respond(files: Result<Vec<File>, String>) -> CodeGeneratorResponse {
    supports(match files {
        Ok(file) => CodeGeneratorResponse {
            file,
            ..Default::default()
        },
        Err(message) => CodeGeneratorResponse {
            error: Some(message),
            ..Default::default()
        },
    })
}

fn run(request: CodeGeneratorRequest, rules: &HttpRules) -> Result<Vec<File>, String> {
    let mut config = Config::new();
    for param in request
        .parameter()
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        config.apply_parameter(param)?;
    }
    let files = request
        .proto_file
        .into_iter()
        .map(protojsonx_descriptor::lower_file)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let generated = crate::generate_with_rules(&config, &files, &request.file_to_generate, rules)?;
    Ok(generated
        .into_iter()
        .map(|f| File {
            name: Some(f.name),
            content: Some(f.content),
            ..Default::default()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_parameters_are_reported_in_the_response() {
        let request = CodeGeneratorRequest {
            parameter: Some("json_only,colour=blue".into()),
            ..Default::default()
        };
        let response = execute(request);
        assert!(
            response
                .error
                .unwrap()
                .starts_with("unknown parameter `colour`")
        );
        assert_eq!(response.supported_features, Some(3));
        assert_eq!(response.minimum_edition, Some(998));
        assert_eq!(response.maximum_edition, Some(1001));
    }

    #[test]
    fn editions_past_2024_are_reported_with_the_file() {
        let request = CodeGeneratorRequest {
            file_to_generate: vec!["next.proto".into()],
            proto_file: vec![protojsonx_descriptor::types::FileDescriptorProto {
                name: Some("next.proto".into()),
                syntax: Some("editions".into()),
                edition: Some(Edition::Edition2026 as i32),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            execute(request).error.unwrap(),
            "next.proto: edition 2026 is not supported: 2023 and 2024 are"
        );
    }
}
