//! Settings: defaults, then `PETSTORE_*` variables, then flags (a flag beats a variable,
//! which beats the default). The headless server and the desktop app read the same ones,
//! through the same model: [`ServeArgs`] is how they are written (each a flag, a variable
//! and a default, parsed by clap), [`Settings`] is what the program uses (typed values,
//! no `"on"`/`"off"` strings) and remembers where each value came from ([`Source`]).
//!
//! **Adding a setting**: add a field to [`ServeArgs`] (`#[arg(long, env = "PETSTORE_…",
//! default_value…)]`) and to its `Default`, add the typed field to [`Settings`] and fill it in
//! [`Settings::new`], and add a row to the README's table. Its source is noted by itself.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches};

use crate::contract;
use crate::limits::{BanPolicy, Plan, Quota};
use crate::Error;

/// The sunset of `GET /pets/{petId}` unless a setting moves it.
pub const DEFAULT_SUNSET: &str = "2027-06-30T00:00:00Z";

/// Hours between automatic backups unless a setting changes it.
pub const DEFAULT_BACKUP_EVERY_HOURS: f64 = 24.0;
/// How many automatic backups are kept unless a setting changes it.
pub const DEFAULT_BACKUP_KEEP: usize = 14;
/// The shortest interval between automatic backups, whatever the setting says.
const MIN_BACKUP_INTERVAL: Duration = Duration::from_secs(1);

/// Largest size of the log file before it is rotated, unless a setting changes it (10 MiB).
pub const DEFAULT_LOG_MAX_SIZE: &str = "10M";
/// How many rotated log files are kept unless a setting changes it.
pub const DEFAULT_LOG_KEEP: usize = 5;
/// The smallest size a log file may be limited to.
const MIN_LOG_MAX_BYTES: u64 = 1024;

/// Where the log goes: standard error, or a file rotated by size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogSettings {
    /// The log file; `None` writes the log to standard error.
    pub file: Option<PathBuf>,
    /// Size after which the file is rotated (`FILE` becomes `FILE.1`, `FILE.1` `FILE.2`, …).
    pub max_bytes: u64,
    /// How many rotated files are kept beside the current one.
    pub keep: usize,
}

impl LogSettings {
    fn new(file: Option<PathBuf>, max_size: &str, keep: usize) -> Result<Self, Error> {
        let max_bytes = parse_size(max_size).filter(|b| *b >= MIN_LOG_MAX_BYTES).ok_or_else(|| {
            Error::Settings(format!(
                "--log-max-size must be a size of at least 1K, like 512K, 10M or 1G; got {max_size:?}"
            ))
        })?;
        if keep == 0 {
            return Err(Error::Settings(
                "--log-keep must be at least 1 (the number of rotated log files kept)".into(),
            ));
        }
        let file = file.filter(|f| !f.as_os_str().is_empty());
        Ok(Self {
            file,
            max_bytes,
            keep,
        })
    }
}

impl Default for LogSettings {
    fn default() -> Self {
        Self {
            file: None,
            max_bytes: 10 * 1024 * 1024,
            keep: DEFAULT_LOG_KEEP,
        }
    }
}

/// A size in bytes: digits with an optional binary unit `K`, `M` or `G` (`KB`, `MiB`… too).
fn parse_size(given: &str) -> Option<u64> {
    let given = given.trim();
    let digits = given
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(given.len());
    let (number, unit) = given.split_at(digits);
    let number: u64 = number.parse().ok()?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return None,
    };
    number.checked_mul(1 << shift)
}

/// When and where the store backs itself up.
#[derive(Debug, Clone)]
pub struct BackupSettings {
    /// Time between automatic backups; `None` when they are off.
    pub every: Option<Duration>,
    /// The backup folder.
    pub dir: PathBuf,
    /// How many of this program's backups are kept.
    pub keep: usize,
}

impl BackupSettings {
    /// Backups from the flags' values, for the store at `db`.
    fn new(
        db: &std::path::Path,
        every_hours: f64,
        dir: Option<PathBuf>,
        keep: usize,
    ) -> Result<Self, Error> {
        if !every_hours.is_finite() || every_hours < 0.0 {
            return Err(Error::Settings(format!(
                "--backup-every must be a number of hours, 0 or more (0 turns backups off); got {every_hours}"
            )));
        }
        if keep == 0 {
            return Err(Error::Settings(
                "--backup-keep must be at least 1 (to stop backups, set --backup-every 0)".into(),
            ));
        }
        let every = (every_hours > 0.0).then(|| {
            Duration::try_from_secs_f64(every_hours * 3600.0)
                .unwrap_or(Duration::MAX)
                .max(MIN_BACKUP_INTERVAL)
        });
        let dir = dir
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or_else(|| crate::store::files_parent(db).join("backups"));
        Ok(Self { every, dir, keep })
    }
}

