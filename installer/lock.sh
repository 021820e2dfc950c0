#!/usr/bin/env bash
# Regenerate installer/requirements.lock: every package the bundle is built from
# (the app's runtime dependencies from pyproject.toml, PyInstaller and the build
# backend from build-requirements.in), each pinned to one version with the
# sha256 of every file of that version, for Linux and Windows alike. build.sh
# installs exactly these (pip --require-hashes), so a rebuild next year makes
# the same app. Run it when a dependency is meant to change; commit the result.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
venv="$here/.venv-build"
if [ ! -x "$venv/bin/uv" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet uv
fi
cd "$root"
"$venv/bin/uv" pip compile --quiet --universal --python-version 3.11 --generate-hashes \
  --custom-compile-command "installer/lock.sh" \
  pyproject.toml installer/build-requirements.in -o installer/requirements.lock
