//! The store's own HTTPS certificate, and the rustls configuration that serves it.
//!
//! The first time HTTPS is wanted, a self-signed certificate (ECDSA P-256, valid
//! [`VALID_DAYS`] days, for `localhost`, the loopback addresses and this machine's network
//! addresses) is made with rcgen and kept beside the store: [`CERT_FILE`] and [`KEY_FILE`]
//! (the private key, readable by this user only). Later starts reuse it, so its SHA-256
//! fingerprint, which tills pin and staff compare with what their browser shows, stays the
//! same. [`RENEW_BEFORE_DAYS`] days before it ends (or when the files are unreadable or do not
//! belong together) a new one is made and written under temporary names, synced, and renamed
//! into place. A running server checks once a day ([`StoreTls::renew_if_due`]) and serves the
//! new one from the next handshake, without a restart.
//!
//! rustls serves it with ring as the crypto provider: ring builds with only a C compiler
//! (aws-lc-rs also wants CMake and takes several times longer to build), rcgen signs with the
//! same provider, and there is no OpenSSL anywhere, so the `.deb` needs no new system library.

use std::fmt::Write as _;
use std::io::Write as _;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use chrono::{DateTime, Datelike, Duration, Utc};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls::ServerConfig;
use sha2::{Digest, Sha256};

use crate::store::files;
use crate::Error;

/// How long a new certificate is valid. Under Apple's 825-day limit for TLS certificates, so
/// iPads and iPhones accept it once it is trusted.
pub const VALID_DAYS: i64 = 365;
/// A certificate is replaced this many days before it ends.
pub const RENEW_BEFORE_DAYS: i64 = 30;
/// The certificate's file, beside the store.
pub const CERT_FILE: &str = "tls-cert.pem";
/// Its private key's file, beside the store (mode 0600).
pub const KEY_FILE: &str = "tls-key.pem";

/// One certificate with its key, ready to serve.
struct Loaded {
    certified: Arc<CertifiedKey>,
    fingerprint: String,
    not_after: DateTime<Utc>,
}

/// The store's certificate, served by every HTTPS listener of one app.
pub struct StoreTls {
    dir: PathBuf,
    current: Arc<RwLock<Arc<Loaded>>>,
    config: Arc<ServerConfig>,
}

impl std::fmt::Debug for StoreTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreTls")
            .field("dir", &self.dir)
            .field("fingerprint", &self.fingerprint())
            .finish_non_exhaustive()
    }
}

impl StoreTls {
    /// The certificate kept in `dir` (the store's folder), made or renewed as of `now` when
    /// needed.
    pub fn open(dir: &Path, now: DateTime<Utc>) -> Result<Self, Error> {
        let loaded = load_or_make(dir, now)?;
        let current = Arc::new(RwLock::new(Arc::new(loaded)));
        let mut config =
            ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(tls_error)?
                .with_no_client_auth()
                .with_cert_resolver(Arc::new(Resolver(current.clone())));
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Self {
            dir: dir.to_owned(),
            current,
            config: Arc::new(config),
        })
    }

    /// The rustls configuration every HTTPS connection is accepted with.
    pub fn server_config(&self) -> Arc<ServerConfig> {
        self.config.clone()
    }

    /// The certificate's SHA-256 fingerprint: 32 bytes in upper-case hex separated by colons
    /// (`AB:CD:…`), as browsers and `openssl x509 -fingerprint -sha256` show it.
    pub fn fingerprint(&self) -> String {
        self.loaded().fingerprint.clone()
    }

    /// When the certificate ends.
    pub fn not_after(&self) -> DateTime<Utc> {
        self.loaded().not_after
    }

    /// The certificate's file (to install it on a device that should trust it).
    pub fn cert_path(&self) -> PathBuf {
        self.dir.join(CERT_FILE)
    }

    /// Replaces the certificate when it is due (see the module's header); whether it did.
    pub fn renew_if_due(&self, now: DateTime<Utc>) -> Result<bool, Error> {
        if !is_due(self.not_after(), now) {
            return Ok(false);
        }
        let fresh = Arc::new(make(&self.dir, now)?);
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = fresh;
        Ok(true)
    }

    fn loaded(&self) -> Arc<Loaded> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Hands every handshake the current certificate.
