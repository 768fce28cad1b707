//! `transcode-load`: the transcoding load test over loopback.
//!
//! ```text
//! transcode-load [--out FILE] [--rounds N] [--duration S] [--warmup S]
//!                [--connections N] [--threads N] [--server-cpus LIST]
//! transcode-load --smoke
//! transcode-load serve routes|handwritten|grpc|gateway [UPSTREAM]
//! ```
//!
//! The driver starts one server process per way (this binary, `serve`): the
//! generated routes, the hand-written axum handlers, the gateway with its own
//! tonic upstream, and a tonic server called directly. It checks that the
//! three HTTP ways answer every case with the same bytes, then loads each
//! case and way in rounds: `wrk` for the HTTP ways, an in-process loop of
//! tonic clients (one connection each, as wrk has) for gRPC. Between runs it
//! reads each server's counters (allocations, requested bytes, calls: a
//! counting global allocator in every server) over the server's stdin and
//! stdout, and at the end each server's peak RSS; and writes the report.
//!
//! `--smoke` runs every case and way for a fraction of a second with the
//! in-process loop (no wrk), checking answers, and writes nothing.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use protojsonx_bench_transcode::catalog::catalog_client::CatalogClient;
use protojsonx_bench_transcode::{CALLS, CASES, Case, Service};
use tonic::transport::Channel;

#[path = "../../../src/counting.rs"]
mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

type Error = Box<dyn std::error::Error + Send + Sync>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        _ => Config::parse(&args).and_then(drive),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("transcode-load: {e}");
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------- servers

/// `serve WAY [UPSTREAM]`: prints `listening ADDR`, then answers each line
/// `stats` on stdin with `ALLOCS BYTES CALLS`; ends at the end of stdin.
fn serve(args: &[String]) -> Result<(), Error> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let (listener, addr) = protojsonx_bench_transcode::bind().await?;
        let way = args.first().map(String::as_str).unwrap_or("");
        let server: BoxFuture<'static, Result<(), Error>> = match way {
            "routes" => Box::pin(serve_http(
                listener,
                protojsonx_bench_transcode::routes(Service::default()),
            )),
            "handwritten" => Box::pin(serve_http(
                listener,
                protojsonx_bench_transcode::handwritten(Service::default()),
            )),
            "gateway" => {
                let upstream = args.get(1).ok_or("gateway needs an upstream")?;
                let app =
                    protojsonx_bench_transcode::gateway(upstream).map_err(|e| e.to_string())?;
                Box::pin(serve_http(listener, app))
            }
            "grpc" => Box::pin(async move {
                Ok(protojsonx_bench_transcode::grpc(listener, Service::default()).await?)
            }),
            other => return Err(format!("no way `{other}` to serve").into()),
        };
        println!("listening {addr}");
        std::io::stdout().flush()?;
        std::thread::spawn(|| {
            for line in std::io::stdin().lock().lines() {
                match line.as_deref() {
                    Ok("stats") => {
                        let (allocs, bytes) = counting::counts();
                        let calls = CALLS.load(Relaxed);
                        println!("{allocs} {bytes} {calls}");
                        let _ = std::io::stdout().flush();
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            std::process::exit(0);
        });
        server.await
    })
}

async fn serve_http(listener: tokio::net::TcpListener, app: axum::Router) -> Result<(), Error> {
    Ok(protojsonx_bench_transcode::serve_http(listener, app).await?)
}

/// The four ways, as reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Routes,
    Handwritten,
    Gateway,
    Grpc,
}

const WAYS: [Way; 4] = [Way::Routes, Way::Handwritten, Way::Gateway, Way::Grpc];

impl Way {
    fn label(self) -> &'static str {
        match self {
            Way::Routes => "(a) generated routes",
            Way::Handwritten => "(b) hand-written axum handler",
            Way::Gateway => "(c) gateway → tonic",
            Way::Grpc => "(d) tonic gRPC, tonic client",
        }
    }
}

/// Counters read from a server.
#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    allocs: u64,
    bytes: u64,
    calls: u64,
    /// CPU time (user and system) of the process, in clock ticks.
    ticks: u64,
}

impl std::ops::Sub for Stats {
    type Output = Stats;
    fn sub(self, o: Stats) -> Stats {
        Stats {
            allocs: self.allocs - o.allocs,
            bytes: self.bytes - o.bytes,
            calls: self.calls - o.calls,
            ticks: self.ticks - o.ticks,
        }
    }
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.allocs += o.allocs;
        self.bytes += o.bytes;
        self.calls += o.calls;
        self.ticks += o.ticks;
    }
}

