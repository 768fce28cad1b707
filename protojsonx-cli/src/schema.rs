//! The schema: a descriptor set read, or `.proto` files compiled, and the
//! message type `--type` names in it.

use std::path::PathBuf;

use prost::Message as _;
use prost_types::{DescriptorProto, FileDescriptorSet};
use protoc_gen_rust_protojsonx::Builder;
use protojsonx_dynamic::{MessageType, Pool};

use crate::args::Schema;
use crate::failure::Failure;

/// The message type `type_name` of `schema`.
pub fn message_type(schema: &Schema, type_name: &str) -> Result<MessageType, Failure> {
    let set = load(schema)?;
    let pool =
        Pool::decode(&set).map_err(|e| Failure::Error(format!("{}: {e}", describe(schema))))?;
    pool.message(type_name)
        .ok_or_else(|| Failure::UnknownType(Names::of(&set).unknown(type_name)))
}

/// The serialized `FileDescriptorSet` of `schema`.
fn load(schema: &Schema) -> Result<Vec<u8>, Failure> {
    match schema {
        Schema::DescriptorSet(path) => std::fs::read(path)
            .map_err(|e| Failure::Error(format!("cannot read `{}`: {e}", path.display()))),
        Schema::Protos { files, includes } => Ok(compile(files, includes)?.encode_to_vec()),
    }
}

/// The schema as the command line gave it, for messages.
pub(crate) fn describe(schema: &Schema) -> String {
    match schema {
        Schema::DescriptorSet(path) => format!("`{}`", path.display()),
        Schema::Protos { files, .. } => match files.as_slice() {
            [file] => format!("`{}`", file.display()),
            _ => "the --proto files".to_owned(),
        },
    }
}

/// `files` and their imports compiled, as build.rs compiles them.
fn compile(files: &[PathBuf], includes: &[PathBuf]) -> Result<FileDescriptorSet, Failure> {
    for file in files {
        std::fs::metadata(file)
            .map_err(|e| Failure::Error(format!("cannot read `{}`: {e}", file.display())))?;
    }
    let mut builder = Builder::new();
    for dir in default_includes(files, includes) {
        builder.include(dir);
    }
    let (set, _) = builder
        .file_descriptor_set(files)
        .map_err(|e| Failure::Error(e.to_string()))?;
    Ok(set)
}