#[derive(Debug)]
struct Resolver(Arc<RwLock<Arc<Loaded>>>);

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fingerprint)
    }
}

impl ResolvesServerCert for Resolver {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(
            self.0
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .certified
                .clone(),
        )
    }
}

fn is_due(not_after: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    not_after - now <= Duration::days(RENEW_BEFORE_DAYS)
}

fn tls_error(err: impl std::fmt::Display) -> Error {
    Error::Settings(format!("HTTPS: {err}"))
}

/// The kept certificate, or a new one when there is none, it is due, or it cannot be used.
fn load_or_make(dir: &Path, now: DateTime<Utc>) -> Result<Loaded, Error> {
    let cert_path = dir.join(CERT_FILE);
    if !cert_path.exists() && !dir.join(KEY_FILE).exists() {
        tracing::info!(dir = %dir.display(), "making the store's HTTPS certificate");
        return make(dir, now);
    }
    match load(dir) {
        Ok(loaded) if !is_due(loaded.not_after, now) => Ok(loaded),
        Ok(loaded) => {
            tracing::info!(not_after = %loaded.not_after, "renewing the store's HTTPS certificate before it ends");
            make(dir, now)
        }
        Err(err) => {
            tracing::warn!(%err, "the store's HTTPS certificate cannot be used; making a new one (its fingerprint changes)");
            make(dir, now)
        }
    }
}

fn load(dir: &Path) -> Result<Loaded, String> {
    let cert = CertificateDer::from_pem_file(dir.join(CERT_FILE))
        .map_err(|e| format!("{CERT_FILE}: {e}"))?;
    let key =
        PrivateKeyDer::from_pem_file(dir.join(KEY_FILE)).map_err(|e| format!("{KEY_FILE}: {e}"))?;
    loaded(cert, key)
}

fn loaded(cert: CertificateDer<'static>, key: PrivateKeyDer<'static>) -> Result<Loaded, String> {
    let (_, parsed) =
        x509_parser::parse_x509_certificate(&cert).map_err(|e| format!("{CERT_FILE}: {e}"))?;
    let not_after = DateTime::from_timestamp(parsed.validity().not_after.timestamp(), 0)
        .ok_or_else(|| format!("{CERT_FILE}: its end date is out of range"))?;
    let signer = rustls::crypto::ring::sign::any_supported_type(&key)
        .map_err(|e| format!("{KEY_FILE}: {e}"))?;
    let fingerprint = fingerprint_of(&cert);
    let certified = CertifiedKey::new(vec![cert], signer);
    certified
        .keys_match()
        .map_err(|e| format!("the key does not belong to the certificate: {e}"))?;
    Ok(Loaded {
        certified: Arc::new(certified),
        fingerprint,
        not_after,
    })
}

/// The SHA-256 fingerprint of a DER certificate, `AB:CD:…`.
pub fn fingerprint_of(der: &[u8]) -> String {
    let mut out = String::with_capacity(95);
    for (i, byte) in Sha256::digest(der).iter().enumerate() {
        if i > 0 {
            out.push(':');
        }
        let _ = write!(out, "{byte:02X}");
    }
    out
}

/// Makes a new certificate valid from yesterday (a till's clock may be behind) for
/// [`VALID_DAYS`] days, and keeps it in `dir`.
fn make(dir: &Path, now: DateTime<Utc>) -> Result<Loaded, Error> {
    let key = rcgen::KeyPair::generate().map_err(tls_error)?;
    let mut params = rcgen::CertificateParams::new(subject_names()).map_err(tls_error)?;
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "Pet Store (this shop's own)");
    let (y, m, d) = ymd(now - Duration::days(1));
    params.not_before = rcgen::date_time_ymd(y, m, d);
    let (y, m, d) = ymd(now + Duration::days(VALID_DAYS));
    params.not_after = rcgen::date_time_ymd(y, m, d);
    let mut serial = rand::random::<[u8; 16]>();
    serial[0] &= 0x7f;
    params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
    let cert = params.self_signed(&key).map_err(tls_error)?;
    files::create_private_dir(dir)?;
    write_atomically(dir, KEY_FILE, key.serialize_pem().as_bytes())?;
    write_atomically(dir, CERT_FILE, cert.pem().as_bytes())?;
    let key_der = PrivateKeyDer::try_from(key.serialize_der()).map_err(tls_error)?;
    loaded(cert.der().clone(), key_der).map_err(tls_error)
}

