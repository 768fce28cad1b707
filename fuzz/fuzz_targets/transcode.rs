//! The HTTP/JSON router of protojsonx-transcode on arbitrary requests: the
//! generated routes of the shop test service (every kind of binding: path
//! variables of one and many segments, verbs, `body: "*"` and `body:
//! "field"`, `response_body`, query parameters of every JSON form, server
//! streaming, a client stream), calling an in-process service that answers
//! from its request.
//!
//! The input is a request written as HTTP/1.1 writes one: `METHOD target`,
//! then `name: value` header lines, an empty line and the body (all of the
//! rest); a method, target or header the `http` crate refuses is left out
//! (no server could hand the router such a request). Each request is served
//! by two routers, one with the default options and one with small limits
//! that ignores unknown parameters and fields. Every request must be
//! answered, without a panic; an error answer is a JSON `google.rpc.Status`
//! with a code and a message, the code's HTTP status (but for the router's
//! own 405, 413, 414 and 415); a success is JSON, or JSON lines, or
//! server-sent events of JSON, as its content type says.
#![no_main]

use std::pin::Pin;
use std::sync::Once;

use futures_util::Stream;
use http::{HeaderName, HeaderValue, Method, Request, StatusCode, Uri};
use libfuzzer_sys::fuzz_target;
use protojsonx_runtime::DecodeOptions;
use protojsonx_transcode::query::UnknownParameters;
use protojsonx_transcode::router::{Options, Router};
use tonic::{Code, Status};

mod shop {
    pub mod v1 {
        #![allow(clippy::all, dead_code)]
        include!(concat!(env!("OUT_DIR"), "/shop.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/shop.v1.protojsonx.rs"));
    }
}

use shop::v1::shop_server::Shop;
use shop::v1::*;

/// The most items a watch sends, whatever count it is asked for.
const MAX_WATCHED: i32 = 8;

/// Answers every method from its request, as the shop tests' server does,
/// but never with an empty status message (the oracle requires one of
/// the router) and never more than [`MAX_WATCHED`] streamed items.
struct Server;

type Items = Pin<Box<dyn Stream<Item = Result<Item, Status>> + Send>>;

/// A status of `code` (a `google.rpc.Code`, any `i32`), never `OK`: a
/// failure the client asked for.
fn failure(code: i32, message: String) -> Status {
    let code = match Code::from(code) {
        Code::Ok => Code::Unknown,
        code => code,
    };
    let message = if message.is_empty() {
        "failed".to_owned()
    } else {
        message
    };
    Status::new(code, message)
}

#[tonic::async_trait]
impl Shop for Server {
    async fn get_item(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let name = request.into_inner().name;
        if name.ends_with("/missing") {
            return Err(Status::not_found(format!("{name} does not exist")));
        }
        Ok(tonic::Response::new(Item {
            title: format!("title of {name}"),
            name,
            stock: 9_007_199_254_740_993,
            tags: vec!["a".into(), "b".into()],
            kind: Kind::Book as i32,
            ..Default::default()
        }))
    }

    async fn list_items(
        &self,
        request: tonic::Request<ListItemsRequest>,
    ) -> Result<tonic::Response<ListItemsResponse>, Status> {
        let mut response = tonic::Response::new(ListItemsResponse {
            request: Some(request.get_ref().clone()),
        });
        if let Some(value) = request.metadata().get("x-trace") {
            response.metadata_mut().insert("x-trace", value.clone());
        }
        Ok(response)
    }

    async fn create_item(
        &self,
        request: tonic::Request<CreateItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let request = request.into_inner();
        let mut item = request.item.unwrap_or_default();
        item.name = format!("{}/items/{}", request.parent, request.request_id);
        Ok(tonic::Response::new(item))
    }

    async fn update_item(
        &self,
        request: tonic::Request<UpdateItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let request = request.into_inner();
        let mut item = request.item.unwrap_or_default();
        if let Some(mask) = request.update_mask {
            item.tags.extend(mask.paths);
        }
        Ok(tonic::Response::new(item))
    }

    async fn archive_item(
        &self,
        request: tonic::Request<ArchiveItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let request = request.into_inner();
        Ok(tonic::Response::new(Item {
            name: request.name,
            title: request.reason,
            archived: true,
            ..Default::default()
        }))
    }

