//! The shell's state: the running server, the LAN setting and the low-stock watcher, behind
//! one lock.
//!
//! Changes to the LAN listener, network checks and restores are serialized here, so two quick
//! clicks in the window cannot race each other. The setting is remembered only once it has
//! taken effect. LAN access stops by itself, and the shop is asked again, when the network
//! changes ([`Shell::check_network`]): the address it served on is gone, or a network appeared.

use std::{
    net::{Ipv4Addr, SocketAddr, SocketAddrV4},
    path::{Path, PathBuf},
};

use petstore::App;
use serde::Serialize;
use tokio::{sync::Mutex, task::JoinHandle};

use crate::{
    alerts::{self, Raise},
    lan::{self, Interface, LanSetting, LanStatus},
    server::Server,
};

/// Managed by Tauri; the commands and the exit path reach it through `AppHandle::state`.
pub struct Shell {
    inner: Mutex<Inner>,
    /// The window's in-memory key: kept when the store is reopened after a restore.
    session: (String, String),
    notify: Raise,
}

struct Inner {
    /// `None` once the shell has shut down (or while a restore has the store closed).
    server: Option<Server>,
    /// What the shop asked for last (and what is remembered).
    setting: LanSetting,
    /// Why the last change did not take effect.
    error: Option<String>,
    /// Why LAN access stopped without being asked (the network changed).
    changed: Option<String>,
    /// This PC's networks when the LAN listener started.
    known: Vec<Interface>,
    settings_path: Option<PathBuf>,
    low_stock: Option<JoinHandle<()>>,
    /// The file chosen in the "choose a backup" dialog: the only path a restore accepts.
    picked: Option<PathBuf>,
}

/// What a restore did, for the window: `message` says it in words for the shop.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreOutcome {
    pub restored: bool,
    pub message: String,
    /// Where the store that was replaced is kept.
    pub kept: Option<String>,
    /// Whether the store is open and served again.
    pub serving: bool,
}

