//! The `protojsonx` binary, run as a user runs it, on tests/proto/cli/v1/order.proto
//! and, for `protojsonx gateway`, on the transcoding crate's shop service.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// An order with every kind of field of the test schema, as to-json writes it.
const ORDER: &str = r#"{"name":"o-1","totalCents":"1999","status":"STATUS_OPEN","customer":{"email":"ann@example.com","displayName":"Ann"},"lines":[{"sku":"A-1","quantity":2},{"sku":"B-2","quantity":1}],"labels":{"env":"prod"},"createdAt":"2024-05-01T12:00:00Z"}"#;

/// `{"name":"a","totalCents":"300"}` in binary: field 1 (string), field 2 (varint 300).
const SMALL_BINARY: &[u8] = &[0x0a, 0x01, b'a', 0x10, 0xac, 0x02];
const SMALL_JSON: &str = r#"{"name":"a","totalCents":"300"}"#;

/// The schema arguments: the .proto file, compiled by the tool.
const SCHEMA: [&str; 6] = [
    "-I",
    "proto",
    "--proto",
    "proto/cli/v1/order.proto",
    "--type",
    "cli.v1.Order",
];

/// What a run of the binary gave.
#[derive(Debug)]
struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

impl Run {
    /// Standard output as text, after checking the run succeeded.
    fn text(&self) -> String {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        String::from_utf8(self.stdout.clone()).unwrap()
    }

    /// Standard output as bytes, after checking the run succeeded.
    fn bytes(&self) -> Vec<u8> {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        self.stdout.clone()
    }

    /// Standard error, after checking the run failed with `code` and wrote nothing.
    fn error(&self, code: i32) -> &str {
        assert_eq!(self.code, code, "stderr: {}", self.stderr);
        self.stderr.trim_end()
    }
}

