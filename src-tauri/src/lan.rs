//! The "Let devices on this network use the store" setting: what is remembered, where, and
//! what the window is told.
//!
//! The setting is three plain values (on/off, the network's address on this PC, and the port)
//! kept as JSON in the app's config folder. It never holds a key or anything else secret.
//! Reading a missing or damaged file gives the defaults (off, no network chosen, port 8080): a
//! broken setting must not stop the shop opening.
//!
//! The LAN listener binds the one address the shop chose, never every interface: a PC that is
//! also on another network (a second Wi-Fi, a VPN, a phone's hotspot) does not offer the store
//! there. [`interfaces`] lists the networks to choose from.

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
    /// This PC's address on the network the shop chose; `None` until one is chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Ipv4Addr>,
    /// Devices use HTTPS, with the store's own certificate.
    pub https: bool,
}

impl Default for LanSetting {
    fn default() -> Self {
        Self {
            enabled: false,
            port: DEFAULT_PORT,
            address: None,
            https: false,
        }
    }
}

/// A network this PC is on: the interface's name and this PC's IPv4 address there.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Interface {
    pub name: String,
    pub address: Ipv4Addr,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct DesktopFile {
    lan: LanSetting,
}

/// What `get_lan_status` and `set_lan` answer (see src-tauri/README.md).
///
/// `enabled`, `port` and `address` say what is true now (the remembered ones while LAN access
/// is off); `error` says why the last attempt to change it failed, and `changed` why LAN access
/// stopped by itself (the network changed), both in words for the shop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanStatus {
    pub enabled: bool,
    pub port: u16,
    /// The address the LAN listener serves on (or the remembered one), e.g. `192.168.1.20`.
    pub address: Option<String>,
    /// Whether devices use HTTPS (while off: whether they will).
    pub https: bool,
    /// The SHA-256 fingerprint of the store's certificate, while it serves HTTPS: what a
    /// browser on another PC shows the first time, to compare.
    pub fingerprint: Option<String>,
    /// `http://IP:PORT` (or `https://`) for the devices, while `enabled`.
    pub addresses: Vec<String>,
    /// The networks this PC is on now, to choose from.
    pub interfaces: Vec<Interface>,
    pub error: Option<String>,
    /// Why LAN access was stopped without being asked: the network changed. Cleared by the
    /// next `set_lan`.
    pub changed: Option<String>,
}

/// Where the desktop settings live: `desktop.json` in this user's config folder (see
/// [`petstore::data_folder::config_folder`]): `$XDG_CONFIG_HOME/petstore/desktop.json` on
/// Linux (so a test can point `XDG_CONFIG_HOME` at a temporary folder),
/// `%LOCALAPPDATA%\petstore\config\desktop.json` on Windows.
pub fn settings_path() -> Option<PathBuf> {
    petstore::data_folder::config_folder().map(|folder| folder.join(FILE_NAME))
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

/// The networks this PC is on that another device could reach it by: every IPv4 address
/// except loopback, link-local and unspecified, with its interface's name, sorted.
pub fn interfaces() -> Vec<Interface> {
    let mut found: Vec<Interface> = match if_addrs::get_if_addrs() {
        Ok(interfaces) => interfaces
            .into_iter()
            .filter_map(|interface| match interface.ip() {
                IpAddr::V4(address) if reachable_from_lan(address) => Some(Interface {
                    name: interface.name,
                    address,
                }),
                _ => None,
            })
            .collect(),
        Err(err) => {
            tracing::warn!(%err, "cannot list this machine's network addresses");
            Vec::new()
        }
    };
    found.sort();
    found.dedup();
    found
}

/// The address devices use: `http://IP:PORT`, or `https://IP:PORT`.
pub fn device_url(address: Ipv4Addr, port: u16, https: bool) -> String {
    let scheme = if https { "https" } else { "http" };
    format!("{scheme}://{address}:{port}")
}

/// Why a LAN listener serving on `bound` must stop, now that this PC's networks are `now`
/// where they were `known` when it started: its address is gone, or a network appeared that
/// the shop never chose (another Wi-Fi, a hotspot, a VPN). `None` when it may go on.
pub fn network_change(bound: Ipv4Addr, known: &[Interface], now: &[Interface]) -> Option<String> {
    if !now.iter().any(|i| i.address == bound) {
        return Some(format!(
            "The network changed: this PC no longer has the address {bound}, so tills and \
             tablets cannot reach the store there. Devices stopped using the store; choose the \
             network again to let them back in."
        ));
    }
    let new: Vec<String> = now
        .iter()
        .filter(|i| !known.contains(i))
        .map(|i| format!("{} on {}", i.address, i.name))
        .collect();
    (!new.is_empty()).then(|| {
        format!(
            "This PC joined another network ({}). Devices stopped using the store until you \
             choose the network they may use.",
            new.join(", ")
        )
    })
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
                port: 8080,
                address: None,
                https: false,
            }
        );
    }

    #[test]
    fn a_saved_setting_is_read_back() {
        let path = temp_path("roundtrip");
        let setting = LanSetting {
            enabled: true,
            port: 9090,
            address: Some(Ipv4Addr::new(192, 168, 1, 20)),
            https: true,
        };
        save(&path, setting).expect("save");
        assert_eq!(load(&path), setting);
        let text = fs::read_to_string(&path).expect("read");
        assert!(
            text.contains("\"enabled\": true")
                && text.contains("\"port\": 9090")
                && text.contains("\"address\": \"192.168.1.20\""),
            "{text}"
        );
    }

    #[test]
    fn a_setting_from_before_the_network_was_chosen_reads_with_no_address() {
        let path = temp_path("older");
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, br#"{"lan": {"enabled": true, "port": 8081}}"#).expect("write");
        assert_eq!(
            load(&path),
            LanSetting {
                enabled: true,
                port: 8081,
                address: None,
                https: false,
            }
        );
    }

    fn net(name: &str, last: u8) -> Interface {
        Interface {
            name: name.to_owned(),
            address: Ipv4Addr::new(192, 168, 1, last),
        }
    }

    #[test]
    fn the_listener_goes_on_while_the_networks_stay_the_same() {
        let known = [net("eth0", 20)];
        assert_eq!(network_change(known[0].address, &known, &known), None);
    }

    #[test]
    fn the_listener_stops_when_its_address_is_gone() {
        let known = [net("eth0", 20)];
        let said = network_change(known[0].address, &known, &[net("eth0", 21)]);
        assert!(
            said.as_deref()
                .is_some_and(|s| s.contains("no longer has the address 192.168.1.20")),
            "{said:?}"
        );
    }

    #[test]
    fn the_listener_stops_when_another_network_appears() {
        let known = [net("eth0", 20)];
        let now = [net("eth0", 20), net("wlan0", 99)];
        let said = network_change(known[0].address, &known, &now);
        assert!(
            said.as_deref()
                .is_some_and(|s| s.contains("192.168.1.99 on wlan0")),
            "{said:?}"
        );
    }

    #[test]
    fn a_network_that_went_away_elsewhere_does_not_stop_the_listener() {
        let known = [net("eth0", 20), net("wlan0", 99)];
        assert_eq!(network_change(known[0].address, &known, &known[..1]), None);
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
        assert!(interfaces().iter().all(|i| reachable_from_lan(i.address)));
    }
}