fn ymd(at: DateTime<Utc>) -> (i32, u8, u8) {
    (
        at.year(),
        u8::try_from(at.month()).unwrap_or(1),
        u8::try_from(at.day()).unwrap_or(1),
    )
}

/// `localhost`, the loopback addresses, and the addresses this machine has now.
fn subject_names() -> Vec<String> {
    let mut names = vec!["localhost".to_owned(), "127.0.0.1".into(), "::1".into()];
    if let Ok(interfaces) = if_addrs::get_if_addrs() {
        for ip in interfaces.iter().map(if_addrs::Interface::ip) {
            let usable = match ip {
                IpAddr::V4(v4) => !v4.is_loopback() && !v4.is_link_local(),
                IpAddr::V6(_) => false,
            };
            if usable && !names.contains(&ip.to_string()) {
                names.push(ip.to_string());
            }
        }
    }
    names
}

/// Writes `name` in `dir` readable by this user only: a temporary name, synced, renamed.
fn write_atomically(dir: &Path, name: &str, contents: &[u8]) -> Result<(), Error> {
    let partial = dir.join(format!("{name}.partial"));
    let _ = std::fs::remove_file(&partial);
    let mut file = files::create_private_file(&partial)?;
    file.write_all(contents)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&partial, dir.join(name))?;
    files::sync_dir(dir)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .expect("date")
            .with_timezone(&Utc)
    }

    #[test]
    fn the_first_open_makes_a_certificate_and_the_next_reuses_it() {
        let dir = tempfile::tempdir().expect("dir");
        let now = at("2026-11-22T12:00:00Z");
        let first = StoreTls::open(dir.path(), now).expect("made");
        assert_eq!(first.fingerprint().len(), 95);
        assert_eq!(first.not_after(), at("2027-11-22T00:00:00Z"));
        let again = StoreTls::open(dir.path(), now + Duration::days(100)).expect("reused");
        assert_eq!(again.fingerprint(), first.fingerprint());
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_readable_by_this_user_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        StoreTls::open(dir.path(), Utc::now()).expect("made");
        let mode = std::fs::metadata(dir.path().join(KEY_FILE))
            .expect("key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_certificate_thirty_days_from_its_end_is_renewed_and_served_at_once() {
        let dir = tempfile::tempdir().expect("dir");
        let now = at("2026-11-22T12:00:00Z");
        let tls = StoreTls::open(dir.path(), now).expect("made");
        let old = tls.fingerprint();
        assert!(!tls
            .renew_if_due(now + Duration::days(300))
            .expect("checked"));
        assert!(tls
            .renew_if_due(now + Duration::days(336))
            .expect("renewed"));
        assert_ne!(tls.fingerprint(), old);
        let reopened = StoreTls::open(dir.path(), now + Duration::days(336)).expect("kept");
        assert_eq!(reopened.fingerprint(), tls.fingerprint());
    }

    #[test]
    fn a_key_that_does_not_match_its_certificate_is_replaced() {
        let dir = tempfile::tempdir().expect("dir");
        let now = Utc::now();
        let first = StoreTls::open(dir.path(), now).expect("made");
        let other = tempfile::tempdir().expect("dir");
        StoreTls::open(other.path(), now).expect("made");
        std::fs::copy(other.path().join(KEY_FILE), dir.path().join(KEY_FILE)).expect("copied");
        let replaced = StoreTls::open(dir.path(), now).expect("remade");
        assert_ne!(replaced.fingerprint(), first.fingerprint());
    }
}