impl Shell {
    /// Starts the server, the low-stock watcher and, if it was left on and its network is
    /// still here, LAN access. A LAN address that cannot be opened does not stop the window:
    /// the window is told through `get_lan_status`.
    pub async fn start(
        app: App,
        window_addr: SocketAddr,
        extra_addr: Option<SocketAddr>,
        settings_path: Option<PathBuf>,
        session: (String, String),
        notify: Raise,
    ) -> std::io::Result<Shell> {
        let low_stock = alerts::watch_low_stock(app.clone(), notify.clone());
        let server = match Server::start(app, window_addr, extra_addr).await {
            Ok(server) => server,
            Err(err) => {
                low_stock.abort();
                return Err(err);
            }
        };
        let setting = settings_path.as_deref().map(lan::load).unwrap_or_default();
        let mut inner = Inner {
            server: Some(server),
            setting,
            error: None,
            changed: None,
            known: Vec::new(),
            settings_path,
            low_stock: Some(low_stock),
            picked: None,
        };
        if setting.enabled {
            let now = lan::interfaces();
            match setting
                .address
                .filter(|a| now.iter().any(|i| i.address == *a))
            {
                Some(address) => {
                    inner.error = inner.open_lan(address, setting.port, setting.https).await
                }
                None => {
                    inner.changed = Some(match setting.address {
                        Some(address) => format!(
                            "Devices could use the store through this PC's address {address}, \
                             but this PC is not on that network now. Choose the network \
                             devices should use."
                        ),
                        None => "Choose the network devices should use: the store now \
                                 serves one network only."
                            .to_owned(),
                    });
                }
            }
        }
        Ok(Shell {
            inner: Mutex::new(inner),
            session,
            notify,
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

    /// Turns LAN access on (on `address` and `port`, over HTTPS or not, or the remembered
    /// ones) or off, remembers that, and answers the status after the change.
    pub async fn set_lan(
        &self,
        enabled: bool,
        port: Option<u16>,
        address: Option<String>,
        https: Option<bool>,
    ) -> LanStatus {
        let mut inner = self.inner.lock().await;
        inner.changed = None;
        let port = port.unwrap_or(inner.setting.port);
        let https = https.unwrap_or(inner.setting.https);
        if port == 0 {
            inner.error = Some("Choose a port from 1024 to 65535.".to_owned());
            return inner.status();
        }
        if !enabled {
            if let Some(server) = inner.server.as_mut() {
                server.close_lan().await;
            }
            inner.error = None;
            inner.setting = LanSetting {
                enabled,
                port,
                https,
                ..inner.setting
            };
            inner.error = inner.remember();
            return inner.status();
        }
        let address = match choose_address(address.as_deref(), inner.setting.address) {
            Ok(address) => address,
            Err(message) => {
                inner.error = Some(message);
                return inner.status();
            }
        };
        inner.error = inner.open_lan(address, port, https).await;
        if inner.error.is_none() {
            inner.setting = LanSetting {
                enabled,
                port,
                address: Some(address),
                https,
            };
            inner.error = inner.remember();
        }
        inner.status()
    }

    /// Looks at this PC's networks: when the LAN listener's address is gone or a network
    /// appeared, stops serving the LAN, remembers it off, says why, and raises a notification.
    /// Answers the message when it stopped.
    pub async fn check_network(&self) -> Option<String> {
        let mut inner = self.inner.lock().await;
        let bound = match inner.server.as_ref()?.lan_addr()? {
            SocketAddr::V4(v4) => *v4.ip(),
            SocketAddr::V6(_) => return None,
        };
        let now = lan::interfaces();
        let Some(message) = lan::network_change(bound, &inner.known, &now) else {
            // A network that went away elsewhere is forgotten, so its return counts as new.
            inner.known.retain(|i| now.contains(i));
            return None;
        };
        tracing::warn!(%message, "the network changed; LAN access stopped");
        if let Some(server) = inner.server.as_mut() {
            server.close_lan().await;
        }
        inner.setting.enabled = false;
        inner.error = inner.remember();
        inner.changed = Some(message.clone());
        drop(inner);
        alerts::raise(
            &self.notify,
            "Pet Store: devices stopped using the store".to_owned(),
            message.clone(),
        );
        Some(message)
    }

    /// The store's backups folder (where the "choose a backup" dialog opens).
    pub async fn backups_dir(&self) -> Option<PathBuf> {
        let inner = self.inner.lock().await;
        let server = inner.server.as_ref()?;
        Some(server.app().backups().settings().dir.clone())
    }

    /// Keeps the file chosen in the window's "choose a backup" dialog.
    pub async fn pick(&self, file: PathBuf) {
        self.inner.lock().await.picked = Some(file);
    }

    /// Restores a backup: `file` is a backup's name in the store's backups folder, or the
    /// path last chosen with [`Shell::pick`]. Stops every listener, closes the store, puts the
    /// backup in place with the library's restore (which keeps the replaced store beside it),
    /// opens the store again and serves it on the same addresses. Says what happened.
    pub async fn restore(&self, file: &str) -> RestoreOutcome {
        let mut inner = self.inner.lock().await;
        let Some(server) = inner.server.as_ref() else {
            return outcome(false, "The store is not open.".to_owned(), None, false);
        };
        let source = if inner.picked.as_deref() == Some(Path::new(file)) {
            PathBuf::from(file)
        } else {
            match server.app().backups().find(file) {
                Some((_, path)) => path,
                None => {
                    return outcome(
                        false,
                        "Nothing changed: that backup is not in the backups folder any more. \
                         Choose the backup again."
                            .to_owned(),
                        None,
                        true,
                    )
                }
            }
        };
        let Some(server) = inner.server.take() else {
            return outcome(false, "The store is not open.".to_owned(), None, false);
        };
        let (window_addr, extra_addr, lan_addr, lan_https) = (
            server.window_addr(),
            server.extra_addr(),
            server.lan_addr(),
            server.lan_https().unwrap_or(false),
        );
        if let Some(task) = inner.low_stock.take() {
            task.abort();
        }
        tracing::info!(file = %source.display(), "restoring a backup: stopping the server");
        let app = server.shutdown().await;
        let settings = app.settings().clone();
        let db = settings.db.clone();
        let restore_from = source.clone();
        let restored = tokio::task::spawn_blocking(move || {
            app.close();
            drop(app);
            petstore::store::restore(&db, &restore_from)
        })
        .await;
        let restored = match restored {
            Ok(result) => result.map_err(|err| err.to_string()),
            Err(err) => Err(format!("the restore stopped unexpectedly ({err})")),
        };
        // Open the store again whatever happened: the backup, or the store as it was.
        let reopened = tokio::task::spawn_blocking(move || petstore::App::open(&settings)).await;
        let serving = match reopened {
            Ok(Ok(app)) => {
                app.keep_session_key(&self.session.0, &self.session.1);
                inner.low_stock = Some(alerts::watch_low_stock(app.clone(), self.notify.clone()));
                match Server::start(app, window_addr, extra_addr).await {
                    Ok(server) => {
                        inner.server = Some(server);
                        if let Some(SocketAddr::V4(lan)) = lan_addr {
                            inner.error = inner.open_lan(*lan.ip(), lan.port(), lan_https).await;
                        }
                        Ok(())
                    }
                    Err(err) => Err(format!("the server could not start again ({err})")),
                }
            }
            Ok(Err(err)) => Err(format!("the store could not be opened again ({err})")),
            Err(err) => Err(format!("the store could not be opened again ({err})")),
        };
        let name = source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| source.display().to_string());
        match (restored, serving) {
            (Ok(done), Ok(())) => {
                let kept = done.kept.as_ref().map(|k| k.display().to_string());
                let mut message = format!(
                    "The backup {name} is now the shop's data: {} in {} and {}. The store is \
                     open again and tills can use it.",
                    counted(done.pets, "pet"),
                    counted(done.categories, "category"),
                    counted(done.orders, "order")
                );
                if let Some(kept) = &kept {
                    message.push_str(&format!(
                        " The data it replaced was kept, not deleted, at {kept}."
                    ));
                }
                tracing::info!(file = %source.display(), kept = ?kept, "restored a backup");
                outcome(true, message, kept, true)
            }
            (Ok(done), Err(why)) => {
                tracing::error!(%why, "restored, but the store is not served again");
                outcome(
                    true,
                    format!(
                        "The backup {name} was put in place, but {why}. Close Pet Store and \
                         start it again."
                    ),
                    done.kept.map(|k| k.display().to_string()),
                    false,
                )
            }
            (Err(why), Ok(())) => {
                tracing::warn!(%why, "the restore was refused; the store is as it was");
                outcome(
                    false,
                    format!("Nothing changed: {why}. The store is as it was, and open again."),
                    None,
                    true,
                )
            }
            (Err(why), Err(also)) => {
                tracing::error!(%why, %also, "the restore failed and the store is not served");
                outcome(
                    false,
                    format!(
                        "The restore did not happen ({why}), and {also}. Close Pet Store and \
                         start it again."
                    ),
                    None,
                    false,
                )
            }
        }
    }

    /// Stops every listener and the watcher, and waits for the requests in flight. Returns
    /// the `App` (once) so the caller can close the store.
    pub async fn shutdown(&self) -> Option<App> {
        let mut inner = self.inner.lock().await;
        if let Some(task) = inner.low_stock.take() {
            task.abort();
        }
        let server = inner.server.take()?;
        drop(inner);
        Some(server.shutdown().await)
    }
}

/// "1 pet", "3 pets", "1 category", "2 categories".
fn counted(n: i64, one: &str) -> String {
    match (n, one.strip_suffix('y')) {
        (1, _) => format!("1 {one}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        (_, None) => format!("{n} {one}s"),
    }
}

fn outcome(restored: bool, message: String, kept: Option<String>, serving: bool) -> RestoreOutcome {
    RestoreOutcome {
        restored,
        message,
        kept,
        serving,
    }
}

/// Which of this PC's addresses the LAN listener takes: the one asked for, else the
/// remembered one, else the only one there is. An address that is not this PC's is refused.
fn choose_address(asked: Option<&str>, remembered: Option<Ipv4Addr>) -> Result<Ipv4Addr, String> {
    let now = lan::interfaces();
    let here = |address: Ipv4Addr| now.iter().any(|i| i.address == address);
    if let Some(asked) = asked.map(str::trim).filter(|a| !a.is_empty()) {
        return match asked.parse::<Ipv4Addr>() {
            Ok(address) if here(address) => Ok(address),
            _ => Err(format!(
                "This PC has no address {asked} on a network now. Choose one of the networks listed."
            )),
        };
    }
    match (remembered.filter(|a| here(*a)), now.as_slice()) {
        (Some(address), _) => Ok(address),
        (None, [only]) => Ok(only.address),
        (None, []) => Err(
            "This PC is not connected to a network. Connect it to the shop's network first."
                .to_owned(),
        ),
        (None, _) => Err("Choose the network devices should use.".to_owned()),
    }
}

impl Inner {
    /// Opens the LAN listener on `address:port` (over HTTPS when `https`); `Some(message)`
    /// says why it could not be.
    async fn open_lan(&mut self, address: Ipv4Addr, port: u16, https: bool) -> Option<String> {
        let server = self.server.as_mut()?;
        if server.serves_port(port) {
            return Some(format!(
                "Port {port} is already used by this app (PETSTORE_BIND). Choose another port."
            ));
        }
        let addr = SocketAddr::V4(SocketAddrV4::new(address, port));
        match server.open_lan(addr, https).await {
            Ok(()) => {
                self.known = lan::interfaces();
                None
            }
            Err(err) => {
                tracing::warn!(%addr, %err, "cannot open the LAN listener");
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
        let interfaces = lan::interfaces();
        let server = self.server.as_ref();
        match server.and_then(Server::lan_addr) {
            Some(addr) => {
                let https = server.and_then(Server::lan_https).unwrap_or(false);
                LanStatus {
                    enabled: true,
                    port: addr.port(),
                    address: Some(addr.ip().to_string()),
                    https,
                    fingerprint: server
                        .filter(|_| https)
                        .and_then(|server| server.app().network().tls_loaded())
                        .map(|tls| tls.fingerprint()),
                    addresses: match addr {
                        SocketAddr::V4(v4) => vec![lan::device_url(*v4.ip(), v4.port(), https)],
                        SocketAddr::V6(_) => Vec::new(),
                    },
                    interfaces,
                    error: self.error.clone(),
                    changed: self.changed.clone(),
                }
            }
            None => LanStatus {
                enabled: false,
                port: self.setting.port,
                address: self.setting.address.map(|a| a.to_string()),
                https: self.setting.https,
                fingerprint: None,
                addresses: Vec::new(),
                interfaces,
                error: self.error.clone(),
                changed: self.changed.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_said_in_words_with_their_plural() {
        assert_eq!(counted(1, "pet"), "1 pet");
        assert_eq!(counted(0, "order"), "0 orders");
        assert_eq!(counted(34, "category"), "34 categories");
        assert_eq!(counted(1, "category"), "1 category");
    }

    #[test]
    fn an_address_that_is_not_this_pcs_is_refused_in_words() {
        let said = choose_address(Some("192.0.2.77"), None);
        assert_eq!(
            said,
            Err("This PC has no address 192.0.2.77 on a network now. Choose one of the networks listed.".to_owned())
        );
    }
}
