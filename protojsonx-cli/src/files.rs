//! The input and the output: a file or the standard streams, with the
//! names errors give them.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::failure::Failure;

/// How much is read or written at once.
const BUFFER: usize = 64 * 1024;

/// The input: a file, or standard input.
pub struct Input {
    /// The path as given, or `<stdin>`: how errors name the input.
    pub name: String,
    /// The bytes, buffered.
    pub reader: BufReader<Box<dyn Read>>,
}

impl Input {
    /// Opens the file at `path`, or standard input for `None`.
    pub fn open(path: Option<&Path>) -> Result<Self, Failure> {
        let (name, source): (String, Box<dyn Read>) = match path {
            Some(path) => {
                let name = path.display().to_string();
                let file = File::open(path).map_err(|e| cannot("read", &name, &e))?;
                (name, Box::new(file))
            }
            None => ("<stdin>".to_owned(), Box::new(io::stdin())),
        };
        let reader = BufReader::with_capacity(BUFFER, source);
        Ok(Input { name, reader })
    }

    /// Reads the whole input.
    pub fn read_all(mut self) -> Result<(String, Vec<u8>), Failure> {
        let mut bytes = Vec::new();
        self.reader
            .read_to_end(&mut bytes)
            .map_err(|e| self.failed(&e))?;
        Ok((self.name, bytes))
    }

    /// A read error of this input.
    pub fn failed(&self, error: &io::Error) -> Failure {
        cannot("read", &self.name, error)
    }
}

/// The output: a file, or standard output.
pub struct Output {
    name: String,
    writer: BufWriter<Box<dyn Write>>,
}

impl Output {
    /// Creates (or truncates) the file at `path`, or takes standard output for `None`.
    pub fn create(path: Option<&Path>) -> Result<Self, Failure> {
        let (name, sink): (String, Box<dyn Write>) = match path {
            Some(path) => {
                let name = path.display().to_string();
                let file = File::create(path).map_err(|e| cannot("write", &name, &e))?;
                (name, Box::new(file))
            }
            None => ("<stdout>".to_owned(), Box::new(io::stdout().lock())),
        };
        let writer = BufWriter::with_capacity(BUFFER, sink);
        Ok(Output { name, writer })
    }

    /// Writes `bytes` (buffered).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.writer.write_all(bytes).map_err(|e| self.failed(&e))
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) -> Result<(), Failure> {
        self.writer.flush().map_err(|e| self.failed(&e))
    }

    fn failed(&self, error: &io::Error) -> Failure {
        match error.kind() {
            io::ErrorKind::BrokenPipe => Failure::BrokenPipe,
            _ => cannot("write", &self.name, error),
        }
    }
}

/// `cannot read `name`: error`.
fn cannot(what: &str, name: &str, error: &io::Error) -> Failure {
    Failure::Error(format!("cannot {what} `{name}`: {error}"))
}
