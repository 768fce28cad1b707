//! The generated-code half of the editions check (`realworld/run.sh` runs
//! it): the edition 2023 and 2024 copies of the slice that
//! `realworld/editions.sh` writes go through `Builder`, with the settings of
//! the crate's build script (`builder.rs`) and the vendored protoc (the
//! `vendored-protoc` feature; `PROTOC` if set), and their code is compared
//! with the original slice's, which this crate compiles with warnings denied
//! and `roundtrip.py` checks against Python. So the copies need no build of
//! their own.
//!
//! ```text
//! realworld-editions EDITIONS WORK
//!     EDITIONS  the copies' root: EDITIONS/2023/googleapis, ..., EDITIONS/2024/...
//!     WORK      scratch: the code of the original and of each copy, and for
//!               each edition WORK/EDITION/descriptors.bin, the copy's
//!               descriptor set for the dynamic transcoder (see `copy_set`),
//!               WORK/EDITION/files.txt and WORK/EDITION/generated.json (the
//!               result, for roundtrip.py)
//! ```
//!
//! The expected code is generated from the descriptors the crate's code was
//! generated from (the build script's `descriptors.bin`), with two known
//! differences accounted for; then each copy's code must be it, byte for
//! byte, but for blank `///` lines:
//!
//! 1. The original's proto3 `optional` fields are written the way the
//!    lowering writes their editions twins (`as_lowered_editions`). A proto3
//!    `optional` field sits in a synthetic oneof; its editions twin, a field
//!    with explicit presence, in none. The lowering keeps the oneof for
//!    scalars in files it lowers to proto3 and drops it for message fields
//!    and in files it lowers to proto2. The code differs in one thing only:
//!    Go's `EmitUnpopulated` (`emit_unpopulated`) writes `null` for an unset
//!    field with presence outside a oneof, so the copies' code has an
//!    `e.unset_field(..)` branch for the fields that left their oneof
//!    (`realworld/FINDINGS.md`, F7). No option set of the round trip writes
//!    those.
//! 2. Blank `///` lines of the copies' code may be missing from the
//!    original's: protox, which read the original, drops the blank lines of
//!    `/* */` comments, and protoc, which reads the copies, keeps them
//!    (F6). Only those: a line that is not a blank `///` must match.
//!
//! Prints a line for each edition, each file that differs (its first
//! differing lines) and exits non-zero if any does.

use std::collections::BTreeSet;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet};
use protojsonx_descriptor::types::Edition;

#[path = "../builder.rs"]
mod builder;
#[path = "../slice.rs"]
#[allow(dead_code, reason = "`slice()` is the build scripts' entry point")]
mod slice;

/// Where the build script wrote the original slice's code.
const CRATE_CODE: &str = env!("OUT_DIR");

/// What the build script writes beside the generated code.
const NOT_GENERATED: [&str; 3] = ["descriptors.bin", "files.txt", "runtime-types.bin"];

/// The editions of the copies, as `realworld/editions.sh` names their
/// directories.
const EDITIONS: [(&str, Edition); 2] = [
    ("2023", Edition::Edition2023),
    ("2024", Edition::Edition2024),
];

/// Differing lines shown for each file that differs.
const SHOWN_LINES: usize = 3;