/// The serving settings, as flags of `petstore serve` and as `PETSTORE_*` variables.
#[derive(Args, Clone)]
pub struct ServeArgs {
    /// Address and port to listen on. Use 0.0.0.0:8080 to let devices on the LAN in.
    #[arg(long, env = "PETSTORE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: Option<SocketAddr>,
    /// The first admin key's secret, used only when the store has no key yet.
    #[arg(long, env = "PETSTORE_ADMIN_KEY", hide_env_values = true)]
    pub admin_key: Option<String>,
    /// When `GET /pets/{petId}` stops working (RFC 3339).
    #[arg(long, env = "PETSTORE_SUNSET", default_value = DEFAULT_SUNSET)]
    pub sunset: Option<DateTime<Utc>>,
    /// Web origins allowed to call the API from a browser (CORS); none by default.
    #[arg(
        long = "cors-origin",
        env = "PETSTORE_CORS_ORIGINS",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,
    /// Names besides this computer's own that browsers may reach the server by (a shop's DNS
    /// name, a load balancer's); addresses and localhost are always answered.
    #[arg(
        long = "allow-host",
        env = "PETSTORE_ALLOW_HOSTS",
        value_delimiter = ','
    )]
    pub allow_hosts: Vec<String>,
    /// Seconds a request may take before it is answered 408.
    #[arg(long, env = "PETSTORE_REQUEST_TIMEOUT", default_value_t = contract::DEFAULTS.request_timeout_secs)]
    pub request_timeout: u64,
    /// Rate limits on (`on`) or off (`off`, for benchmarks on a trusted machine).
    #[arg(long, env = "PETSTORE_RATE_LIMITS", value_enum, default_value_t = RateLimits::On)]
    pub rate_limits: RateLimits,
    /// Refusals (429) in one minute after which a caller is banned.
    #[arg(long, env = "PETSTORE_BAN_AFTER", default_value_t = contract::DEFAULTS.ban_after)]
    pub ban_after: u32,
    /// How long a ban lasts, in seconds.
    #[arg(long, env = "PETSTORE_BAN_SECONDS", default_value_t = contract::DEFAULTS.ban_secs)]
    pub ban_seconds: u64,
    /// Requests a minute that callers without a valid key may make from one address
    /// [default: the Free plan's]. For the contract suite, whose fuzzer sends thousands of
    /// keyless requests from this machine; hidden, as no shop needs it.
    #[arg(long, env = "PETSTORE_KEYLESS_PER_MINUTE", hide = true)]
    pub keyless_per_minute: Option<u64>,
    /// Requests a day that callers without a valid key may make from one address [default:
    /// the Free plan's]. For the contract suite, as `keyless_per_minute`.
    #[arg(long, env = "PETSTORE_KEYLESS_PER_DAY", hide = true)]
    pub keyless_per_day: Option<u64>,
    /// Hours between automatic backups (fractions allowed, e.g. 0.5); 0 turns them off.
    #[arg(long, env = "PETSTORE_BACKUP_EVERY", default_value_t = DEFAULT_BACKUP_EVERY_HOURS)]
    pub backup_every: f64,
    /// The folder backups go to [default: backups/ beside the store's file].
    #[arg(long, env = "PETSTORE_BACKUP_DIR")]
    pub backup_dir: Option<PathBuf>,
    /// How many of the automatic backups to keep (the newest).
    #[arg(long, env = "PETSTORE_BACKUP_KEEP", default_value_t = DEFAULT_BACKUP_KEEP)]
    pub backup_keep: usize,
    /// A file for the log (one line per request, among others) instead of standard error.
    #[arg(long, env = "PETSTORE_LOG_FILE")]
    pub log_file: Option<PathBuf>,
    /// Size at which the log file is rotated: bytes, or with K, M or G (binary units).
    #[arg(long, env = "PETSTORE_LOG_MAX_SIZE", default_value = DEFAULT_LOG_MAX_SIZE)]
    pub log_max_size: String,
    /// How many rotated log files to keep beside the current one.
    #[arg(long, env = "PETSTORE_LOG_KEEP", default_value_t = DEFAULT_LOG_KEEP)]
    pub log_keep: usize,
    /// Speak HTTPS with the store's own certificate (`--tls` alone means `on`).
    #[arg(
        long,
        env = "PETSTORE_TLS",
        value_enum,
        default_value_t = Tls::Off,
        num_args = 0..=1,
        default_missing_value = "on"
    )]
    pub tls: Tls,
}

