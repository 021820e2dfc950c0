#!/usr/bin/env bash
# Install this FieldOps bundle on Linux: the program folder, a `fieldops` command,
# the desktop entry (menu), the AppStream file (software centres) and the icon.
#
#   sudo ./install.sh            everyone: /opt/fieldops-<version>, /usr/local/bin, /usr/local/share
#   ./install.sh --user          you only: ~/.local/opt, ~/.local/bin, ~/.local/share
#   ./install.sh --uninstall     (with --user for a per-user install) removes what it installed
#
# Each version installs into its own folder; the command and the menu entry point
# to the one installed last. Databases are never touched (they live in the user's
# data folder, or where --db says).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$here")
user=0 uninstall=0
for arg in "$@"; do
  case "$arg" in
    --user) user=1 ;;
    --uninstall) uninstall=1 ;;
    *) echo "usage: install.sh [--user] [--uninstall]" >&2; exit 2 ;;
  esac
done
if [ "$user" = 1 ]; then
  opt="$HOME/.local/opt" bin="$HOME/.local/bin" share="${XDG_DATA_HOME:-$HOME/.local/share}"
else
  opt=/opt bin=/usr/local/bin share=/usr/local/share
fi
app=org.example.FieldOps
files=(applications/$app.desktop metainfo/$app.metainfo.xml)
for icon in "$here"/share/icons/hicolor/*/apps/$app.*; do
  files+=("${icon#"$here/share/"}")
done

if [ "$uninstall" = 1 ]; then
  for f in "${files[@]}"; do rm -f "$share/$f"; done
  if [ -L "$bin/fieldops" ]; then rm -f "$bin/fieldops"; fi
  rm -rf "${opt:?}/$name"
  echo "FieldOps removed from $opt/$name (databases are kept)"
  exit 0
fi

mkdir -p "$opt" "$bin"
rm -rf "${opt:?}/$name"
cp -a "$here" "$opt/$name"
ln -sfn "$opt/$name/fieldops" "$bin/fieldops"
for f in "${files[@]}"; do
  mkdir -p "$share/$(dirname "$f")"
  cp "$here/share/$f" "$share/$f"
done
# The menu entry starts this version's program whether or not $bin is on PATH.
sed -i "s|^Exec=fieldops|Exec=$opt/$name/fieldops|" "$share/applications/$app.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$share/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$share/icons/hicolor" || true
echo "FieldOps installed in $opt/$name; run 'fieldops --self-test' to check it"
