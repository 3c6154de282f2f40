//! Where the log goes: standard error, or a file rotated by size (`--log-file`).
//!
//! The file is written only by the log's own background thread (see [`crate::logqueue`]: a lossy
//! non-blocking writer in front of this one), so neither writing nor rotating ever holds up
//! a request; lines that arrive faster than the disk takes them are dropped and counted.
//! Rotation is by size: once the file has passed `--log-max-size`, the next line starts a new
//! file and the old ones move up (`FILE` → `FILE.1` → `FILE.2` …), the oldest beyond
//! `--log-keep` removed. The rotating itself is `file-rotate`'s. Files are created readable by
//! this user only (they name keys and addresses).

use std::io::Write;
use std::path::{Path, PathBuf};

use file_rotate::compression::Compression;
use file_rotate::suffix::AppendCount;
use file_rotate::{ContentLimit, FileRotate};

use crate::settings::LogSettings;
use crate::Error;

/// The writer for the log as `settings` say: the rotated file, or standard error.
///
/// A file that cannot be created or written is refused here, at start, with its reason.
pub fn writer(settings: &LogSettings) -> Result<Box<dyn Write + Send>, Error> {
    let Some(file) = &settings.file else {
        return Ok(Box::new(std::io::stderr()));
    };
    let path = checked(file)?;
    let limit = usize::try_from(settings.max_bytes).unwrap_or(usize::MAX);
    Ok(Box::new(FileRotate::new(
        path,
        AppendCount::new(settings.keep),
        ContentLimit::BytesSurpassed(limit),
        Compression::None,
        Some(open_options()),
    )))
}

/// Most bytes of whole lines the log's thread writes at once (see [`crate::logqueue`]): 64 KiB
/// to standard error; to the file, a sixteenth of its size limit at most, since the file is
/// rotated only before a write and so passes its limit by up to one write.
pub fn write_size(settings: &LogSettings) -> usize {
    const MOST: usize = 64 * 1024;
    match settings.file {
        Some(_) => usize::try_from(settings.max_bytes / 16).map_or(MOST, |part| part.min(MOST)),
        None => MOST,
    }
}

/// The log file's absolute path, once its folder exists and the file opens for appending.
fn checked(file: &Path) -> Result<PathBuf, Error> {
    let cannot = |err: std::io::Error| {
        Error::Settings(format!(
            "cannot write the log file {}: {err}",
            file.display()
        ))
    };
    let path = std::path::absolute(file).map_err(cannot)?;
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(cannot)?;
    }
    if path.is_dir() {
        return Err(Error::Settings(format!(
            "the log file {} is a folder; name a file",
            file.display()
        )));
    }
    open_options().open(&path).map_err(cannot)?;
    Ok(path)
}

/// How the log file is opened: appended to, created readable by this user only.
fn open_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn settings(file: PathBuf, max_bytes: u64, keep: usize) -> LogSettings {
        LogSettings {
            file: Some(file),
            max_bytes,
            keep,
        }
    }

    #[test]
    fn a_file_past_its_size_is_rotated_and_only_the_newest_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("logs/access.log");
        let mut log = writer(&settings(file.clone(), 1024, 2)).unwrap();
        let line = format!("{}\n", "x".repeat(99));
        for _ in 0..60 {
            log.write_all(line.as_bytes()).unwrap();
        }
        log.flush().unwrap();
        let names = |n: usize| {
            if n == 0 {
                file.clone()
            } else {
                PathBuf::from(format!("{}.{n}", file.display()))
            }
        };
        for n in 0..=2 {
            let text = std::fs::read_to_string(names(n)).unwrap();
            assert!(
                text.len() <= 1024 + line.len(),
                "file {n} is {}",
                text.len()
            );
            assert!(text.lines().all(|l| l.len() == 99), "whole lines only");
        }
        assert!(!names(3).exists(), "only two rotated files are kept");
    }

    #[cfg(unix)]
    #[test]
    fn the_log_file_is_readable_by_this_user_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("access.log");
        writer(&settings(file.clone(), 4096, 1)).unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_log_file_that_cannot_be_written_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = writer(&settings(dir.path().to_path_buf(), 4096, 1))
            .err()
            .unwrap();
        assert!(err.to_string().contains("is a folder"), "{err}");
        let blocked = dir.path().join("plain");
        std::fs::write(&blocked, "").unwrap();
        let err = writer(&settings(blocked.join("access.log"), 4096, 1))
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("cannot write the log file"),
            "{err}"
        );
    }
}
