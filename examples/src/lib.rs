//! The example protos, compiled by build.rs: prost structs with ProtoJSON impls.

/// Package `event.v1`.
pub mod event {
    /// Version 1 of the event schema.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/event.v1.rs"));
    }
}

use event::v1::{Actor, MediumEvent, Metadata};

/// A realistic event, as the benchmarks use it.
pub fn sample_event(n: u32) -> MediumEvent {
    MediumEvent {
        id: format!("evt_{n:08}"),
        timestamp: 1_732_000_000_000 + i64::from(n),
        event_type: "user.login".into(),
        actor: Some(Actor {
            id: format!("usr_{:06}", n % 1000),
            email: format!("user{}@example.com", n % 1000),
            verified: n % 3 != 0,
        }),
        tags: vec!["auth".into(), "web".into(), "eu-west-1".into()],
        metadata: Some(Metadata {
            ip: format!("192.168.{}.{}", n % 256, (n * 7) % 256),
            user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36".into(),
            attempts: i64::from(n % 5),
        }),
    }
}
