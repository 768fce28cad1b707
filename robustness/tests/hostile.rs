//! Hostile input: every case must end in bounded time and memory with an
//! `Err` (or, for the large valid inputs, the right `Ok`), never a panic,
//! hang, stack overflow or abort.
//!
//! Each case runs on its own thread (see [`bounded`]) with a deadline, and
//! depth cases with a small stack, so a missing depth limit shows as a
//! crash of this binary rather than passing on a big main-thread stack.
//! A counting global allocator measures the peak heap use of each thread, so
//! large inputs can assert memory proportional to their size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::mpsc;
use std::time::Duration;

use protojsonx_robustness::protobuf_test_messages::proto2::TestAllTypesProto2;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error, ErrorKind, ProtoJson};

// ---------------------------------------------------------------------------
// Harness: per-thread peak heap, deadlines, small stacks.

/// The system allocator, counting live and peak bytes per thread.
struct Counting;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread (frees of memory
    /// allocated elsewhere can make it dip below zero).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// Highest `LIVE` since the last [`reset_peak`].
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    // `try_with`: the thread-locals may be gone while a thread shuts down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded unchanged to `System`; the counters only
// use const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        track(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        track(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the peak heap bytes this thread held
/// above what it held before `f` started.
fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(base));
    let out = f();
    let peak = PEAK.with(Cell::get);
    (out, (peak - base).max(0) as usize)
}

/// Stack for the depth cases. Decoding `TestAllTypesProto3` 100 levels deep
/// (the default limit) was measured to need 1.25-1.5 MiB in a debug build
/// (~14 KiB per level: a generated `read_json` and its pass over the fields
/// have large frames there) and about
/// 150 KiB in a release build, so this leaves little room beyond the limit:
/// 100k levels without one would need a thousand times more.
const SMALL_STACK: usize = if cfg!(debug_assertions) { 1536 } else { 256 } * 1024;
/// Stack for the cases that do not nest.
const NORMAL_STACK: usize = 2 * 1024 * 1024;
/// Every case must finish within this (debug build, 2 cores, tests in parallel).
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `f` on a new thread with `stack` bytes of stack and fails the test if
/// it has not finished by [`DEADLINE`] (a hang) or if it panicked.
fn bounded<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            protojsonx_robustness::register_all();
            let out = f();
            let _ = tx.send(out);
        })
        .expect("spawn test thread");
    match rx.recv_timeout(DEADLINE) {
        Ok(out) => out,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("no result after {DEADLINE:?}: a hang"),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let panic = handle
                .join()
                .expect_err("the thread ended without a result");
            std::panic::resume_unwind(panic)
        }
    }
}

fn decode3(json: &[u8]) -> Result<TestAllTypesProto3, Error> {
    TestAllTypesProto3::from_json(json)
}

fn decode3_ignoring(json: &[u8]) -> Result<TestAllTypesProto3, Error> {
    TestAllTypesProto3::from_json_with(json, &DecodeOptions::new().ignore_unknown_fields(true))
}

/// Asserts that decoding failed with `kind`, printing the input's start otherwise.
#[track_caller]
fn assert_kind<T: std::fmt::Debug>(result: Result<T, Error>, kind: ErrorKind, json: &[u8]) {
    let shown = String::from_utf8_lossy(&json[..json.len().min(120)]).into_owned();
    match result {
        Err(e) => assert_eq!(e.kind(), kind, "{e} for input {shown:?}"),
        Ok(v) => panic!("expected {kind:?}, decoded {v:?} from {shown:?}"),
    }
}

// ---------------------------------------------------------------------------
// Nesting 100k deep.

const DEEP: usize = 100_000;

/// `prefix` repeated `DEEP` times, then `middle`, then `suffix` repeated `DEEP` times.
fn nest(before: &str, prefix: &str, middle: &str, suffix: &str, after: &str) -> Vec<u8> {
    let mut s = String::with_capacity((prefix.len() + suffix.len()) * DEEP + 64);
    s.push_str(before);
    for _ in 0..DEEP {
        s.push_str(prefix);
    }
    s.push_str(middle);
    for _ in 0..DEEP {
        s.push_str(suffix);
    }
    s.push_str(after);
    s.into_bytes()
}

