//! A tower layer that labels tonic's gRPC traffic `application/grpc+json`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use http::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use tower_layer::Layer;
use tower_service::Service;

/// The content type of gRPC with JSON messages, as grpc-go names it: its
/// server picks the codec registered as `json` for it.
pub const GRPC_JSON: HeaderValue = HeaderValue::from_static("application/grpc+json");

/// Wraps a service so that tonic's `content-type: application/grpc` reads
/// `application/grpc+json`, on requests (wrap a client's channel) and on
/// responses (a server's `layer`).
///
/// tonic writes `application/grpc` whatever the codec, and its metadata API
/// refuses to set `content-type`. Peers that choose the codec by content
/// subtype, like grpc-go, need `+json` to read the messages as JSON. Other
/// content types (`application/grpc+proto`, non-gRPC answers) pass unchanged.
///
/// ```no_run
/// use protojsonx_tonic::JsonContentTypeLayer;
/// use tonic::transport::{Endpoint, Server};
/// use tower_layer::Layer;
///
/// # async fn run() -> Result<(), tonic::transport::Error> {
/// // Client: every request of this channel says application/grpc+json.
/// let channel = Endpoint::from_static("http://127.0.0.1:50051").connect().await?;
/// let channel = JsonContentTypeLayer::new().layer(channel);
/// // let client = GreeterClient::new(channel);
///
/// // Server: every response says application/grpc+json.
/// let server = Server::builder().layer(JsonContentTypeLayer::new());
/// // server.add_service(GreeterServer::new(service)).serve(addr).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonContentTypeLayer {
    _private: (),
}

impl JsonContentTypeLayer {
    /// The layer.
    pub const fn new() -> Self {
        JsonContentTypeLayer { _private: () }
    }
}

impl<S> Layer<S> for JsonContentTypeLayer {
    type Service = JsonContentType<S>;

    fn layer(&self, inner: S) -> JsonContentType<S> {
        JsonContentType { inner }
    }
}

/// The service [`JsonContentTypeLayer`] makes: `inner`, with
/// `application/grpc` relabelled `application/grpc+json` both ways.
#[derive(Debug, Clone)]
pub struct JsonContentType<S> {
    inner: S,
}

impl<S> JsonContentType<S> {
    /// The wrapped service.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// Gives the wrapped service back.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S, B, R> Service<http::Request<B>> for JsonContentType<S>
where
    S: Service<http::Request<B>, Response = http::Response<R>>,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = ResponseFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        relabel(request.headers_mut());
        ResponseFuture {
            inner: self.inner.call(request),
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`JsonContentType`]: relabels the response.
    #[derive(Debug)]
    pub struct ResponseFuture<F> {
        #[pin]
        inner: F,
    }
}

impl<F, R, E> Future for ResponseFuture<F>
where
    F: Future<Output = Result<http::Response<R>, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut response = ready!(self.project().inner.poll(cx))?;
        relabel(response.headers_mut());
        Poll::Ready(Ok(response))
    }
}

/// `application/grpc` becomes `application/grpc+json`; anything else stays.
fn relabel(headers: &mut HeaderMap) {
    if headers
        .get(CONTENT_TYPE)
        .is_some_and(|v| v == "application/grpc")
    {
        headers.insert(CONTENT_TYPE, GRPC_JSON);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::future::{Ready, ready};

    /// Answers with `application/grpc` and records the request's content type.
    #[derive(Default)]
    struct Echo {
        seen: Option<HeaderValue>,
    }

    impl Service<http::Request<()>> for Echo {
        type Response = http::Response<()>;
        type Error = Infallible;
        type Future = Ready<Result<http::Response<()>, Infallible>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: http::Request<()>) -> Self::Future {
            self.seen = request.headers().get(CONTENT_TYPE).cloned();
            let response = http::Response::builder().header(CONTENT_TYPE, "application/grpc");
            ready(Ok(response.body(()).unwrap()))
        }
    }

    fn content_type(request: &str) -> (Option<HeaderValue>, HeaderValue) {
        let mut service = JsonContentTypeLayer::new().layer(Echo::default());
        let request = http::Request::builder().header(CONTENT_TYPE, request);
        let future = service.call(request.body(()).unwrap());
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let Poll::Ready(Ok(response)) = std::pin::pin!(future).poll(&mut cx) else {
            panic!("the echo answers at once");
        };
        (
            service.into_inner().seen,
            response.headers()[CONTENT_TYPE].clone(),
        )
    }

    #[test]
    fn plain_grpc_is_relabelled_both_ways() {
        let (sent, answered) = content_type("application/grpc");
        assert_eq!(sent, Some(GRPC_JSON));
        assert_eq!(answered, GRPC_JSON);
    }

    #[test]
    fn other_content_types_pass_unchanged() {
        let (sent, _) = content_type("application/grpc+proto");
        assert_eq!(sent.unwrap(), "application/grpc+proto");
    }
}