impl Default for ServeArgs {
    /// The same values as the flags' defaults.
    fn default() -> Self {
        Self {
            bind: Some(SocketAddr::from(([127, 0, 0, 1], 8080))),
            admin_key: None,
            sunset: Some(default_sunset()),
            cors_origins: Vec::new(),
            allow_hosts: Vec::new(),
            request_timeout: contract::DEFAULTS.request_timeout_secs,
            rate_limits: RateLimits::On,
            ban_after: BanPolicy::default().max_rejections,
            ban_seconds: BanPolicy::default().ban_secs,
            keyless_per_minute: None,
            keyless_per_day: None,
            backup_every: DEFAULT_BACKUP_EVERY_HOURS,
            backup_dir: None,
            backup_keep: DEFAULT_BACKUP_KEEP,
            log_file: None,
            log_max_size: DEFAULT_LOG_MAX_SIZE.into(),
            log_keep: DEFAULT_LOG_KEEP,
            tls: Tls::Off,
        }
    }
}

/// Whether `petstore serve` speaks HTTPS (`--tls on|off`, `PETSTORE_TLS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Tls {
    /// Plain HTTP (the default).
    #[default]
    Off,
    /// HTTPS with the store's own certificate, kept beside the store (see [`crate::tls`]).
    On,
}

impl Tls {
    /// Whether the server speaks HTTPS.
    pub fn is_on(self) -> bool {
        self == Self::On
    }
}

/// Whether requests are rate-limited (`--rate-limits on|off`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RateLimits {
    /// Every caller is held to its plan (the default).
    #[default]
    On,
    /// Nobody is limited: only for benchmarks on a trusted machine.
    Off,
}

impl RateLimits {
    /// Whether callers are held to their plans.
    pub fn is_on(self) -> bool {
        self == Self::On
    }
}

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag.
    Flag,
    /// A `PETSTORE_*` environment variable.
    Variable,
    /// Nothing was said: the default.
    Default,
    /// The program that built the settings in code (the tests, the command line's own
    /// commands).
    Program,
}

/// Everything the server needs to know to run.
#[derive(Clone)]
pub struct Settings {
    /// The SQLite file of the store.
    pub db: PathBuf,
    pub bind: SocketAddr,
    /// Secret of the first admin key (only used on an empty store).
    pub admin_key: Option<String>,
    pub sunset: DateTime<Utc>,
    pub cors_origins: Vec<String>,
    /// Names answered besides addresses, localhost and this computer's own (see `api::host`).
    pub allow_hosts: Vec<String>,
    pub request_timeout: Duration,
    pub rate_limits: RateLimits,
    pub ban: BanPolicy,
    /// The quota of callers without a valid key, counted by address: the Free plan's unless
    /// the operator who starts the server says otherwise (a client never can).
    pub keyless: Quota,
    pub backup: BackupSettings,
    pub log: LogSettings,
    /// Whether `petstore serve` speaks HTTPS.
    pub tls: Tls,
    /// Where each value came from, by setting name (`bind`, `rate_limits`, …).
    sources: BTreeMap<String, Source>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("db", &crate::store::shown(&self.db))
            .field("bind", &self.bind)
            .field("admin_key", &self.admin_key.as_ref().map(|_| "<redacted>"))
            .field("sunset", &self.sunset)
            .field("cors_origins", &self.cors_origins)
            .field("allow_hosts", &self.allow_hosts)
            .field("request_timeout", &self.request_timeout)
            .field("rate_limits", &self.rate_limits)
            .field("ban", &self.ban)
            .field("keyless", &self.keyless)
            .field("backup", &self.backup)
            .field("log", &self.log)
            .field("tls", &self.tls)
            .field("sources", &self.sources)
            .finish()
    }
}

impl Settings {
    /// Settings from `db` (or the default data folder) and serving arguments built in code:
    /// every value's source is [`Source::Program`].
    pub fn new(db: Option<PathBuf>, args: ServeArgs) -> Result<Self, Error> {
        Self::build(db, args, BTreeMap::new())
    }

