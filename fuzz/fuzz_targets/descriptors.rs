//! Descriptor sets from anywhere (a `--descriptor-set` file, a plugin
//! request): bytes as a `FileDescriptorSet`, lowered by
//! protojsonx-descriptor and loaded into a protojsonx-dynamic `Pool`. Bad
//! input is an error, never a panic; what lowers is of syntax proto2 or
//! proto3.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prost::Message;

fuzz_target!(|data: &[u8]| {
    // Proto2 and proto3 files keep their bytes, which prost-types may
    // refuse (a field the current schema removed, with another wire type).
    let lowered = protojsonx_descriptor::lower_encoded(data).ok();
    if let Some(set) = lowered.and_then(|l| prost_types::FileDescriptorSet::decode(&l[..]).ok()) {
        assert!(
            set.file
                .iter()
                .all(|f| matches!(f.syntax(), "" | "proto2" | "proto3")),
            "an editions file survived lowering"
        );
    }
    let _ = protojsonx_dynamic::Pool::decode(data);
});
