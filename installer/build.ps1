# Build the Windows installer: the same locked bundle as build.sh, then Inno Setup.
# Run from the repository's root in PowerShell, with Python 3.11 (x64) and
# Inno Setup 6 installed (installer\README.md):
#   powershell -ExecutionPolicy Bypass -File installer\build.ps1
$ErrorActionPreference = "Stop"
$here = Split-Path -Parent $MyInvocation.MyCommand.Path
$root = Split-Path -Parent $here
$venv = Join-Path $here ".venv-build-win"
$python = Join-Path $venv "Scripts\python.exe"
if (Test-Path $venv) { Remove-Item -Recurse -Force $venv }
py -3.11 -m venv $venv
& $python -m pip install --quiet --require-hashes --only-binary=:all: -r (Join-Path $here "requirements.lock")
if ($LASTEXITCODE) { throw "pip install of requirements.lock failed" }
& $python -m pip install --quiet --no-deps --no-build-isolation $root
if ($LASTEXITCODE) { throw "pip install of the app failed" }
$name = (& $python (Join-Path $here "bundle.py")).Trim()
$version = (& $python (Join-Path $here "bundle.py") --version).Trim()
Push-Location $here
try {
  & (Join-Path $venv "Scripts\pyinstaller.exe") --noconfirm --clean --log-level WARN fieldops.spec
  if ($LASTEXITCODE) { throw "PyInstaller failed" }
  $exe = Join-Path $here "dist\$name\fieldops.exe"
  $env:QT_QPA_PLATFORM = "offscreen"
  & $exe --self-test
  if ($LASTEXITCODE) { throw "the bundle's self-test failed ($LASTEXITCODE)" }
  Remove-Item Env:QT_QPA_PLATFORM
  $iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe"
  & $iscc "/DVersion=$version" fieldops.iss
  if ($LASTEXITCODE) { throw "Inno Setup failed" }
} finally {
  Pop-Location
}
Write-Host "built installer\dist\fieldops-$version-windows-x64-setup.exe"
