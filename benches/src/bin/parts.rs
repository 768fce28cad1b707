//! Times fresh decodes of each part of the `order` payload (its messages,
//! well-known types and maps, one by one, and `Order`'s own scalar, string,
//! wrapper and list fields without them), protojsonx against prost's
//! binary decode in alternating turns within one process: where a
//! payload's time goes, part by part, when the whole is close to prost's.
//!
//! ```text
//! cargo build --release -p protojsonx-benches --bin parts
//! target/release/parts                 # the table: best turn of each, and the ratio
//! valgrind --tool=callgrind target/release/parts any 5000   # one part's decodes, for profilers
//! valgrind --tool=callgrind target/release/parts any/prost 5000   # ... and prost's
//! ```

use std::hint::black_box;
use std::time::Instant;

use prost::Message;
use protojsonx_benches::payloads;
use protojsonx_benches::pjx::bench::v1::Order;
use protojsonx_runtime::ProtoJson;

/// One part: its name, its ProtoJSON and binary encodings, and its decoders.
struct Part {
    name: &'static str,
    json: Vec<u8>,
    binary: Vec<u8>,
    from_json: fn(&[u8]),
    from_binary: fn(&[u8]),
}

impl Part {
    fn new<M: ProtoJson + Message + Default + PartialEq>(name: &'static str, m: &M) -> Part {
        let json = protojsonx_runtime::to_vec(m).expect("the payload encodes");
        assert!(protojsonx_runtime::from_slice::<M>(&json).is_ok_and(|read| read == *m));
        Part {
            name,
            json,
            binary: m.encode_to_vec(),
            from_json: |json| drop(black_box(protojsonx_runtime::from_slice::<M>(json))),
            from_binary: |binary| drop(black_box(M::decode(binary))),
        }
    }
}

/// A part the payload holds.
fn some<T>(part: &Option<T>) -> &T {
    part.as_ref().expect("the payload has it")
}

/// Nanoseconds per call of `decode` on `input`, over `runs` calls.
fn time(decode: fn(&[u8]), input: &[u8], runs: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..runs {
        decode(black_box(input));
    }
    start.elapsed().as_nanos() as f64 / runs as f64
}

fn main() {
    protojsonx_benches::pjx::bench::v1::register_protojsonx_types();
    let order = payloads::order(0);
    let mut rest = order.clone();
    (rest.scalars, rest.extra, rest.detail, rest.shipping) = (None, None, None, None);
    (rest.created_at, rest.ttl) = (None, None);
    rest.items.clear();
    (rest.attributes, rest.lines, rest.tallies) = Default::default();
    let maps = Order {
        attributes: order.attributes.clone(),
        lines: order.lines.clone(),
        tallies: order.tallies.clone(),
        ..Order::default()
    };
    let parts = [
        Part::new("order", &order),
        Part::new("scalars", some(&order.scalars)),
        Part::new("line_item", &order.items[0]),
        Part::new("address", some(&order.shipping)),
        Part::new("struct", some(&order.extra)),
        Part::new("any", some(&order.detail)),
        Part::new("timestamp", some(&order.created_at)),
        Part::new("duration", some(&order.ttl)),
        Part::new("maps", &maps),
        Part::new("order_fields", &rest),
    ];
    let mut args = std::env::args().skip(1);
    if let Some(name) = args.next() {
        let runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
        // `NAME/prost`: the part's binary decoded by prost, the other side.
        let (name, prost) = match name.strip_suffix("/prost") {
            Some(name) => (name, true),
            None => (name.as_str(), false),
        };
        let Some(part) = parts.iter().find(|part| part.name == name) else {
            eprintln!("no part is named {name:?}");
            std::process::exit(2);
        };
        if prost {
            time(part.from_binary, &part.binary, runs);
        } else {
            time(part.from_json, &part.json, runs);
        }
        return;
    }
    println!("| part | JSON bytes | binary bytes | protojsonx ns | prost ns | ratio |");
    println!("|---|---:|---:|---:|---:|---:|");
    for part in &parts {
        let once = time(part.from_json, &part.json, 1_000);
        let runs = ((300_000.0 / once) as usize).max(1);
        let (mut json, mut binary) = (f64::MAX, f64::MAX);
        for _ in 0..30 {
            json = json.min(time(part.from_json, &part.json, runs));
            binary = binary.min(time(part.from_binary, &part.binary, runs));
        }
        println!(
            "| {} | {} | {} | {json:.1} | {binary:.1} | {:.2} |",
            part.name,
            part.json.len(),
            part.binary.len(),
            json / binary
        );
    }
}
