//! googleapis' library example over gRPC and HTTP/JSON.
//!
//! ```text
//! cargo run -p protojsonx-library-example                  # gRPC + HTTP/JSON on 127.0.0.1:8080
//! curl -d '{"theme": "Sci-fi"}' -H 'content-type: application/json' localhost:8080/v1/shelves
//! curl localhost:8080/v1/shelves/1
//! cargo run -p protojsonx-library-example -- gateway http://127.0.0.1:8080 127.0.0.1:8081
//! curl localhost:8081/v1/shelves                           # the same library, through the gateway
//! ```

use protojsonx_library_example::library::library_service_routes;
use protojsonx_library_example::library::library_service_server::LibraryServiceServer;
use protojsonx_library_example::{DESCRIPTORS, Library};
use protojsonx_transcode::{gateway, router::Options};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let app = match args.as_slice() {
        [] => both_ways(),
        [mode, upstream, ..] if mode == "gateway" => {
            let channel = tonic::transport::Endpoint::from_shared(upstream.clone())?.connect_lazy();
            gateway::router(&gateway::pool(DESCRIPTORS)?, channel, Options::new())?.into_axum()
        }
        _ => return Err("usage: protojsonx-library-example [gateway UPSTREAM [LISTEN]]".into()),
    };
    let listen = args.get(2).map_or("127.0.0.1:8080", String::as_str);
    let listener = tokio::net::TcpListener::bind(listen).await?;
    println!("listening on {}", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// One library served over gRPC (tonic's routes) and HTTP/JSON (the
/// generated routes, for every path tonic does not serve) on one port.
fn both_ways() -> axum::Router {
    let library = Library::default();
    let grpc =
        tonic::service::Routes::new(LibraryServiceServer::new(library.clone())).into_axum_router();
    grpc.fallback_service(library_service_routes(library, Options::new()))
}
