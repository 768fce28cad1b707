//! The editions module (`editions/`, `edition = "2023"` and `"2024"`) as
//! buf generates it with the plugin (or the build.rs front end, through
//! protoc): each field's features reach the prost structs, their binary
//! encoding and their ProtoJSON.

use prost::Message;
use protojsonx_ecosystem::editions::acme::audit::v1::Batch;
use protojsonx_ecosystem::editions::acme::ledger::v1::{Channel, Entry, Kind, entry::Note};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde_json::{Value, json};

/// An entry with every field set.
fn entry() -> Entry {
    Entry {
        id: Some("e-1".into()),
        amount_cents: -250,
        version: 3,
        kind: Some(Kind::Credit as i32),
        note: Some(Note {
            text: Some("refund".into()),
            line: Some(0),
        }),
        checkpoints: vec![1, 2],
        codes: vec![7, 8],
        channel: Some(Channel::Web as i32),
    }
}

fn json_of(msg: &impl ProtoJson, opts: &EncodeOptions) -> Value {
    serde_json::from_str(&opts.to_string(msg).unwrap()).unwrap()
}

#[test]
fn an_entry_round_trips_in_json_and_binary() {
    let entry = entry();
    let text = entry.to_json().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({
            "id": "e-1",
            "amountCents": "-250",
            "version": 3,
            "kind": "KIND_CREDIT",
            "note": {"text": "refund", "line": 0},
            "checkpoints": [1, 2],
            "codes": [7, 8],
            "channel": "CHANNEL_WEB",
        })
    );
    assert_eq!(Entry::from_json(&text).unwrap(), entry);
    assert_eq!(
        Entry::decode(entry.encode_to_vec().as_slice()).unwrap(),
        entry
    );
}

