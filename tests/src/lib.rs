//! The test protos compiled by build.rs, in modules mirroring their packages.

// Lints that fire on prost-build's structs (not on the JSON code), for the
// shapes these test protos are made of on purpose.
#![allow(clippy::large_enum_variant, clippy::module_inception)]

/// The `protojsonx.*` test packages.
pub mod protojsonx {
    /// Scalars, maps, oneofs, recursion, nesting, well-known types.
    pub mod test {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.test.rs"));
    }
    /// Types referenced across packages.
    pub mod other {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.other.rs"));
    }
    /// Names that are awkward in Rust.
    pub mod names {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.names.rs"));
    }
    /// proto2 presence, defaults, groups.
    pub mod legacy {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.legacy.rs"));
    }
    /// BTreeMap, Bytes and boxed fields.
    pub mod variants {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.variants.rs"));
    }
    /// Well-known types compiled into this crate.
    pub mod compiled {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.compiled.rs"));
    }
    /// An `edition = "2023"` file: presence, delimited, packing, closed enums.
    pub mod editions {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.editions.rs"));
    }
    /// Messages embedding the current descriptor and api types.
    pub mod current {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.current.rs"));
    }
}

/// `protojsonx.variants` again, as a build script that runs prost-build
/// itself makes it: the structs by prost-build from the builder's
/// `prost_build_config()` (with `#[derive(PartialOrd)]` added through
/// `prost_config`), the JSON code beside them (`json_only`).
pub mod split {
    /// BTreeMap, Bytes and boxed fields.
    pub mod variants {
        include!(concat!(env!("OUT_DIR"), "/split/protojsonx.variants.rs"));
        include!(concat!(
            env!("OUT_DIR"),
            "/split/protojsonx.variants.protojsonx.rs"
        ));
    }
}

/// The well-known types, compiled into this crate for `protojsonx.compiled`.
pub mod google {
    /// Package `google.protobuf`.
    pub mod protobuf {
        include!(concat!(env!("OUT_DIR"), "/google.protobuf.rs"));
    }
}
