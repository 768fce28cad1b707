//! The OTLP payload: one trace export request of a shop's two services, as
//! an OpenTelemetry SDK batches it. Each service has four instrumentation
//! scopes (HTTP server, database client, application code, Kafka), each
//! with [`SPANS_PER_SCOPE`] spans whose attributes follow the semantic
//! conventions: strings, integers, booleans, doubles, arrays, now and then a
//! nested list of attributes or bytes; errors carry an exception event, Kafka
//! consumers a link to the producer. Everything is derived from the span's
//! number, so the payload is the same on every run.

use crate::pjx::bench::otlp::v1::{
    AnyValue, ArrayValue, ExportTraceServiceRequest, InstrumentationScope, KeyValue, KeyValueList,
    Resource, ResourceSpans, ScopeSpans, Span, Status, any_value::Value, span, status::StatusCode,
};

/// Spans in each instrumentation scope: 2 services × 4 scopes × 23 = 184
/// spans, about 196 KB of ProtoJSON.
pub const SPANS_PER_SCOPE: u64 = 23;

/// The semantic conventions' schema version the attributes follow.
const SCHEMA_URL: &str = "https://opentelemetry.io/schemas/1.27.0";

/// 2024-11-19T07:06:40Z, the first span's start, in nanoseconds.
const EPOCH_NANOS: u64 = 1_732_000_000_000_000_000;

/// A service: its name, version and SDK language.
struct Service {
    name: &'static str,
    version: &'static str,
    language: &'static str,
}

const SERVICES: [Service; 2] = [
    Service {
        name: "checkout",
        version: "2.14.1",
        language: "java",
    },
    Service {
        name: "inventory",
        version: "0.9.3",
        language: "go",
    },
];

/// What a scope instruments, which decides its spans' shape.
#[derive(Clone, Copy)]
enum Library {
    Http,
    Database,
    App,
    Kafka,
}

/// The instrumentation scopes of every service: name, version, library.
const SCOPES: [(&str, &str, Library); 4] = [
    (
        "io.opentelemetry.tomcat-10.0",
        "2.10.0-alpha",
        Library::Http,
    ),
    ("io.opentelemetry.jdbc", "2.10.0-alpha", Library::Database),
    ("com.example.shop.pricing", "2.14.1", Library::App),
    (
        "io.opentelemetry.kafka-clients-2.6",
        "2.10.0-alpha",
        Library::Kafka,
    ),
];

/// The export request: every service's spans.
pub fn otlp() -> ExportTraceServiceRequest {
    ExportTraceServiceRequest {
        resource_spans: SERVICES
            .iter()
            .zip(0u64..)
            .map(|(service, r)| resource_spans(service, r))
            .collect(),
    }
}

fn resource_spans(service: &Service, r: u64) -> ResourceSpans {
    ResourceSpans {
        resource: Some(resource(service, r)),
        scope_spans: SCOPES
            .iter()
            .zip(0u64..)
            .map(|(&(name, version, library), k)| {
                let first = (r * SCOPES.len() as u64 + k) * SPANS_PER_SCOPE;
                scope_spans(name, version, library, first)
            })
            .collect(),
        schema_url: SCHEMA_URL.into(),
    }
}

/// The resource attributes an SDK on Kubernetes reports.
fn resource(service: &Service, r: u64) -> Resource {
    let pod = format!(
        "{}-7d9f8b6c4-{}",
        service.name,
        ["x2k9p", "m4q7z"][r as usize]
    );
    Resource {
        attributes: vec![
            string("service.name", service.name),
            string("service.namespace", "shop"),
            string("service.version", service.version),
            string(
                "service.instance.id",
                format!(
                    "{:08x}-5f1c-4c7e-9a3b-{:012x}",
                    0x6e2a_41d0 + r,
                    mix(r) >> 16
                ),
            ),
            string("deployment.environment.name", "production"),
            string("host.name", pod.clone()),
            string("host.arch", "amd64"),
            string("os.type", "linux"),
            int("process.pid", 1 + r as i64 * 7),
            strings(
                "process.command_args",
                &["/app/server", "--config", "/etc/shop/config.yaml"],
            ),
            string(
                "process.runtime.name",
                ["OpenJDK Runtime Environment", "go"][r as usize],
            ),
            string("telemetry.sdk.name", "opentelemetry"),
            string("telemetry.sdk.language", service.language),
            string("telemetry.sdk.version", "1.44.1"),
            string("k8s.namespace.name", "shop-prod"),
            string("k8s.pod.name", pod),
            string("k8s.node.name", format!("gke-prod-pool-{}", 3 + r)),
            string("cloud.provider", "gcp"),
            string("cloud.region", "europe-west1"),
        ],
        dropped_attributes_count: 0,
    }
}