/// Decodes `json` on a small stack, expecting the depth limit, with and without
/// ignoring unknown fields.
fn assert_depth_limited(json: Vec<u8>) {
    bounded(SMALL_STACK, move || {
        assert_kind(decode3(&json), ErrorKind::DepthLimit, &json);
        assert_kind(decode3_ignoring(&json), ErrorKind::DepthLimit, &json);
    });
}

#[test]
fn deep_recursive_message() {
    assert_depth_limited(nest("", "{\"recursiveMessage\":", "{}", "}", ""));
}

#[test]
fn deep_corecursive_through_nested_message_and_map() {
    assert_depth_limited(nest(
        "",
        "{\"optionalNestedMessage\":{\"corecursive\":{\"mapStringNestedMessage\":{\"k\":{\"corecursive\":",
        "{}",
        "}}}}}",
        "",
    ));
}

#[test]
fn deep_repeated_message() {
    assert_depth_limited(nest(
        "",
        "{\"repeatedNestedMessage\":[{\"corecursive\":",
        "{}",
        "}]}",
        "",
    ));
}

#[test]
fn deep_arrays_in_a_value() {
    assert_depth_limited(nest("{\"optionalValue\":", "[", "1", "]", "}"));
}

#[test]
fn deep_objects_in_a_struct() {
    assert_depth_limited(nest("{\"optionalStruct\":", "{\"a\":", "1", "}", "}"));
}

#[test]
fn deep_lists_in_repeated_list_value() {
    assert_depth_limited(nest("{\"repeatedListValue\":[", "[", "", "]", "]}"));
}

#[test]
fn deep_any_in_any() {
    assert_depth_limited(nest(
        "{\"optionalAny\":",
        "{\"@type\":\"type.googleapis.com/google.protobuf.Any\",\"value\":",
        "{}",
        "}",
        "}",
    ));
}

#[test]
fn deep_message_in_any_in_message() {
    assert_depth_limited(nest(
        "",
        "{\"optionalAny\":{\"@type\":\"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3\",\"recursiveMessage\":",
        "{}",
        "}}",
        "",
    ));
}

/// `@type` after a deep value: the look-ahead for `@type` must be depth-limited too.
#[test]
fn deep_value_before_the_type_of_an_any() {
    assert_depth_limited(nest(
        "{\"optionalAny\":{\"optionalValue\":",
        "[",
        "",
        "]",
        ",\"@type\":\"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3\"}}",
    ));
}

#[test]
fn deep_unknown_field_value() {
    for (prefix, suffix) in [("[", "]"), ("{\"a\":", "}")] {
        let json = nest("{\"unknownField\":", prefix, "0", suffix, "}");
        bounded(SMALL_STACK, move || {
            assert_kind(decode3(&json), ErrorKind::UnknownField, &json);
            assert_kind(decode3_ignoring(&json), ErrorKind::DepthLimit, &json);
        });
    }
}

#[test]
fn deep_proto2_recursive_message() {
    let json = nest("", "{\"recursiveMessage\":", "{}", "}", "");
    bounded(SMALL_STACK, move || {
        assert_kind(
            TestAllTypesProto2::from_json(&json),
            ErrorKind::DepthLimit,
            &json,
        );
    });
}

/// Depth 100 (the default limit) itself decodes on the small stack; 101 does not.
#[test]
fn default_depth_limit_is_exact_and_fits_a_small_stack() {
    bounded(SMALL_STACK, || {
        let at = |depth: usize| {
            let mut json = "{\"recursiveMessage\":".repeat(depth - 1);
            json.push_str("{}");
            json.push_str(&"}".repeat(depth - 1));
            json
        };
        let ok = decode3(at(100).as_bytes()).expect("depth 100 is within the default limit");
        assert!(ok.recursive_message.is_some());
        assert_kind(
            decode3(at(101).as_bytes()),
            ErrorKind::DepthLimit,
            b"depth 101",
        );
    });
}

/// A message 100 levels deep, decoded from JSON, encodes again on the small stack.
#[test]
fn encoding_the_deepest_decodable_message_fits_a_small_stack() {
    bounded(SMALL_STACK, || {
        let mut msg = TestAllTypesProto3::default();
        for _ in 0..99 {
            msg = TestAllTypesProto3 {
                recursive_message: Some(Box::new(msg)),
                ..Default::default()
            };
        }
        let json = msg.to_json().expect("encode");
        assert_eq!(decode3(json.as_bytes()).expect("decode"), msg);
        // prost drops recursively: unwind the chain iteratively.
        let mut next = msg.recursive_message.take();
        while let Some(mut m) = next {
            next = m.recursive_message.take();
        }
    });
}

