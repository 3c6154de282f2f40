//! This user's folders: the data folder, where the store, its backups and its certificate live
//! when no `--db` names a store, and the config folder, where the desktop app keeps its
//! settings (`desktop.json`). One place for where they are on each system:
//!
//! - Linux: `$XDG_DATA_HOME/petstore` (`~/.local/share/petstore`) and `$XDG_CONFIG_HOME/petstore`
//!   (`~/.config/petstore`); macOS: the user's Application Support folder for both.
//! - Windows: `%LOCALAPPDATA%\petstore\data` and `%LOCALAPPDATA%\petstore\config`. The local
//!   profile, not the roaming one: a roaming profile is copied to the domain's server at every
//!   sign-out, and a shop's store (hundreds of megabytes with its backups, open while the
//!   server runs) must stay on the PC, as must the desktop settings (they name this PC's own
//!   address on the shop's network, which means nothing on another PC).
//!
//! Earlier versions kept the Windows store in `%APPDATA%\petstore\petstore\data` (roaming, the
//! name doubled). A start that finds a store there and none at the new place moves the whole
//! folder across in one rename, so it moves entirely or not at all (backups, certificate and
//! demo shop included). If it cannot be moved (another petstore still has it open, or the
//! roaming folder is redirected to another drive), the store is used where it is. Either way
//! one log line says what happened; nothing is copied, so nothing can be left half-moved.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The store's file name in the data folder.
pub const STORE_FILE: &str = "store.sqlite";

/// What was said before the log started, said once it has (see [`log_notes`]).
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// This user's data folder, after moving an earlier version's folder there if one is found
/// (see the module's notes); `None` when the system names no home for this user.
pub fn folder() -> Option<PathBuf> {
    let place = places()?;
    let (folder, note) = settle(&place.current, place.earlier.as_deref());
    if let Some(note) = note {
        say(note);
    }
    Some(folder)
}

/// This user's config folder (see the module's notes); `None` when the system names no home for
/// this user. Not made here: whoever writes a file into it makes it.
pub fn config_folder() -> Option<PathBuf> {
    #[cfg(windows)]
    {
        Some(windows_folders(directories::BaseDirs::new()?.data_local_dir()).config)
    }
    #[cfg(not(windows))]
    {
        project_dirs().map(|dirs| dirs.config_dir().to_owned())
    }
}

/// Logs what [`folder`] did before the log was set up (the server reads its settings, which
/// name the store, before it starts its log).
pub fn log_notes() {
    let notes = std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()));
    for note in notes {
        tracing::info!("{note}");
    }
}

fn say(note: String) {
    if tracing::dispatcher::has_been_set() {
        tracing::info!("{note}");
    } else {
        NOTES.lock().unwrap_or_else(|e| e.into_inner()).push(note);
    }
}

/// Where the data folder is on this system, and where an earlier version kept it.
struct Places {
    current: PathBuf,
    earlier: Option<PathBuf>,
}

/// The folders on Windows, under `%LOCALAPPDATA%` (`local`).
#[cfg_attr(not(windows), allow(dead_code))]
struct WindowsFolders {
    data: PathBuf,
    config: PathBuf,
}

#[cfg_attr(not(windows), allow(dead_code))]
fn windows_folders(local: &Path) -> WindowsFolders {
    let ours = local.join("petstore");
    WindowsFolders {
        data: ours.join("data"),
        config: ours.join("config"),
    }
}

/// The system's folders for "petstore" (on Windows, the roaming ones earlier versions used).
fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("shop", "petstore", "petstore")
}

#[cfg(windows)]
fn places() -> Option<Places> {
    let local = directories::BaseDirs::new()?.data_local_dir().to_owned();
    let earlier = project_dirs().map(|dirs| dirs.data_dir().to_owned());
    Some(Places {
        current: windows_folders(&local).data,
        earlier,
    })
}

#[cfg(not(windows))]
fn places() -> Option<Places> {
    project_dirs().map(|dirs| Places {
        current: dirs.data_dir().to_owned(),
        earlier: None,
    })
}

