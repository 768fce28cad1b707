//! The protoc/buf plugin front end: a `CodeGeneratorRequest` in, a
//! `CodeGeneratorResponse` out. The binary is a few lines around [`execute`].

use prost_types::compiler::code_generator_response::{Feature, File};
use prost_types::compiler::{CodeGeneratorRequest, CodeGeneratorResponse};

use crate::config::Config;

/// Runs the generator on a plugin request. Problems (a bad parameter, a
/// failure in prost-build) are reported in the response's `error`, as protoc expects.
pub fn execute(request: CodeGeneratorRequest) -> CodeGeneratorResponse {
    let mut response = CodeGeneratorResponse {
        supported_features: Some(Feature::Proto3Optional as u64),
        ..Default::default()
    };
    match run(&request) {
        Ok(files) => response.file = files,
        Err(message) => response.error = Some(message),
    }
    response
}

fn run(request: &CodeGeneratorRequest) -> Result<Vec<File>, String> {
    let mut config = Config::new();
    for param in request
        .parameter()
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        config.apply_parameter(param)?;
    }
    let files = crate::generate(&config, &request.proto_file, &request.file_to_generate)?;
    Ok(files
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
        assert_eq!(
            response.supported_features,
            Some(Feature::Proto3Optional as u64)
        );
    }
}
