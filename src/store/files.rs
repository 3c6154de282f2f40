//! Files that only this user may read (backups 0600, their folders 0700), and the `fsync`
//! of a folder that makes a rename durable. On systems without Unix permissions the
//! files are created normally.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// Creates `dir` and any missing parents; the folders it creates are readable by this user
/// only. Folders that already exist keep their permissions.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates `path` as a new, empty file readable and writable by this user only. Fails if it
/// exists.
pub fn create_private_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Makes the file's contents durable.
pub fn sync_file(path: &Path) -> io::Result<()> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)?
        .sync_all()
}

/// Makes renames and new names inside `dir` durable (a no-op where folders cannot be synced).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The folder holding `path` ("." for a bare file name).
pub fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The device name Windows keeps that `path`'s file name is (`CON`, `PRN`, `AUX`, `NUL`,
/// `COM0`–`COM9`, `LPT0`–`LPT9`, in any case and with any extension: `nul.sqlite` is the
/// device `NUL`, and whatever is written to it is lost). `None` for any other name.
#[cfg_attr(not(windows), allow(dead_code))]
pub fn windows_device_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    let device = match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" => true,
        _ => {
            let (prefix, digit) = upper.split_at(upper.len().min(3));
            matches!(prefix, "COM" | "LPT")
                && digit.len() == 1
                && digit.bytes().all(|b| b.is_ascii_digit())
        }
    };
    device.then_some(upper)
}

/// Refuses a file named as a Windows device (on Windows only: elsewhere any name is a file).
pub fn refuse_device_name(path: &Path) -> io::Result<()> {
    #[cfg(windows)]
    if let Some(device) = windows_device_name(path) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} cannot be used: Windows keeps the name {device} for a device (whatever is \
                 written there is lost); choose another file name",
                path.display()
            ),
        ));
    }
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_device_names_are_found_in_any_case_and_with_any_extension() {
        for name in [
            "NUL",
            "nul.sqlite",
            "Con.txt",
            "aux",
            "prn.tar.gz",
            "COM1.sqlite",
            "lpt9",
            "nul .sqlite",
        ] {
            assert!(windows_device_name(Path::new(name)).is_some(), "{name}");
        }
        assert_eq!(
            windows_device_name(Path::new("backups/NUL.sqlite")).as_deref(),
            Some("NUL")
        );
    }

    #[test]
    fn ordinary_names_and_folders_named_like_devices_are_not_device_names() {
        for name in [
            "store.sqlite",
            "console.sqlite",
            "nulls.csv",
            "COM10",
            "LPT",
            "com1x",
            "a/con/store.sqlite",
            "",
        ] {
            assert!(windows_device_name(Path::new(name)).is_none(), "{name}");
        }
    }
}