    async fn delete_item(
        &self,
        _: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<()>, Status> {
        Ok(tonic::Response::new(()))
    }

    async fn item_name(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        self.get_item(request).await
    }

    async fn item_tags(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        self.get_item(request).await
    }

    async fn count_items(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let mut item = self.get_item(request).await?.into_inner();
        item.tags.clear();
        Ok(tonic::Response::new(item))
    }

    type WatchItemsStream = Items;

    async fn watch_items(
        &self,
        request: tonic::Request<WatchItemsRequest>,
    ) -> Result<tonic::Response<Items>, Status> {
        let request = request.into_inner();
        if request.count < 0 {
            return Err(Status::invalid_argument("count is negative"));
        }
        let parent = request.parent.clone();
        let mut items: Vec<Result<Item, Status>> = (0..request.count.min(MAX_WATCHED))
            .map(|i| {
                Ok(Item {
                    name: format!("{parent}/items/{i}"),
                    stock: i64::from(i),
                    ..Default::default()
                })
            })
            .collect();
        if request.fail_code != 0 {
            items.push(Err(failure(request.fail_code, "the watch failed".into())));
        }
        Ok(tonic::Response::new(Box::pin(futures_util::stream::iter(
            items,
        ))))
    }

    async fn fail(
        &self,
        request: tonic::Request<FailRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let request = request.into_inner();
        let status = failure(request.code, request.message);
        let detail = prost_types::Any {
            type_url: "type.googleapis.com/shop.v1.Item".into(),
            value: prost::Message::encode_to_vec(&Item {
                name: "detail".into(),
                ..Default::default()
            }),
        };
        let details = protojsonx_transcode::types::rpc::Status {
            code: status.code() as i32,
            message: status.message().to_owned(),
            details: vec![detail],
        };
        Err(Status::with_details(
            status.code(),
            status.message(),
            prost::Message::encode_to_vec(&details).into(),
        ))
    }

    async fn upload_items(
        &self,
        _: tonic::Request<tonic::Streaming<Item>>,
    ) -> Result<tonic::Response<Item>, Status> {
        Err(Status::unimplemented("not over HTTP"))
    }
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    routers: [Router; 2],
}

thread_local! {
    /// Built once: the routers, and the runtime (with timers, for `grpc-timeout`).
    static FIXTURE: Fixture = Fixture {
        runtime: tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a current-thread runtime"),
        routers: [
            shop_routes(Server, Options::new()),
            shop_routes(
                Server,
                Options::new()
                    .max_body(64)
                    .max_uri(256)
                    .unknown_parameters(UnknownParameters::Ignore)
                    .decode_options(DecodeOptions::new().ignore_unknown_fields(true)),
            ),
        ],
    };
}

/// The request `data` writes, if the `http` crate can hold it.
fn request(data: &[u8]) -> Option<Request<axum::body::Body>> {
    let (head, body) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &[][..]),
    };
    let mut lines = head.split(|&b| b == b'\n');
    let first = lines.next()?;
    let space = first.iter().position(|&b| b == b' ')?;
    let method = Method::from_bytes(&first[..space]).ok()?;
    let uri = Uri::try_from(&first[space + 1..]).ok()?;
    let mut request = Request::builder().method(method).uri(uri);
    for line in lines {
        let colon = line.iter().position(|&b| b == b':')?;
        let name = HeaderName::from_bytes(&line[..colon]).ok()?;
        let value = line[colon + 1..].trim_ascii_start();
        let value = HeaderValue::from_bytes(value).ok()?;
        request = request.header(name, value);
    }
    request.body(axum::body::Body::from(body.to_vec())).ok()
}

/// The router's own refusals, whose HTTP status says more than their code's.
const OWN_STATUSES: [StatusCode; 4] = [
    StatusCode::METHOD_NOT_ALLOWED,
    StatusCode::PAYLOAD_TOO_LARGE,
    StatusCode::URI_TOO_LONG,
    StatusCode::UNSUPPORTED_MEDIA_TYPE,
];

/// Checks one answer against the oracle (see the module documentation).
fn check(status: StatusCode, content_type: &str, body: &[u8]) {
    let json = |text: &[u8]| {
        serde_json::from_slice::<serde_json::Value>(text).unwrap_or_else(|e| {
            panic!(
                "{status} {content_type}: not JSON ({e}): {}",
                String::from_utf8_lossy(text)
            )
        })
    };
    if status != StatusCode::OK {
        assert_eq!(content_type, "application/json", "{status}");
        let answer = json(body);
        let code = answer["code"].as_i64();
        let code = code.unwrap_or_else(|| panic!("{status}: no code: {answer}"));
        assert!((1..=16).contains(&code), "{status}: {answer}");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{status}: no message: {answer}");
        let code_status = protojsonx_transcode::status::http_status(Code::from(code as i32));
        assert!(
            code_status == status || OWN_STATUSES.contains(&status),
            "{status} with code {code}: {answer}"
        );
        return;
    }
    match content_type {
        "application/json" => {
            json(body);
        }
        "application/x-ndjson" => {
            let lines = body.strip_suffix(b"\n").unwrap_or(body);
            if !lines.is_empty() {
                lines.split(|&b| b == b'\n').for_each(|line| {
                    json(line);
                });
            }
        }
        "text/event-stream" => {
            let text = std::str::from_utf8(body).expect("events are UTF-8");
            for line in text.lines() {
                if let Some(data) = line.strip_prefix("data: ") {
                    json(data.as_bytes());
                }
            }
        }
        other => panic!("200 with content type {other:?}"),
    }
}

static REGISTER: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    REGISTER.call_once(register_protojsonx_types);
    FIXTURE.with(|fixture| {
        for router in &fixture.routers {
            let Some(request) = request(data) else {
                return;
            };
            fixture.runtime.block_on(async {
                let response = router.serve(request).await;
                let status = response.status();
                let content_type = response
                    .headers()
                    .get(http::header::CONTENT_TYPE)
                    .map(|v| v.to_str().expect("an ASCII content type").to_owned())
                    .unwrap_or_default();
                let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                    .await
                    .expect("an answer's body can be read");
                check(status, &content_type, &body);
            });
        }
    });
});