/// The generator runs at once (the machine's cores).
const WORKERS: usize = 2;

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [editions, work] = &args[..] else {
        eprintln!("usage: realworld-editions EDITIONS WORK");
        return ExitCode::from(2);
    };
    match check(Path::new(editions), Path::new(work)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("realworld-editions: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One generation: the code of `files` under `includes` into `out`, from
/// the descriptors `Builder` reads (`set` None) or from `set`.
struct Job {
    includes: Vec<PathBuf>,
    files: Vec<PathBuf>,
    set: Option<(FileDescriptorSet, Vec<String>)>,
    out: PathBuf,
}

/// The comparison of each copy; whether every copy's code is as expected.
fn check(editions: &Path, work: &Path) -> Result<bool> {
    let realworld = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crate_code = Path::new(CRATE_CODE);
    let mut expected =
        FileDescriptorSet::decode(fs::read(crate_code.join("descriptors.bin"))?.as_slice())?;
    let names: Vec<String> = fs::read_to_string(crate_code.join("files.txt"))?
        .lines()
        .map(str::to_string)
        .collect();
    let changes = as_lowered_editions(&mut expected);
    let mut jobs = vec![Job {
        includes: Vec::new(),
        files: Vec::new(),
        set: Some((expected, names.clone())),
        out: work.join("expected"),
    }];
    for (edition, want) in EDITIONS {
        let dir = work.join(edition);
        fs::create_dir_all(&dir)?;
        let (includes, files) =
            slice::slice_under(realworld, &editions.join(edition)).map_err(|e| e.to_string())?;
        let copy_names = names_under(&includes, &files)?;
        // The same files; protox lists them in dependency order, protoc as given.
        if copy_names.iter().collect::<BTreeSet<_>>() != names.iter().collect() {
            return Err(
                format!("the edition {edition} copy holds other files than the slice").into(),
            );
        }
        fs::write(dir.join("files.txt"), copy_names.join("\n") + "\n")?;
        let set = copy_set(&includes, &files, &dir.join("descriptors.bin"))?;
        declares(&set, &copy_names, edition, want)?;
        jobs.push(Job {
            includes,
            files,
            set: None,
            out: dir.join("generated"),
        });
    }
    run_all(jobs)?;

    let mut ok = true;
    for (edition, _) in EDITIONS {
        let copy = work.join(edition).join("generated");
        let mut blank_doc_lines = 0;
        let differences = compare(&copy, &work.join("expected"), |line| {
            let blank = line.trim() == "///";
            blank_doc_lines += usize::from(blank);
            blank
        })?;
        let files = generated_files(&copy)?.len();
        let short = if differences.is_empty() {
            format!("generated code identical to the original's ({files} files)")
        } else {
            format!(
                "generated code DIFFERS from the original's ({} of {files} files)",
                differences.len()
            )
        };
        for difference in &differences {
            println!("{difference}");
        }
        println!(
            "realworld: editions {edition}: {short}; the original's proto3 `optional` fields as \
             the lowering writes their editions twins ({} message fields plain, {} files proto2 \
             with {} `optional` scalars), {blank_doc_lines} blank `///` lines protox drops",
            changes.message_fields, changes.proto2_files, changes.scalars
        );
        // For roundtrip.py's summary of the edition.
        let result = serde_json::json!({ "identical": differences.is_empty(), "line": short });
        fs::write(
            work.join(edition).join("generated.json"),
            result.to_string(),
        )?;
        ok &= differences.is_empty();
    }
    Ok(ok)
}

/// Runs the generations, `WORKERS` at a time.
fn run_all(jobs: Vec<Job>) -> Result<()> {
    let queue = Mutex::new(jobs);
    let next = || queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    while let Some(job) = next() {
                        generate(job)?;
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "a generation panicked")?)
    })
}

/// Runs one generation into a fresh `job.out`.
fn generate(job: Job) -> Result<()> {
    if job.out.exists() {
        fs::remove_dir_all(&job.out)?;
    }
    fs::create_dir_all(&job.out)?;
    let mut builder = builder::new(&job.includes);
    builder.out_dir(&job.out);
    let (set, names) = match job.set {
        Some(given) => given,
        None => builder.file_descriptor_set(&job.files)?,
    };
    builder.compile_fds(set, &names)?;
    Ok(())
}

/// `protoc --include_imports -o out` of `files`, by the protoc `Builder`
/// reads editions files with; the set's bytes.
fn protoc_set(includes: &[PathBuf], files: &[PathBuf], out: &Path) -> Result<Vec<u8>> {
    let protoc = match std::env::var_os("PROTOC") {
        Some(protoc) => PathBuf::from(protoc),
        None => protoc_bin_vendored::protoc_bin_path()?,
    };
    let mut command = Command::new(&protoc);
    command
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()));
    for dir in includes {
        command.arg(format!("--proto_path={}", dir.display()));
    }
    let output = command.args(files).output()?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            protoc.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        )
        .into());
    }
    Ok(fs::read(out)?)
}