// ---------------------------------------------------------------------------
// Large values: 10 MB strings, 1M map entries, with memory proportional to input.

const TEN_MB: usize = 10 * 1024 * 1024;

/// Decodes `json` on a fresh thread, asserting peak heap < `factor` × input size.
fn decode_within<T: Send + 'static>(json: Vec<u8>, factor: usize, f: fn(&[u8]) -> T) -> (T, usize) {
    bounded(NORMAL_STACK, move || {
        let (out, peak) = peak_heap(|| f(&json));
        // Shown with --nocapture: the measured ratio, to see how close to the bound.
        println!("peak heap {peak} bytes for {} bytes of input", json.len());
        assert!(
            peak < factor * json.len(),
            "peak heap {peak} bytes for {} bytes of input (limit {factor}x)",
            json.len()
        );
        (out, peak)
    })
}

#[test]
fn ten_megabyte_string() {
    let json = format!("{{\"optionalString\":\"{}\"}}", "a".repeat(TEN_MB)).into_bytes();
    let (msg, _) = decode_within(json, 4, decode3);
    assert_eq!(msg.expect("valid").optional_string.len(), TEN_MB);
}

#[test]
fn ten_megabytes_of_escapes() {
    let json = format!(
        "{{\"optionalString\":\"{}\"}}",
        "\\u00e9".repeat(TEN_MB / 6)
    )
    .into_bytes();
    let (msg, _) = decode_within(json, 4, decode3);
    assert_eq!(msg.expect("valid").optional_string, "é".repeat(TEN_MB / 6));
}

#[test]
fn ten_megabytes_of_base64() {
    let json = format!("{{\"optionalBytes\":\"{}\"}}", "QUJD".repeat(TEN_MB / 4)).into_bytes();
    let (msg, _) = decode_within(json, 4, decode3);
    assert_eq!(
        msg.expect("valid").optional_bytes,
        b"ABC".repeat(TEN_MB / 4)
    );
}

#[test]
fn ten_megabyte_unterminated_string() {
    let json = format!("{{\"optionalString\":\"{}", "a".repeat(TEN_MB)).into_bytes();
    let (result, _) = decode_within(json, 4, decode3);
    assert_eq!(result.expect_err("unterminated").kind(), ErrorKind::Eof);
}

#[test]
fn ten_megabyte_unknown_key() {
    let json = format!("{{\"{}\":1}}", "k".repeat(TEN_MB)).into_bytes();
    let (result, _) = decode_within(json.clone(), 4, decode3);
    let err = result.expect_err("unknown field");
    assert_eq!(err.kind(), ErrorKind::UnknownField);
    let (ignored, _) = decode_within(json, 4, decode3_ignoring);
    assert_eq!(ignored.expect("ignored"), TestAllTypesProto3::default());
}

#[test]
fn ten_megabyte_struct_key() {
    let json = format!("{{\"optionalStruct\":{{\"{}\":null}}}}", "k".repeat(TEN_MB)).into_bytes();
    let (msg, _) = decode_within(json, 4, decode3);
    let st = msg.expect("valid").optional_struct.expect("set");
    assert_eq!(st.fields.keys().next().map(String::len), Some(TEN_MB));
}

/// `{"0":0,"1":1,...}` with `n` entries under `field`.
fn int_map(field: &str, n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 18 + 32);
    s.push_str(&format!("{{\"{field}\":{{"));
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!("\"{i}\":{i}"));
    }
    s.push_str("}}");
    s.into_bytes()
}

#[test]
fn map_with_a_million_entries() {
    let (msg, _) = decode_within(int_map("mapInt32Int32", 1_000_000), 8, decode3);
    let map = msg.expect("valid").map_int32_int32;
    assert_eq!(map.len(), 1_000_000);
    assert_eq!(map.get(&999_999), Some(&999_999));
}

#[test]
fn string_map_with_a_million_entries() {
    let mut s = String::from("{\"mapStringString\":{");
    for i in 0..1_000_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!("\"key{i}\":\"value{i}\""));
    }
    s.push_str("}}");
    let (msg, _) = decode_within(s.into_bytes(), 8, decode3);
    let map = msg.expect("valid").map_string_string;
    assert_eq!(map.len(), 1_000_000);
    assert_eq!(map["key123456"], "value123456");
}