    /// Settings from parsed command-line matches that hold `--db` and the [`ServeArgs`]
    /// flags (clap folds the variables and defaults in), noting each value's source.
    pub fn from_matches(matches: &ArgMatches) -> Result<Self, Error> {
        let args =
            ServeArgs::from_arg_matches(matches).map_err(|e| Error::Settings(e.to_string()))?;
        let db = matches.try_get_one::<PathBuf>("db").ok().flatten().cloned();
        let known = <SettingsArgs as clap::CommandFactory>::command();
        let is_setting = |id: &str| known.get_arguments().any(|arg| arg.get_id() == id);
        let sources = matches
            .ids()
            .filter(|id| is_setting(id.as_str()))
            .map(|id| {
                let source = match matches.value_source(id.as_str()) {
                    Some(ValueSource::CommandLine) => Source::Flag,
                    Some(ValueSource::EnvVariable) => Source::Variable,
                    _ => Source::Default,
                };
                (id.as_str().to_owned(), source)
            })
            .collect();
        Self::build(db, args, sources)
    }

    /// Settings from `argv` (the program's name first), with the `PETSTORE_*` variables and
    /// defaults behind the flags.
    pub fn from_args<I, T>(argv: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = <SettingsArgs as clap::CommandFactory>::command()
            .try_get_matches_from(argv)
            .map_err(|e| Error::Settings(e.to_string()))?;
        Self::from_matches(&matches)
    }

    /// Where the value of setting `name` (`bind`, `rate_limits`, …) came from.
    pub fn source(&self, name: &str) -> Source {
        if self.sources.is_empty() {
            return Source::Program;
        }
        self.sources.get(name).copied().unwrap_or(Source::Default)
    }

    /// Whether setting `name` was given (by a flag or a variable) rather than defaulted.
    pub fn was_given(&self, name: &str) -> bool {
        matches!(self.source(name), Source::Flag | Source::Variable)
    }

    fn build(
        db: Option<PathBuf>,
        args: ServeArgs,
        sources: BTreeMap<String, Source>,
    ) -> Result<Self, Error> {
        let db = match db {
            Some(db) => db,
            None => default_db_path()?,
        };
        let defaults = BanPolicy::default();
        let backup =
            BackupSettings::new(&db, args.backup_every, args.backup_dir, args.backup_keep)?;
        let log = LogSettings::new(args.log_file, &args.log_max_size, args.log_keep)?;
        Ok(Self {
            backup,
            log,
            db,
            bind: args
                .bind
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
            admin_key: first_admin_key(args.admin_key)?,
            sunset: args.sunset.unwrap_or_else(default_sunset),
            cors_origins: cors_origins(args.cors_origins)?,
            allow_hosts: args
                .allow_hosts
                .iter()
                .map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
            request_timeout: Duration::from_secs(args.request_timeout.max(1)),
            rate_limits: args.rate_limits,
            tls: args.tls,
            ban: BanPolicy {
                max_rejections: args.ban_after,
                ban_secs: args.ban_seconds,
                ..defaults
            },
            keyless: keyless_quota(args.keyless_per_minute, args.keyless_per_day),
            sources,
        })
    }

    /// Settings from the `PETSTORE_*` variables alone (the desktop app has no flags).
    pub fn from_env() -> Result<Self, Error> {
        Self::from_args(["petstore"])
    }
}

/// The keyless quota: the Free plan's, with either number replaced when it was set.
fn keyless_quota(per_minute: Option<u64>, per_day: Option<u64>) -> Quota {
    let free = Plan::Free.quota(None).unwrap_or(Quota {
        per_minute: 60,
        per_day: 1000,
    });
    Quota {
        per_minute: per_minute.unwrap_or(free.per_minute),
        per_day: per_day.unwrap_or(free.per_day),
    }
}

/// `--db` and the serving flags: what [`Settings::from_args`] parses.
#[derive(clap::Parser)]
#[command(name = "petstore")]
struct SettingsArgs {
    #[arg(long, env = "PETSTORE_DB")]
    db: Option<PathBuf>,
    #[command(flatten)]
    serve: ServeArgs,
}

/// Shortest first admin key accepted from a setting.
pub const MIN_ADMIN_KEY_LEN: usize = 16;

