#!/usr/bin/env bash
# Smoke test of a built bundle: it reports its version (the one in the bundle's
# name), passes its self-test (one record of each kind made, read back and
# printed, each document with its letterhead) on a fresh database, creates and
# migrates a database, fills it with demo data, passes its own integrity check,
# and opens its window offscreen without crashing.
set -euo pipefail
exe=${1:?usage: smoke_test.sh PATH/TO/fieldops}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
said=$("$exe" --version)
echo "$said"
folder=$(basename "$(dirname "$exe")")
if [ "fieldops-${said#fieldops }" != "$folder" ]; then
  echo "smoke test: the bundle $folder says it is '$said'" >&2
  exit 1
fi
mkdir "$tmp/pdfs"
QT_QPA_PLATFORM=offscreen "$exe" --db "$tmp/self-test.db" --self-test --self-test-pdfs "$tmp/pdfs"
"$exe" --db "$tmp/smoke.db" demo --seed 1 --people 30
"$exe" --db "$tmp/smoke.db" check
"$exe" --db "$tmp/smoke.db" due --json >/dev/null
# The resource files (resources/, bundled as fieldops_resources): every printed
# document carries the letterhead's badge, which it leaves out when missing.
for pdf in "$tmp"/pdfs/*.pdf; do
  if ! grep -aq "/Subtype /Image" "$pdf"; then
    echo "smoke test: $(basename "$pdf") has no letterhead (resources missing from the bundle?)" >&2
    exit 1
  fi
done
# The window: still running after 5 s means it started and did not crash.
set +e
QT_QPA_PLATFORM=offscreen timeout 5 "$exe" --db "$tmp/smoke.db"
rc=$?
set -e
if [ "$rc" -ne 124 ]; then
  echo "smoke test: the window exited with $rc before 5 s" >&2
  exit 1
fi
echo "smoke test: ok"
