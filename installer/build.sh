#!/usr/bin/env bash
# Build the one-folder bundle into installer/dist/fieldops and smoke-test it.
# PyInstaller is a build tool, not a dependency of the app: it lives in its
# own virtual environment next to this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
venv="$here/.venv-build"
if [ ! -x "$venv/bin/pyinstaller" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
  "$venv/bin/pip" install --quiet "pyinstaller>=6" "$root"
else
  # Re-resolve: a changed pin in pyproject.toml (e.g. of PySide6) must reach the bundle.
  "$venv/bin/pip" install --quiet "$root"
  "$venv/bin/pip" install --quiet --no-deps --force-reinstall "$root"
fi
cd "$here"
"$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN fieldops.spec
"$here/smoke_test.sh" "$here/dist/fieldops/fieldops"
