#!/usr/bin/env bash
# Fetch real-world test PDFs from Debian packages (not committed): R-intro.pdf (r-doc-pdf) and
# octave.pdf (octave-doc).  They have printed page labels that differ from physical pages.
set -euo pipefail
dest="${1:-.cache/debian-pdfs}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
if [ -f "$dest/usr/share/doc/r-doc-pdf/manual/R-intro.pdf" ] && [ -f "$dest/usr/share/doc/octave/octave.pdf" ]; then
    exit 0
fi
command -v apt-get >/dev/null || { echo "[debian-pdfs] apt-get not available; real-data tests will fail" >&2; exit 0; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! apt-get download r-doc-pdf octave-doc >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then apt-get update -qq >/dev/null 2>&1 || true; fi
    apt-get download r-doc-pdf octave-doc >/dev/null 2>&1 || { echo "[debian-pdfs] download failed" >&2; exit 0; }
fi
for deb in ./*.deb; do dpkg -x "$deb" "$dest"; done
echo "[debian-pdfs] extracted into $dest" >&2
