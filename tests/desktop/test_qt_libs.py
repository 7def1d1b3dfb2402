"""desktop.qt_libs: which libraries Qt's plugins lack → which Debian packages (setup and lantern-desktop share it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop import qt_libs
from tests.waiting import HANG_GUARD_S

REPO = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="Qt's plugins are checked with ldd on Linux")

# What ldd printed for libqxcb.so on the Debian 12 machine of issue 23 (libxcb-cursor0 there, libxcb-icccm4
# and libxcb-keysyms1 not), trimmed; the two lines repeat because libQt6XcbQpa.so.6 needs them too.
LDD_XCB = """\
\tlinux-vdso.so.1 (0x00007ffd6b5e2000)
\tlibQt6XcbQpa.so.6 => /v/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f7aabb00000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007f7aab9e7000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f7aab98d000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f7aab985000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f7aabb47000)
"""

# ldd with several files prints a "file:" header before each block.
LDD_TWO_FILES = """\
/x/PySide6/Qt/plugins/platforms/libqxcb.so:
\tlinux-vdso.so.1 (0x00007ffd6b5e2000)
\tlibxkbcommon-x11.so.0 => not found
\tlibEGL.so.1 => not found
/x/PySide6/Qt/plugins/platforms/libqoffscreen.so:
\tlibEGL.so.1 => not found
\tlibglib-2.0.so.0 => not found
\tlibgthread-2.0.so.0 => not found
"""


def test_parse_ldd_keeps_each_missing_library_once_in_order():
    assert qt_libs.parse_ldd(LDD_XCB) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert qt_libs.parse_ldd(LDD_TWO_FILES) == ["libxkbcommon-x11.so.0", "libEGL.so.1", "libglib-2.0.so.0",
                                                "libgthread-2.0.so.0"]
    assert qt_libs.parse_ldd("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\n") == []
    assert qt_libs.parse_ldd("") == []


@pytest.mark.parametrize(("soname", "package"), [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-image.so.0", "libxcb-image0"), ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"), ("libxcb-xkb.so.1", "libxcb-xkb1"),
    ("libxcb-shape.so.0", "libxcb-shape0"), ("libxcb-randr.so.0", "libxcb-randr0"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxcb-xinerama.so.0", "libxcb-xinerama0"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0"), ("libxcb-sync.so.1", "libxcb-sync1"),
    ("libxcb-render.so.0", "libxcb-render0"), ("libxcb-shm.so.0", "libxcb-shm0"), ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libEGL.so.1", "libegl1"), ("libGL.so.1", "libgl1"), ("libfontconfig.so.1", "libfontconfig1"),
    ("libdbus-1.so.3", "libdbus-1-3"), ("libxkbcommon.so.0", "libxkbcommon0"), ("libglib-2.0.so.0", "libglib2.0-0"),
    ("libGLdispatch.so.0", "libglvnd0"), ("libxcb-util.so.1", "libxcb-util1"),
])
def test_debian_package_of_each_library(soname, package):
    assert qt_libs.package_for(soname) == package


def test_libraries_outside_the_table_follow_debians_naming_rule():
    assert qt_libs.package_for("libxcb-foo.so.2") == "libxcb-foo2"
    assert qt_libs.package_for("libFoo-x11.so.0") == "libfoo-x11-0"  # name ends in a digit: a hyphen
    glib_and_egl = ["libglib-2.0.so.0", "libgthread-2.0.so.0", "libEGL.so.1"]
    assert qt_libs.packages_for(glib_and_egl) == ["libglib2.0-0", "libegl1"]


def test_advice_is_one_line_with_the_apt_get_command(monkeypatch):
    monkeypatch.setattr(qt_libs.shutil, "which", lambda name: f"/usr/bin/{name}")
    line = qt_libs.advice(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert line == ("Lantern cannot open its window: Qt's X11 plugin needs libraries this system lacks. "
                    "Install them with: sudo apt-get install libxcb-icccm4 libxcb-keysyms1")
    assert "\n" not in line
    monkeypatch.setattr(qt_libs.shutil, "which", lambda name: None)  # not Debian: name the files too
    other = qt_libs.advice(["libxcb-icccm.so.4"])
    assert "libxcb-icccm.so.4" in other and "sudo apt-get install libxcb-icccm4" in other


WAYLAND_SESSION = {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}


@pytest.mark.parametrize(("env", "platform"), [
    ({"DISPLAY": ":0"}, "xcb"),
    ({}, None),
    ({"QT_QPA_PLATFORM": "xcb"}, "xcb"),
    ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, "offscreen"),
    ({"QT_QPA_PLATFORM": "xcb:dpi=96;offscreen"}, "xcb"),
    ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, "wayland"),
    # GNOME on Wayland: Qt ignores XDG_SESSION_TYPE and uses xcb (XWayland); other Wayland desktops: wayland.
    ({**WAYLAND_SESSION, "XDG_CURRENT_DESKTOP": "GNOME"}, "xcb"),
    ({**WAYLAND_SESSION, "XDG_CURRENT_DESKTOP": "KDE"}, "wayland"),
])
@linux_only
def test_the_platform_qt_will_load(env, platform):
    assert qt_libs.qt_platform(env) == platform


@linux_only
def test_startup_problem_checks_the_plugin_qt_will_load(monkeypatch):
    asked = []
    monkeypatch.setattr(qt_libs, "missing", lambda check="xcb", root=None: asked.append(check) or ["libxcb-icccm.so.4"])
    monkeypatch.setattr(qt_libs.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert qt_libs.startup_problem({"DISPLAY": ":0"}).endswith("Install them with: sudo apt-get install libxcb-icccm4")
    assert qt_libs.startup_problem({"QT_QPA_PLATFORM": "offscreen"}).startswith(
        "Lantern cannot open its window: Qt's offscreen plugin needs")
    assert asked == ["xcb", "offscreen"]
    assert qt_libs.startup_problem({}) is None  # no display: not ours to judge
    assert qt_libs.startup_problem({"QT_QPA_PLATFORM": "wayland"}) is None
    assert qt_libs.startup_problem({"DISPLAY": ":0", qt_libs.SKIP_ENV: "1"}) is None
    monkeypatch.setattr(qt_libs, "missing", lambda check="xcb", root=None: [])
    assert qt_libs.startup_problem({"DISPLAY": ":0"}) is None


def test_an_import_error_of_qtgui_becomes_the_same_advice(monkeypatch):
    monkeypatch.setattr(qt_libs, "missing", lambda check="gui", root=None: [])
    monkeypatch.setattr(qt_libs.shutil, "which", lambda name: f"/usr/bin/{name}")
    exc = ImportError("libEGL.so.1: cannot open shared object file: No such file or directory")
    assert qt_libs.import_error_advice(exc) == ("Lantern cannot open its window: Qt needs libraries this system "
                                                "lacks. Install them with: sudo apt-get install libegl1")
    assert qt_libs.import_error_advice(ImportError("No module named 'PySide6'")) is None


def test_the_check_needs_no_pyside6():
    code = "import sys, desktop.qt_libs as q; q.missing_all(); assert 'PySide6' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def fake_ldd(folder: Path, *missing: str) -> dict[str, str]:
    """An ``ldd`` on PATH that reports ``missing`` as not found for every file (Qt's view of a bare system)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = "".join(f"\\t{lib} => not found\\n" for lib in missing)
    script = folder / "ldd"
    script.write_text(f"#!/bin/sh\nprintf '\\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\\n{lines}'\n")
    script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", qt_libs.SKIP_ENV)}
    return dict(env, PATH=f"{folder}{os.pathsep}{env.get('PATH', '')}")


@linux_only
def test_lantern_desktop_prints_the_advice_instead_of_qts_abort(tmp_path: Path):
    """The real entry point, with an ldd that says libxcb-icccm.so.4 is missing: one line, exit 3, no Qt."""
    env = fake_ldd(tmp_path / "bin", "libxcb-icccm.so.4")
    env.update(DISPLAY=":93", HOME=str(tmp_path / "home"), LANTERN_LIBRARY=str(tmp_path / "lib"))
    proc = subprocess.run([sys.executable, "-m", "desktop.app"], check=False, env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("Lantern cannot open its window: Qt's X11 plugin needs libraries this system lacks. "
                                "Install them with: sudo apt-get install libxcb-icccm4"), proc.stderr
    assert "qt.qpa" not in proc.stderr and not (tmp_path / "lib").exists()  # Qt never started, nothing written


@linux_only
def test_command_line_for_setup(tmp_path: Path):
    env = fake_ldd(tmp_path / "bin", "libxcb-icccm.so.4", "libxcb-keysyms.so.1")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "desktop.qt_libs", *args], check=False, env=env, cwd=REPO,
                              capture_output=True, text=True, timeout=HANG_GUARD_S)

    assert run("--packages").stdout == "libxcb-icccm4 libxcb-keysyms1\n"
    assert run("--install-line").stdout == "sudo apt-get install libxcb-icccm4 libxcb-keysyms1\n"
    assert run("--libraries").stdout == "libxcb-icccm.so.4 libxcb-keysyms.so.1\n"
    report = run()
    assert report.returncode == 1 and "Qt's X11 plugin (xcb): missing libxcb-icccm.so.4" in report.stdout


# -- the real system ----------------------------------------------------------------------------------------
@linux_only
def test_every_library_qts_plugins_need_is_installed():
    """After `packaging/setup-venv.sh`, ldd finds every library of QtGui, the xcb plugin (the desktop
    window), its GL integrations and the offscreen plugin.  Fails with the apt-get line otherwise."""
    assert qt_libs.pyside_dir() is not None, "PySide6 is not installed in this environment"
    found = qt_libs.missing_all()
    lacking = list(dict.fromkeys(lib for libs in found.values() for lib in libs))
    fix = qt_libs.install_line(qt_libs.packages_for(lacking))
    assert not lacking, f"Qt cannot load on this system: {found}. Fix: {fix} (packaging/setup-venv.sh does this)"