/// The first admin key as given: unset or empty is none; otherwise it must be at least
/// [`MIN_ADMIN_KEY_LEN`] characters with no surrounding spaces (a stray space would make a
/// key nobody can type back).
fn first_admin_key(given: Option<String>) -> Result<Option<String>, Error> {
    let Some(key) = given.filter(|k| !k.is_empty()) else {
        return Ok(None);
    };
    if key.trim() != key {
        return Err(Error::Settings(
            "the admin key (PETSTORE_ADMIN_KEY or --admin-key) has spaces around it; remove them"
                .into(),
        ));
    }
    if key.chars().count() < MIN_ADMIN_KEY_LEN || key.chars().any(char::is_control) {
        return Err(Error::Settings(format!(
            "the admin key (PETSTORE_ADMIN_KEY or --admin-key) must be at least {MIN_ADMIN_KEY_LEN} printable characters"
        )));
    }
    Ok(Some(key))
}

/// The CORS origins as given, each checked to be `http(s)://host[:port]` with nothing after.
/// `*` is refused: a store's API is for the shop's own tills and pages, so name them.
fn cors_origins(given: Vec<String>) -> Result<Vec<String>, Error> {
    let mut origins = Vec::new();
    for origin in given.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
        if origin == "*" {
            return Err(Error::Settings(
                "CORS origin `*` is not allowed (PETSTORE_CORS_ORIGINS or --cors-origin): list the web origins that may call the store, like http://till.local:8000".into(),
            ));
        }
        if !is_origin(origin) {
            return Err(Error::Settings(format!(
                "CORS origin `{origin}` is not an origin (PETSTORE_CORS_ORIGINS or --cors-origin): write it as http://host or https://host:port, with no path"
            )));
        }
        origins.push(origin.to_owned());
    }
    Ok(origins)
}

/// Whether `s` is `http://` or `https://`, a host of letters, digits, `.`, `-` (or an IPv6
/// literal in brackets), and an optional port.
fn is_origin(s: &str) -> bool {
    let Some(rest) = s
        .strip_prefix("http://")
        .or_else(|| s.strip_prefix("https://"))
    else {
        return false;
    };
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((addr, port)) => {
                if addr.parse::<std::net::Ipv6Addr>().is_err() {
                    return false;
                }
                ("v6", port)
            }
            None => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((host, port)) => (host, port),
            None => (rest, ""),
        }
    };
    let port = port.strip_prefix(':').unwrap_or(port);
    let port_ok = port.is_empty() || port.parse::<u16>().is_ok_and(|p| p > 0);
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    // `rest` with a port already split off must not hold a path, query or user part.
    host_ok && port_ok && !rest.contains(['/', '?', '#', '@'])
}

fn default_sunset() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(DEFAULT_SUNSET)
        .map(|d| d.with_timezone(&Utc))
        .unwrap_or_else(|_| Utc::now())
}