fn scope_spans(name: &str, version: &str, library: Library, first: u64) -> ScopeSpans {
    let attributes = match library {
        Library::App => vec![string("code.namespace", "com.example.shop.pricing")],
        _ => Vec::new(),
    };
    ScopeSpans {
        scope: Some(InstrumentationScope {
            name: name.into(),
            version: version.into(),
            attributes,
            dropped_attributes_count: 0,
        }),
        spans: (first..first + SPANS_PER_SCOPE)
            .map(|n| span(library, n))
            .collect(),
        schema_url: SCHEMA_URL.into(),
    }
}

/// Span number `n` of the request, made by `library`.
fn span(library: Library, n: u64) -> Span {
    let mut span = skeleton(n);
    match library {
        Library::Http => http_server(&mut span, n),
        Library::Database => database(&mut span, n),
        Library::App => app(&mut span, n),
        Library::Kafka => kafka(&mut span, n),
    }
    span
}

/// Ids, times and flags: what every span has. Spans come in traces of
/// eight; the first of each is a root, the others its children.
fn skeleton(n: u64) -> Span {
    let start = EPOCH_NANOS + n * 1_250_000 + mix(n) % 1_000;
    Span {
        trace_id: trace_id(n / 8),
        span_id: span_id(n),
        trace_state: if n % 5 == 0 {
            "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE".into()
        } else {
            String::new()
        },
        parent_span_id: if n % 8 == 0 {
            Vec::new()
        } else {
            span_id(n - n % 8)
        },
        flags: 0x101,
        start_time_unix_nano: start,
        end_time_unix_nano: start + 150_000 + mix(n + 1) % 40_000_000,
        ..Span::default()
    }
}

/// Cart totals by item count: short decimals, which every JSON parser reads
/// back exactly (serde_json's default float parsing, which prost-reflect
/// uses, can be one ulp off on 17-digit ones).
const CART_TOTALS: [f64; 6] = [20.49, 40.48, 60.47, 80.46, 100.45, 120.44];

/// The routes the HTTP spans serve, by method.
const ROUTES: [(&str, &str); 3] = [
    ("GET", "/api/v1/carts/{cartId}"),
    ("POST", "/api/v1/carts/{cartId}/items"),
    ("GET", "/api/v1/products/{sku}"),
];

const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 ",
    "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
);

/// An HTTP request served; one in twelve fails with an exception.
fn http_server(span: &mut Span, n: u64) {
    let (method, route) = ROUTES[(n % 3) as usize];
    let failed = n % 12 == 7;
    let status = if failed {
        503
    } else {
        200 + i64::from(method == "POST")
    };
    span.name = format!("{method} {route}");
    span.kind = span::SpanKind::Server as i32;
    span.attributes = http_attributes(n, method, route, status);
    if failed {
        span.events = vec![exception(span.end_time_unix_nano - 20_000)];
        span.status = Some(Status {
            message: "upstream inventory unavailable".into(),
            code: StatusCode::Error as i32,
        });
    }
}

