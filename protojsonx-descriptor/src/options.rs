//! Custom options of methods, read from encoded descriptors.
//!
//! prost structs keep no unknown fields, so a descriptor decoded into them
//! (prost-types' or [`crate::types`]) has lost every custom option: the
//! `google.api.http` rule of a method is an extension of `MethodOptions`.
//! These functions walk the encoded descriptors instead and return the
//! extension's encoded value per method, for the caller to decode.

use std::collections::BTreeMap;

use prost::bytes::Buf;
use prost::encoding::{WireType, decode_key, decode_varint};

/// Descriptors that are not valid protobuf, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(&'static str);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed descriptors: {}", self.0)
    }
}

impl std::error::Error for Malformed {}

/// `FileDescriptorSet.file`.
const SET_FILE: u32 = 1;
/// `CodeGeneratorRequest.proto_file`.
const REQUEST_PROTO_FILE: u32 = 15;
/// `FileDescriptorProto.package` and `.service`.
const FILE_PACKAGE: u32 = 2;
const FILE_SERVICE: u32 = 6;
/// `ServiceDescriptorProto.name` and `.method`; `MethodDescriptorProto.name`
/// and `.options` have the same numbers.
const NAME: u32 = 1;
const SERVICE_METHOD: u32 = 2;
const METHOD_OPTIONS: u32 = 4;

/// The encoded value of extension `number` of each method's options in a
/// `FileDescriptorSet`, by the method's full name (`pkg.Service.Method`).
/// An extension set more than once is the concatenation of its values (a
/// merge, as protobuf reads it). Methods without it are left out.
pub fn method_extensions(set: &[u8], number: u32) -> Result<BTreeMap<String, Vec<u8>>, Malformed> {
    extensions_of_files(set, SET_FILE, number)
}

/// [`method_extensions`] of the files of a `CodeGeneratorRequest`, as protoc
/// and buf send it to plugins.
pub fn request_method_extensions(
    request: &[u8],
    number: u32,
) -> Result<BTreeMap<String, Vec<u8>>, Malformed> {
    extensions_of_files(request, REQUEST_PROTO_FILE, number)
}

fn extensions_of_files(
    message: &[u8],
    files_field: u32,
    number: u32,
) -> Result<BTreeMap<String, Vec<u8>>, Malformed> {
    let mut found = BTreeMap::new();
    for file in fields(message, files_field)? {
        let package = last_string(file, FILE_PACKAGE)?;
        for service in fields(file, FILE_SERVICE)? {
            let service_name = last_string(service, NAME)?;
            for method in fields(service, SERVICE_METHOD)? {
                let mut value = Vec::new();
                for options in fields(method, METHOD_OPTIONS)? {
                    for part in fields(options, number)? {
                        value.extend_from_slice(part);
                    }
                }
                if value.is_empty() && !has_field(method, METHOD_OPTIONS, number)? {
                    continue;
                }
                let method_name = last_string(method, NAME)?;
                let full = [package.as_str(), &service_name, &method_name]
                    .iter()
                    .filter(|part| !part.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(".");
                found.insert(full, value);
            }
        }
    }
    Ok(found)
}

/// Whether the options of `method` set extension `number` (an empty value
/// counts: a rule may be all defaults).
fn has_field(method: &[u8], options_field: u32, number: u32) -> Result<bool, Malformed> {
    for options in fields(method, options_field)? {
        if !fields(options, number)?.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The last value of string field `number` (as protobuf reads a repeated
/// singular field), or "" when absent.
fn last_string(message: &[u8], number: u32) -> Result<String, Malformed> {
    let value = fields(message, number)?.pop().unwrap_or_default();
    String::from_utf8(value.to_vec()).map_err(|_| Malformed("a descriptor name is not UTF-8"))
}

fn varint(message: &mut &[u8]) -> Result<u64, Malformed> {
    decode_varint(message).map_err(|_| Malformed("a varint runs past its message"))
}

/// The values of length-delimited field `number` of `message`, in order;
/// other fields are stepped over.
pub(crate) fn fields(mut message: &[u8], number: u32) -> Result<Vec<&[u8]>, Malformed> {
    let mut out = Vec::new();
    while message.has_remaining() {
        let (tag, wire_type) =
            decode_key(&mut message).map_err(|_| Malformed("a field's key is not a varint"))?;
        let len = match wire_type {
            WireType::Varint => {
                varint(&mut message)?;
                continue;
            }
            WireType::SixtyFourBit => 8,
            WireType::ThirtyTwoBit => 4,
            WireType::LengthDelimited => usize::try_from(varint(&mut message)?)
                .map_err(|_| Malformed("a length does not fit in memory"))?,
            WireType::StartGroup | WireType::EndGroup => {
                return Err(Malformed("groups have no place in descriptors"));
            }
        };
        if len > message.len() {
            return Err(Malformed("a field runs past its message"));
        }
        let (value, rest) = message.split_at(len);
        if tag == number && wire_type == WireType::LengthDelimited {
            out.push(value);
        }
        message = rest;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    /// A field `number` holding `value`, encoded.
    fn field(number: u32, value: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        prost::encoding::encode_key(number, WireType::LengthDelimited, &mut out);
        prost::encoding::encode_varint(value.len() as u64, &mut out);
        out.extend_from_slice(value);
        out
    }

    fn method(name: &str, options: &[u8]) -> Vec<u8> {
        [field(NAME, name.as_bytes()), field(METHOD_OPTIONS, options)].concat()
    }

    #[test]
    fn extensions_are_found_by_method_and_merged() {
        let http = 72_295_728;
        let options = [
            vec![0x10, 0x01], // deprecated = true, a varint to step over
            field(http, b"rule-a"),
            field(http, b"rule-b"),
        ]
        .concat();
        let service = [
            field(NAME, b"Shop"),
            field(SERVICE_METHOD, &method("Get", &options)),
            field(SERVICE_METHOD, &method("Plain", &[0x10, 0x01])),
            field(SERVICE_METHOD, &method("Empty", &field(http, b""))),
        ]
        .concat();
        let file = [
            field(FILE_PACKAGE, b"shop.v1"),
            field(FILE_SERVICE, &service),
        ]
        .concat();
        let set = field(SET_FILE, &file);
        let found = method_extensions(&set, http).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found["shop.v1.Shop.Get"], b"rule-arule-b");
        assert_eq!(found["shop.v1.Shop.Empty"], b"");
        let request = field(REQUEST_PROTO_FILE, &file);
        assert_eq!(request_method_extensions(&request, http).unwrap(), found);
    }

    #[test]
    fn descriptors_decoded_by_prost_agree_on_names() {
        // The walker reads what prost writes.
        let set = crate::types::FileDescriptorSet {
            file: vec![crate::types::FileDescriptorProto {
                name: Some("a.proto".into()),
                service: vec![crate::types::ServiceDescriptorProto {
                    name: Some("S".into()),
                    method: vec![crate::types::MethodDescriptorProto {
                        name: Some("M".into()),
                        options: Some(Default::default()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        let encoded = set.encode_to_vec();
        assert!(method_extensions(&encoded, 1000).unwrap().is_empty());
        let truncated = &encoded[..encoded.len() - 1];
        assert!(method_extensions(truncated, 1000).is_err());
    }
}