/// A server process.
struct Server {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    addr: String,
}

impl Server {
    fn start(name: &'static str, args: &[&str], cpus: Option<&str>) -> Result<Server, Error> {
        let exe = std::env::current_exe()?;
        let mut command = match cpus {
            Some(cpus) => {
                let mut c = Command::new("taskset");
                c.args(["-c", cpus]).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let mut child = command
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .ok_or_else(|| format!("{name} did not start: {line:?}"))?
            .to_owned();
        Ok(Server {
            name,
            child,
            stdin,
            stdout,
            addr,
        })
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn stats(&mut self) -> Result<Stats, Error> {
        writeln!(self.stdin, "stats")?;
        self.stdin.flush()?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        let n: Vec<u64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        match n[..] {
            [allocs, bytes, calls] => Ok(Stats {
                allocs,
                bytes,
                calls,
                ticks: self.cpu_ticks(),
            }),
            _ => Err(format!("{}: bad stats line {line:?}", self.name).into()),
        }
    }

    /// CPU time used so far (`utime` + `stime` of /proc/PID/stat), in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // The fields after the command's closing parenthesis start at field 3;
        // utime and stime are fields 14 and 15.
        let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|f| f.parse().ok())
            .collect();
        fields.iter().sum()
    }

    /// Peak resident set (VmHWM), in KiB.
    fn peak_rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every server: the ways' own, and the gateway's upstream.
struct Servers {
    routes: Server,
    handwritten: Server,
    upstream: Server,
    gateway: Server,
    grpc: Server,
}

impl Servers {
    fn start(cpus: Option<&str>) -> Result<Servers, Error> {
        let upstream = Server::start("gateway's tonic upstream", &["grpc"], cpus)?;
        let gateway = Server::start("gateway", &["gateway", &upstream.url()], cpus)?;
        Ok(Servers {
            routes: Server::start("generated routes", &["routes"], cpus)?,
            handwritten: Server::start("hand-written handlers", &["handwritten"], cpus)?,
            upstream,
            gateway,
            grpc: Server::start("tonic gRPC (direct)", &["grpc"], cpus)?,
        })
    }

    fn of(&mut self, way: Way) -> &mut Server {
        match way {
            Way::Routes => &mut self.routes,
            Way::Handwritten => &mut self.handwritten,
            Way::Gateway => &mut self.gateway,
            Way::Grpc => &mut self.grpc,
        }
    }

    /// The counters of `way`'s server, and of the gateway's upstream.
    fn stats(&mut self, way: Way) -> Result<(Stats, Stats), Error> {
        let upstream = if way == Way::Gateway {
            self.upstream.stats()?
        } else {
            Stats::default()
        };
        Ok((self.of(way).stats()?, upstream))
    }

    fn all(&self) -> [&Server; 5] {
        [
            &self.routes,
            &self.handwritten,
            &self.gateway,
            &self.upstream,
            &self.grpc,
        ]
    }
}

// ---------------------------------------------------------------- driver

struct Config {
    smoke: bool,
    out: Option<PathBuf>,
    rounds: usize,
    duration: f64,
    warmup: f64,
    connections: usize,
    threads: usize,
    server_cpus: Option<String>,
}

impl Config {
    fn parse(args: &[String]) -> Result<Config, Error> {
        let mut config = Config {
            smoke: false,
            out: None,
            rounds: 3,
            duration: 4.0,
            warmup: 2.0,
            connections: 32,
            threads: 2,
            server_cpus: None,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--smoke" => config.smoke = true,
                "--out" => config.out = Some(value()?.into()),
                "--rounds" => config.rounds = value()?.parse()?,
                "--duration" => config.duration = value()?.parse()?,
                "--warmup" => config.warmup = value()?.parse()?,
                "--connections" => config.connections = value()?.parse()?,
                "--threads" => config.threads = value()?.parse()?,
                "--server-cpus" => config.server_cpus = Some(value()?.clone()),
                other => return Err(format!("unknown argument `{other}`").into()),
            }
        }
        Ok(config)
    }
}

/// One measured run of one case and way.
#[derive(Debug, Clone, Copy)]
struct Run {
    requests: u64,
    seconds: f64,
    p50_us: f64,
    p99_us: f64,
}

impl Run {
    fn rate(&self) -> f64 {
        self.requests as f64 / self.seconds
    }
}

/// Everything measured of one case and way.
#[derive(Debug, Default)]
struct Measured {
    runs: Vec<Run>,
    server: Stats,
    upstream: Stats,
}

impl Measured {
    fn best(&self) -> Option<Run> {
        self.runs
            .iter()
            .copied()
            .max_by(|a, b| a.rate().total_cmp(&b.rate()))
    }
}

fn drive(config: Config) -> Result<(), Error> {
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let started = Instant::now();
    let mut servers = Servers::start(config.server_cpus.as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.threads)
        .enable_all()
        .build()?;
    let http = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let grpc_url = servers.grpc.url();
    // The HTTP ways must answer alike, or the comparison means nothing.
    let mut expected = Vec::new();
    for case in CASES {
        let mut answers = Vec::new();
        for way in [Way::Routes, Way::Handwritten, Way::Gateway] {
            let url = format!("{}{}", servers.of(way).url(), case.path());
            answers.push(runtime.block_on(http_call(&http, case, &url, None))?);
        }
        if answers.iter().any(|a| a != &answers[0]) {
            return Err(format!(
                "{}: the HTTP ways answer differently:\n{}",
                case.name(),
                answers
                    .iter()
                    .map(|a| String::from_utf8_lossy(a)
                        .chars()
                        .take(300)
                        .collect::<String>())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
            .into());
        }
        expected.push(answers.swap_remove(0));
    }
    if config.smoke {
        for (case, expected) in CASES.into_iter().zip(&expected) {
            for way in WAYS {
                let before = servers.stats(way)?;
                let url = format!("{}{}", servers.of(way).url(), case.path());
                let expected = Arc::new(expected.clone());
                let run = runtime.block_on(in_process(
                    way,
                    case,
                    &http,
                    &url,
                    &grpc_url,
                    Some(expected),
                    4,
                    Duration::from_millis(200),
                ))?;
                let after = servers.stats(way)?;
                let (server, upstream) = (after.0 - before.0, after.1 - before.1);
                let calls = if way == Way::Gateway {
                    upstream.calls
                } else {
                    server.calls
                };
                if run.requests == 0 || calls == 0 || server.allocs == 0 {
                    return Err(format!(
                        "{} {}: {} requests, {calls} calls, {} allocations counted",
                        case.name(),
                        way.label(),
                        run.requests,
                        server.allocs
                    )
                    .into());
                }
                println!("ok {} {}", case.name(), way.label());
            }
        }
        println!("transcode-load smoke check passed");
        return Ok(());
    }

    let scratch = std::env::temp_dir().join(format!("transcode-load-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let mut results: Vec<Vec<Measured>> = Vec::new();
    for case in CASES {
        let script = wrk_script(&scratch, case)?;
        let mut measured: Vec<Measured> = WAYS.iter().map(|_| Measured::default()).collect();
        for round in 0..config.rounds {
            for i in 0..WAYS.len() {
                // Each round starts at another way.
                let index = (i + round) % WAYS.len();
                let way = WAYS[index];
                let url = format!("{}{}", servers.of(way).url(), case.path());
                if round == 0 {
                    load(
                        &config,
                        &runtime,
                        way,
                        case,
                        &http,
                        &url,
                        &grpc_url,
                        &script,
                        config.warmup,
                    )?;
                }
                let before = servers.stats(way)?;
                let run = load(
                    &config,
                    &runtime,
                    way,
                    case,
                    &http,
                    &url,
                    &grpc_url,
                    &script,
                    config.duration,
                )?;
                // Let the last answers leave the server before counting.
                std::thread::sleep(Duration::from_millis(200));
                let after = servers.stats(way)?;
                measured[index].server += after.0 - before.0;
                measured[index].upstream += after.1 - before.1;
                measured[index].runs.push(run);
                eprintln!(
                    "{} round {} {}: {:.0} req/s, p50 {:.0} µs, p99 {:.0} µs",
                    case.name(),
                    round + 1,
                    way.label(),
                    run.rate(),
                    run.p50_us,
                    run.p99_us
                );
            }
        }
        results.push(measured);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let rss: Vec<(&str, u64)> = servers
        .all()
        .iter()
        .map(|s| (s.name, s.peak_rss_kib()))
        .collect();
    let load_after = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let report = report(
        &config,
        &results,
        &expected,
        &rss,
        &load_before,
        &load_after,
        started.elapsed(),
    );
    match &config.out {
        Some(path) => std::fs::write(path, report)?,
        None => print!("{report}"),
    }
    Ok(())
}

/// One load run of `seconds`: wrk for the HTTP ways, the in-process loop for gRPC.
#[allow(clippy::too_many_arguments)]
fn load(
    config: &Config,
    runtime: &tokio::runtime::Runtime,
    way: Way,
    case: Case,
    http: &Client<HttpConnector, Full<Bytes>>,
    url: &str,
    grpc_url: &str,
    script: &std::path::Path,
    seconds: f64,
) -> Result<Run, Error> {
    if way == Way::Grpc {
        return runtime.block_on(in_process(
            way,
            case,
            http,
            url,
            grpc_url,
            None,
            config.connections,
            Duration::from_secs_f64(seconds),
        ));
    }
    let output = Command::new("wrk")
        .arg(format!("-t{}", config.threads))
        .arg(format!("-c{}", config.connections))
        .arg(format!("-d{}s", seconds.ceil() as u64))
        .args(["--timeout", "10s", "-s"])
        .arg(script)
        .arg(url)
        .output()
        .map_err(|e| format!("cannot run wrk ({e}): apt-get install wrk"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .ok_or_else(|| {
            format!(
                "wrk gave no result:\n{stdout}{}",
                String::from_utf8_lossy(&output.stderr)
            )
        })?;
    let n: Vec<f64> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let [requests, micros, p50, p99, status_errors, socket_errors] = n[..] else {
        return Err(format!("bad wrk result {line:?}").into());
    };
    if status_errors > 0.0 || socket_errors > 0.0 {
        return Err(format!(
            "{} {}: {status_errors} non-2xx answers, {socket_errors} socket errors",
            case.name(),
            way.label()
        )
        .into());
    }
    Ok(Run {
        requests: requests as u64,
        seconds: micros / 1e6,
        p50_us: p50,
        p99_us: p99,
    })
}

/// The wrk script of `case`: its method and body, and a `done` that prints
/// requests, duration (µs), p50 and p99 (µs), and the error counts.
fn wrk_script(dir: &std::path::Path, case: Case) -> Result<PathBuf, Error> {
    let mut script = format!("wrk.method = \"{}\"\n", case.method());
    let body = case.body();
    if !body.is_empty() {
        let path = dir.join(format!("{}.json", case.name()));
        std::fs::write(&path, &body)?;
        writeln!(
            script,
            "wrk.headers[\"Content-Type\"] = \"application/json\"\n\
             local f = assert(io.open(\"{}\", \"rb\"))\nwrk.body = f:read(\"*a\")\nf:close()",
            path.display()
        )?;
    }
    script.push_str(
        "done = function(summary, latency, requests)\n  \
           local e = summary.errors\n  \
           io.write(string.format(\"RESULT %d %d %f %f %d %d\\n\", summary.requests, summary.duration,\n    \
             latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))\n\
         end\n",
    );
    let path = dir.join(format!("{}.lua", case.name()));
    std::fs::write(&path, script)?;
    Ok(path)
}

/// One HTTP request of `case`: its answer's body, or an error unless `200`.
async fn http_call(
    client: &Client<HttpConnector, Full<Bytes>>,
    case: Case,
    url: &str,
    body: Option<Bytes>,
) -> Result<Bytes, Error> {
    let body = body.unwrap_or_else(|| Bytes::from(case.body()));
    let mut request = http::Request::builder().method(case.method()).uri(url);
    if !body.is_empty() {
        request = request.header(http::header::CONTENT_TYPE, "application/json");
    }
    let response = client.request(request.body(Full::new(body))?).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    if status != http::StatusCode::OK {
        return Err(format!("{url}: {status}: {}", String::from_utf8_lossy(&bytes)).into());
    }
    Ok(bytes)
}

/// One gRPC call of `case`, its answer (or every streamed item) read.
async fn grpc_call(client: &mut CatalogClient<Channel>, case: Case) -> Result<(), Error> {
    match case {
        Case::UnarySmall => {
            client.get_item(Case::get_item()).await?;
        }
        Case::UnaryLarge => {
            client.put_page(Case::put_page()).await?;
        }
        Case::Stream => {
            let mut items = client.list_items(Case::list_items()).await?.into_inner();
            let mut n = 0;
            while let Some(item) = items.next().await {
                item?;
                n += 1;
            }
            if n != protojsonx_bench_transcode::STREAM_ITEMS {
                return Err(format!("{n} items streamed").into());
            }
        }
    }
    Ok(())
}

/// `concurrency` tasks calling `case` in a loop for `duration`, each over
/// its own connection: tonic clients for gRPC, hyper for HTTP (smoke mode,
/// each answer compared with `expected`). Latencies are sorted for the
/// percentiles.
#[allow(clippy::too_many_arguments)]
async fn in_process(
    way: Way,
    case: Case,
    http: &Client<HttpConnector, Full<Bytes>>,
    url: &str,
    grpc_url: &str,
    expected: Option<Arc<Bytes>>,
    concurrency: usize,
    duration: Duration,
) -> Result<Run, Error> {
    let body = Bytes::from(case.body());
    let mut tasks = Vec::new();
    let start = Instant::now();
    let end = start + duration;
    for _ in 0..concurrency {
        let grpc = if way == Way::Grpc {
            let channel = tonic::transport::Endpoint::from_shared(grpc_url.to_owned())?
                .connect()
                .await?;
            Some(CatalogClient::new(channel).max_decoding_message_size(usize::MAX))
        } else {
            None
        };
        let (http, url, body, expected) =
            (http.clone(), url.to_owned(), body.clone(), expected.clone());
        tasks.push(tokio::spawn(async move {
            let mut grpc = grpc;
            let mut latencies = Vec::new();
            while Instant::now() < end {
                let t = Instant::now();
                match &mut grpc {
                    Some(client) => grpc_call(client, case).await?,
                    None => {
                        let answer = http_call(&http, case, &url, Some(body.clone())).await?;
                        if let Some(expected) = &expected {
                            if answer != **expected {
                                return Err::<_, Error>(format!("{url}: another answer").into());
                            }
                        }
                    }
                }
                latencies.push(t.elapsed().as_nanos() as u64);
            }
            Ok(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let seconds = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let at = |q: usize| {
        latencies
            .get((latencies.len() * q / 100).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |&ns| ns as f64 / 1e3)
    };
    Ok(Run {
        requests: latencies.len() as u64,
        seconds,
        p50_us: at(50),
        p99_us: at(99),
    })
}

// ---------------------------------------------------------------- report

fn report(
    config: &Config,
    results: &[Vec<Measured>],
    expected: &[Bytes],
    rss: &[(&str, u64)],
    load_before: &str,
    load_after: &str,
    took: Duration,
) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpus = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|m| m.trim_start_matches([' ', '\t', ':']).to_owned())
        .unwrap_or_default();
    let wrk = Command::new("wrk")
        .arg("-v")
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .and_then(|line| line.split(" Copyright").next())
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_default();
    let clock_ticks: f64 = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0);
    let load = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Transcoding load test\n\n\
         Generated by `benches/transcode/run.sh` (`transcode-load`); do not edit by hand. \
         What it measures and how: [../README.md](../README.md#transcoding-load-test).\n"
    );
    let _ = writeln!(out, "## Machine and method\n");
    let _ = writeln!(out, "- CPU: {model}, {cpus} logical CPUs (`nproc` {cpus})");
    let _ = writeln!(
        out,
        "- Load average before the run: {}; after: {}",
        load(load_before),
        load(load_after)
    );
    let pinning = match &config.server_cpus {
        Some(cpus) => format!(
            "servers pinned to CPU {cpus} (one tokio worker each), wrk and the tonic load loop to the other CPU (`taskset`)"
        ),
        None => "not pinned: the load generator competes with the server for both CPUs".to_owned(),
    };
    let _ = writeln!(out, "- Pinning: {pinning}");
    let _ = writeln!(
        out,
        "- Load: {wrk}, `-t{} -c{}`, for (a), (b), (c); for (d) {} tokio tasks on {} runtime threads, each with its own tonic \
         client and HTTP/2 connection. {} rounds of {} s per case and way, each round starting at another way, after \
         one {} s warm-up per case and way; req/s, p50 and p99 are the best round's (highest req/s); the rounds' \
         req/s are listed. A streamed request is one request (100 items).",
        config.threads,
        config.connections,
        config.connections,
        config.threads,
        config.rounds,
        config.duration,
        config.warmup
    );
    let _ = writeln!(
        out,
        "- Allocations: a counting global allocator in each server process (`alloc` and `realloc` calls, requested \
         bytes), over all measured rounds, divided by the service's calls; for (c) the gateway's own and its tonic \
         upstream's. The load generator's are not counted. Server CPU: user + system time of the server \
         process(es) (/proc/PID/stat, clock ticks) over all measured rounds, per request and as a share of one CPU: \
         near 100% the server is the bottleneck; well below, the load generator is (its requests per second then \
         say more about the client than the server).\n- The whole run took {:.0} s.\n",
        took.as_secs_f64()
    );
    for (c, case) in CASES.into_iter().enumerate() {
        let measured = &results[c];
        let body = case.body().len();
        let _ = writeln!(
            out,
            "## {}: `{} {}`\n\nRequest body {} B, answer {} B.\n",
            case.name(),
            case.method(),
            case.path(),
            body,
            expected[c].len()
        );
        let _ = writeln!(
            out,
            "| way | req/s | p50 | p99 | server CPU/req | server CPU busy | allocs/req | bytes/req | rounds' req/s |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|---|"
        );
        for (w, way) in WAYS.into_iter().enumerate() {
            let m = &measured[w];
            let Some(best) = m.best() else { continue };
            let per = |s: Stats| {
                if s.calls == 0 {
                    (0.0, 0.0)
                } else {
                    (
                        s.allocs as f64 / s.calls as f64,
                        s.bytes as f64 / s.calls as f64,
                    )
                }
            };
            let (allocs, bytes) = if way == Way::Gateway {
                let calls = m.upstream.calls.max(1) as f64;
                let (ua, ub) = per(m.upstream);
                let (ga, gb) = (
                    m.server.allocs as f64 / calls,
                    m.server.bytes as f64 / calls,
                );
                (
                    format!("{ga:.0} + {ua:.0} upstream"),
                    format!("{} + {} upstream", bytes_fmt(gb), bytes_fmt(ub)),
                )
            } else {
                let (a, b) = per(m.server);
                (format!("{a:.0}"), bytes_fmt(b))
            };
            let cpu = (m.server.ticks + m.upstream.ticks) as f64 / clock_ticks;
            let calls = if way == Way::Gateway {
                m.upstream.calls
            } else {
                m.server.calls
            };
            let cpu_per = micros(cpu * 1e6 / calls.max(1) as f64);
            let busy = 100.0 * cpu / m.runs.iter().map(|r| r.seconds).sum::<f64>();
            let rounds = m
                .runs
                .iter()
                .map(|r| format!("{:.0}", r.rate()))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                out,
                "| {} | {:.0} | {} | {} | {cpu_per} | {busy:.0}% | {allocs} | {bytes} | {rounds} |",
                way.label(),
                best.rate(),
                micros(best.p50_us),
                micros(best.p99_us),
            );
        }
        let rate = |w: Way| {
            measured[WAYS.iter().position(|&x| x == w).unwrap_or(0)]
                .best()
                .map_or(0.0, |r| r.rate())
        };
        let ab = rate(Way::Routes) / rate(Way::Handwritten);
        let cd = rate(Way::Gateway) / rate(Way::Grpc);
        let cpu = |w: Way| {
            let m = &measured[WAYS.iter().position(|&x| x == w).unwrap_or(0)];
            let calls = if w == Way::Gateway {
                m.upstream.calls
            } else {
                m.server.calls
            };
            (m.server.ticks + m.upstream.ticks) as f64 / calls.max(1) as f64
        };
        let _ = writeln!(
            out,
            "\n- (a)/(b) req/s: **{ab:.3}** (target ≥ 0.95: {}); server CPU per request (b)/(a): {:.3}\n\
             - (c)/(d) req/s: **{cd:.3}**; server CPU per request (d)/(c): {:.3}\n",
            if ab >= 0.95 { "met" } else { "not met" },
            cpu(Way::Handwritten) / cpu(Way::Routes),
            cpu(Way::Grpc) / cpu(Way::Gateway),
        );
    }
    let _ = writeln!(
        out,
        "## Peak RSS of each server process\n\n| process | peak RSS |\n|---|---:|"
    );
    for (name, kib) in rss {
        let _ = writeln!(out, "| {name} | {:.1} MiB |", *kib as f64 / 1024.0);
    }
    out
}

fn micros(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else if us < 100.0 {
        format!("{us:.1} µs")
    } else {
        format!("{us:.0} µs")
    }
}

fn bytes_fmt(b: f64) -> String {
    if b >= 10_000.0 {
        format!("{:.1} KB", b / 1e3)
    } else {
        format!("{b:.0} B")
    }
}
