//! HTTPS with the store's own certificate: served from the file kept beside the store, its
//! fingerprint the one the API shows and the pairing address carries, kept across starts,
//! renewed before it ends, and a handshake that dawdles is cut.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use petstore::tls::{fingerprint_of, CERT_FILE, KEY_FILE};
use petstore::Tls;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{body, header, TestApp};

async fn https_app() -> TestApp {
    TestApp::builder().args(|a| a.tls = Tls::On).spawn().await
}

/// The fingerprint of the certificate the server answered `res` with.
fn served_fingerprint(res: &reqwest::Response) -> String {
    let info = res
        .extensions()
        .get::<reqwest::tls::TlsInfo>()
        .expect("the answer came over TLS");
    fingerprint_of(info.peer_certificate().expect("a certificate"))
}

/// The fingerprint of the certificate kept beside the store.
fn stored_fingerprint(app: &TestApp) -> String {
    let pem = std::fs::read_to_string(app.dir.path().join(CERT_FILE)).unwrap();
    let b64: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect::<Vec<_>>()
        .concat();
    fingerprint_of(&decode_base64(&b64))
}

fn decode_base64(s: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

async fn certificate(app: &TestApp) -> (Value, String) {
    let res = app.get("/store/certificate").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    let served = served_fingerprint(&res);
    (body(res).await, served)
}

/// Why the HTTPS tests skip on PostgreSQL: the certificate is kept in the folder beside the
/// store's file, which a PostgreSQL store has not (it uses the user's data folder, shared by
/// every test); HTTPS itself does not depend on the engine.
const TLS_FILES: &str =
    "the certificate lives beside a SQLite file; HTTPS does not depend on the engine";

#[tokio::test]
async fn an_https_server_answers_with_the_stored_certificate_whose_fingerprint_the_api_shows() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let app = https_app().await;
    let (shown, served) = certificate(&app).await;
    assert_eq!(shown["https"], true);
    assert_eq!(shown["fingerprint"], served.as_str());
    assert_eq!(served, stored_fingerprint(&app));
    assert_eq!(served.len(), 95, "32 hex pairs joined by colons: {served}");
    let not_after = chrono::DateTime::parse_from_rfc3339(shown["notAfter"].as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono::Utc);
    let days = (not_after - chrono::Utc::now()).num_days();
    assert!((363..=365).contains(&days), "valid a year: {days} days");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(app.dir.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the key is readable by this user only");
    }
}

#[tokio::test]
async fn a_plain_http_server_says_it_has_no_https() {
    let app = TestApp::spawn().await;
    let res = app.get("/store/certificate").await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, json!({ "https": false }));
    assert!(!app.dir.path().join(CERT_FILE).exists());
}

#[tokio::test]
async fn a_second_start_serves_the_same_certificate() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let app = https_app().await;
    let (_, first) = certificate(&app).await;
    let app = app.restart().await;
    let (shown, again) = certificate(&app).await;
    assert_eq!(again, first);
    assert_eq!(shown["fingerprint"], first.as_str());
}

#[tokio::test]
async fn a_certificate_near_its_end_is_renewed_at_start() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
    let soon = chrono::Utc::now() + chrono::Duration::days(10);
    use chrono::Datelike;
    params.not_after = rcgen::date_time_ymd(soon.year(), soon.month() as u8, soon.day() as u8);
    let old = params.self_signed(&key).unwrap();
    std::fs::write(dir.path().join(CERT_FILE), old.pem()).unwrap();
    std::fs::write(dir.path().join(KEY_FILE), key.serialize_pem()).unwrap();
    let old_fingerprint = fingerprint_of(old.der());

    let app = TestApp::builder()
        .dir(dir)
        .args(|a| a.tls = Tls::On)
        .spawn()
        .await;
    let (shown, served) = certificate(&app).await;
    assert_ne!(served, old_fingerprint, "a new certificate is served");
    assert_eq!(served, stored_fingerprint(&app), "and kept");
    assert_eq!(shown["fingerprint"], served.as_str());
    let not_after = chrono::DateTime::parse_from_rfc3339(shown["notAfter"].as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono::Utc);
    assert!((not_after - chrono::Utc::now()).num_days() >= 363);
}