fn http_attributes(n: u64, method: &str, route: &str, status: i64) -> Vec<KeyValue> {
    let path = route
        .replace("{cartId}", &format!("c-{:06}", n * 37 % 1_000_000))
        .replace("{sku}", &format!("SKU-{:05}", n * 131 % 100_000));
    vec![
        string("http.request.method", method),
        string("url.scheme", "https"),
        string("url.path", path),
        string("http.route", route),
        string("server.address", "shop.example.com"),
        int("server.port", 443),
        string("network.protocol.version", "1.1"),
        string(
            "client.address",
            format!("10.{}.{}.{}", n % 4, n * 7 % 256, n * 13 % 256),
        ),
        string("user_agent.original", USER_AGENT),
        strings(
            "http.request.header.accept",
            &["application/json", "text/plain;q=0.9"],
        ),
        int("http.response.status_code", status),
        int("http.response.body.size", 180 + (mix(n) % 4_000) as i64),
    ]
}

/// The database spans' queries: operation, table and text.
const QUERIES: [(&str, &str, &str); 3] = [
    (
        "SELECT",
        "cart_items",
        concat!(
            "SELECT id, sku, quantity, price_micros FROM cart_items ",
            "WHERE cart_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT $2"
        ),
    ),
    (
        "INSERT",
        "cart_items",
        concat!(
            "INSERT INTO cart_items (cart_id, sku, quantity, price_micros) ",
            "VALUES ($1, $2, $3, $4) RETURNING id"
        ),
    ),
    (
        "SELECT",
        "products",
        "SELECT sku, name, price_micros, stock FROM products WHERE sku = ANY($1)",
    ),
];

/// A query to PostgreSQL.
fn database(span: &mut Span, n: u64) {
    let (operation, table, query) = QUERIES[(n % 3) as usize];
    span.name = format!("{operation} shop.{table}");
    span.kind = span::SpanKind::Client as i32;
    span.attributes = vec![
        string("db.system.name", "postgresql"),
        string("db.namespace", "shop"),
        string("db.operation.name", operation),
        string("db.collection.name", table),
        string("db.query.text", query),
        string("server.address", "pg-primary.shop-prod.svc.cluster.local"),
        int("server.port", 5432),
        string("network.peer.address", format!("10.8.0.{}", 10 + n % 3)),
        int("db.response.returned_rows", (mix(n) % 25) as i64),
        boolean("db.statement.prepared", n % 4 != 0),
    ];
}

/// Pricing code: doubles, arrays, a cache event; now and then a nested list
/// of attributes and a bytes digest.
fn app(span: &mut Span, n: u64) {
    span.name = ["pricing.price_cart", "pricing.apply_promotions"][(n % 2) as usize].into();
    span.kind = span::SpanKind::Internal as i32;
    let items = mix(n) % 6;
    span.attributes = vec![
        string("app.cart.id", format!("c-{:06}", n * 37 % 1_000_000)),
        int("app.cart.items", 1 + items as i64),
        double("app.cart.total", CART_TOTALS[items as usize]),
        string("app.currency", "EUR"),
        double("app.discount.rate", [0.05, 0.15, 0.125][(n % 3) as usize]),
        boolean("app.cache.hit", n % 3 != 0),
        strings("app.feature_flags", &["new-pricing", "free-shipping-eu"]),
        ints(
            "app.item_ids",
            &[1_042 + n as i64, 2_210, 87_001 + n as i64 % 50],
        ),
    ];
    if n % 10 == 0 {
        span.attributes.push(kvlist(
            "app.promotion",
            vec![
                string("rule", "SPRING25"),
                int("priority", 3),
                boolean("stackable", false),
            ],
        ));
    }
    if n % 5 == 0 {
        span.attributes
            .push(bytes("app.cart.digest", mix(n).to_be_bytes().to_vec()));
    }
    span.events = vec![event(
        span.start_time_unix_nano + 40_000,
        "cache.lookup",
        vec![
            string("cache.key", format!("price:{:06}", n * 37 % 1_000_000)),
            boolean("cache.hit", n % 3 != 0),
        ],
    )];
}

