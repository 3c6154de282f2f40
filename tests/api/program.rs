//! The built `petstore` program, started as a user starts it. Shared by the API tests and
//! `tests/cli.rs`, which includes this file by its path.

use std::process::Command;

/// The `petstore` binary with no `PETSTORE_*` setting inherited from the environment the
/// tests run in.
pub fn petstore_without_settings() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_petstore"));
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("PETSTORE_") {
            command.env_remove(name);
        }
    }
    command
}