#[test]
fn million_entry_map_with_a_duplicate_at_the_end() {
    let mut json = int_map("mapInt32Int32", 1_000_000);
    json.truncate(json.len() - 2);
    json.extend_from_slice(b",\"5\":5}}");
    let (result, _) = decode_within(json, 8, decode3);
    assert_eq!(
        result.expect_err("duplicate key").kind(),
        ErrorKind::DuplicateField
    );
}

#[test]
fn million_element_repeated_field() {
    let mut s = String::from("{\"repeatedInt64\":[");
    for i in 0..1_000_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&i.to_string());
    }
    s.push_str("]}");
    let (msg, _) = decode_within(s.into_bytes(), 8, decode3);
    assert_eq!(msg.expect("valid").repeated_int64.len(), 1_000_000);
}

// ---------------------------------------------------------------------------
// Numbers: 100k digits, 1e999999999, for every numeric type.

/// JSON names of one field of each numeric type, with whether it is a float type.
const NUMERIC_FIELDS: [(&str, bool); 12] = [
    ("optionalInt32", false),
    ("optionalInt64", false),
    ("optionalUint32", false),
    ("optionalUint64", false),
    ("optionalSint32", false),
    ("optionalSint64", false),
    ("optionalFixed32", false),
    ("optionalFixed64", false),
    ("optionalSfixed32", false),
    ("optionalSfixed64", false),
    ("optionalFloat", true),
    ("optionalDouble", true),
];

/// The same numeric types in the positions that are not plain fields:
/// wrappers, repeated elements, map values, map keys (JSON strings).
const OTHER_NUMERIC_POSITIONS: [(&str, &str); 10] = [
    ("{\"optionalInt32Wrapper\":", "}"),
    ("{\"optionalUint64Wrapper\":", "}"),
    ("{\"optionalFloatWrapper\":", "}"),
    ("{\"optionalDoubleWrapper\":", "}"),
    ("{\"repeatedInt32\":[", "]}"),
    ("{\"repeatedFloat\":[", "]}"),
    ("{\"mapInt32Double\":{\"1\":", "}}"),
    ("{\"mapUint64Uint64\":{\"1\":", "}}"),
    ("{\"optionalValue\":", "}"),
    ("{\"optionalDuration\":", "}"),
];

/// Decodes `number` (a JSON number text) in every numeric position, as a
/// number and as a string, and as a map key; returns the outcomes.
fn decode_everywhere(number: &str) -> Vec<(String, Result<TestAllTypesProto3, Error>)> {
    let mut docs = Vec::new();
    for (field, _) in NUMERIC_FIELDS {
        docs.push(format!("{{\"{field}\":{number}}}"));
        docs.push(format!("{{\"{field}\":\"{number}\"}}"));
    }
    for (before, after) in OTHER_NUMERIC_POSITIONS {
        docs.push(format!("{before}{number}{after}"));
    }
    docs.push(format!("{{\"mapInt64Int64\":{{\"{number}\":1}}}}"));
    docs.push(format!("{{\"mapUint32Uint32\":{{\"{number}\":1}}}}"));
    docs.into_iter()
        .map(|doc| {
            let result = decode3(doc.as_bytes());
            (doc, result)
        })
        .collect()
}

/// Asserts that every position rejects `number`, except the Value (a double
/// with no range check other than finiteness) when `value_ok`.
fn assert_rejected_everywhere(number: String) {
    bounded(NORMAL_STACK, move || {
        for (doc, result) in decode_everywhere(&number) {
            let shown = &doc[..doc.len().min(80)];
            match result {
                Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e} for {shown}"),
                Ok(m) => panic!("accepted {shown}: {:?}", m.optional_value),
            }
        }
    });
}

#[test]
fn exponent_of_a_billion_is_out_of_range_for_every_numeric_type() {
    assert_rejected_everywhere("1e999999999".into());
    assert_rejected_everywhere("-1e999999999".into());
}

#[test]
fn hundred_thousand_digit_integer_is_out_of_range_for_every_numeric_type() {
    assert_rejected_everywhere(format!("9{}", "0".repeat(100_000)));
    assert_rejected_everywhere(format!("-9{}", "0".repeat(100_000)));
}