/// Runs `protojsonx args...` in tests/, with `stdin` as its standard input.
fn protojsonx(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_protojsonx"))
        .args(args)
        .current_dir(tests_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: output.stdout,
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// `protojsonx COMMAND SCHEMA... extra...` on `stdin`.
fn with_schema(command: &str, extra: &[&str], stdin: &[u8]) -> Run {
    let args: Vec<&str> = [command]
        .iter()
        .chain(&SCHEMA)
        .chain(extra)
        .copied()
        .collect();
    protojsonx(&args, stdin)
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// A fresh path in the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("protojsonx-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// `messages` as a length-delimited stream.
fn delimited(messages: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for message in messages {
        assert!(message.len() < 128, "one-byte length prefixes only");
        out.push(message.len() as u8);
        out.extend_from_slice(message);
    }
    out
}

/// Line and column (from 1) of the first `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).unwrap();
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, offset - line_start + 1)
}

#[test]
fn json_goes_to_binary_and_back() {
    let binary = with_schema("from-json", &[], ORDER.as_bytes()).bytes();
    let json = with_schema("to-json", &[], &binary).text();
    assert_eq!(json, format!("{ORDER}\n"));
}

#[test]
fn binary_is_protobuf_wire_format() {
    assert_eq!(
        with_schema("from-json", &[], SMALL_JSON.as_bytes()).bytes(),
        SMALL_BINARY
    );
    assert_eq!(
        with_schema("to-json", &[], SMALL_BINARY).text(),
        format!("{SMALL_JSON}\n")
    );
}

#[test]
fn encode_options_are_flags() {
    let binary = with_schema("from-json", &[], ORDER.as_bytes()).bytes();
    let names = ["--use-proto-names", "--enums-as-ints"];
    let json = with_schema("to-json", &names, &binary).text();
    assert!(
        json.starts_with(r#"{"name":"o-1","total_cents":"1999","status":1,"#),
        "{json}"
    );
    assert!(json.contains(r#""display_name":"Ann""#), "{json}");

    let defaults = with_schema("to-json", &["--emit-default-values"], SMALL_BINARY).text();
    assert_eq!(
        defaults,
        "{\"name\":\"a\",\"totalCents\":\"300\",\"status\":\"STATUS_UNSPECIFIED\",\"lines\":[],\"labels\":{}}\n"
    );
    let pretty = with_schema("to-json", &["--indent", "2"], SMALL_BINARY).text();
    assert_eq!(
        pretty,
        "{\n  \"name\": \"a\",\n  \"totalCents\": \"300\"\n}\n"
    );

    let unicode = with_schema("from-json", &[], r#"{"name":"café"}"#.as_bytes()).bytes();
    let ascii = with_schema("to-json", &["--ensure-ascii"], &unicode).text();
    assert_eq!(ascii, "{\"name\":\"caf\\u00e9\"}\n");
}

#[test]
fn decode_options_are_flags() {
    let unknown = r#"{"name":"a","colour":"red","totalCents":"300"}"#;
    let err = with_schema("from-json", &[], unknown.as_bytes());
    assert!(err.error(1).contains("at `colour`"), "{}", err.stderr);
    let ignored = with_schema(
        "from-json",
        &["--ignore-unknown-fields"],
        unknown.as_bytes(),
    );
    assert_eq!(ignored.bytes(), SMALL_BINARY);

    let deep = r#"{"customer":{"email":"x"}}"#;
    assert_eq!(
        with_schema("from-json", &["--max-depth", "2"], deep.as_bytes()).code,
        0
    );
    let too_deep = with_schema("from-json", &["--max-depth", "1"], deep.as_bytes());
    assert!(
        too_deep.error(1).starts_with("<stdin>:1:"),
        "{}",
        too_deep.stderr
    );
}

#[test]
fn streams_go_both_ways() {
    let ndjson = format!("{ORDER}\n\n{SMALL_JSON}\r\n  \n{{}}");
    let binary = with_schema("from-json", &["--stream"], ndjson.as_bytes()).bytes();
    let one = with_schema("from-json", &[], ORDER.as_bytes()).bytes();
    let mut expected = vec![one.len() as u8];
    expected.extend_from_slice(&one);
    expected.push(SMALL_BINARY.len() as u8);
    expected.extend_from_slice(SMALL_BINARY);
    expected.push(0);
    assert_eq!(binary, expected);

    let json = with_schema("to-json", &["--stream"], &binary).text();
    assert_eq!(json, format!("{ORDER}\n{SMALL_JSON}\n{{}}\n"));

    let pretty = with_schema(
        "to-json",
        &["--stream", "--indent", "1"],
        &binary[binary.len() - 8..],
    );
    assert_eq!(
        pretty.text(),
        "{\n \"name\": \"a\",\n \"totalCents\": \"300\"\n}\n{}\n"
    );
    assert_eq!(with_schema("to-json", &["--stream"], b"").text(), "");
}

#[test]
fn a_descriptor_set_is_a_schema() {
    let (set, _) = protoc_gen_rust_protojsonx::Builder::new()
        .include(tests_dir().join("proto"))
        .file_descriptor_set(&[tests_dir().join("proto/cli/v1/order.proto")])
        .unwrap();
    let path = scratch("order.binpb");
    std::fs::write(&path, prost::Message::encode_to_vec(&set)).unwrap();
    let schema = ["--descriptor-set", path.to_str().unwrap()];

    let args = [&["from-json"][..], &schema, &["--type", ".cli.v1.Order"]].concat();
    let binary = protojsonx(&args, ORDER.as_bytes()).bytes();
    let args = [&["to-json"][..], &schema, &["--type", "cli.v1.Order"]].concat();
    assert_eq!(protojsonx(&args, &binary).text(), format!("{ORDER}\n"));

    let args = [
        &["to-json"][..],
        &schema,
        &["--type", "cli.v1.Order.Customer"],
    ]
    .concat();
    let customer = protojsonx(&args, &[0x12, 0x03, b'A', b'n', b'n']).text();
    assert_eq!(customer, "{\"displayName\":\"Ann\"}\n");
}

/// An `edition = "2023"` schema, as a .proto file (read by the vendored
/// protoc) and as protoc's descriptor set: presence is the edition's.
#[test]
fn an_editions_schema_works_both_ways() {
    let dir = scratch("editions");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ed/v1")).unwrap();
    std::fs::write(
        dir.join("ed/v1/item.proto"),
        "edition = \"2023\";\npackage ed.v1;\nmessage Item {\n  int32 count = 1;\n  \
         int32 implicit = 2 [features.field_presence = IMPLICIT];\n}\n",
    )
    .unwrap();
    let fds = dir.join("item.binpb");
    let status = Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg(format!("--proto_path={}", dir.display()))
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", fds.display()))
        .arg("ed/v1/item.proto")
        .status()
        .unwrap();
    assert!(status.success());
    let (root, proto) = (dir.to_str().unwrap(), dir.join("ed/v1/item.proto"));
    let proto = proto.to_str().unwrap();
    for schema in [
        &["-I", root, "--proto", proto][..],
        &["--descriptor-set", fds.to_str().unwrap()],
    ] {
        let args = [&["from-json"][..], schema, &["--type", "ed.v1.Item"]].concat();
        // An explicit zero is kept; an implicit one is not encoded.
        let binary = protojsonx(&args, br#"{"count":0,"implicit":0}"#).bytes();
        assert_eq!(binary, [0x08, 0x00]);
        let args = [&["to-json"][..], schema, &["--type", "ed.v1.Item"]].concat();
        assert_eq!(protojsonx(&args, &binary).text(), "{\"count\":0}\n");
    }
}

#[test]
fn files_in_and_out() {
    let input = scratch("order.json");
    let output = scratch("order.bin");
    std::fs::write(&input, ORDER).unwrap();
    let args = ["-o", output.to_str().unwrap(), input.to_str().unwrap()];
    let run = with_schema("from-json", &args, b"");
    assert_eq!(
        (run.code, run.stdout.as_slice()),
        (0, &b""[..]),
        "{}",
        run.stderr
    );
    let binary = std::fs::read(&output).unwrap();
    assert_eq!(
        with_schema("to-json", &["-"], &binary).text(),
        format!("{ORDER}\n")
    );

    std::fs::write(&input, "{\"name\": 7}").unwrap();
    std::fs::remove_file(&output).unwrap();
    let run = with_schema("from-json", &args, b"");
    let expected = format!("{}:1:10: ", input.display());
    assert!(run.error(1).starts_with(&expected), "{}", run.stderr);
    assert!(!output.exists(), "a failed run creates no output file");
}

#[test]
fn json_errors_give_file_line_column_and_field() {
    let json = "{\n  \"name\": \"o-1\",\n  \"lines\": [\n    {\"sku\": \"A\"},\n    {\"sku\": \"B\", \"quantity\": -1}\n  ]\n}\n";
    let run = with_schema("from-json", &[], json.as_bytes());
    let (line, column) = position(json, "-1}");
    let stderr = run.error(1);
    assert!(
        stderr.starts_with(&format!("<stdin>:{line}:{column}: ")),
        "{stderr}"
    );
    assert!(stderr.ends_with(" at `lines[1].quantity`"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn stream_errors_count_lines_in_the_whole_input() {
    let ndjson =
        format!("{SMALL_JSON}\n\n{ORDER}\n{{\"customer\": {{\"email\": 1}}}}\n{SMALL_JSON}\n");
    let run = with_schema("from-json", &["--stream"], ndjson.as_bytes());
    let stderr = run.error(1);
    assert!(stderr.starts_with("<stdin>:4:24: "), "{stderr}");
    assert!(stderr.ends_with(" at `customer.email`"), "{stderr}");
    // The messages before the one in error were written.
    let written = with_schema("to-json", &["--stream"], &run.stdout).text();
    assert_eq!(written, format!("{SMALL_JSON}\n{ORDER}\n"));

    let cut = with_schema(
        "from-json",
        &["--stream"],
        format!("{SMALL_JSON}\n{{\"name\": ").as_bytes(),
    );
    assert!(cut.error(1).starts_with("<stdin>:2:10: "), "{}", cut.stderr);
}

#[test]
fn binary_errors_give_the_byte_and_the_message() {
    // Field 1 (name) says 5 bytes; 1 follows.
    let truncated: &[u8] = &[0x0a, 0x05, b'a'];
    let run = with_schema("to-json", &[], truncated);
    let stderr = run.error(1);
    assert!(stderr.starts_with("<stdin>: "), "{stderr}");
    assert!(stderr.contains(" (byte "), "{stderr}");

    let stream = delimited(&[SMALL_BINARY, truncated]);
    let run = with_schema("to-json", &["--stream"], &stream);
    let stderr = run.error(1);
    assert!(stderr.starts_with("<stdin>: message 2: "), "{stderr}");
    assert_eq!(run.stdout, format!("{SMALL_JSON}\n").as_bytes());

    // A customer (field 4) whose display_name is not UTF-8.
    let bad_utf8: &[u8] = &[0x22, 0x03, 0x12, 0x01, 0xff];
    let run = with_schema(
        "to-json",
        &["--stream"],
        &delimited(&[SMALL_BINARY, bad_utf8]),
    );
    let stderr = run.error(1);
    assert!(stderr.starts_with("<stdin>: message 2: "), "{stderr}");
    assert!(stderr.contains("customer"), "{stderr}");
    assert!(stderr.ends_with(" (byte 12)"), "{stderr}");
}

#[test]
fn broken_frames_are_errors() {
    let mut short = delimited(&[SMALL_BINARY]);
    short.extend_from_slice(&[0x05, 0x0a]);
    let run = with_schema("to-json", &["--stream"], &short);
    assert_eq!(
        run.error(1),
        "<stdin>: message 2: the input ends after 1 of its 5 bytes (byte 9)"
    );
    let cut_prefix = with_schema("to-json", &["--stream"], &[0x80]);
    assert_eq!(
        cut_prefix.error(1),
        "<stdin>: message 1: the input ends in a length prefix (byte 0)"
    );
}

#[test]
fn an_unknown_type_names_the_near_ones() {
    let args = [
        "to-json",
        "-I",
        "proto",
        "--proto",
        "proto/cli/v1/order.proto",
    ];
    let run = protojsonx(&[&args[..], &["--type", "cli.v1.Ordr"]].concat(), b"");
    assert_eq!(
        run.error(2),
        "protojsonx: the schema has no message type `cli.v1.Ordr`; did you mean `cli.v1.Order`?"
    );
    let run = protojsonx(&[&args[..], &["--type", "Line"]].concat(), b"");
    assert!(
        run.error(2).ends_with("did you mean `cli.v1.Line`?"),
        "{}",
        run.stderr
    );
    let run = protojsonx(&[&args[..], &["--type", "cli.v1.Status"]].concat(), b"");
    assert!(run.error(2).contains("is an enum"), "{}", run.stderr);
}

#[test]
fn schema_errors_name_the_file() {
    let run = protojsonx(
        &["to-json", "--proto", "proto/missing.proto", "--type", "a.B"],
        b"",
    );
    assert!(
        run.error(1)
            .starts_with("protojsonx: cannot read `proto/missing.proto`: "),
        "{}",
        run.stderr
    );
    let not_a_set = scratch("not-a-set.binpb");
    std::fs::write(&not_a_set, b"\xff\xff").unwrap();
    let path = not_a_set.to_str().unwrap();
    let run = protojsonx(&["to-json", "--descriptor-set", path, "--type", "a.B"], b"");
    let expected = format!("protojsonx: `{path}`: invalid descriptors: ");
    assert!(run.error(1).starts_with(&expected), "{}", run.stderr);
}

#[test]
fn usage_errors_exit_2_and_help_tells_everything() {
    let run = protojsonx(&["to-json", "--proto", "proto/cli/v1/order.proto"], b"");
    assert!(
        run.error(2).starts_with("protojsonx: no --type"),
        "{}",
        run.stderr
    );
    let run = with_schema("to-json", &["--allow-partial"], b"");
    assert!(
        run.error(2).contains("option of `from-json`"),
        "{}",
        run.stderr
    );

    let help = protojsonx(&["--help"], b"").text();
    for flag in [
        "to-json",
        "from-json",
        "--descriptor-set",
        "--proto",
        "--include",
        "--type",
        "--output",
        "--stream",
        "--use-proto-names",
        "--enums-as-ints",
        "--emit-default-values",
        "--emit-unpopulated",
        "--indent",
        "--ensure-ascii",
        "--ignore-unknown-fields",
        "--allow-partial",
        "--max-depth",
        "gateway",
        "--upstream",
        "--listen",
        "--allow-unknown-parameters",
        "--max-body",
        "--forward-header",
        "--version",
        "Exit status",
    ] {
        assert!(help.contains(flag), "--help says nothing of {flag}");
    }
    let version = protojsonx(&["-V"], b"").text();
    assert_eq!(
        version,
        format!("protojsonx {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The transcoding crate's test service, its directory and its file.
const SHOP_INCLUDE: &str = "../../protojsonx-transcode/e2e/proto";
const SHOP_PROTO: &str = "../../protojsonx-transcode/e2e/proto/shop/v1/shop.proto";

/// A `protojsonx gateway` process, killed when dropped.
struct Gateway {
    child: Child,
    /// Where it listens.
    address: String,
    /// Its start line.
    banner: String,
}

impl Gateway {
    /// Starts `protojsonx gateway args... --listen 127.0.0.1:0` in tests/ and
    /// waits for its start line.
    fn start(args: &[&str]) -> Gateway {
        let mut child = Command::new(env!("CARGO_BIN_EXE_protojsonx"))
            .arg("gateway")
            .args(args)
            .args(["--listen", "127.0.0.1:0"])
            .current_dir(tests_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut banner = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut banner)
            .unwrap();
        if banner.is_empty() {
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            panic!("the gateway did not start: {stderr}");
        }
        let address = banner
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .unwrap()
            .to_owned();
        Gateway {
            child,
            address,
            banner,
        }
    }

    /// `METHOD path` with `body`, over HTTP/1.1: the status and the body.
    fn send(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let chunked = head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        (status, if chunked { dechunk(body) } else { body.into() })
    }

    /// Stops it with SIGTERM: its exit code and standard error.
    fn terminate(mut self) -> (i32, String) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(status.success());
        let code = self.child.wait().unwrap().code().unwrap_or(-1);
        let mut stderr = String::new();
        let mut pipe = self.child.stderr.take().unwrap();
        pipe.read_to_string(&mut stderr).unwrap();
        (code, stderr)
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A chunked HTTP/1.1 body's data.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// A loopback address where nothing listens.
fn closed_upstream() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

/// shop.proto and its imports as a descriptor set written by protox with
/// the options' extensions kept, at a scratch path.
fn shop_descriptor_set() -> PathBuf {
    let set = protox::Compiler::new([
        tests_dir().join(SHOP_INCLUDE),
        tests_dir().join("../../protojsonx-transcode/proto"),
    ])
    .unwrap()
    .include_imports(true)
    .open_file("shop/v1/shop.proto")
    .unwrap()
    .encode_file_descriptor_set();
    let path = scratch("shop.binpb");
    std::fs::write(&path, set).unwrap();
    path
}

/// The answers of a gateway whose upstream is down: 503 with status 14
/// for a method, 404 with status 5 for a path no rule has.
fn answers_without_upstream(gateway: &Gateway) {
    let (status, body) = gateway.send("GET", "/v1/shelves/1/items/2", "");
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with(r#"{"code":14,"message":""#), "{body}");
    let (status, body) = gateway.send("GET", "/v2/nothing", "");
    assert_eq!(status, 404, "{body}");
    assert!(body.starts_with(r#"{"code":5,"#), "{body}");
    let (status, body) = gateway.send("POST", "/v1/shelves/1/items", "{");
    assert_eq!(status, 400, "{body}");
    assert!(body.starts_with(r#"{"code":3,"#), "{body}");
}

#[test]
fn the_gateway_serves_a_descriptor_set_and_stops_on_sigterm() {
    let set = shop_descriptor_set();
    let upstream = closed_upstream();
    let args = [
        "--descriptor-set",
        set.to_str().unwrap(),
        "--upstream",
        &upstream,
    ];
    let gateway = Gateway::start(&args);
    let expected = format!(", serving 12 methods (13 bindings) of {upstream}\n");
    assert!(gateway.banner.ends_with(&expected), "{}", gateway.banner);
    answers_without_upstream(&gateway);
    let (code, stderr) = gateway.terminate();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "protojsonx gateway: stopping\n");
}

#[test]
fn the_gateway_compiles_protos_with_their_rules() {
    let upstream = closed_upstream();
    // Without google/api on the include path: the built-in copies serve.
    let builtin = [
        "-I",
        SHOP_INCLUDE,
        "--proto",
        SHOP_PROTO,
        "--upstream",
        &upstream,
    ];
    // With the transcoding crate's copies.
    let vendored = [&builtin[..], &["-I", "../../protojsonx-transcode/proto"]].concat();
    for args in [&builtin[..], &vendored] {
        let gateway = Gateway::start(args);
        assert!(
            gateway.banner.contains("(13 bindings)"),
            "{}",
            gateway.banner
        );
        answers_without_upstream(&gateway);
    }
}

/// An `edition = "2023"` file's rules are served: the gateway reads them
/// through the vendored protoc and types parameters by the edition's fields.
#[test]
fn the_gateway_serves_an_editions_file() {
    let dir = scratch("editions-gateway");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ed/v1")).unwrap();
    std::fs::write(
        dir.join("ed/v1/counter.proto"),
        "edition = \"2023\";\npackage ed.v1;\nimport \"google/api/annotations.proto\";\n\
         message Count {\n  string name = 1;\n  int32 step = 2 [features.field_presence = IMPLICIT];\n}\n\
         service Counter {\n  rpc Add(Count) returns (Count) {\n    \
         option (google.api.http) = {post: \"/v1/{name=counters/*}:add\"};\n  }\n}\n",
    )
    .unwrap();
    let (root, proto) = (dir.to_str().unwrap(), dir.join("ed/v1/counter.proto"));
    let upstream = closed_upstream();
    let args = [
        "-I",
        root,
        "--proto",
        proto.to_str().unwrap(),
        "--upstream",
        &upstream,
    ];
    let gateway = Gateway::start(&args);
    assert!(
        gateway.banner.contains("serving 1 method (1 binding)"),
        "{}",
        gateway.banner
    );
    let (status, body) = gateway.send("POST", "/v1/counters/a:add?step=2", "");
    assert_eq!(status, 503, "{body}");
    let (status, body) = gateway.send("POST", "/v1/counters/a:add?step=two", "");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("invalid query parameter `step`"), "{body}");
}

#[test]
fn gateway_errors() {
    // A set decoded and re-encoded through prost-types loses the methods'
    // options: no rule is left to serve.
    let set = std::fs::read(shop_descriptor_set()).unwrap();
    let set: prost_types::FileDescriptorSet = prost::Message::decode(set.as_slice()).unwrap();
    let stripped = scratch("shop-stripped.binpb");
    std::fs::write(&stripped, prost::Message::encode_to_vec(&set)).unwrap();
    let path = stripped.to_str().unwrap();
    let run = protojsonx(
        &["gateway", "--descriptor-set", path, "--upstream", "h:1"],
        b"",
    );
    let expected =
        format!("protojsonx: `{path}`: no method of the descriptors has a google.api.http rule");
    assert_eq!(run.error(1), expected);

    let order = [
        "gateway",
        "-I",
        "proto",
        "--proto",
        "proto/cli/v1/order.proto",
    ];
    let run = protojsonx(&[&order[..], &["--upstream", "h:1"]].concat(), b"");
    assert!(
        run.error(1).contains("do not define google.api.http"),
        "{}",
        run.stderr
    );
    let run = protojsonx(&order, b"");
    assert!(
        run.error(2).starts_with("protojsonx: no --upstream"),
        "{}",
        run.stderr
    );
    let run = protojsonx(
        &[&order[..], &["--upstream", "h:1", "--type", "a.B"]].concat(),
        b"",
    );
    assert!(
        run.error(2).contains("--type is an option of"),
        "{}",
        run.stderr
    );

    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    let set = shop_descriptor_set();
    let args = [
        "gateway",
        "--descriptor-set",
        set.to_str().unwrap(),
        "--upstream",
        "h:1",
    ];
    let run = protojsonx(&[&args[..], &["--listen", &taken]].concat(), b"");
    let expected = format!("protojsonx: cannot listen on `{taken}`: ");
    assert!(run.error(1).starts_with(&expected), "{}", run.stderr);
}
