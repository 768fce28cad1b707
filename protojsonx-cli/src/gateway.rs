//! `protojsonx gateway`: HTTP/JSON in front of a gRPC server, served by
//! `protojsonx-transcode`'s gateway on a tokio runtime until SIGINT or
//! SIGTERM.

use std::collections::BTreeSet;
use std::future::IntoFuture;
use std::io::Write;
use std::time::Duration;

use protojsonx_transcode::gateway;
use protojsonx_transcode::query::UnknownParameters;
use protojsonx_transcode::router::{Options, Router};
use tokio::net::TcpListener;
use tonic::transport::Endpoint;

use crate::args::GatewayJob;
use crate::failure::Failure;
use crate::schema::describe;
use crate::services;

/// How long requests under way may go on after a signal to stop.
const GRACE: Duration = Duration::from_secs(10);

/// Serves `job` until stopped by a signal.
pub fn run(job: &GatewayJob) -> Result<(), Failure> {
    let set = services::load(&job.schema)?;
    let in_schema =
        |e: gateway::GatewayError| Failure::Error(format!("{}: {e}", describe(&job.schema)));
    let pool = gateway::pool(&set).map_err(in_schema)?;
    let served = summary(&gateway::bindings(&pool).map_err(in_schema)?);
    let endpoint = Endpoint::from_shared(job.upstream.clone())
        .map_err(|e| Failure::Usage(format!("--upstream `{}`: {e}", job.upstream)))?;
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::Error(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        // The channel connects on first use, so the gateway starts (and
        // answers 503) while the upstream is down.
        let router =
            gateway::router(&pool, endpoint.connect_lazy(), options(job)).map_err(in_schema)?;
        let listener = TcpListener::bind(&job.listen)
            .await
            .map_err(|e| Failure::Error(format!("cannot listen on `{}`: {e}", job.listen)))?;
        let address = listener
            .local_addr()
            .map_err(|e| Failure::Error(format!("cannot listen on `{}`: {e}", job.listen)))?;
        // One line, written at once, that scripts can wait for.
        let _ = writeln!(
            std::io::stdout(),
            "protojsonx gateway: listening on http://{address}, serving {served} of {}",
            job.upstream
        );
        serve(listener, router).await
    })
}

/// `N methods (M bindings)`, of the bindings with their methods' names.
fn summary(bindings: &[(String, protojsonx_transcode::rule::Binding)]) -> String {
    let methods: BTreeSet<&str> = bindings.iter().map(|(name, _)| name.as_str()).collect();
    let plural = |count: usize, what: &str| match count {
        1 => format!("1 {what}"),
        _ => format!("{count} {what}s"),
    };
    format!(
        "{} ({})",
        plural(methods.len(), "method"),
        plural(bindings.len(), "binding")
    )
}

/// The router's options as the command line gives them.
fn options(job: &GatewayJob) -> Options {
    let headers = [http::header::AUTHORIZATION]
        .into_iter()
        .chain(job.forward_headers.iter().cloned());
    let mut options = Options::new()
        .encode_options(job.encode)
        .decode_options(job.decode)
        .forward_headers(headers);
    if job.allow_unknown_parameters {
        options = options.unknown_parameters(UnknownParameters::Ignore);
    }
    if let Some(bytes) = job.max_body {
        options = options.max_body(bytes);
    }
    if let Some(limit) = job.timeout {
        options = options.timeout(limit);
    }
    options
}

/// Serves `router` on `listener` until a signal, then lets the requests
/// under way finish for [`GRACE`] at most.
async fn serve(listener: TcpListener, router: Router) -> Result<(), Failure> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = axum::serve(listener, router.into_axum()).with_graceful_shutdown(async {
        let _ = stopped.await;
    });
    let mut server = tokio::spawn(server.into_future());
    tokio::select! {
        done = &mut server => return finished(done),
        () = signal() => {}
    }
    eprintln!("protojsonx gateway: stopping");
    let _ = stop.send(());
    match tokio::time::timeout(GRACE, server).await {
        Ok(done) => finished(done),
        Err(_) => {
            eprintln!("protojsonx gateway: requests still under way after {GRACE:?}, stopped");
            Ok(())
        }
    }
}

/// The outcome of the server's task.
fn finished(done: Result<std::io::Result<()>, tokio::task::JoinError>) -> Result<(), Failure> {
    match done {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(Failure::Error(format!("the server failed: {e}"))),
        Err(e) => Err(Failure::Error(format!("the server failed: {e}"))),
    }
}

/// SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