/// Kafka: producers send, consumers process with a link to the send.
fn kafka(span: &mut Span, n: u64) {
    let consumer = n % 2 == 1;
    let (name, kind, operation) = if consumer {
        ("orders process", span::SpanKind::Consumer, "process")
    } else {
        ("orders publish", span::SpanKind::Producer, "send")
    };
    span.name = name.into();
    span.kind = kind as i32;
    span.attributes = vec![
        string("messaging.system", "kafka"),
        string("messaging.destination.name", "orders"),
        string("messaging.operation.type", operation),
        string("messaging.destination.partition.id", (n % 6).to_string()),
        string("messaging.kafka.message.key", format!("ord_{:08}", n * 7)),
        int("messaging.kafka.offset", 1_200_000 + n as i64 * 3),
        int("messaging.message.body.size", 512 + (mix(n) % 2_048) as i64),
    ];
    if consumer {
        span.attributes
            .push(string("messaging.consumer.group.name", "fulfilment"));
        span.links = vec![send_link(n)];
    }
}

/// The link from consumer span `n` to the producer's span, in another trace.
fn send_link(n: u64) -> span::Link {
    span::Link {
        trace_id: trace_id(n / 8 + 1_000),
        span_id: span_id(n + 10_000),
        trace_state: String::new(),
        attributes: vec![string("messaging.operation.type", "send")],
        dropped_attributes_count: 0,
        flags: 0x301,
    }
}

const STACKTRACE: &str = concat!(
    "java.net.SocketTimeoutException: Read timed out\n",
    "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)\n",
    "\tat com.example.shop.inventory.Client.reserve(Client.java:112)\n",
    "\tat com.example.shop.checkout.CartService.addItem(CartService.java:64)\n",
    "\tat com.example.shop.checkout.CartController.post(CartController.java:41)"
);

/// The exception event of a failed request, with a Java stack trace.
fn exception(time: u64) -> span::Event {
    event(
        time,
        "exception",
        vec![
            string("exception.type", "java.net.SocketTimeoutException"),
            string(
                "exception.message",
                "Read timed out after 2000 ms (inventory:8080)",
            ),
            string("exception.stacktrace", STACKTRACE),
            boolean("exception.escaped", false),
        ],
    )
}

fn event(time_unix_nano: u64, name: &str, attributes: Vec<KeyValue>) -> span::Event {
    span::Event {
        time_unix_nano,
        name: name.into(),
        attributes,
        dropped_attributes_count: 0,
    }
}

/// The 16-byte id of trace `t`.
fn trace_id(t: u64) -> Vec<u8> {
    [mix(t).to_be_bytes(), mix(!t).to_be_bytes()].concat()
}

/// The 8-byte id of span `n`.
fn span_id(n: u64) -> Vec<u8> {
    mix(n ^ 0x5eed_0000).to_be_bytes().to_vec()
}

/// splitmix64's finalizer: well-spread bits from a counter.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn attribute(key: &str, value: Value) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue { value: Some(value) }),
    }
}

fn string(key: &str, value: impl Into<String>) -> KeyValue {
    attribute(key, Value::StringValue(value.into()))
}

fn int(key: &str, value: i64) -> KeyValue {
    attribute(key, Value::IntValue(value))
}

fn boolean(key: &str, value: bool) -> KeyValue {
    attribute(key, Value::BoolValue(value))
}

fn double(key: &str, value: f64) -> KeyValue {
    attribute(key, Value::DoubleValue(value))
}

fn bytes(key: &str, value: Vec<u8>) -> KeyValue {
    attribute(key, Value::BytesValue(value))
}

fn array(key: &str, values: impl Iterator<Item = Value>) -> KeyValue {
    let values = values.map(|v| AnyValue { value: Some(v) }).collect();
    attribute(key, Value::ArrayValue(ArrayValue { values }))
}

fn strings(key: &str, values: &[&str]) -> KeyValue {
    array(key, values.iter().map(|&v| Value::StringValue(v.into())))
}

fn ints(key: &str, values: &[i64]) -> KeyValue {
    array(key, values.iter().map(|&v| Value::IntValue(v)))
}

fn kvlist(key: &str, values: Vec<KeyValue>) -> KeyValue {
    attribute(key, Value::KvlistValue(KeyValueList { values }))
}