/// Explicit presence keeps an unset field apart from its zero value;
/// implicit presence does not: its zero is left out, but for the option
/// that writes fields without presence at their default.
#[test]
fn presence_is_each_fields_own() {
    let bare = Entry {
        version: 1,
        ..Default::default()
    };
    assert_eq!(json_of(&bare, &EncodeOptions::new()), json!({"version": 1}));
    // Implicit presence: written at its default; explicit: still absent.
    assert_eq!(
        json_of(&bare, &EncodeOptions::new().emit_default_values(true)),
        json!({"amountCents": "0", "version": 1, "checkpoints": [], "codes": []})
    );
    let zeros = Entry {
        id: Some(String::new()),
        kind: Some(Kind::Debit as i32),
        channel: Some(0),
        note: Some(Note::default()),
        ..bare.clone()
    };
    assert_eq!(
        json_of(&zeros, &EncodeOptions::new()),
        json!({"id": "", "version": 1, "kind": "KIND_DEBIT", "note": {},
               "channel": "CHANNEL_UNSPECIFIED"})
    );
    assert_eq!(Entry::from_json(zeros.to_json().unwrap()).unwrap(), zeros);
    // Unset and zero stay apart through the binary format too.
    assert_eq!(
        Entry::decode(zeros.encode_to_vec().as_slice()).unwrap(),
        zeros
    );
    assert_eq!(
        Entry::decode(bare.encode_to_vec().as_slice()).unwrap(),
        bare
    );

    let batch = Batch {
        source: String::new(),
        entries: vec![],
        expected_count: Some(0),
        summary: None,
    };
    assert_eq!(
        json_of(&batch, &EncodeOptions::new()),
        json!({"expectedCount": 0})
    );
    assert_eq!(
        Batch::from_json(r#"{"source": ""}"#).unwrap(),
        Batch::default()
    );
}

/// `LEGACY_REQUIRED` is proto2's `required`: a JSON object without it is
/// incomplete.
#[test]
fn a_legacy_required_field_is_required() {
    let err = Entry::from_json(r#"{"id": "e-1"}"#).unwrap_err();
    assert!(err.to_string().contains("version"), "{err}");
    let partial = DecodeOptions::new().allow_partial(true);
    let entry: Entry = partial.from_slice(br#"{"id": "e-1"}"#).unwrap();
    assert_eq!(entry.id.as_deref(), Some("e-1"));
}

/// A closed enum's fields take its names and its numbers; its default is
/// its first value, not 0 (which it does not have).
#[test]
fn the_closed_enum_round_trips() {
    for kind in [Kind::Debit, Kind::Credit] {
        let json = format!(r#"{{"version": 1, "kind": "{}"}}"#, kind.as_str_name());
        let entry = Entry::from_json(&json).unwrap();
        assert_eq!(entry.kind(), kind);
        assert_eq!(
            json_of(&entry, &EncodeOptions::new())["kind"],
            kind.as_str_name()
        );
        let numbered = json_of(&entry, &EncodeOptions::new().enums_as_ints(true));
        assert_eq!(numbered["kind"], kind as i32);
        assert_eq!(Entry::from_json(numbered.to_string()).unwrap(), entry);
    }
    assert!(Entry::from_json(r#"{"version": 1, "kind": "KIND_REFUND"}"#).is_err());
    assert_eq!(Entry::default().kind(), Kind::Debit);
}

/// `DELIMITED` fields are groups on the wire (start and end tags, no
/// length), in both editions; they are plain objects in JSON.
#[test]
fn delimited_fields_are_groups_on_the_wire() {
    let note = Note {
        text: None,
        line: Some(5),
    };
    let entry = Entry {
        version: 1,
        note: Some(note.clone()),
        ..Default::default()
    };
    // version (3, varint) = 1, then field 5 as a group: start tag
    // (5 << 3 | 3), line (2, varint) = 5, end tag (5 << 3 | 4).
    assert_eq!(entry.encode_to_vec(), [0x18, 1, 0x2b, 0x10, 5, 0x2c]);
    assert_eq!(
        json_of(&entry, &EncodeOptions::new()),
        json!({"version": 1, "note": {"line": 5}})
    );
    let batch = Batch {
        summary: Some(note),
        ..Default::default()
    };
    assert_eq!(batch.encode_to_vec(), [0x23, 0x10, 5, 0x24]);
    let json = batch.to_json().unwrap();
    assert_eq!(json, r#"{"summary":{"line":5}}"#);
    assert_eq!(Batch::from_json(&json).unwrap(), batch);
}

/// `EXPANDED` repeated scalars are a record per element; the others are
/// packed, edition 2023's default. JSON does not tell them apart.
#[test]
fn repeated_fields_are_packed_or_expanded_as_declared() {
    let expanded = Entry {
        version: 1,
        checkpoints: vec![1, 2],
        ..Default::default()
    };
    assert_eq!(expanded.encode_to_vec(), [0x18, 1, 0x30, 1, 0x30, 2]);
    let packed = Entry {
        version: 1,
        codes: vec![1, 2],
        ..Default::default()
    };
    assert_eq!(packed.encode_to_vec(), [0x18, 1, 0x3a, 2, 1, 2]);
    for entry in [expanded, packed] {
        assert_eq!(Entry::from_json(entry.to_json().unwrap()).unwrap(), entry);
    }
}

#[test]
fn a_batch_of_the_2024_file_round_trips() {
    let batch = Batch {
        source: "branch-7".into(),
        entries: vec![entry(), Entry::default()],
        expected_count: Some(2),
        summary: Some(Note {
            text: Some("checked".into()),
            line: None,
        }),
    };
    let json = batch.to_json().unwrap();
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["source"], "branch-7");
    assert_eq!(value["entries"][1], json!({"version": 0}));
    assert_eq!(value["summary"], json!({"text": "checked"}));
    assert_eq!(Batch::from_json(&json).unwrap(), batch);
    let proto_names = EncodeOptions::new().use_proto_names(true);
    let snake = json_of(&batch, &proto_names);
    assert_eq!(snake["expected_count"], 2);
    assert_eq!(Batch::from_json(snake.to_string()).unwrap(), batch);
    assert_eq!(
        Batch::decode(batch.encode_to_vec().as_slice()).unwrap(),
        batch
    );
}