/// A tiny exponent or a long fraction is no integer, and a float of it rounds to 0.
#[test]
fn exponent_of_minus_a_billion_rounds_floats_to_zero_and_is_no_integer() {
    bounded(NORMAL_STACK, || {
        for number in ["1e-999999999", &format!("0.{}1", "0".repeat(100_000))] {
            for (field, is_float) in NUMERIC_FIELDS {
                let doc = format!("{{\"{field}\":{number}}}");
                let result = decode3(doc.as_bytes());
                let shown = &doc[..doc.len().min(60)];
                if is_float {
                    let m = result.unwrap_or_else(|e| panic!("{e} for {shown}"));
                    assert_eq!((m.optional_float, m.optional_double), (0.0, 0.0), "{shown}");
                } else {
                    let e = result.expect_err(shown);
                    assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e} for {shown}");
                }
            }
        }
    });
}

/// `1` with 100k zeros and an exponent of -100000 is exactly 1: every type accepts it.
#[test]
fn hundred_thousand_digits_scaled_back_to_one() {
    bounded(NORMAL_STACK, || {
        let number = format!("1{}e-100000", "0".repeat(100_000));
        let doc = format!("{{\"optionalDouble\":{number},\"optionalFloat\":\"{number}\"}}");
        let m = decode3(doc.as_bytes()).expect("1.0 in long form");
        assert_eq!((m.optional_double, m.optional_float), (1.0, 1.0));
        let fraction = format!("1.{}", "0".repeat(100_000));
        let doc = format!("{{\"optionalInt64\":{fraction},\"optionalUint32\":\"{fraction}\"}}");
        match decode3(doc.as_bytes()) {
            Ok(m) => assert_eq!((m.optional_int64, m.optional_uint32), (1, 1)),
            Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}"),
        }
    });
}

// ---------------------------------------------------------------------------
// Strings: invalid UTF-8 and lone surrogates, in keys and values.

/// Bytes that are not UTF-8, and escapes that are not Unicode scalar values.
const BAD_STRINGS: [&[u8]; 11] = [
    b"\xff",
    b"a\xc3",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\x80abc",
    b"\\ud800",
    b"\\udc00",
    b"\\ud800\\u0041",
    b"a\\ud83dz",
    b"\\ud83d\\ud83d",
];

/// Every position a string can take: value, key, unknown key, unknown value
/// (skipped), map key, map value, Struct key, Value, Any type URL, enum name,
/// FieldMask, Timestamp.
fn string_positions(s: &[u8]) -> Vec<Vec<u8>> {
    let wrap = |before: &str, after: &str| [before.as_bytes(), s, after.as_bytes()].concat();
    vec![
        wrap("{\"optionalString\":\"", "\"}"),
        wrap("{\"", "\":1}"),
        wrap("{\"repeatedString\":[\"ok\",\"", "\"]}"),
        wrap("{\"mapStringString\":{\"", "\":\"v\"}}"),
        wrap("{\"mapStringString\":{\"k\":\"", "\"}}"),
        wrap("{\"optionalStruct\":{\"", "\":1}}"),
        wrap("{\"optionalValue\":[\"", "\"]}"),
        wrap("{\"optionalStringWrapper\":\"", "\"}"),
        wrap("{\"optionalAny\":{\"@type\":\"", "\"}}"),
        wrap("{\"optionalNestedEnum\":\"", "\"}"),
        wrap("{\"optionalFieldMask\":\"", "\"}"),
        wrap("{\"optionalTimestamp\":\"", "\"}"),
        wrap("{\"optionalBytes\":\"", "\"}"),
    ]
}

#[test]
fn invalid_utf8_and_lone_surrogates_are_rejected_everywhere() {
    bounded(NORMAL_STACK, || {
        for bad in BAD_STRINGS {
            for doc in string_positions(bad) {
                let shown = String::from_utf8_lossy(&doc).into_owned();
                assert!(decode3(&doc).is_err(), "accepted {shown}");
                let e = decode3_ignoring(&doc).expect_err(&shown);
                assert!(
                    matches!(e.kind(), ErrorKind::Syntax | ErrorKind::InvalidValue),
                    "{e} for {shown}"
                );
            }
        }
    });
}

/// Skipped unknown values are still checked: invalid UTF-8 in them is an error.
#[test]
fn invalid_utf8_in_skipped_unknown_values_is_rejected() {
    for bad in BAD_STRINGS {
        for (before, after) in [
            ("{\"x\":\"", "\"}"),
            ("{\"x\":{\"", "\":1}}"),
            ("{\"x\":[\"", "\"]}"),
        ] {
            let doc = [before.as_bytes(), bad, after.as_bytes()].concat();
            let shown = String::from_utf8_lossy(&doc).into_owned();
            let e = decode3_ignoring(&doc).expect_err(&shown);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{e} for {shown}");
        }
    }
}

