//! The windows: the staff UI signed in as the shop's admin, and a plain page for a store that
//! could not be opened.
//!
//! The session key is handed to the page by an initialization script, which runs before the
//! page's own scripts on every load. The key lives only in this process's memory and in the
//! page: it is not in the URL, not in a file, and not given to any other origin (the script
//! checks the origin, and the window refuses to navigate anywhere else).

use tauri::{AppHandle, Manager, Url, WebviewUrl, WebviewWindow, WebviewWindowBuilder};

/// The label of the staff window; `capabilities/staff-window.json` names it.
pub const MAIN: &str = "main";
const STARTUP_ERROR: &str = "startup-error";
const TITLE: &str = "Pet Store";

/// Opens the staff UI from `origin` (`http://127.0.0.1:PORT`), signed in with `session_key`.
pub fn open_staff_window(
    app: &AppHandle,
    origin: &str,
    session_key: &str,
) -> tauri::Result<WebviewWindow> {
    let url: Url = format!("{origin}/")
        .parse()
        .map_err(tauri::Error::InvalidUrl)?;
    let allowed_origin = url.origin();
    WebviewWindowBuilder::new(app, MAIN, WebviewUrl::External(url))
        .title(TITLE)
        .inner_size(1200.0, 800.0)
        .min_inner_size(720.0, 520.0)
        .initialization_script(session_script(origin, session_key))
        // Links to anywhere else stay out of this window (and away from the session key).
        .on_navigation(move |to| to.origin() == allowed_origin)
        .build()
}

/// The script that signs the page in: `window.__PETSTORE_SESSION__ = { key, desktop: true }`,
/// defined only for a page of the store's own origin.
fn session_script(origin: &str, session_key: &str) -> String {
    let origin = serde_json::Value::from(origin);
    let session = serde_json::json!({ "key": session_key, "desktop": true });
    format!(
        "if (window.location.origin === {origin}) {{ window.__PETSTORE_SESSION__ = {session}; }}"
    )
}

/// Shows why the store could not be opened, in a window of its own (the bundled page in
/// `dist/`), so a shop that started the app from a menu sees the reason.
pub fn open_startup_error(
    app: &AppHandle,
    title: &str,
    detail: &str,
) -> tauri::Result<WebviewWindow> {
    let failure = serde_json::json!({ "title": title, "detail": detail });
    WebviewWindowBuilder::new(app, STARTUP_ERROR, WebviewUrl::App("index.html".into()))
        .title(TITLE)
        .inner_size(720.0, 420.0)
        .initialization_script(format!("window.__PETSTORE_STARTUP_ERROR__ = {failure};"))
        .build()
}

/// Brings the staff window to the front (a second launch asks for this).
pub fn bring_to_front(app: &AppHandle) {
    tracing::info!("another launch asked for the window; bringing it to the front");
    let Some(window) = app
        .get_webview_window(MAIN)
        .or_else(|| app.get_webview_window(STARTUP_ERROR))
    else {
        return;
    };
    let _ = window.unminimize();
    let _ = window.show();
    let _ = window.set_focus();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_is_defined_only_for_the_stores_own_origin() {
        let script = session_script("http://127.0.0.1:41234", "k\"ey</script>");
        assert_eq!(
            script,
            r#"if (window.location.origin === "http://127.0.0.1:41234") { window.__PETSTORE_SESSION__ = {"desktop":true,"key":"k\"ey</script>"}; }"#
        );
    }
}
