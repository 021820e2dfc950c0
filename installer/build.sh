#!/usr/bin/env bash
# Build the one-folder bundle into installer/dist/fieldops-<version>/, smoke-test
# it, and pack it with its Linux desktop files as
# installer/dist/fieldops-<version>-linux-x86_64.tar.gz (installer/README.md).
#
# Everything the bundle is built from is installed from requirements.lock, each
# file checked against its sha256 (pip --require-hashes), into a virtual
# environment of its own: PyInstaller is a build tool, not a dependency of the
# app. The environment is made anew whenever the lock changes, so nothing left
# over from an older lock reaches the bundle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
venv="$here/.venv-build"
lock="$here/requirements.lock"
started=$(date +%s)

stamp=$(sha256sum "$lock" | cut -d' ' -f1)
if [ ! -f "$venv/.lock-sha256" ] || [ "$(cat "$venv/.lock-sha256")" != "$stamp" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --require-hashes --only-binary=:all: -r "$lock"
  echo "$stamp" >"$venv/.lock-sha256"
fi
# The app itself, from this checkout. Its build backend (setuptools) is in the
# lock, so no build isolation: nothing is fetched that the lock does not pin.
"$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation --force-reinstall "$root"

name=$("$venv/bin/python" "$here/bundle.py")
cd "$here"
"$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN fieldops.spec
bundle="$here/dist/$name"

# Linux desktop integration, inside the bundle: installed by its install.sh.
share="$bundle/share"
mkdir -p "$share/applications" "$share/metainfo"
cp "$root/resources/org.example.FieldOps.desktop" "$share/applications/"
cp "$root/resources/org.example.FieldOps.metainfo.xml" "$share/metainfo/"
for png in "$root"/resources/icons/fieldops-[0-9]*.png; do
  size=$(basename "$png" .png); size=${size#fieldops-}
  mkdir -p "$share/icons/hicolor/${size}x${size}/apps"
  cp "$png" "$share/icons/hicolor/${size}x${size}/apps/org.example.FieldOps.png"
done
mkdir -p "$share/icons/hicolor/scalable/apps"
cp "$root/resources/icons/fieldops.svg" "$share/icons/hicolor/scalable/apps/org.example.FieldOps.svg"
install -m 0755 "$here/install.sh" "$bundle/install.sh"

"$here/smoke_test.sh" "$bundle/fieldops"

tar -C "$here/dist" -czf "$here/dist/$name-linux-x86_64.tar.gz" "$name"
took=$(( $(date +%s) - started ))
echo "built $bundle ($(du -sh "$bundle" | cut -f1)) and $name-linux-x86_64.tar.gz" \
  "($(du -h "$here/dist/$name-linux-x86_64.tar.gz" | cut -f1)) in ${took} s"