#[test]
fn valid_surrogate_pairs_and_four_byte_utf8_decode() {
    let m = decode3(br#"{"optionalString":"\ud83d\ude00\u00e9"}"#).expect("valid");
    assert_eq!(m.optional_string, "😀é");
    let raw = "{\"repeatedString\":[\"😀\"],\"mapStringString\":{\"ключ\":\"값\"}}";
    let m = decode3(raw.as_bytes()).expect("valid");
    assert_eq!(m.repeated_string, ["😀"]);
    assert_eq!(m.map_string_string["ключ"], "값");
}

#[test]
fn control_characters_in_strings_are_rejected() {
    for c in [0u8, 0x1f, b'\n', b'\t'] {
        let doc = [b"{\"optionalString\":\"a".as_slice(), &[c], b"\"}"].concat();
        assert_kind(decode3(&doc), ErrorKind::Syntax, &doc);
    }
}

// ---------------------------------------------------------------------------
// Duplicates.

#[test]
fn duplicate_keys_are_rejected() {
    let docs: [&[u8]; 9] = [
        br#"{"optionalInt32":1,"optionalInt32":2}"#,
        br#"{"optionalInt32":1,"optional_int32":2}"#,
        br#"{"optionalNestedMessage":{"a":1},"optionalNestedMessage":{"a":2}}"#,
        br#"{"repeatedInt32":[1],"repeatedInt32":[2]}"#,
        br#"{"mapStringString":{"a":"1","a":"2"}}"#,
        br#"{"mapInt32Int32":{"1":1,"1":2}}"#,
        br#"{"mapBoolBool":{"true":true,"true":false}}"#,
        br#"{"oneofUint32":1,"oneofString":"x"}"#,
        br#"{"optionalStruct":{"a":1,"a":2}}"#,
    ];
    for doc in docs {
        assert_kind(decode3(doc), ErrorKind::DuplicateField, doc);
    }
}

#[test]
fn duplicate_keys_in_any_are_rejected() {
    let docs: [&[u8]; 3] = [
        br#"{"optionalAny":{"@type":"type.googleapis.com/google.protobuf.Duration","@type":"type.googleapis.com/google.protobuf.Duration","value":"1s"}}"#,
        br#"{"optionalAny":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1s","value":"2s"}}"#,
        br#"{"optionalAny":{"@type":"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3","optionalInt32":1,"optionalInt32":1}}"#,
    ];
    for doc in docs {
        assert!(
            decode3(doc).is_err(),
            "accepted {}",
            String::from_utf8_lossy(doc)
        );
    }
}

// ---------------------------------------------------------------------------
// Truncation at every byte offset.

/// A message with a value in every kind of field, nested, packed in Any.
fn rich_message() -> TestAllTypesProto3 {
    let json = br#"{
      "optionalInt32": -5, "optionalInt64": "-9007199254740993", "optionalUint64": "18446744073709551615",
      "optionalFloat": 1.5, "optionalDouble": -2.25e-300, "optionalBool": true,
      "optionalString": "h\u00e9llo \"q\" \ud83d\ude00 \n", "optionalBytes": "AAEC/w==",
      "optionalNestedMessage": {"a": 7, "corecursive": {"optionalInt32": 8}},
      "optionalNestedEnum": "NEG", "optionalForeignEnum": 2,
      "repeatedInt32": [1, -2, 3], "repeatedString": ["a", ""], "repeatedBytes": ["", "AA=="],
      "repeatedNestedMessage": [{"a": 1}, {}], "repeatedFloat": ["NaN", "Infinity", -0.0],
      "mapInt32Int32": {"-1": 1, "2": -2}, "mapBoolBool": {"true": false},
      "mapStringNestedMessage": {"k": {"a": 1}}, "mapStringNestedEnum": {"e": "BAZ"},
      "optionalBoolWrapper": false, "optionalStringWrapper": "", "repeatedDoubleWrapper": [1e10],
      "optionalDuration": "-1.000000001s", "optionalTimestamp": "1972-01-01T10:00:20.021-05:00",
      "optionalFieldMask": "fooBar,baz.qux", "optionalValue": {"a": [null, true, 1, "s", {}]},
      "optionalStruct": {"n": null, "l": [1, [2]]}, "optionalNullValue": null,
      "optionalAny": {"@type": "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3",
                      "optionalInt32": 1,
                      "optionalAny": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "3s"}},
      "repeatedAny": [{"@type": "type.googleapis.com/google.protobuf.Value", "value": [1]}],
      "oneofString": "one"
    }"#;
    decode3(json).expect("the rich message decodes")
}