/// `includes`, or when none is given the directory of each file.
pub(crate) fn default_includes(files: &[PathBuf], includes: &[PathBuf]) -> Vec<PathBuf> {
    if !includes.is_empty() {
        return includes.to_vec();
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    for file in files {
        let dir = match file.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// The full names of the types in a schema, to say which one was meant.
#[derive(Debug, Default)]
struct Names {
    messages: Vec<String>,
    enums: Vec<String>,
}

impl Names {
    /// The message types (map entries left out) and enums of the
    /// serialized `FileDescriptorSet` `set`, which a pool was made of.
    fn of(set: &[u8]) -> Self {
        let set = FileDescriptorSet::decode(set).unwrap_or_default();
        let mut names = Names::default();
        for file in &set.file {
            let prefix = file.package().to_owned();
            for message in &file.message_type {
                names.add_message(&prefix, message);
            }
            names.add_enums(&prefix, file.enum_type.iter().map(|e| e.name()));
        }
        names
    }

    fn add_message(&mut self, prefix: &str, message: &DescriptorProto) {
        let name = join(prefix, message.name());
        let is_map_entry = message.options.as_ref().is_some_and(|o| o.map_entry());
        for nested in &message.nested_type {
            self.add_message(&name, nested);
        }
        self.add_enums(&name, message.enum_type.iter().map(|e| e.name()));
        if !is_map_entry {
            self.messages.push(name);
        }
    }

    fn add_enums<'a>(&mut self, prefix: &str, enums: impl Iterator<Item = &'a str>) {
        self.enums.extend(enums.map(|name| join(prefix, name)));
    }

    /// Why `wanted` is not a message type of the schema, and which were
    /// perhaps meant.
    fn unknown(&self, wanted: &str) -> String {
        if self.enums.iter().any(|name| name == wanted) {
            return format!("`{wanted}` is an enum, not a message type");
        }
        let missing = format!("the schema has no message type `{wanted}`");
        let near = self.near(wanted);
        if !near.is_empty() {
            return format!("{missing}; did you mean {}?", listed(&near, " or "));
        }
        match self.messages.len() {
            0 => format!("{missing}: it has no message types"),
            1..=12 => format!("{missing}; it has {}", listed(&self.messages, ", ")),
            count => format!("{missing}, nor one close to it (it has {count} message types)"),
        }
    }

    /// The message names closest to `wanted`, best first: those with the
    /// same last part (the package left out, or misspelt), then those a
    /// few edits away or whose last part holds the one wanted.
    fn near(&self, wanted: &str) -> Vec<String> {
        let wanted_lower = wanted.to_ascii_lowercase();
        let wanted_last = last_part(&wanted_lower);
        let mut scored: Vec<(usize, &String)> = self
            .messages
            .iter()
            .filter_map(|name| {
                let lower = name.to_ascii_lowercase();
                let whole = distance(&lower, &wanted_lower);
                let last = distance(last_part(&lower), wanted_last);
                let holds = wanted_last.len() >= 3 && last_part(&lower).contains(wanted_last);
                let score = whole.min(last).min(if holds { 1 } else { usize::MAX });
                (score <= (wanted_last.len() / 4).max(2)).then_some((score, name))
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(5)
            .map(|(_, name)| name.clone())
            .collect()
    }
}

/// `prefix.name`, or `name` when the prefix is empty.
fn join(prefix: &str, name: &str) -> String {
    match prefix {
        "" => name.to_owned(),
        _ => format!("{prefix}.{name}"),
    }
}

/// What follows the last dot of a full name.
fn last_part(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// `names` in backquotes, the last two joined by `last` (", " lists them all with commas).
fn listed(names: &[String], last: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((tail, rest)) if !rest.is_empty() => format!("{}{last}{tail}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// The Levenshtein distance between `a` and `b`, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            messages: ["shop.v1.Order", "shop.v1.Order.Line", "shop.v1.Customer"]
                .map(String::from)
                .to_vec(),
            enums: vec!["shop.v1.Status".into()],
        }
    }

    #[test]
    fn distances_count_edits() {
        assert_eq!(distance("order", "order"), 0);
        assert_eq!(distance("ordr", "order"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn near_names_are_suggested() {
        let names = names();
        assert_eq!(
            names.unknown("shop.v1.Ordr"),
            "the schema has no message type `shop.v1.Ordr`; did you mean `shop.v1.Order`?"
        );
        assert_eq!(
            names.unknown("Order"),
            "the schema has no message type `Order`; did you mean `shop.v1.Order`?"
        );
        assert_eq!(
            names.unknown("shop.v1.Lin"),
            "the schema has no message type `shop.v1.Lin`; did you mean `shop.v1.Order.Line`?"
        );
        assert_eq!(
            names.unknown("shop.v1.Status"),
            "`shop.v1.Status` is an enum, not a message type"
        );
        assert_eq!(
            names.unknown("x.Zebra"),
            "the schema has no message type `x.Zebra`; it has `shop.v1.Order`, \
             `shop.v1.Order.Line`, `shop.v1.Customer`"
        );
    }

    #[test]
    fn nested_and_map_entry_messages() {
        let set: FileDescriptorSet = FileDescriptorSet {
            file: vec![prost_types::FileDescriptorProto {
                package: Some("p".into()),
                message_type: vec![DescriptorProto {
                    name: Some("M".into()),
                    nested_type: vec![
                        DescriptorProto {
                            name: Some("N".into()),
                            ..Default::default()
                        },
                        DescriptorProto {
                            name: Some("LabelsEntry".into()),
                            options: Some(prost_types::MessageOptions {
                                map_entry: Some(true),
                                ..Default::default()
                            }),
                            ..Default::default()
                        },
                    ],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        assert_eq!(Names::of(&set.encode_to_vec()).messages, ["p.M.N", "p.M"]);
    }

    #[test]
    fn without_include_directories_each_file_is_found_in_its_own() {
        let files = [
            PathBuf::from("a/x.proto"),
            "a/y.proto".into(),
            "z.proto".into(),
        ];
        assert_eq!(
            default_includes(&files, &[]),
            [PathBuf::from("a"), ".".into()]
        );
        assert_eq!(
            default_includes(&files, &["i".into()]),
            [PathBuf::from("i")]
        );
    }
}