/// The encoded descriptor set of the copy of `files`, written to `out`:
/// protoc's (`--include_imports`), not lowered (the dynamic transcoder's
/// pool lowers it), but with the `google/protobuf/` files of the crate's set,
/// which protox takes from its bundled descriptors (the copies hold the
/// fetched tree's, newer: `google.protobuf.Api` has an `edition` field
/// there), so that the well-known types are the original's.
fn copy_set(includes: &[PathBuf], files: &[PathBuf], out: &Path) -> Result<Vec<u8>> {
    let copy = RawSet::decode(protoc_set(includes, files, out)?.as_slice())?;
    let crate_set =
        RawSet::decode(fs::read(Path::new(CRATE_CODE).join("descriptors.bin"))?.as_slice())?;
    let name = |raw: &Vec<u8>| FileName::decode(raw.as_slice()).map(|f| f.name.unwrap_or_default());
    let mut google = std::collections::HashMap::new();
    for raw in crate_set.file {
        let name = name(&raw)?;
        if name.starts_with("google/protobuf/") {
            google.insert(name, raw);
        }
    }
    let mut set = RawSet::default();
    for raw in copy.file {
        let name = name(&raw)?;
        match google.get(&name) {
            Some(theirs) => set.file.push(theirs.clone()),
            None if name.starts_with("google/protobuf/") => {
                return Err(format!("the crate's descriptor set has no `{name}`").into());
            }
            None => set.file.push(raw),
        }
    }
    let bytes = set.encode_to_vec();
    fs::write(out, &bytes)?;
    Ok(bytes)
}

/// A `FileDescriptorSet` with each file left encoded.
#[derive(Clone, PartialEq, Message)]
struct RawSet {
    #[prost(bytes = "vec", repeated, tag = "1")]
    file: Vec<Vec<u8>>,
}

/// The name of an encoded `FileDescriptorProto`.
#[derive(Clone, PartialEq, Message)]
struct FileName {
    #[prost(string, optional, tag = "1")]
    name: Option<String>,
}

/// The names of `files` as protoc gives them: relative to the first of
/// `includes` holding them.
fn names_under(includes: &[PathBuf], files: &[PathBuf]) -> Result<Vec<String>> {
    files
        .iter()
        .map(|file| {
            let rest = includes
                .iter()
                .find_map(|dir| file.strip_prefix(dir).ok())
                .ok_or_else(|| format!("{} is under no include root", file.display()))?;
            let parts: Vec<_> = rest.iter().map(|p| p.to_string_lossy()).collect();
            Ok(parts.join("/"))
        })
        .collect()
}

/// Checks that each of `names` is an edition `edition` file in the encoded
/// descriptor set `set`.
fn declares(set: &[u8], names: &[String], edition: &str, want: Edition) -> Result<()> {
    let set = protojsonx_descriptor::types::FileDescriptorSet::decode(set)?;
    for name in names {
        let file = set
            .file
            .iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("protoc's set has no `{name}`"))?;
        if file.syntax() != "editions" || file.edition() != want {
            return Err(format!("`{name}` is not an edition {edition} file").into());
        }
    }
    Ok(())
}

/// What [`as_lowered_editions`] changed.
#[derive(Default)]
struct Changes {
    /// proto3 `optional` message fields made plain message fields.
    message_fields: usize,
    /// proto3 files made proto2 files.
    proto2_files: usize,
    /// proto3 `optional` scalars of those made proto2 `optional` fields.
    scalars: usize,
}

/// The proto3 files of `set` as the lowering writes their editions twins
/// (`protojsonx_descriptor::lower`; a proto3 `optional` field is an editions
/// field with explicit presence, which is in no oneof):
///
/// - a proto3 `optional` message field is a plain message field, without its
///   synthetic oneof;
/// - a file with no singular scalar of implicit presence is a proto2 file,
///   its proto3 `optional` scalars proto2 `optional` fields and its repeated
///   scalars `packed` unless they say otherwise (proto3's default, which
///   proto2's is not).
fn as_lowered_editions(set: &mut FileDescriptorSet) -> Changes {
    let mut changes = Changes::default();
    // The files the conversion converts: google/protobuf imports are copied.
    let converted = |f: &&mut FileDescriptorProto| {
        f.syntax() == "proto3" && !f.name().starts_with("google/protobuf/")
    };
    for file in set.file.iter_mut().filter(converted) {
        for message in &mut file.message_type {
            unoneof(
                message,
                &mut |f| f.r#type() == Type::Message,
                &mut changes.message_fields,
            );
        }
        if file.message_type.iter().any(has_implicit_scalar) {
            continue;
        }
        file.syntax = Some("proto2".into());
        changes.proto2_files += 1;
        for message in &mut file.message_type {
            unoneof(message, &mut |_| true, &mut changes.scalars);
            pack(message);
        }
    }
    changes
}

