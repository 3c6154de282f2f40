#!/usr/bin/env bash
# Pet Store for a Windows counter PC, cross-built from Linux into a portable zip, and checked
# as far as Linux and Wine allow. NOT part of CI (see below).
#
#   target/windows-desktop/petstore-windows-<version>.zip
#     PetStore/petstore-desktop.exe   the desktop window (Tauri 2 on Microsoft's WebView2
#                                     runtime; a GUI program, no console window)
#     PetStore/petstore.exe           the headless server and the command line (backup,
#                                     restore, keys, the Windows service)
#     PetStore/WebView2Loader.dll     loads the WebView2 runtime: a build for windows-gnu
#                                     imports it from beside the .exe (Microsoft's
#                                     redistributable loader, shipped in the webview2-com-sys
#                                     crate)
#     PetStore/add-shortcut.ps1       puts "Pet Store" into this user's Start menu
#     PetStore/README-Windows.txt     what to do with these files (first start, WebView2)
#
# A zip, not an installer: Tauri's NSIS bundler (tauri-cli 2.12.5, `tauri bundle --target
# x86_64-pc-windows-gnu` with the nsis target) downloads its NSIS plugin nsis_tauri_utils.dll
# while it bundles, even with Debian's `nsis` 3.08 (makensis) installed, and this build machine
# is offline. Unpacking the zip into a folder and running add-shortcut.ps1 once is the whole
# installation.
#
# Then scripts/windows/check.py checks the zip: its file list (the Wine test stub is never in
# it), the programs' PE headers (x86-64; the window a GUI-subsystem program) and the DLLs they
# import; `petstore.exe --help` and `petstore.exe serve` (GET /health) under Wine from the
# unpacked zip; and it runs petstore-desktop.exe under Wine in xvfb-run and reports what it
# does (Wine has no WebView2 runtime, so the window itself cannot show there).
#
# Not part of CI: a cold release cross-build of Tauri, WebView2's bindings and the windows
# crates took more than an hour on this 2-core machine while other builds ran. CI builds and tests
# the server alone under Wine (`./scripts/test.sh windows`).
#
# Usage: scripts/windows-desktop.sh   (release builds; a second run rebuilds nothing)
# Needs python3, rustup's x86_64-pc-windows-gnu target (added if missing), and Debian's
# gcc-mingw-w64-x86-64, wine, wine64, xvfb and imagemagick (installed with apt-get if missing).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
triple=x86_64-pc-windows-gnu
profile=release
cargo_profile=(--release)
target_dir="${CARGO_TARGET_DIR:-$root/target}"
out="$target_dir/$triple/$profile"
dest="$target_dir/windows-desktop"

missing=()
for pkg in gcc-mingw-w64-x86-64 wine wine64 xvfb imagemagick; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ "$(id -u)" -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    rustup target add "$triple"
fi

started=$SECONDS
# The machine may be shared: build at low priority.
# With tauri's `custom-protocol`, as `tauri build` builds the .deb: the window's pages come from
# the program itself, never from a development server.
nice -n 10 cargo build "${cargo_profile[@]}" --target "$triple" -p petstore-desktop --bin petstore-desktop \
    --features tauri/custom-protocol
nice -n 10 cargo build "${cargo_profile[@]}" --target "$triple" -p petstore --bin petstore
echo "built in $((SECONDS - started)) s"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' src-tauri/Cargo.toml | head -n1)"
# The loader the build linked against, copied by webview2-com-sys's build script.
loader="$(ls -t "$out"/build/webview2-com-sys-*/out/x64/WebView2Loader.dll 2>/dev/null | head -n1 || true)"
[[ -n "$loader" ]] || { echo "windows-desktop: WebView2Loader.dll not found under $out/build" >&2; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
package="$stage/PetStore"
mkdir -p "$package"
cp "$out/petstore-desktop.exe" "$out/petstore.exe" "$loader" "$package/"
cp scripts/windows/add-shortcut.ps1 "$package/"
# Windows' Notepad reads either, but a README with CRLF line ends reads right everywhere.
sed 's/$/\r/' scripts/windows/README-Windows.txt >"$package/README-Windows.txt"

mkdir -p "$dest"
zip="$dest/petstore-windows-$version.zip"
rm -f "$zip"
python3 - "$package" "$zip" <<'EOF'
import sys, zipfile
from pathlib import Path
folder, zip_path = Path(sys.argv[1]), sys.argv[2]
with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
    for file in sorted(folder.iterdir()):
        archive.write(file, f"PetStore/{file.name}")
EOF
echo "== $zip ($(stat -c %s "$zip") bytes)"
python3 -c "import sys, zipfile; [print(f'{i.file_size:>12}  {i.filename}') for i in zipfile.ZipFile(sys.argv[1]).infolist()]" "$zip"

# What can be checked on Linux: scripts/windows/check.py (the zip's files, the programs'
# headers and DLLs, petstore.exe under Wine, and what petstore-desktop.exe does under Wine).
# The test stub for Wine 8 (tests/windows/processprng.c) is built outside the zip's folder;
# check.py copies it beside the programs in a copy unpacked from the zip, for its runs only.
checks="$dest/checks"
mkdir -p "$checks"
x86_64-w64-mingw32-gcc -O2 -shared -o "$checks/bcryptprimitives.dll" \
    tests/windows/processprng.c tests/windows/processprng.def -ladvapi32
export WINEPREFIX="$dest/wine-prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml,winemenubuilder.exe="
wineboot --init >/dev/null 2>&1 || true
wineserver --wait 2>/dev/null || true
status=0
python3 scripts/windows/check.py --zip "$zip" --stub "$checks/bcryptprimitives.dll" \
    --prefix "$WINEPREFIX" --work "$checks/run" || status=$?
wineserver -k 2>/dev/null || true
wineserver --wait 2>/dev/null || true
exit "$status"