#[test]
fn every_prefix_of_a_valid_document_is_an_error() {
    bounded(NORMAL_STACK, || {
        let msg = rich_message();
        for opts in [
            EncodeOptions::new(),
            EncodeOptions::new()
                .use_proto_names(true)
                .emit_default_values(true),
        ] {
            let json = msg.to_json_with(&opts).expect("encode").into_bytes();
            decode3(&json).expect("whole document");
            for len in 0..json.len() {
                let prefix = &json[..len];
                for result in [decode3(prefix), decode3_ignoring(prefix)] {
                    let e = result.expect_err(&String::from_utf8_lossy(prefix));
                    assert!(
                        matches!(e.kind(), ErrorKind::Eof | ErrorKind::Syntax),
                        "{e} for prefix of {len} bytes"
                    );
                }
            }
        }
    });
}

/// The same document pretty-printed (whitespace everywhere): prefixes are still errors.
#[test]
fn every_prefix_of_a_spaced_out_document_is_an_error() {
    bounded(NORMAL_STACK, || {
        let json = rich_message().to_json().expect("encode");
        let tree: serde_json::Value = serde_json::from_str(&json).expect("strict JSON");
        let spaced = serde_json::to_vec_pretty(&tree).expect("pretty");
        decode3(&spaced).expect("whole document");
        for len in 0..spaced.len() {
            assert!(
                decode3(&spaced[..len]).is_err(),
                "prefix of {len} bytes accepted"
            );
        }
    });
}

// ---------------------------------------------------------------------------
// Base64, Timestamp, Duration limits.

#[test]
fn base64_padding() {
    let ok: [(&str, &[u8]); 7] = [
        ("", b""),
        ("QQ==", b"A"),
        ("QUI=", b"AB"),
        ("QQ", b"A"),
        ("QUI", b"AB"),
        ("-_8=", b"\xfb\xff"),
        ("+/8", b"\xfb\xff"),
    ];
    for (text, bytes) in ok {
        let doc = format!("{{\"optionalBytes\":\"{text}\"}}");
        let m = decode3(doc.as_bytes()).unwrap_or_else(|e| panic!("{e} for {doc}"));
        assert_eq!(m.optional_bytes, bytes, "{doc}");
    }
    let bad = [
        "Q",
        "Q=",
        "Q==",
        "Q===",
        "QQ=",
        "QQ===",
        "QUI==",
        "=QQ=",
        "QQ=Q",
        "QQ==QQ==",
        "Q Q=",
        "QQ\\n==",
        "QQ==\\u0000",
        "*A==",
        "QUJDRA=",
        "QUJDRA===",
    ];
    for text in bad {
        let doc = format!("{{\"optionalBytes\":\"{text}\"}}");
        assert_kind(
            decode3(doc.as_bytes()),
            ErrorKind::InvalidValue,
            doc.as_bytes(),
        );
        let doc = format!("{{\"optionalBytesWrapper\":\"{text}\"}}");
        assert_kind(
            decode3(doc.as_bytes()),
            ErrorKind::InvalidValue,
            doc.as_bytes(),
        );
    }
}

