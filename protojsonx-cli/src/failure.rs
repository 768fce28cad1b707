//! Why a run failed, how that is told on standard error, and its exit code.

use std::process::ExitCode;

use protojsonx_dynamic::{Error, ErrorKind};

/// A failed run.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// The command line is malformed: exit 2, with a pointer to `--help`.
    Usage(String),
    /// `--type` names no message type of the schema: exit 2.
    UnknownType(String),
    /// The schema, a file or the output failed: exit 1, told after `protojsonx: `.
    Error(String),
    /// The input is in error: exit 1, told as is (it starts with the input's name).
    Input(String),
    /// Standard output was closed by its reader (`protojsonx ... | head`): stop quietly.
    BrokenPipe,
}

impl Failure {
    /// Tells the failure on standard error and gives the exit code.
    pub fn report(&self) -> ExitCode {
        match self {
            Failure::Usage(text) => {
                eprintln!("protojsonx: {text}\nTry `protojsonx --help` for more information.");
                ExitCode::from(2)
            }
            Failure::UnknownType(text) => {
                eprintln!("protojsonx: {text}");
                ExitCode::from(2)
            }
            Failure::Error(text) => {
                eprintln!("protojsonx: {text}");
                ExitCode::FAILURE
            }
            Failure::Input(text) => {
                eprintln!("{text}");
                ExitCode::FAILURE
            }
            Failure::BrokenPipe => ExitCode::SUCCESS,
        }
    }
}

impl From<lexopt::Error> for Failure {
    fn from(error: lexopt::Error) -> Self {
        Failure::Usage(error.to_string())
    }
}

/// An error in ProtoJSON input `name`, whose first line is line
/// `line_offset + 1` of the whole input: `name:LINE:COLUMN: message at `path``.
pub fn in_json(name: &str, line_offset: usize, error: &Error) -> Failure {
    let what = described(error);
    Failure::Input(match error.line() {
        0 => format!("{name}: {what}"),
        line => format!("{name}:{}:{}: {what}", line_offset + line, error.column()),
    })
}

/// An error in binary input `name` (message `item` of a stream, counting
/// from 1), whose message starts at byte `start` of the whole input:
/// `name: message 3: message at `path` (byte N)`.
pub fn in_binary(name: &str, item: Option<usize>, start: u64, error: &Error) -> Failure {
    let mut text = in_item(name, item);
    text.push_str(&described(error));
    if error.kind() == ErrorKind::Binary {
        text.push_str(&format!(" (byte {})", start + error.offset() as u64));
    }
    Failure::Input(text)
}

/// A malformed frame of a length-delimited stream: `name: message 3: what (byte N)`.
pub fn in_frame(name: &str, item: usize, what: &str, byte: u64) -> Failure {
    Failure::Input(format!("{}{what} (byte {byte})", in_item(name, Some(item))))
}

/// `name: `, then `message K: ` for an item of a stream.
fn in_item(name: &str, item: Option<usize>) -> String {
    match item {
        Some(index) => format!("{name}: message {index}: "),
        None => format!("{name}: "),
    }
}

/// What went wrong and at which field, without the location.
fn described(error: &Error) -> String {
    let path = error.path_string();
    match path.is_empty() {
        true => error.message().to_owned(),
        false => format!("{} at `{path}`", error.message()),
    }
}
