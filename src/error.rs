//! The library's top-level error, for the program and the desktop shell.
//!
//! Which error type belongs where: [`crate::domain::DomainError`] is a rule of the shop
//! broken by a request; [`crate::store::StoreError`] is anything from storage (and carries
//! domain errors through transactions); `api::ApiError` is what a client sees; this
//! [`Error`] is what the program reports when it cannot start or run a command.

use thiserror::Error;

use crate::store::StoreError;

#[derive(Debug, Error)]
pub enum Error {
    #[error("settings: {0}")]
    Settings(String),
    #[error("store: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