/// The folder to use, given the current place and an earlier one, and what to say about it:
/// the current place when it holds a store or the earlier one holds none; else the earlier
/// folder, moved to the current place when one rename can do it, else left where it is.
fn settle(current: &Path, earlier: Option<&Path>) -> (PathBuf, Option<String>) {
    let Some(earlier) = earlier.filter(|e| e.join(STORE_FILE).is_file()) else {
        return (current.to_owned(), None);
    };
    if current.join(STORE_FILE).exists() {
        return (current.to_owned(), None);
    }
    let moved = current
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| {
            // An empty folder (made by an earlier try, say) is no reason to stay behind.
            let _ = std::fs::remove_dir(current);
            std::fs::rename(earlier, current)
        });
    match moved {
        Ok(()) => {
            // The earlier version's now empty parent folders; kept if anything else is in them.
            for parent in earlier.ancestors().skip(1).take(2) {
                if std::fs::remove_dir(parent).is_err() {
                    break;
                }
            }
            let note = format!(
                "moved the store's folder from {} to {} (this version keeps it there)",
                earlier.display(),
                current.display()
            );
            (current.to_owned(), Some(note))
        }
        Err(err) => {
            let note = format!(
                "using the store in {}: it could not be moved to {} ({err}); stop every other \
                 petstore and start again to move it",
                earlier.display(),
                current.display()
            );
            (earlier.to_owned(), Some(note))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn store_in(folder: &Path, content: &str) {
        fs::create_dir_all(folder.join("backups")).unwrap();
        fs::write(folder.join(STORE_FILE), content).unwrap();
        fs::write(
            folder
                .join("backups")
                .join("petstore-2026-01-02-030405.sqlite"),
            "b",
        )
        .unwrap();
    }

    #[test]
    fn an_earlier_versions_folder_is_moved_whole_to_the_new_place() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir
            .path()
            .join("Roaming")
            .join("petstore")
            .join("petstore")
            .join("data");
        let current = dir.path().join("Local").join("petstore").join("data");
        store_in(&earlier, "the shop");

        let (folder, note) = settle(&current, Some(&earlier));

        assert_eq!(folder, current);
        assert_eq!(
            fs::read_to_string(current.join(STORE_FILE)).unwrap(),
            "the shop"
        );
        assert!(current
            .join("backups")
            .join("petstore-2026-01-02-030405.sqlite")
            .is_file());
        assert!(!earlier.exists());
        assert!(
            !dir.path().join("Roaming").join("petstore").exists(),
            "empty parents removed"
        );
        assert!(note.unwrap().starts_with("moved the store's folder from "));
    }

    #[test]
    fn a_store_at_the_new_place_is_used_and_the_earlier_one_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir.path().join("old");
        let current = dir.path().join("new");
        store_in(&earlier, "old shop");
        store_in(&current, "new shop");

        let (folder, note) = settle(&current, Some(&earlier));

        assert_eq!((folder, note), (current.clone(), None));
        assert_eq!(
            fs::read_to_string(earlier.join(STORE_FILE)).unwrap(),
            "old shop"
        );
        assert_eq!(
            fs::read_to_string(current.join(STORE_FILE)).unwrap(),
            "new shop"
        );
    }

    #[test]
    fn a_folder_that_cannot_be_moved_is_used_where_it_is_and_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir.path().join("old");
        let current = dir.path().join("new");
        store_in(&earlier, "old shop");
        // Something else already at the new place (a log file, say): no rename onto it.
        fs::create_dir_all(&current).unwrap();
        fs::write(current.join("petstore.log"), "log").unwrap();

        let (folder, note) = settle(&current, Some(&earlier));

        assert_eq!(folder, earlier);
        assert_eq!(
            fs::read_to_string(earlier.join(STORE_FILE)).unwrap(),
            "old shop"
        );
        assert_eq!(
            fs::read_to_string(current.join("petstore.log")).unwrap(),
            "log"
        );
        assert!(note.unwrap().starts_with("using the store in "));
    }

    #[test]
    fn on_windows_the_config_folder_is_beside_the_data_folder_in_the_local_profile() {
        let local = Path::new(r"C:\Users\shop\AppData\Local");
        let folders = windows_folders(local);
        assert_eq!(folders.data, local.join("petstore").join("data"));
        assert_eq!(folders.config, local.join("petstore").join("config"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn on_linux_the_config_folder_is_the_users_config_folder_for_petstore() {
        let folder = config_folder().expect("a home for this user");
        let data = places().expect("a home for this user").current;
        assert!(folder.ends_with("petstore"), "{}", folder.display());
        assert_ne!(folder, data, "the settings apart from the store");
    }

    #[test]
    fn without_an_earlier_store_the_new_place_is_used_and_nothing_said() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir.path().join("old");
        fs::create_dir_all(&earlier).unwrap();
        let current = dir.path().join("new");

        assert_eq!(settle(&current, Some(&earlier)), (current.clone(), None));
        assert_eq!(settle(&current, None), (current.clone(), None));
        assert!(earlier.is_dir(), "a folder without a store is not touched");
    }
}
