//! Generates the Tauri context and the permissions for the shell's own commands.
//!
//! Declaring the commands in an app manifest makes them deny-by-default: only a capability in
//! `capabilities/` that names `allow-get-lan-status`, `allow-set-lan`, `allow-choose-backup-file`
//! or `allow-restore-backup` lets a window call them.

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(&[
        "get_lan_status",
        "set_lan",
        "choose_backup_file",
        "restore_backup",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("tauri-build failed: check tauri.conf.json and capabilities/");
}
