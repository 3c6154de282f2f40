//! The shell's state: the running server and the LAN setting, behind one lock.
//!
//! Changes to the LAN listener are serialized here, so two quick clicks in the window cannot
//! race each other. The setting is remembered only once it has taken effect, except that a
//! remembered "on" survives a launch where its port was taken (the next launch tries again).

use std::{net::SocketAddr, path::PathBuf};

use petstore::App;
use tokio::sync::Mutex;

use crate::{
    lan::{self, LanSetting, LanStatus},
    server::Server,
};

/// Managed by Tauri; the commands and the exit path reach it through `AppHandle::state`.
pub struct Shell {
    inner: Mutex<Inner>,
}

struct Inner {
    /// `None` once the shell has shut down.
    server: Option<Server>,
    /// What the shop asked for last (and what is remembered).
    setting: LanSetting,
    /// Why the last change did not take effect.
    error: Option<String>,
    settings_path: Option<PathBuf>,
}

impl Shell {
    /// Starts the server and, if it was left on, LAN access. A LAN port that cannot be opened
    /// does not stop the window: the window is told through `get_lan_status`.
    pub async fn start(
        app: App,
        window_addr: SocketAddr,
        extra_addr: Option<SocketAddr>,
        settings_path: Option<PathBuf>,
    ) -> std::io::Result<Shell> {
        let server = Server::start(app, window_addr, extra_addr).await?;
        let setting = settings_path.as_deref().map(lan::load).unwrap_or_default();
        let mut inner = Inner {
            server: Some(server),
            setting,
            error: None,
            settings_path,
        };
        if setting.enabled {
            inner.error = inner.open_lan(setting.port).await;
        }
        Ok(Shell {
            inner: Mutex::new(inner),
        })
    }

    /// The origin the window loads the UI from (`http://127.0.0.1:PORT`).
    pub async fn window_origin(&self) -> Option<String> {
        self.inner
            .lock()
            .await
            .server
            .as_ref()
            .map(Server::window_origin)
    }

    /// What `get_lan_status` answers.
    pub async fn lan_status(&self) -> LanStatus {
        self.inner.lock().await.status()
    }

    /// Turns LAN access on (on `port`, or the remembered port) or off, remembers that, and
    /// answers the status after the change.
    pub async fn set_lan(&self, enabled: bool, port: Option<u16>) -> LanStatus {
        let mut inner = self.inner.lock().await;
        let port = port.unwrap_or(inner.setting.port);
        if port == 0 {
            inner.error = Some("Choose a port from 1024 to 65535.".to_owned());
            return inner.status();
        }
        let wanted = LanSetting { enabled, port };
        inner.error = if enabled {
            inner.open_lan(port).await
        } else {
            if let Some(server) = inner.server.as_mut() {
                server.close_lan().await;
            }
            None
        };
        if inner.error.is_none() {
            inner.setting = wanted;
            inner.error = inner.remember();
        }
        inner.status()
    }

    /// Stops every listener and waits for the requests in flight. Returns the `App` (once) so
    /// the caller can close the store.
    pub async fn shutdown(&self) -> Option<App> {
        let server = self.inner.lock().await.server.take()?;
        Some(server.shutdown().await)
    }
}

impl Inner {
    /// Opens the LAN listener; `Some(message)` says why it could not be opened.
    async fn open_lan(&mut self, port: u16) -> Option<String> {
        let server = self.server.as_mut()?;
        if server.serves_port(port) {
            return Some(format!(
                "Port {port} is already used by this app (PETSTORE_BIND). Choose another port."
            ));
        }
        match server.open_lan(port).await {
            Ok(()) => None,
            Err(err) => {
                tracing::warn!(port, %err, "cannot open the LAN listener");
                Some(lan::bind_error_message(port, &err))
            }
        }
    }

    fn remember(&self) -> Option<String> {
        let path = self.settings_path.as_deref()?;
        match lan::save(path, self.setting) {
            Ok(()) => None,
            Err(err) => {
                tracing::warn!(path = %path.display(), %err, "cannot save the desktop settings");
                Some(format!(
                    "The change works now, but it could not be remembered for next time ({err})."
                ))
            }
        }
    }

    fn status(&self) -> LanStatus {
        match self.server.as_ref().and_then(Server::lan_port) {
            Some(port) => LanStatus {
                enabled: true,
                port,
                addresses: lan::addresses(port),
                error: self.error.clone(),
            },
            None => LanStatus {
                enabled: false,
                port: self.setting.port,
                addresses: Vec::new(),
                error: self.error.clone(),
            },
        }
    }
}