/// Takes the proto3 `optional` fields of `message` and of its nested
/// messages that `which` picks out of their synthetic oneofs, counting them.
fn unoneof(
    message: &mut DescriptorProto,
    which: &mut impl FnMut(&FieldDescriptorProto) -> bool,
    count: &mut usize,
) {
    // From the last field: the synthetic oneofs come last, in field order,
    // so removing one renumbers none that a field before it uses.
    for i in (0..message.field.len()).rev() {
        let field = &message.field[i];
        if !field.proto3_optional() || !which(field) {
            continue;
        }
        let oneof = field.oneof_index();
        message.oneof_decl.remove(oneof as usize);
        for other in &mut message.field {
            if other.oneof_index.is_some_and(|o| o > oneof) {
                other.oneof_index = Some(other.oneof_index() - 1);
            }
        }
        let field = &mut message.field[i];
        field.proto3_optional = None;
        field.oneof_index = None;
        *count += 1;
    }
    for nested in &mut message.nested_type {
        unoneof(nested, which, count);
    }
}

/// Whether `message` or a message nested in it (map entries aside) has a
/// singular scalar with implicit presence: outside oneofs, not `optional`.
fn has_implicit_scalar(message: &DescriptorProto) -> bool {
    if message.options.as_ref().is_some_and(|o| o.map_entry()) {
        return false;
    }
    message.field.iter().any(|f| {
        f.label() == Label::Optional
            && f.oneof_index.is_none()
            && !f.proto3_optional()
            && !matches!(f.r#type(), Type::Message | Type::Group)
    }) || message.nested_type.iter().any(has_implicit_scalar)
}

/// Writes out proto3's default `packed` on the repeated scalars of
/// `message` and of its nested messages.
fn pack(message: &mut DescriptorProto) {
    for field in &mut message.field {
        let scalar = !matches!(
            field.r#type(),
            Type::String | Type::Bytes | Type::Message | Type::Group
        );
        if field.label() == Label::Repeated && scalar {
            let options = field.options.get_or_insert_with(Default::default);
            options.packed = Some(options.packed.unwrap_or(true));
        }
    }
    for nested in &mut message.nested_type {
        pack(nested);
    }
}

/// The generated files in `dir` (the build script's other files left out).
fn generated_files(dir: &Path) -> Result<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if !NOT_GENERATED.contains(&name.as_str()) {
            names.insert(name);
        }
    }
    Ok(names)
}

/// A line for each file that is generated in one directory and not the
/// other, or whose text differs, with its first differing lines. Lines of
/// `ours` for which `extra` is true may be missing from `theirs`.
fn compare(ours: &Path, theirs: &Path, mut extra: impl FnMut(&str) -> bool) -> Result<Vec<String>> {
    let (a, b) = (generated_files(ours)?, generated_files(theirs)?);
    let mut out = Vec::new();
    for name in a.symmetric_difference(&b) {
        let side = if a.contains(name) { ours } else { theirs };
        out.push(format!("DIFFERS {name}: only in {}", side.display()));
    }
    for name in a.intersection(&b) {
        let x = fs::read_to_string(ours.join(name))?;
        let y = fs::read_to_string(theirs.join(name))?;
        if x != y {
            if let Some(difference) = differing_lines(name, &x, &y, &mut extra) {
                out.push(difference);
            }
        }
    }
    Ok(out)
}

/// Where `a` (ours) and `b` differ, once the lines of `a` that `extra`
/// accepts are skipped: the first differing lines, or None if none.
fn differing_lines(
    name: &str,
    a: &str,
    b: &str,
    extra: &mut impl FnMut(&str) -> bool,
) -> Option<String> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let (mut i, mut j) = (0, 0);
    while i < la.len() || j < lb.len() {
        if i < la.len() && j < lb.len() && la[i] == lb[j] {
            (i, j) = (i + 1, j + 1);
        } else if i < la.len() && extra(la[i]) {
            i += 1;
        } else {
            let show = |lines: &[&str], at: usize| {
                lines[at.min(lines.len())..]
                    .iter()
                    .take(SHOWN_LINES)
                    .map(|l| format!("\n      {l}"))
                    .collect::<String>()
            };
            return Some(format!(
                "DIFFERS {name}: from line {} of ours, line {} of theirs:\n    ours:{}\n    theirs:{}",
                i + 1,
                j + 1,
                show(&la, i),
                show(&lb, j)
            ));
        }
    }
    None
}
