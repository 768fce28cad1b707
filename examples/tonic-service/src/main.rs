//! Serves gRPC and its HTTP/JSON transcoding on one port:
//! `cargo run -p protojsonx-tonic-example [ADDR]` (default 127.0.0.1:50051),
//! then `curl localhost:50051/v1/items/sku-1`, or call
//! `inventory.v1.Inventory/GetItem` with any gRPC client (protobuf binary,
//! or ProtoJSON with `content-type: application/grpc+json`).

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("gRPC and HTTP/JSON on http://{}", listener.local_addr()?);
    axum::serve(listener, protojsonx_tonic_example::app()).await
}
