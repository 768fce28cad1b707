//! Plain structs for `bench.otlp.v1`, OTLP's trace export request, in the
//! ProtoJSON spelling of the parent module: the oneof `AnyValue` is one
//! `Option` field per member, of which the payload sets exactly one.

use serde::{Deserialize, Serialize};

use super::is_default;

/// `bench.otlp.v1.ExportTraceServiceRequest`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExportTraceServiceRequest {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_spans: Vec<ResourceSpans>,
}

/// `bench.otlp.v1.ResourceSpans`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceSpans {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scope_spans: Vec<ScopeSpans>,
    #[serde(skip_serializing_if = "is_default")]
    pub schema_url: String,
}

/// `bench.otlp.v1.Resource`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Resource {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<KeyValue>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_attributes_count: u32,
}

/// `bench.otlp.v1.ScopeSpans`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScopeSpans {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<InstrumentationScope>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<Span>,
    #[serde(skip_serializing_if = "is_default")]
    pub schema_url: String,
}

/// `bench.otlp.v1.InstrumentationScope`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InstrumentationScope {
    #[serde(skip_serializing_if = "is_default")]
    pub name: String,
    #[serde(skip_serializing_if = "is_default")]
    pub version: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<KeyValue>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_attributes_count: u32,
}

/// `bench.otlp.v1.Span.SpanKind`, by its ProtoJSON names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub enum SpanKind {
    #[default]
    #[serde(rename = "SPAN_KIND_UNSPECIFIED")]
    Unspecified,
    #[serde(rename = "SPAN_KIND_INTERNAL")]
    Internal,
    #[serde(rename = "SPAN_KIND_SERVER")]
    Server,
    #[serde(rename = "SPAN_KIND_CLIENT")]
    Client,
    #[serde(rename = "SPAN_KIND_PRODUCER")]
    Producer,
    #[serde(rename = "SPAN_KIND_CONSUMER")]
    Consumer,
}

/// `bench.otlp.v1.Span`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Span {
    #[serde(skip_serializing_if = "Vec::is_empty", with = "super::base64_bytes")]
    pub trace_id: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty", with = "super::base64_bytes")]
    pub span_id: Vec<u8>,
    #[serde(skip_serializing_if = "is_default")]
    pub trace_state: String,
    #[serde(skip_serializing_if = "Vec::is_empty", with = "super::base64_bytes")]
    pub parent_span_id: Vec<u8>,
    #[serde(skip_serializing_if = "is_default")]
    pub flags: u32,
    #[serde(skip_serializing_if = "is_default")]
    pub name: String,
    #[serde(skip_serializing_if = "is_default")]
    pub kind: SpanKind,
    #[serde(skip_serializing_if = "is_default", with = "super::string_int")]
    pub start_time_unix_nano: u64,
    #[serde(skip_serializing_if = "is_default", with = "super::string_int")]
    pub end_time_unix_nano: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<KeyValue>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_attributes_count: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_events_count: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_links_count: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

/// `bench.otlp.v1.Span.Event`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Event {
    #[serde(skip_serializing_if = "is_default", with = "super::string_int")]
    pub time_unix_nano: u64,
    #[serde(skip_serializing_if = "is_default")]
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<KeyValue>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_attributes_count: u32,
}

/// `bench.otlp.v1.Span.Link`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Link {
    #[serde(skip_serializing_if = "Vec::is_empty", with = "super::base64_bytes")]
    pub trace_id: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty", with = "super::base64_bytes")]
    pub span_id: Vec<u8>,
    #[serde(skip_serializing_if = "is_default")]
    pub trace_state: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<KeyValue>,
    #[serde(skip_serializing_if = "is_default")]
    pub dropped_attributes_count: u32,
    #[serde(skip_serializing_if = "is_default")]
    pub flags: u32,
}

/// `bench.otlp.v1.Status.StatusCode`, by its ProtoJSON names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub enum StatusCode {
    #[default]
    #[serde(rename = "STATUS_CODE_UNSET")]
    Unset,
    #[serde(rename = "STATUS_CODE_OK")]
    Ok,
    #[serde(rename = "STATUS_CODE_ERROR")]
    Error,
}

/// `bench.otlp.v1.Status`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Status {
    #[serde(skip_serializing_if = "is_default")]
    pub message: String,
    #[serde(skip_serializing_if = "is_default")]
    pub code: StatusCode,
}

/// `bench.otlp.v1.KeyValue`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KeyValue {
    #[serde(skip_serializing_if = "is_default")]
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<AnyValue>,
}

/// `bench.otlp.v1.AnyValue`: its oneof `value`, one field per member.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AnyValue {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub string_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bool_value: Option<bool>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        with = "super::opt_string_int"
    )]
    pub int_value: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub array_value: Option<ArrayValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kvlist_value: Option<KeyValueList>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        with = "super::opt_base64_bytes"
    )]
    pub bytes_value: Option<Vec<u8>>,
}

/// `bench.otlp.v1.ArrayValue`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ArrayValue {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<AnyValue>,
}

/// `bench.otlp.v1.KeyValueList`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KeyValueList {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<KeyValue>,
}
