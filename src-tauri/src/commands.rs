//! The two commands the staff UI's "Network" panel calls, and nothing else.
//!
//! ```js
//! await window.__TAURI__.core.invoke('get_lan_status')
//! await window.__TAURI__.core.invoke('set_lan', { enabled: true, port: 8080 }) // port optional
//! // both → { enabled, port, addresses: ["http://192.168.1.20:8080"], error: null | "words" }
//! ```
//!
//! Neither command ever rejects: a port that cannot be opened comes back in `error`, with
//! `enabled` saying what is true now. Only the main window, showing a page from
//! `http://127.0.0.1:*`, may call them (`capabilities/staff-window.json`).

use tauri::{AppHandle, Manager};

use crate::{lan::LanStatus, shell::Shell};

/// Whether LAN devices can use the store now, on which port and addresses.
#[tauri::command]
pub async fn get_lan_status(app: AppHandle) -> LanStatus {
    match app.try_state::<Shell>() {
        Some(shell) => shell.lan_status().await,
        None => not_open(),
    }
}

/// Lets LAN devices use the store (`enabled: true`) on `port` (default: the remembered port,
/// 8080 at first), or stops that; the choice is remembered for the next launch.
#[tauri::command]
pub async fn set_lan(app: AppHandle, enabled: bool, port: Option<i64>) -> LanStatus {
    // Any number is accepted here so that a port out of range is answered in `error` rather
    // than rejected by argument decoding; 0 stands for "no such port" and is refused in words.
    let port = port.map(|port| u16::try_from(port).unwrap_or(0));
    match app.try_state::<Shell>() {
        Some(shell) => shell.set_lan(enabled, port).await,
        None => not_open(),
    }
}

/// The answer while the store is not open (it failed to open, or the app is closing).
fn not_open() -> LanStatus {
    LanStatus {
        enabled: false,
        port: crate::lan::DEFAULT_PORT,
        addresses: Vec::new(),
        error: Some("The store is not open.".to_owned()),
    }
}