#[tokio::test]
async fn a_pairing_url_over_https_carries_the_fingerprint() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let app = https_app().await;
    let res = app
        .post(
            "/admin/pairings",
            json!({ "name": "till 2", "role": "pos", "plan": "pro" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let fingerprint = served_fingerprint(&res);
    let pairing = body(res).await;
    let code = pairing["code"].as_str().unwrap();
    assert_eq!(
        pairing["url"],
        format!("https://{}/pair?code={code}&fp={fingerprint}", app.addr)
    );
    assert_eq!(
        pairing["onNetwork"], false,
        "only this PC can open a loopback address"
    );
    assert_eq!(
        crate::pairing::decoded_qr(&app, code).await,
        pairing["url"].as_str().unwrap(),
        "the QR code carries the fingerprint too"
    );

    // The code works over HTTPS, with no key.
    let res = app.post_without_key("/pair", json!({ "code": code })).await;
    assert_eq!(res.status(), 201);
}

/// This machine's lowest IPv4 address another device could reach, if it has one.
fn lan_ipv4() -> Option<IpAddr> {
    if_addrs::get_if_addrs()
        .unwrap()
        .into_iter()
        .filter_map(|i| match i.ip() {
            IpAddr::V4(ip) if !(ip.is_loopback() || ip.is_link_local()) => Some(ip),
            _ => None,
        })
        .min()
        .map(IpAddr::V4)
}

#[tokio::test]
async fn a_pairing_made_at_the_counter_gives_the_address_of_the_network_listener() {
    let app = TestApp::spawn().await;
    // A second listener on every interface, over HTTPS, as the desktop app's LAN switch
    // opens it. Nothing is sent to it: only its address is read.
    let lan = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let port = lan.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(petstore::serve_tls(lan, app.app.clone(), async move {
        let _ = stopped.await;
    }));
    // Wait until the listener is registered (serve_tls registers it before accepting).
    let (cert, pairing) = loop {
        let cert = app.get_json("/store/certificate").await;
        if cert["https"] == true {
            let res = app
                .post(
                    "/admin/pairings",
                    json!({ "name": "till 3", "role": "pos", "plan": "pro" }),
                )
                .await;
            assert_eq!(res.status(), 201);
            break (cert, body(res).await);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let code = pairing["code"].as_str().unwrap();
    match lan_ipv4() {
        Some(ip) => {
            assert_eq!(
                pairing["url"],
                format!(
                    "https://{}/pair?code={code}&fp={}",
                    SocketAddr::new(ip, port),
                    cert["fingerprint"].as_str().unwrap()
                )
            );
            assert_eq!(pairing["onNetwork"], true);
        }
        None => {
            assert_eq!(
                pairing["url"],
                format!("http://{}/pair?code={code}", app.addr)
            );
            assert_eq!(pairing["onNetwork"], false);
        }
    }
    let _ = stop.send(());
    served.await.unwrap().unwrap();
    let cert = app.get_json("/store/certificate").await;
    assert_eq!(cert["https"], false, "no HTTPS listener is left");
}

#[tokio::test]
async fn a_connection_that_dawdles_over_the_handshake_is_cut_and_others_are_answered() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let app = https_app().await;
    let mut slow = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    // The first bytes of a TLS record header, then nothing.
    slow.write_all(&[0x16, 0x03, 0x01]).await.unwrap();
    let started = Instant::now();
    let (_, served) = certificate(&app).await;
    assert!(!served.is_empty(), "others are answered meanwhile");
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(20), slow.read(&mut buf))
        .await
        .expect("the connection is closed by the server");
    assert!(matches!(read, Ok(0) | Err(_)), "closed, not answered");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(9) && waited <= Duration::from_secs(15),
        "cut after the 10 s handshake timeout, not {waited:?}"
    );
}

#[tokio::test]
async fn plain_http_on_the_https_port_is_redirected_to_https() {
    if !crate::support::sqlite_only(TLS_FILES) {
        return;
    }
    let app = https_app().await;
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = plain
        .get(format!("http://{}/store/inventory?low=true", app.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 308);
    assert_eq!(
        header(&res, "location"),
        format!("https://{}/store/inventory?low=true", app.addr)
    );
    // The same connection setup still serves HTTPS.
    let (shown, _) = certificate(&app).await;
    assert_eq!(shown["https"], true);
}
