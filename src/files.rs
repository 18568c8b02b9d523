//! Reading the files people name (nets, books, PGN, EPD, training data): only regular files,
//! and never more than the format can hold, checked before reading. `/dev/zero`, a FIFO or a
//! directory gives a clear error at once instead of reading until memory runs out or blocking.
//!
//! A leaf: it imports nothing of the crate, so every layer (the rules core included) may use it.

use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// Why a file was not read.
#[derive(Debug, Error)]
pub enum FileError {
    /// The system refused (no such file, no permission…).
    #[error("{path}: {source}")]
    Io {
        /// The file as named.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A directory, device, FIFO or socket.
    #[error("{path} is {kind}, not a regular file")]
    NotAFile {
        /// The file as named.
        path: String,
        /// What it is instead.
        kind: &'static str,
    },
    /// Larger than any file of its format.
    #[error("{path} is {size} bytes: larger than a {what} can be ({limit} bytes at most)")]
    TooLarge {
        /// The file as named.
        path: String,
        /// Its size.
        size: u64,
        /// The most its format allows.
        limit: u64,
        /// The format, in words.
        what: &'static str,
    },
}

/// What a path names, in words, when it is not a regular file.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading if it is a regular file of at most `limit` bytes; returns the file
/// and its size. For readers that stream.
pub fn open_regular(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<(std::fs::File, u64), FileError> {
    let name = || path.display().to_string();
    let io = |source| FileError::Io {
        path: name(),
        source,
    };
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotAFile {
            path: name(),
            kind: kind_of(&meta),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(FileError::TooLarge {
            path: name(),
            size,
            limit,
            what,
        });
    }
    Ok((file, size))
}

/// Reads a whole regular file of at most `limit` bytes (`what` names its format in errors).
/// The read itself is bounded too, in case the file grows while it is read.
pub fn read_bounded(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let (file, size) = open_regular(path, limit, what)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.display().to_string(),
            size: bytes.len() as u64,
            limit,
            what,
        });
    }
    Ok(bytes)
}

/// Text files people hand the program (PGN, EPD, FEN lists): large game databases fit.
pub const TEXT_LIMIT: u64 = 1 << 30;

/// Reads a text file the user named (a regular file, bounded); bytes that are not UTF-8 are
/// replaced, so that a stray Latin-1 comment costs only its line.
pub fn read_text(path: &str) -> Result<String, FileError> {
    read_bounded(std::path::Path::new(path), TEXT_LIMIT, "text file")
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_and_oversized_files_are_refused_before_reading() {
        let e = read_bounded(Path::new("/dev/zero"), TEXT_LIMIT, "PGN file").unwrap_err();
        assert!(
            e.to_string()
                .contains("/dev/zero is a character device, not a regular file"),
            "{e}"
        );
        let e = read_bounded(Path::new("/"), TEXT_LIMIT, "PGN file").unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("eleven");
        std::fs::write(&f, b"eleven byte").unwrap();
        let e = read_bounded(&f, 10, "net").unwrap_err();
        assert!(
            e.to_string()
                .contains("is 11 bytes: larger than a net can be (10 bytes at most)"),
            "{e}"
        );
        assert_eq!(read_bounded(&f, 11, "net").unwrap(), b"eleven byte");
        let e = read_bounded(&dir.path().join("missing"), 10, "net").unwrap_err();
        assert!(matches!(e, FileError::Io { .. }), "{e}");
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let ok = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                // Would block forever if it were opened.
                let e = read_bounded(&fifo, 10, "net").unwrap_err();
                assert!(e.to_string().contains("FIFO"), "{e}");
            } else {
                eprintln!("SKIPPED: mkfifo is not available; the FIFO case was not checked");
            }
        }
    }
}
