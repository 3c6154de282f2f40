//! `petstore-desktop`: the shop counter's window onto the store. All the work is in the library.

// No console window on Windows release builds (harmless elsewhere).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    petstore_desktop::run()
}
