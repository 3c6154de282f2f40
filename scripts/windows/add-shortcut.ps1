# Puts "Pet Store" into this user's Start menu, pointing at petstore-desktop.exe in this
# script's folder. Run it once, as the shop's user, after unpacking the zip:
#   powershell -ExecutionPolicy Bypass -File "C:\Program Files\PetStore\add-shortcut.ps1"
# Run it again after moving the folder; delete the shortcut to undo it.
$ErrorActionPreference = "Stop"
$program = Join-Path $PSScriptRoot "petstore-desktop.exe"
if (-not (Test-Path $program)) { throw "petstore-desktop.exe is not beside this script ($PSScriptRoot)" }
$menu = [Environment]::GetFolderPath("Programs")
$link = Join-Path $menu "Pet Store.lnk"
$shell = New-Object -ComObject WScript.Shell
$shortcut = $shell.CreateShortcut($link)
$shortcut.TargetPath = $program
$shortcut.WorkingDirectory = $PSScriptRoot
$shortcut.IconLocation = "$program,0"
$shortcut.Description = "Pet Store: the shop's stock, catalogue and orders"
$shortcut.Save()
Write-Output "Added $link"
