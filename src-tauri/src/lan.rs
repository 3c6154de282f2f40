//! The "Let devices on this network use the store" setting: what is remembered, where, and
//! what the window is told.
//!
//! The setting is two plain values (on/off and the port) kept as JSON in the app's config
//! folder. It never holds a key or anything else secret. Reading a missing or damaged file
//! gives the defaults (off, port 8080): a broken setting must not stop the shop opening.

use std::{
    fs, io,
    net::{IpAddr, Ipv4Addr},
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};

/// The port LAN devices use unless the shop picks another.
pub const DEFAULT_PORT: u16 = 8080;

/// The file name of the desktop settings inside the config folder.
const FILE_NAME: &str = "desktop.json";

/// What is remembered between launches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LanSetting {
    pub enabled: bool,
    pub port: u16,
}

impl Default for LanSetting {
    fn default() -> Self {
        Self {
            enabled: false,
            port: DEFAULT_PORT,
        }
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct DesktopFile {
    lan: LanSetting,
}

/// What `get_lan_status` and `set_lan` answer (see README "Desktop app").
///
/// `enabled` and `port` say what is true now (`port` is the remembered port while LAN access
/// is off); `error` says why the last attempt to change it failed, in words for the shop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanStatus {
    pub enabled: bool,
    pub port: u16,
    /// `http://IP:PORT` for each address of this machine, while `enabled`.
    pub addresses: Vec<String>,
    pub error: Option<String>,
}

/// Where the desktop settings live: `$XDG_CONFIG_HOME/petstore/desktop.json` on Linux
/// (so a test can point `XDG_CONFIG_HOME` at a temporary folder).
pub fn settings_path() -> Option<PathBuf> {
    directories::ProjectDirs::from(
        crate::DIRS_QUALIFIER,
        crate::DIRS_ORGANIZATION,
        crate::DIRS_APPLICATION,
    )
    .map(|dirs| dirs.config_dir().join(FILE_NAME))
}

/// Reads the remembered setting; anything missing or unreadable gives the defaults.
pub fn load(path: &Path) -> LanSetting {
    match fs::read(path) {
        Ok(bytes) => match serde_json::from_slice::<DesktopFile>(&bytes) {
            Ok(file) if file.lan.port != 0 => file.lan,
            Ok(_) => LanSetting::default(), // port 0 cannot be served

            Err(err) => {
                tracing::warn!(path = %path.display(), %err, "ignoring unreadable desktop settings");
                LanSetting::default()
            }
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => LanSetting::default(),
        Err(err) => {
            tracing::warn!(path = %path.display(), %err, "cannot read desktop settings");
            LanSetting::default()
        }
    }
}

/// Remembers the setting. Written to a temporary file and renamed over the old one, so a crash
/// mid-write leaves either the old setting or the new one.
pub fn save(path: &Path, setting: LanSetting) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let body = serde_json::to_vec_pretty(&DesktopFile { lan: setting })?;
    let partial = path.with_extension("json.partial");
    fs::write(&partial, body)?;
    fs::rename(&partial, path)
}

/// The addresses POS devices should use: `http://IP:PORT` for every IPv4 address of this
/// machine that another device could reach (loopback and link-local left out), sorted.
pub fn addresses(port: u16) -> Vec<String> {
    let mut ips: Vec<Ipv4Addr> = match if_addrs::get_if_addrs() {
        Ok(interfaces) => interfaces
            .into_iter()
            .filter_map(|interface| match interface.ip() {
                IpAddr::V4(ip) if reachable_from_lan(ip) => Some(ip),
                _ => None,
            })
            .collect(),
        Err(err) => {
            tracing::warn!(%err, "cannot list this machine's network addresses");
            Vec::new()
        }
    };
    ips.sort();
    ips.dedup();
    ips.into_iter()
        .map(|ip| format!("http://{ip}:{port}"))
        .collect()
}

fn reachable_from_lan(ip: Ipv4Addr) -> bool {
    !(ip.is_loopback() || ip.is_link_local() || ip.is_unspecified())
}

/// Says plainly why the LAN listener could not start, and what to do about it.
pub fn bind_error_message(port: u16, err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::AddrInUse => format!(
            "Port {port} is in use by another program. Choose another port or close that program."
        ),
        io::ErrorKind::PermissionDenied => {
            format!("Port {port} needs administrator rights. Choose a port from 1024 to 65535.")
        }
        _ => format!("Port {port} could not be opened ({err}). Choose another port."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("petstore-desktop-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir.join("petstore").join(FILE_NAME)
    }

    #[test]
    fn a_missing_file_means_lan_access_is_off_on_port_8080() {
        assert_eq!(
            load(&temp_path("missing")),
            LanSetting {
                enabled: false,
                port: 8080
            }
        );
    }

    #[test]
    fn a_saved_setting_is_read_back() {
        let path = temp_path("roundtrip");
        let setting = LanSetting {
            enabled: true,
            port: 9090,
        };
        save(&path, setting).expect("save");
        assert_eq!(load(&path), setting);
        let text = fs::read_to_string(&path).expect("read");
        assert!(
            text.contains("\"enabled\": true") && text.contains("\"port\": 9090"),
            "{text}"
        );
    }

    #[test]
    fn a_damaged_file_gives_the_defaults() {
        let path = temp_path("damaged");
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, b"{ not json").expect("write");
        assert_eq!(load(&path), LanSetting::default());
    }

    #[test]
    fn a_taken_port_is_said_plainly() {
        let err = io::Error::from(io::ErrorKind::AddrInUse);
        assert_eq!(
            bind_error_message(8080, &err),
            "Port 8080 is in use by another program. Choose another port or close that program."
        );
    }

    #[test]
    fn loopback_and_link_local_addresses_are_not_offered_to_devices() {
        assert!(!reachable_from_lan(Ipv4Addr::LOCALHOST));
        assert!(!reachable_from_lan(Ipv4Addr::new(169, 254, 1, 2)));
        assert!(reachable_from_lan(Ipv4Addr::new(192, 168, 1, 20)));
        assert!(addresses(8080).iter().all(|a| !a.contains("127.0.0.1")));
    }
}
