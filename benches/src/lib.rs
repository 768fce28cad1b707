//! Benchmarks for protojsonx: every implementation's code for the same three
//! schemas, the payloads, and the list of cases that the criterion bench
//! (`benches/protojson.rs`) and the allocation counter (`src/bin/allocs.rs`)
//! both run. `run.sh` runs them and writes `results/`.

pub mod cases;
pub mod payloads;
pub mod plain;
pub mod shuffle;

#[cfg(test)]
mod agree;

/// protojsonx's generated code (prost structs + ProtoJSON impls) for
/// `bench.v1` and `bench.otlp.v1`; `event.v1`'s comes from the
/// protojsonx-example crate.
pub mod pjx {
    /// Package `bench`.
    pub mod bench {
        /// The richer schema, `proto/bench/v1/order.proto`.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/bench.v1.rs"));
        }
        /// Package `bench.otlp`.
        pub mod otlp {
            /// OTLP's trace export request, `proto/bench/otlp/v1/trace.proto`.
            pub mod v1 {
                include!(concat!(env!("OUT_DIR"), "/bench.otlp.v1.rs"));
            }
        }
    }
}

/// pbjson's generated code: its own prost-build structs (well-known types from
/// pbjson-types) with pbjson-build's serde impls next to them.
#[allow(clippy::all)]
pub mod pbj {
    /// Package `event`.
    pub mod event {
        /// The Go benchmark's schema.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/pbjson/event.v1.rs"));
            include!(concat!(env!("OUT_DIR"), "/pbjson/event.v1.serde.rs"));
        }
    }
    /// Package `bench`.
    pub mod bench {
        /// The richer schema.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/pbjson/bench.v1.rs"));
            include!(concat!(env!("OUT_DIR"), "/pbjson/bench.v1.serde.rs"));
        }
        /// Package `bench.otlp`.
        pub mod otlp {
            /// OTLP's trace export request.
            pub mod v1 {
                include!(concat!(env!("OUT_DIR"), "/pbjson/bench.otlp.v1.rs"));
                include!(concat!(env!("OUT_DIR"), "/pbjson/bench.otlp.v1.serde.rs"));
            }
        }
    }
}
