//! Serves the example API: `cargo run -p protojsonx-axum-example [ADDR]`
//! (default 127.0.0.1:3000), then for example
//! `curl -d '{"eventType":"login","timestamp":"5"}' localhost:3000/events`.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on http://{}", listener.local_addr()?);
    axum::serve(listener, protojsonx_axum_example::app()).await
}