#[test]
fn timestamp_limits() {
    let ok = [
        ("0001-01-01T00:00:00Z", -62_135_596_800, 0),
        (
            "9999-12-31T23:59:59.999999999Z",
            253_402_300_799,
            999_999_999,
        ),
        ("0001-01-01T00:30:00+00:30", -62_135_596_800, 0),
        ("9999-12-31T23:29:59-00:30", 253_402_300_799, 0),
        ("1970-01-01T00:00:00.000000001Z", 0, 1),
    ];
    for (text, seconds, nanos) in ok {
        let doc = format!("{{\"optionalTimestamp\":\"{text}\"}}");
        let ts = decode3(doc.as_bytes())
            .unwrap_or_else(|e| panic!("{e} for {doc}"))
            .optional_timestamp
            .expect("set");
        assert_eq!((ts.seconds, ts.nanos), (seconds, nanos), "{doc}");
    }
    let bad = [
        "0000-12-31T23:59:59Z",
        "0001-01-01T00:00:00+00:01",
        "0001-01-01T00:00:00.000000001+00:01",
        "9999-12-31T23:59:59-00:01",
        "10000-01-01T00:00:00Z",
        "1970-01-01T00:00:00.1234567891Z",
        "1970-01-01T00:00:60Z",
        "2001-02-29T00:00:00Z",
        "1970-01-01t00:00:00Z",
        "1970-01-01T00:00:00z",
        "1970-01-01T00:00:00",
        "1970-01-01T00:00:00+24:00",
        "1970-01-01 00:00:00Z",
        "+1970-01-01T00:00:00Z",
        "1970-1-01T00:00:00Z",
        "1970-01-01T00:00:00.Z",
        "",
    ];
    for text in bad {
        let doc = format!("{{\"optionalTimestamp\":\"{text}\"}}");
        assert_kind(
            decode3(doc.as_bytes()),
            ErrorKind::InvalidValue,
            doc.as_bytes(),
        );
    }
}

#[test]
fn duration_limits() {
    let ok = [
        ("315576000000s", 315_576_000_000, 0),
        ("-315576000000s", -315_576_000_000, 0),
        ("315576000000.999999999s", 315_576_000_000, 999_999_999),
        ("-315576000000.999999999s", -315_576_000_000, -999_999_999),
        ("-0.5s", 0, -500_000_000),
        ("0.000000001s", 0, 1),
    ];
    for (text, seconds, nanos) in ok {
        let doc = format!("{{\"optionalDuration\":\"{text}\"}}");
        let d = decode3(doc.as_bytes())
            .unwrap_or_else(|e| panic!("{e} for {doc}"))
            .optional_duration
            .expect("set");
        assert_eq!((d.seconds, d.nanos), (seconds, nanos), "{doc}");
    }
    let bad = [
        "315576000001s",
        "-315576000001s",
        "99999999999999999999999s",
        "9223372036854775808s",
        "1.0000000001s",
        "1e3s",
        "1",
        "s",
        ".5s",
        "1.s",
        "+1s",
        "1S",
        " 1s",
        "--1s",
        "0x10s",
        "",
    ];
    for text in bad {
        let doc = format!("{{\"optionalDuration\":\"{text}\"}}");
        assert_kind(
            decode3(doc.as_bytes()),
            ErrorKind::InvalidValue,
            doc.as_bytes(),
        );
    }
}

/// Timestamps and Durations out of range in a message are encode errors, not panics.
#[test]
fn out_of_range_well_known_values_fail_to_encode() {
    use prost_types::{Duration as PDuration, Timestamp};
    let timestamps = [
        (i64::MAX, 0),
        (i64::MIN, 0),
        (253_402_300_800, 0),
        (-62_135_596_801, 0),
        (0, -1),
        (0, 1_000_000_000),
        (0, i32::MIN),
    ];
    for (seconds, nanos) in timestamps {
        let msg = TestAllTypesProto3 {
            optional_timestamp: Some(Timestamp { seconds, nanos }),
            ..Default::default()
        };
        let e = msg
            .to_json()
            .expect_err(&format!("timestamp {seconds}s {nanos}ns"));
        assert_eq!(e.kind(), ErrorKind::Encode, "{e}");
    }
    let durations = [
        (i64::MAX, 0),
        (i64::MIN, 0),
        (315_576_000_001, 0),
        (0, 1_000_000_000),
        (1, -1),
        (-1, 1),
        (0, i32::MIN),
    ];
    for (seconds, nanos) in durations {
        let msg = TestAllTypesProto3 {
            repeated_duration: vec![PDuration { seconds, nanos }],
            ..Default::default()
        };
        let e = msg
            .to_json()
            .expect_err(&format!("duration {seconds}s {nanos}ns"));
        assert_eq!(e.kind(), ErrorKind::Encode, "{e}");
    }
}

/// Non-finite floats in a `Value` cannot be written as JSON: an encode error.
#[test]
fn non_finite_value_fails_to_encode() {
    use prost_types::{Value, value::Kind};
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let msg = TestAllTypesProto3 {
            optional_value: Some(Value {
                kind: Some(Kind::NumberValue(x)),
            }),
            ..Default::default()
        };
        assert_eq!(
            msg.to_json().expect_err("non-finite").kind(),
            ErrorKind::Encode
        );
    }
}
