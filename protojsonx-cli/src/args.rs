//! The command line: what `protojsonx` is asked to do, and its `--help`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use http::HeaderName;
use lexopt::{Arg, Parser, ValueExt};
use protojsonx_dynamic::{DecodeOptions, EncodeOptions};

use crate::failure::Failure;

/// The text of `protojsonx --help`.
pub const HELP: &str = "\
protojsonx: binary protobuf to ProtoJSON and back, for message types known at run time

Usage:
  protojsonx to-json   --type NAME (--descriptor-set FILE | --proto FILE...) [OPTIONS] [INPUT]
  protojsonx from-json --type NAME (--descriptor-set FILE | --proto FILE...) [OPTIONS] [INPUT]
  protojsonx gateway   (--descriptor-set FILE | --proto FILE...) --upstream URL [OPTIONS]

Commands:
  to-json    Read binary protobuf, write ProtoJSON
  from-json  Read ProtoJSON, write binary protobuf
  gateway    Serve HTTP/JSON in front of a gRPC server, by the google.api.http
             rules of its methods

INPUT is a file; without it, or when it is `-`, standard input is read. The
output goes to standard output, or to the file given with -o.

Schema:
      --type NAME            The message type, by full name: `shop.v1.Order`,
                             `shop.v1.Order.Line` for a nested one (required)
      --descriptor-set FILE  A serialized google.protobuf.FileDescriptorSet holding
                             the type and all it uses (`protoc --include_imports -o
                             FILE`, `buf build -o FILE`)
      --proto FILE           A .proto file to compile, in process as build.rs does
                             (no protoc needed; the protoc that $PROTOC names, if
                             set); repeatable. google/protobuf/*.proto are built in
  -I, --include DIR          A directory that --proto files and their imports are
                             found under; repeatable. Default: the directory of
                             each --proto file

Input and output:
  -o, --output FILE          Write to FILE instead of standard output (`-`: standard
                             output). Without --stream, FILE is written only on success
      --stream               Many messages instead of one. to-json reads
                             length-delimited binary (each message preceded by its
                             size as a varint, as protobuf's writeDelimitedTo writes)
                             and writes NDJSON, one JSON per line (with --indent, one
                             pretty-printed JSON after another). from-json reads
                             NDJSON, one message per line, blank lines skipped, and
                             writes length-delimited binary. The output is flushed
                             whenever the input pauses. Without --stream, exactly
                             one message is read and one written (to-json ends its
                             JSON with a newline)

to-json options:
      --use-proto-names      Keys as the .proto field names (`user_id`), not the JSON
                             names (`userId`)
      --enums-as-ints        Enum values as numbers, not names
      --emit-default-values  Also write fields without presence that hold their
                             default value (0, \"\", false, [], {})
      --emit-unpopulated     What --emit-default-values writes, and `null` for unset
                             message fields and proto2 optional fields (Go's
                             EmitUnpopulated)
      --indent N             Pretty-print with N spaces per level (0 to 255; 0: new
                             lines only)
      --ensure-ascii         Escape every character outside ASCII as \\uXXXX

from-json options:
      --ignore-unknown-fields
                             Skip keys that name no field, and enum names the enum
                             does not have, instead of failing
      --allow-partial        Accept objects that leave out a proto2 required field
      --max-depth N          The deepest nesting of objects and arrays accepted
                             (default 100)

gateway options (besides the to-json and from-json options, which say how
answers are written and requests read):
      --upstream URL         The gRPC server to forward to: http://HOST:PORT
                             (plaintext HTTP/2; `http://` may be left out) (required)
      --listen ADDR          Where to serve HTTP/1.1 and HTTP/2 (h2c): HOST:PORT
                             (default 127.0.0.1:8080; port 0: any free port)
      --proto-names          The same as --use-proto-names
      --allow-unknown-parameters
                             Ignore query parameters that name no field, instead
                             of answering 400
      --max-body BYTES       Refuse request bodies longer than BYTES with 413
                             (default 4194304)
      --timeout SECONDS      The longest a request may take (decimals allowed):
                             the deadline of calls without grpc-timeout and the
                             most one may ask for; 504 past it (default none)
      --forward-header NAME  Forward the HTTP header NAME as gRPC metadata;
                             repeatable. Authorization, grpc-metadata-* (without
                             the prefix) and grpc-timeout always are
  With --proto, the files need google/api/annotations.proto: when the include
  directories lack it, a built-in copy (and of google/api/http.proto) is used.
  The gateway prints one line when it listens, `protojsonx gateway: listening
  on http://ADDR, ...`, and serves until SIGINT or SIGTERM, after which it
  finishes the requests under way (for 10 seconds at most).

  -h, --help                 Print this help
  -V, --version              Print the version

Errors are told on standard error, FILE being the input's path or <stdin>:
  FILE:LINE:COLUMN: MESSAGE at `field.path`
      in ProtoJSON input; in a stream, LINE counts the lines of the whole input
  FILE: MESSAGE at `field.path` (byte N)
  FILE: message K: MESSAGE at `field.path` (byte N)
      in binary input, the second in a stream: message K (counting from 1) is in
      error, N counting the bytes of the whole input
A stream stops at its first error, after writing the messages before it.

Exit status: 0 on success; 1 when the schema, the input or the output is in
error (or the gateway cannot listen); 2 when the command line is (an unknown
option, no --type, a --type the schema does not have).

Examples:
  protojsonx to-json -I proto --proto proto/shop/v1/order.proto --type shop.v1.Order order.bin
  protojsonx from-json --descriptor-set shop.binpb --type shop.v1.Order -o order.bin order.json
  protojsonx to-json --stream --descriptor-set shop.binpb --type shop.v1.Order < orders.bin
  protojsonx from-json --stream --ignore-unknown-fields --descriptor-set shop.binpb \\
      --type shop.v1.Order orders.ndjson > orders.bin
  protojsonx gateway --descriptor-set shop.binpb --upstream http://127.0.0.1:50051 \\
      --listen 0.0.0.0:8080 --forward-header x-request-id
";

/// What the command line asks for.
pub enum Command {
    /// Print [`HELP`].
    Help,
    /// Print the version.
    Version,
    /// Transcode.
    Run(Job),
    /// Serve a gateway.
    Gateway(GatewayJob),
}

/// The command named first on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    /// `to-json` or `from-json`.
    Transcode(Direction),
    /// `gateway`.
    Gateway,
}

/// Which way to transcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Binary protobuf in, ProtoJSON out (`to-json`).
    ToJson,
    /// ProtoJSON in, binary protobuf out (`from-json`).
    FromJson,
}

/// Where the message types come from.
#[derive(Debug, PartialEq, Eq)]
pub enum Schema {
    /// A serialized `FileDescriptorSet`.
    DescriptorSet(PathBuf),
    /// `.proto` files to compile, and the directories they and their imports are under.
    Protos {
        /// The `.proto` files.
        files: Vec<PathBuf>,
        /// The include directories, as given (maybe none).
        includes: Vec<PathBuf>,
    },
}

/// A transcoding run, as the command line describes it.
#[derive(Debug)]
pub struct Job {
    /// Which way.
    pub direction: Direction,
    /// Where the types come from.
    pub schema: Schema,
    /// The full name of the message type, without a leading dot.
    pub type_name: String,
    /// The input file; `None` for standard input.
    pub input: Option<PathBuf>,
    /// The output file; `None` for standard output.
    pub output: Option<PathBuf>,
    /// Many messages (length-delimited binary, NDJSON) instead of one.
    pub stream: bool,
    /// How JSON is written (to-json).
    pub encode: EncodeOptions,
    /// How JSON is read (from-json).
    pub decode: DecodeOptions,
}

/// A gateway, as the command line describes it.
#[derive(Debug)]
pub struct GatewayJob {
    /// Where the services come from.
    pub schema: Schema,
    /// The gRPC server's URL (`http://host:port`).
    pub upstream: String,
    /// Where to listen (`host:port`).
    pub listen: String,
    /// How answers are written.
    pub encode: EncodeOptions,
    /// How requests are read.
    pub decode: DecodeOptions,
    /// Ignore query parameters that name no field instead of refusing them.
    pub allow_unknown_parameters: bool,
    /// The longest request body accepted, if not the router's default.
    pub max_body: Option<usize>,
    /// The longest a request may take, if limited.
    pub timeout: Option<Duration>,
    /// Headers forwarded as metadata besides the router's defaults.
    pub forward_headers: Vec<HeaderName>,
}

/// Where the gateway listens unless `--listen` says otherwise.
const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// Reads the command line (without the program name).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, Failure> {
    let mut parser = Parser::from_args(args);
    let mut raw = Raw::default();
    while let Some(arg) = parser.next()? {
        let name = match arg {
            Arg::Value(value) if raw.command.is_none() && value == "help" => {
                return Ok(Command::Help);
            }
            Arg::Value(value) => {
                raw.positional(value)?;
                continue;
            }
            Arg::Short(letter) => short_name(letter)?.to_owned(),
            Arg::Long(name) => name.to_owned(),
        };
        match name.as_str() {
            "help" => return Ok(Command::Help),
            "version" => return Ok(Command::Version),
            _ => raw.option(&name, &mut parser)?,
        }
    }
    raw.finish()
}

/// The long option a short one stands for.
fn short_name(letter: char) -> Result<&'static str, lexopt::Error> {
    match letter {
        'h' => Ok("help"),
        'V' => Ok("version"),
        'I' => Ok("include"),
        'o' => Ok("output"),
        _ => Err(lexopt::Error::UnexpectedOption(format!("-{letter}"))),
    }
}

/// The command line as read so far, before its checks.
#[derive(Default)]
struct Raw {
    command: Option<Verb>,
    input: Option<PathBuf>,
    output: Option<PathBuf>,
    type_name: Option<String>,
    descriptor_set: Option<PathBuf>,
    protos: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    stream: bool,
    encode: EncodeOptions,
    decode: DecodeOptions,
    /// The to-json options given, by name, to check they suit the command.
    encode_flags: Vec<String>,
    /// The from-json options given, by name.
    decode_flags: Vec<String>,
    /// The options of to-json and from-json alone given, by name.
    transcode_flags: Vec<String>,
    upstream: Option<String>,
    listen: Option<String>,
    allow_unknown_parameters: bool,
    max_body: Option<usize>,
    timeout: Option<Duration>,
    forward_headers: Vec<String>,
    /// The gateway's options given, by name.
    gateway_flags: Vec<String>,
}

impl Raw {
    /// The command, then the input file.
    fn positional(&mut self, value: OsString) -> Result<(), Failure> {
        if self.command.is_none() {
            self.command = Some(verb(&value)?);
        } else if self.command == Some(Verb::Gateway) {
            let value = value.to_string_lossy();
            return Err(Failure::Usage(format!(
                "unexpected argument `{value}`: `gateway` reads no INPUT"
            )));
        } else if self.input.is_none() {
            self.input = Some(value.into());
        } else {
            let value = value.to_string_lossy();
            return Err(Failure::Usage(format!(
                "unexpected argument `{value}`: give one INPUT file at most"
            )));
        }
        Ok(())
    }

    /// The option `--name`, taking its value from `parser` if it has one.
    fn option(&mut self, name: &str, parser: &mut Parser) -> Result<(), lexopt::Error> {
        match name {
            "descriptor-set" => self.descriptor_set = Some(parser.value()?.into()),
            "proto" => self.protos.push(parser.value()?.into()),
            "include" => self.includes.push(parser.value()?.into()),
            _ => return self.transcode_option(name, parser),
        }
        Ok(())
    }

    /// The option `--name` of to-json and from-json alone.
    fn transcode_option(&mut self, name: &str, parser: &mut Parser) -> Result<(), lexopt::Error> {
        match name {
            "type" => self.type_name = Some(parser.value()?.string()?),
            "output" => self.output = Some(parser.value()?.into()),
            "stream" => self.stream = true,
            _ => return self.gateway_option(name, parser),
        }
        self.transcode_flags.push(name.to_owned());
        Ok(())
    }

    /// The gateway's option `--name`.
    fn gateway_option(&mut self, name: &str, parser: &mut Parser) -> Result<(), lexopt::Error> {
        match name {
            "upstream" => self.upstream = Some(parser.value()?.string()?),
            "listen" => self.listen = Some(parser.value()?.string()?),
            "allow-unknown-parameters" => self.allow_unknown_parameters = true,
            "max-body" => self.max_body = Some(parser.value()?.parse()?),
            "timeout" => self.timeout = Some(parser.value()?.parse_with(seconds)?),
            "forward-header" => self.forward_headers.push(parser.value()?.string()?),
            _ => return self.encode_option(name, parser),
        }
        self.gateway_flags.push(name.to_owned());
        Ok(())
    }

    /// The to-json option `--name`.
    fn encode_option(&mut self, name: &str, parser: &mut Parser) -> Result<(), lexopt::Error> {
        let opts = self.encode;
        self.encode = match name {
            "use-proto-names" | "proto-names" => opts.use_proto_names(true),
            "enums-as-ints" => opts.enums_as_ints(true),
            "emit-default-values" => opts.emit_default_values(true),
            "emit-unpopulated" => opts.emit_unpopulated(true),
            "ensure-ascii" => opts.ensure_ascii(true),
            "indent" => opts.indent(parser.value()?.parse()?),
            _ => return self.decode_option(name, parser),
        };
        self.encode_flags.push(name.to_owned());
        Ok(())
    }

    /// The from-json option `--name`.
    fn decode_option(&mut self, name: &str, parser: &mut Parser) -> Result<(), lexopt::Error> {
        let opts = self.decode;
        self.decode = match name {
            "ignore-unknown-fields" => opts.ignore_unknown_fields(true),
            "allow-partial" => opts.allow_partial(true),
            "max-depth" => opts.max_depth(parser.value()?.parse()?),
            _ => return Err(lexopt::Error::UnexpectedOption(format!("--{name}"))),
        };
        self.decode_flags.push(name.to_owned());
        Ok(())
    }

    /// Checks what was read and makes it a [`Command`].
    fn finish(self) -> Result<Command, Failure> {
        match self.command {
            None => Err(Failure::Usage(
                "no command: give `to-json`, `from-json` or `gateway`".into(),
            )),
            Some(Verb::Transcode(direction)) => self.job(direction).map(Command::Run),
            Some(Verb::Gateway) => self.gateway().map(Command::Gateway),
        }
    }

    /// Checks what was read for to-json or from-json and makes it a [`Job`].
    fn job(self, direction: Direction) -> Result<Job, Failure> {
        let usage = |text: &str| Failure::Usage(text.to_owned());
        if let Some(flag) = self.gateway_flags.first() {
            return Err(Failure::Usage(format!(
                "--{flag} is an option of `gateway`"
            )));
        }
        let type_name = self.type_name.as_deref().ok_or_else(|| {
            usage("no --type: give the message type by its full name, like `shop.v1.Order`")
        })?;
        self.check_flags(direction)?;
        Ok(Job {
            direction,
            schema: self.schema()?,
            type_name: type_name.trim_start_matches('.').to_owned(),
            input: self.input.filter(|path| path.as_os_str() != "-"),
            output: self.output.filter(|path| path.as_os_str() != "-"),
            stream: self.stream,
            encode: self.encode,
            decode: self.decode,
        })
    }

    /// Checks what was read for the gateway and makes it a [`GatewayJob`].
    fn gateway(self) -> Result<GatewayJob, Failure> {
        if let Some(flag) = self.transcode_flags.first() {
            return Err(Failure::Usage(format!(
                "--{flag} is an option of `to-json` and `from-json`, not of `gateway`"
            )));
        }
        let upstream = self.upstream.as_deref().ok_or_else(|| {
            Failure::Usage(
                "no --upstream: give the gRPC server, like `http://127.0.0.1:50051`".into(),
            )
        })?;
        let forward_headers = self
            .forward_headers
            .iter()
            .map(|name| header_name(name))
            .collect::<Result<_, _>>()?;
        Ok(GatewayJob {
            schema: self.schema()?,
            upstream: upstream_url(upstream)?,
            listen: self.listen.clone().unwrap_or_else(|| DEFAULT_LISTEN.into()),
            encode: self.encode,
            decode: self.decode,
            allow_unknown_parameters: self.allow_unknown_parameters,
            max_body: self.max_body,
            timeout: self.timeout,
            forward_headers,
        })
    }

    /// Fails on a to-json option given to from-json, or the other way round.
    fn check_flags(&self, direction: Direction) -> Result<(), Failure> {
        let (misplaced, owner) = match direction {
            Direction::ToJson => (self.decode_flags.first(), "from-json"),
            Direction::FromJson => (self.encode_flags.first(), "to-json"),
        };
        match misplaced {
            Some(flag) => Err(Failure::Usage(format!(
                "--{flag} is an option of `{owner}` (it changes how JSON is {})",
                if owner == "to-json" {
                    "written"
                } else {
                    "read"
                }
            ))),
            None => Ok(()),
        }
    }

    /// The schema: a descriptor set or `.proto` files, not both.
    fn schema(&self) -> Result<Schema, Failure> {
        let usage = |text: &str| Err(Failure::Usage(text.to_owned()));
        match (&self.descriptor_set, self.protos.is_empty()) {
            (Some(_), false) => usage("give --descriptor-set or --proto, not both"),
            (None, true) => usage("no schema: give --descriptor-set FILE or --proto FILE"),
            (Some(_), true) if !self.includes.is_empty() => {
                usage("-I/--include is for --proto files, not for --descriptor-set")
            }
            (Some(path), true) => Ok(Schema::DescriptorSet(path.clone())),
            (None, false) => Ok(Schema::Protos {
                files: self.protos.clone(),
                includes: self.includes.clone(),
            }),
        }
    }
}

/// The command named `value`.
fn verb(value: &OsString) -> Result<Verb, Failure> {
    match value.to_str() {
        Some("to-json") => Ok(Verb::Transcode(Direction::ToJson)),
        Some("from-json") => Ok(Verb::Transcode(Direction::FromJson)),
        Some("gateway") => Ok(Verb::Gateway),
        _ => Err(Failure::Usage(format!(
            "unknown command `{}`: give `to-json`, `from-json` or `gateway`",
            value.to_string_lossy()
        ))),
    }
}

/// A duration given in seconds, decimals allowed (`2.5`): positive and finite.
fn seconds(text: &str) -> Result<Duration, String> {
    let not = || format!("`{text}` is not a number of seconds");
    let seconds: f64 = text.parse().map_err(|_| not())?;
    if seconds <= 0.0 {
        return Err(not());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| not())
}

/// The upstream's URL: `http://` added when no scheme is given. TLS is
/// refused: the gateway's channel speaks plaintext HTTP/2 only.
fn upstream_url(given: &str) -> Result<String, Failure> {
    let url = match given.contains("://") {
        true => given.to_owned(),
        false => format!("http://{given}"),
    };
    let uri: http::Uri = url
        .parse()
        .map_err(|e| Failure::Usage(format!("--upstream `{given}` is not a URL: {e}")))?;
    match (uri.scheme_str(), uri.host()) {
        (Some("http"), Some(_)) => Ok(url),
        (Some("https"), _) => Err(Failure::Usage(format!(
            "--upstream `{given}`: TLS to the upstream is not supported; give an http:// URL"
        ))),
        _ => Err(Failure::Usage(format!(
            "--upstream `{given}` is not an http://HOST:PORT URL"
        ))),
    }
}

/// The header `--forward-header` names.
fn header_name(name: &str) -> Result<HeaderName, Failure> {
    HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| Failure::Usage(format!("--forward-header `{name}` is not a header name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(args: &str) -> Result<Job, Failure> {
        match parse(args.split_whitespace().map(OsString::from))? {
            Command::Run(job) => Ok(job),
            _ => panic!("`{args}` is not a run"),
        }
    }

    fn gateway(args: &str) -> Result<GatewayJob, Failure> {
        match parse(args.split_whitespace().map(OsString::from))? {
            Command::Gateway(job) => Ok(job),
            _ => panic!("`{args}` is not a gateway"),
        }
    }

    fn usage_error(args: &str) -> String {
        match parse(args.split_whitespace().map(OsString::from)) {
            Err(Failure::Usage(text)) => text,
            Err(other) => panic!("`{args}` gave {other:?}"),
            Ok(_) => panic!("`{args}` was accepted"),
        }
    }

    #[test]
    fn options_go_anywhere_and_fill_the_job() {
        let job = job("--type .a.B to-json -I inc --proto a.proto --indent 2 in.bin -o -").unwrap();
        assert_eq!(job.direction, Direction::ToJson);
        assert_eq!(job.type_name, "a.B");
        assert_eq!(job.input, Some(PathBuf::from("in.bin")));
        assert_eq!(job.output, None);
        assert_eq!(job.encode, EncodeOptions::new().indent(2));
        assert_eq!(
            job.schema,
            Schema::Protos {
                files: vec!["a.proto".into()],
                includes: vec!["inc".into()]
            }
        );
    }

    #[test]
    fn decode_options_are_read() {
        let job = job("from-json --type a.B --descriptor-set s.pb --max-depth 7 --allow-partial -")
            .unwrap();
        let opts = DecodeOptions::new().max_depth(7).allow_partial(true);
        assert_eq!((job.decode, job.input), (opts, None));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        let base = "--type a.B --descriptor-set s.pb";
        for (args, expected) in [
            (base.to_string(), "no command"),
            (format!("json {base}"), "unknown command `json`"),
            ("to-json --descriptor-set s.pb".into(), "no --type"),
            ("to-json --type a.B".into(), "no schema"),
            (format!("to-json {base} --proto a.proto"), "not both"),
            (
                format!("to-json {base} -I x"),
                "-I/--include is for --proto",
            ),
            (
                format!("to-json {base} --ignore-unknown-fields"),
                "of `from-json`",
            ),
            (format!("from-json {base} --enums-as-ints"), "of `to-json`"),
            (format!("to-json {base} a b"), "unexpected argument `b`"),
            (format!("to-json {base} --indent x"), "invalid digit"),
            (format!("to-json {base} --indent 256"), "too large"),
            (format!("to-json {base} --pretty"), "--pretty"),
            (format!("to-json {base} -x"), "-x"),
        ] {
            let text = usage_error(&args);
            assert!(text.contains(expected), "`{args}`: {text}");
        }
    }

    #[test]
    fn gateway_options_fill_the_gateway_job() {
        let job = gateway(
            "gateway -I inc --proto a.proto --upstream localhost:50051 --proto-names \
             --indent 1 --ignore-unknown-fields --allow-unknown-parameters --max-body 10 \
             --timeout 2.5 --forward-header X-Request-Id --forward-header x-b",
        )
        .unwrap();
        assert_eq!(job.upstream, "http://localhost:50051");
        assert_eq!(job.listen, DEFAULT_LISTEN);
        assert_eq!(
            job.encode,
            EncodeOptions::new().use_proto_names(true).indent(1)
        );
        assert_eq!(job.decode, DecodeOptions::new().ignore_unknown_fields(true));
        assert!(job.allow_unknown_parameters);
        assert_eq!(job.max_body, Some(10));
        assert_eq!(job.timeout, Some(Duration::from_millis(2500)));
        assert_eq!(job.forward_headers, ["x-request-id", "x-b"]);
        let job = gateway("gateway --descriptor-set s.pb --upstream http://[::1]:1 --listen :0");
        let job = job.unwrap();
        assert_eq!(
            (job.upstream.as_str(), job.listen.as_str()),
            ("http://[::1]:1", ":0")
        );
        assert_eq!(job.schema, Schema::DescriptorSet("s.pb".into()));
    }

    #[test]
    fn gateway_mistakes_are_usage_errors() {
        let base = "gateway --descriptor-set s.pb --upstream http://h:1";
        for (args, expected) in [
            ("gateway --descriptor-set s.pb".to_string(), "no --upstream"),
            ("gateway --upstream h:1".into(), "no schema"),
            (
                format!("{base} --type a.B"),
                "--type is an option of `to-json`",
            ),
            (format!("{base} --stream"), "--stream is an option of"),
            (format!("{base} in.json"), "reads no INPUT"),
            (format!("{base} --max-body x"), "invalid digit"),
            (format!("{base} --timeout 1s"), "not a number of seconds"),
            (format!("{base} --timeout 0"), "not a number of seconds"),
            (format!("{base} --timeout inf"), "not a number of seconds"),
            (format!("{base} --forward-header a:b"), "not a header name"),
            (
                "gateway --descriptor-set s.pb --upstream https://h:1".into(),
                "TLS",
            ),
            (
                "gateway --descriptor-set s.pb --upstream http://".into(),
                "not a URL",
            ),
            (
                "to-json --type a.B --descriptor-set s.pb --upstream h:1".into(),
                "--upstream is an option of `gateway`",
            ),
            (
                "from-json --type a.B --descriptor-set s.pb --max-body 1".into(),
                "--max-body is an option of `gateway`",
            ),
        ] {
            let text = usage_error(&args);
            assert!(text.contains(expected), "`{args}`: {text}");
        }
    }

    #[test]
    fn help_and_version_win() {
        for args in ["--help", "to-json -h", "help", "to-json --type x --help"] {
            let command = parse(args.split_whitespace().map(OsString::from)).unwrap();
            assert!(matches!(command, Command::Help), "{args}");
        }
        let command = parse([OsString::from("-V")]).unwrap();
        assert!(matches!(command, Command::Version));
    }
}
