//! The event protos of the quickstart, with serde impls too (the `serde`
//! option), so both the ProtoJSON extractor and `axum::Json` can be shown.

fn main() -> std::io::Result<()> {
    protoc_gen_rust_protojsonx::Builder::new()
        .include("../proto")
        .configure(|c| {
            c.serde();
        })
        .compile(&["../proto/event/v1/event.proto"])
}
