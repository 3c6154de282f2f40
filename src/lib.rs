//! Pet Store: a pet shop's inventory, served as a JSON API on a local SQLite file.
//!
//! A short tour:
//! - [`domain`]: the records (pets, categories, orders, stock), their validation and the
//!   transition rules. No HTTP, no SQL.
//! - [`store`]: the shop's operations in its own words (`store.orders().place(..)`), over
//!   SQLite through one writer thread with group commit and a few readers.
//! - [`auth`] and [`limits`]: who is calling, and how much they may call.
//! - `api`: the HTTP interface, the staff UI and the docs, served by [`serve`].
//! - [`contract`]: the interface's facts as data (bounds, plans, roles, error codes, the
//!   operation table), read by the server and by the OpenAPI generator.
//! - [`demo`]: `petstore demo`, a new store filled with a believable pet shop.
//! - [`tls`]: the store's own HTTPS certificate, served by [`serve_tls`].
//! - [`App`]: wires the store, the keys, usage and limits, idempotency and maintenance
//!   together, shared by every listener.
//!
//! Embedding the server (as the desktop shell does):
//! ```no_run
//! # async fn run() -> Result<(), petstore::Error> {
//! let settings = petstore::Settings::from_env()?;
//! let app = petstore::App::open(&settings)?;
//! let listener = tokio::net::TcpListener::bind(settings.bind).await?;
//! petstore::serve(listener, app.clone(), async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! app.close();
//! # Ok(()) }
//! ```
//!
//! [`serve_tls`] serves the same over HTTPS with the store's own certificate (what
//! `--tls` / `PETSTORE_TLS=on` does); `app.network().tls()?.fingerprint()` is its SHA-256
//! fingerprint, to show to whoever pairs a till.

mod api;
mod app;
pub mod auth;
pub mod cli;
pub mod contract;
pub mod data_folder;
pub mod demo;
pub mod domain;
mod error;
pub mod limits;
pub mod logfile;
pub mod logqueue;
pub mod repeats;
#[cfg(windows)]
pub mod service;
pub mod settings;
pub mod store;
pub mod tls;

pub use api::{raise_open_file_limit, serve, serve_tls, ApiError, OPENAPI_JSON};
pub use app::network::{Listening, Network};
pub use app::{App, SignInRefused, FIRST_ADMIN_QUOTA};
pub use contract::OPERATIONS;
pub use error::Error;
pub use settings::{RateLimits, ServeArgs, Settings, Source, Tls};
