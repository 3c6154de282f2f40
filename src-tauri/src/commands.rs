//! The commands the staff UI calls in the desktop window, and nothing else.
//!
//! ```js
//! await window.__TAURI__.core.invoke('get_lan_status')
//! await window.__TAURI__.core.invoke('set_lan', { enabled: true, port: 8080, address: '192.168.1.20', https: true })
//! // both → { enabled, port, address, https, fingerprint, addresses: ["https://192.168.1.20:8080"],
//! //          interfaces: [{name, address}], error: null | "words", changed: null | "words" }
//! await window.__TAURI__.core.invoke('choose_backup_file')        // → "/path/chosen" | null
//! await window.__TAURI__.core.invoke('restore_backup', { file })   // → { restored, message, kept, serving }
//! ```
//!
//! None of them ever rejects: what went wrong comes back in words. Only the main window,
//! showing a page from `http://127.0.0.1:*`, may call them (`capabilities/staff-window.json`).

use tauri::{AppHandle, Manager};
use tauri_plugin_dialog::DialogExt;

use crate::{
    lan::LanStatus,
    shell::{RestoreOutcome, Shell},
};

/// Whether LAN devices can use the store now, on which address and port.
#[tauri::command]
pub async fn get_lan_status(app: AppHandle) -> LanStatus {
    match app.try_state::<Shell>() {
        Some(shell) => shell.lan_status().await,
        None => not_open(),
    }
}

/// Lets LAN devices use the store (`enabled: true`) on `address` (one of this PC's addresses,
/// default: the remembered one, or the only one) and `port` (default: the remembered port,
/// 8080 at first), over HTTPS when `https` (default: as remembered, off at first), or stops
/// that; the choice is remembered for the next launch.
#[tauri::command]
pub async fn set_lan(
    app: AppHandle,
    enabled: bool,
    port: Option<i64>,
    address: Option<String>,
    https: Option<bool>,
) -> LanStatus {
    // Any number is accepted here so that a port out of range is answered in `error` rather
    // than rejected by argument decoding; 0 stands for "no such port" and is refused in words.
    let port = port.map(|port| u16::try_from(port).unwrap_or(0));
    match app.try_state::<Shell>() {
        Some(shell) => shell.set_lan(enabled, port, address, https).await,
        None => not_open(),
    }
}

/// Shows the system's "open a file" dialog for a backup; answers the chosen path (kept by
/// the shell: `restore_backup` accepts it), or `null` when the shop cancelled.
#[tauri::command]
pub async fn choose_backup_file(app: AppHandle) -> Option<String> {
    let shell = app.try_state::<Shell>()?;
    let mut dialog = app
        .dialog()
        .file()
        .set_title("Choose a Pet Store backup")
        .add_filter("Pet Store backups", &["sqlite", "db", "bak"]);
    if let Some(dir) = shell.backups_dir().await.filter(|dir| dir.is_dir()) {
        dialog = dialog.set_directory(dir);
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    dialog.pick_file(move |file| {
        let _ = tx.send(file);
    });
    let path = rx.await.ok()??.into_path().ok()?;
    shell.pick(path.clone()).await;
    Some(path.display().to_string())
}

/// Puts a backup in place of the store: `file` is a name from `GET /admin/backups` or the
/// path `choose_backup_file` answered. Stops the server, restores, starts it again, and says
/// what happened.
#[tauri::command]
pub async fn restore_backup(app: AppHandle, file: String) -> RestoreOutcome {
    match app.try_state::<Shell>() {
        Some(shell) => shell.restore(&file).await,
        None => RestoreOutcome {
            restored: false,
            message: "The store is not open.".to_owned(),
            kept: None,
            serving: false,
        },
    }
}

/// The answer while the store is not open (it failed to open, or the app is closing).
fn not_open() -> LanStatus {
    LanStatus {
        enabled: false,
        port: crate::lan::DEFAULT_PORT,
        address: None,
        https: false,
        fingerprint: None,
        addresses: Vec::new(),
        interfaces: Vec::new(),
        error: Some("The store is not open.".to_owned()),
        changed: None,
    }
}
