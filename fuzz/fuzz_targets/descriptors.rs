//! Descriptor sets from anywhere (a `--descriptor-set` file, a plugin
//! request): bytes as a `FileDescriptorSet`, lowered by
//! protojsonx-descriptor and loaded into a protojsonx-dynamic `Pool`. Bad
//! input is an error, never a panic; what lowers decodes as prost-types
//! descriptors of syntax proto2 or proto3.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prost::Message;

fuzz_target!(|data: &[u8]| {
    if let Ok(lowered) = protojsonx_descriptor::lower_encoded(data) {
        let set = prost_types::FileDescriptorSet::decode(lowered.as_slice())
            .expect("lowered sets are prost-types sets");
        assert!(
            set.file
                .iter()
                .all(|f| matches!(f.syntax(), "" | "proto2" | "proto3")),
            "an editions file survived lowering"
        );
    }
    let _ = protojsonx_dynamic::Pool::decode(data);
});