/// `store.sqlite` in this user's data folder (see [`crate::data_folder`]).
pub fn default_db_path() -> Result<PathBuf, Error> {
    crate::data_folder::folder()
        .map(|folder| folder.join(crate::data_folder::STORE_FILE))
        .ok_or_else(|| {
            Error::Settings("cannot find a data folder for this user; pass --db PATH".into())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgresql_password_is_never_in_the_logged_settings() {
        let url =
            "postgres://shop:Fluffy%40Cat%231@db-host:5432/petstore?password=again&sslmode=off";
        let settings = Settings::new(Some(PathBuf::from(url)), ServeArgs::default()).unwrap();
        let logged = format!("{settings:?}");
        assert!(
            !logged.contains("Fluffy") && !logged.contains("again"),
            "{logged}"
        );
        assert!(
            logged.contains("postgres://shop:***@db-host:5432/petstore?password=***&sslmode=off"),
            "{logged}"
        );
        let file = crate::store::shown(std::path::Path::new("/srv/shop/store.sqlite"));
        assert_eq!(file, "/srv/shop/store.sqlite");
    }

    #[test]
    fn origins_with_a_scheme_host_and_port_are_accepted() {
        for ok in [
            "http://till.local",
            "https://pos.example:8443",
            "http://192.168.1.5:3000",
            "http://[::1]:8080",
        ] {
            assert!(is_origin(ok), "{ok}");
        }
    }

    #[test]
    fn a_star_a_path_or_a_bare_host_is_refused_as_an_origin() {
        for bad in [
            "*",
            "till.local",
            "http://till.local/",
            "http://a/b",
            "ftp://x",
            "http://:80",
            "http://x:0",
            "http://u@x",
        ] {
            assert!(!is_origin(bad), "{bad}");
        }
        assert!(cors_origins(vec!["*".into()]).is_err());
    }

    #[test]
    fn log_sizes_read_bytes_and_binary_units_and_refuse_the_rest() {
        assert_eq!(parse_size("2048"), Some(2048));
        assert_eq!(parse_size("512K"), Some(512 * 1024));
        assert_eq!(parse_size("10M"), Some(10 * 1024 * 1024));
        assert_eq!(parse_size("1 GiB"), Some(1 << 30));
        assert_eq!(parse_size("10 mb"), Some(10 << 20));
        for bad in ["", "M", "-1", "1.5M", "10T", "99999999999999999999G"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
        let log = LogSettings::new(None, DEFAULT_LOG_MAX_SIZE, DEFAULT_LOG_KEEP).unwrap();
        assert_eq!(log, LogSettings::default());
        assert!(LogSettings::new(None, "100", 5).is_err(), "under 1K");
        assert!(LogSettings::new(None, "1M", 0).is_err(), "nothing kept");
    }

    #[test]
    fn an_admin_key_with_spaces_around_it_or_too_short_is_refused() {
        assert!(first_admin_key(Some(" psk_0123456789abcdef".into())).is_err());
        assert!(first_admin_key(Some("short".into())).is_err());
        assert_eq!(first_admin_key(Some(String::new())).ok(), Some(None));
        assert!(first_admin_key(Some("psk_0123456789abcdef".into())).is_ok());
    }

    #[test]
    fn each_value_knows_whether_a_flag_a_variable_or_the_default_gave_it() {
        // The only test that sets PETSTORE_* variables, so no other test sees them.
        std::env::set_var("PETSTORE_BAN_AFTER", "7");
        std::env::set_var("PETSTORE_RATE_LIMITS", "off");
        std::env::set_var("PETSTORE_TLS", "on");
        let settings = Settings::from_args([
            "petstore",
            "--db",
            "/tmp/x.sqlite",
            "--bind",
            "127.0.0.1:9000",
            "--rate-limits",
            "on",
        ]);
        std::env::remove_var("PETSTORE_BAN_AFTER");
        std::env::remove_var("PETSTORE_RATE_LIMITS");
        std::env::remove_var("PETSTORE_TLS");
        let settings = settings.unwrap();
        assert_eq!(settings.tls, Tls::On);
        assert_eq!(settings.source("tls"), Source::Variable);
        assert_eq!(settings.bind, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(settings.source("bind"), Source::Flag);
        assert_eq!(settings.source("db"), Source::Flag);
        assert_eq!(
            settings.rate_limits,
            RateLimits::On,
            "a flag beats a variable"
        );
        assert_eq!(settings.source("rate_limits"), Source::Flag);
        assert_eq!(settings.ban.max_rejections, 7);
        assert_eq!(settings.source("ban_after"), Source::Variable);
        assert_eq!(settings.source("ban_seconds"), Source::Default);
        assert_eq!(settings.source("admin_key"), Source::Default);
        assert!(settings.was_given("bind") && !settings.was_given("sunset"));
    }

    #[test]
    fn tls_alone_turns_https_on_and_is_off_by_default() {
        let on = Settings::from_args(["petstore", "--db", "/tmp/x.sqlite", "--tls"]).unwrap();
        assert_eq!((on.tls, on.source("tls")), (Tls::On, Source::Flag));
        let off = Settings::from_args(["petstore", "--db", "/tmp/x.sqlite", "--tls", "off"]);
        assert_eq!(off.unwrap().tls, Tls::Off);
        assert_eq!(ServeArgs::default().tls, Tls::Off);
    }

    #[test]
    fn callers_without_a_key_get_the_free_plan_unless_the_operator_sets_their_quota() {
        let free = Plan::Free.quota(None).unwrap();
        let plain = Settings::from_args(["petstore", "--db", "/tmp/x.sqlite"]).unwrap();
        assert_eq!(plain.keyless, free);
        let raised = Settings::from_args([
            "petstore",
            "--db",
            "/tmp/x.sqlite",
            "--keyless-per-minute",
            "5000",
        ])
        .unwrap();
        assert_eq!(
            raised.keyless,
            Quota {
                per_minute: 5000,
                per_day: free.per_day
            }
        );
    }

    #[test]
    fn settings_built_in_code_say_so_and_take_typed_values() {
        let args = ServeArgs {
            rate_limits: RateLimits::Off,
            ..ServeArgs::default()
        };
        let settings = Settings::new(Some("/tmp/y.sqlite".into()), args).unwrap();
        assert_eq!(settings.rate_limits, RateLimits::Off);
        assert_eq!(settings.source("rate_limits"), Source::Program);
        assert!(!settings.was_given("bind"));
    }
}
