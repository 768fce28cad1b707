//! `protojsonx`: binary protobuf to ProtoJSON and back on the command line,
//! for message types known only at run time (a descriptor set, or `.proto`
//! files compiled in process), through `protojsonx-dynamic`. One message or
//! streams of them: length-delimited binary, NDJSON. And `protojsonx
//! gateway`: HTTP/JSON in front of a gRPC server, by its methods'
//! `google.api.http` rules. `protojsonx --help` tells it all.

mod args;
mod convert;
mod failure;
mod files;
mod gateway;
mod schema;
mod services;

use std::process::ExitCode;

use args::Command;
use failure::Failure;

fn main() -> ExitCode {
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Does what the command line `args` says.
fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    match args::parse(args)? {
        Command::Help => print(args::HELP),
        Command::Version => print(&format!("protojsonx {}\n", env!("CARGO_PKG_VERSION"))),
        Command::Run(job) => {
            let message = schema::message_type(&job.schema, &job.type_name)?;
            convert::run(&job, &message)
        }
        Command::Gateway(job) => gateway::run(&job),
    }
}

/// Writes `text` to standard output.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = files::Output::create(None)?;
    out.write(text.as_bytes())?;
    out.flush()
}
