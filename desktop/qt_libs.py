"""Which shared libraries Qt's plugins cannot find on this Linux system, and which Debian packages provide them.

Qt (PySide6) loads its platform plugin when the ``QApplication`` is created: ``xcb`` on an X11 (or
GNOME/XWayland) desktop, ``offscreen`` for tests and headless runs.  When a library the plugin links
against is missing, Qt prints "Could not load the Qt platform plugin "xcb" … even though it was found"
and aborts the process.  Pip cannot install those libraries (they come from the system), and which ones
a Debian image lacks varies: one machine had ``libxcb-cursor0`` but not ``libxcb-icccm4``.

So we ask the plugins themselves: ``ldd`` on ``PySide6/Qt/plugins/platforms/libqxcb.so`` (and the other
files below) lists every library the dynamic loader cannot resolve as ``libfoo.so.N => not found``;
``PACKAGES`` maps each to its Debian package.  Nothing here imports PySide6 (the package is found with
``importlib.util.find_spec``), so this runs where Qt cannot even load.  Used by

* ``packaging/setup-venv.sh``: ``.venv/bin/python -m desktop.qt_libs --packages`` after PySide6 is
  installed, then ``apt-get install`` of exactly those (or the ``--install-line`` to run by hand);
* ``lantern-desktop`` (``desktop.app.main``): before the ``QApplication`` exists, so the user reads one
  line of advice instead of Qt's abort.  ``LANTERN_SKIP_QT_CHECK=1`` turns that check off.

    python -m desktop.qt_libs                 report; exit 1 when something is missing
    python -m desktop.qt_libs --packages      the Debian packages to install (one line, empty if none)
    python -m desktop.qt_libs --install-line  "sudo apt-get install …" (empty if nothing is missing)
    python -m desktop.qt_libs --libraries     the missing .so names
    python -m desktop.qt_libs --json          {"gui": [...], "xcb": [...], "xcb-gl": [...], "offscreen": [...]}
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

# The .so name a Qt file links against → the Debian (12) package that ships it (checked with
# `apt-cache policy` / `dpkg -S` on Debian 12; Ubuntu uses the same names).
PACKAGES: dict[str, str] = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgio-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libharfbuzz.so.0": "libharfbuzz0b",
    "libzstd.so.1": "libzstd1",
    "libz.so.1": "zlib1g",
    "libexpat.so.1": "libexpat1",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}

# What each check covers, relative to the PySide6 package folder.  "gui": QtGui/QtWidgets themselves
# (EGL, GL, xkbcommon, fontconfig: without them `import PySide6.QtGui` already fails); "xcb": the X11
# platform plugin (fatal when it cannot load); "xcb-gl": its OpenGL integrations (loaded on demand, not
# fatal, same libraries); "offscreen": the headless plugin.
TARGETS: dict[str, tuple[str, ...]] = {
    "gui": ("Qt/lib/libQt6Gui.so.6", "Qt/lib/libQt6Widgets.so.6"),
    "xcb": ("Qt/plugins/platforms/libqxcb.so",),
    "xcb-gl": ("Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
               "Qt/plugins/xcbglintegrations/libqxcb-egl-integration.so"),
    "offscreen": ("Qt/plugins/platforms/libqoffscreen.so",),
}
CHECKS = tuple(TARGETS)  # what setup checks; the app checks only the plugin it is about to load
WHAT = {"gui": "Qt", "xcb": "Qt's X11 plugin", "xcb-gl": "Qt's X11 OpenGL support",
        "offscreen": "Qt's offscreen plugin"}
SKIP_ENV = "LANTERN_SKIP_QT_CHECK"

_NOT_FOUND = re.compile(r"^\s*(\S+\.so[.\d]*)\s*=>\s*not found", re.MULTILINE)
_CANNOT_OPEN = re.compile(r"(\S+\.so[.\d]*): cannot open shared object file")
_SONAME = re.compile(r"^(lib.+?)\.so\.(\d+)")


def parse_ldd(output: str) -> list[str]:
    """The libraries ``ldd`` reports as "not found", once each, in the order it printed them."""
    return list(dict.fromkeys(_NOT_FOUND.findall(output)))


def package_for(soname: str) -> str:
    """The Debian package that ships ``soname``: from ``PACKAGES``, else Debian's naming rule
    (``libfoo.so.4`` → ``libfoo4``; ``libfoo-x11.so.0`` → ``libfoo-x11-0`` when the name ends in a digit)."""
    if soname in PACKAGES:
        return PACKAGES[soname]
    match = _SONAME.match(soname)
    if not match:
        return soname
    name, version = match.group(1).lower(), match.group(2)
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def packages_for(sonames: Iterable[str]) -> list[str]:
    """The packages for ``sonames``, each once, in order."""
    return list(dict.fromkeys(package_for(s) for s in sonames))


def pyside_dir() -> Path | None:
    """PySide6's package folder, found without importing it (None when it is not installed)."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    frozen = getattr(sys, "_MEIPASS", None)  # PyInstaller bundle
    if frozen and (Path(frozen) / "PySide6").is_dir():
        return Path(frozen) / "PySide6"
    return None


def _ldd_env() -> dict[str, str]:
    env = dict(os.environ, LC_ALL="C")
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # the bundle carries libraries beside the executable; the loader finds them there
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (frozen, env.get("LD_LIBRARY_PATH", "")) if p)
    return env


def run_ldd(files: list[Path]) -> str:
    """``ldd``'s output for ``files`` ("" when there is no ldd: then we cannot tell, and say nothing)."""
    ldd = shutil.which("ldd")
    if not ldd or not files:
        return ""
    try:
        proc = subprocess.run([ldd, *map(str, files)], check=False, capture_output=True, text=True, timeout=30,
                              env=_ldd_env())
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout


def missing(check: str = "xcb", root: Path | None = None) -> list[str]:
    """The libraries the files of ``check`` (a key of ``TARGETS``) need and the loader cannot find."""
    if not sys.platform.startswith("linux"):
        return []
    root = root or pyside_dir()
    if root is None:
        return []
    files = [root / rel for rel in TARGETS[check] if (root / rel).is_file()]
    return parse_ldd(run_ldd(files))


def missing_all(checks: Iterable[str] = CHECKS, root: Path | None = None) -> dict[str, list[str]]:
    return {check: missing(check, root) for check in checks}


def install_line(packages: Iterable[str]) -> str:
    return "sudo apt-get install " + " ".join(packages)


def advice(sonames: list[str], check: str = "xcb") -> str:
    """The one line ``lantern-desktop`` prints when Qt cannot load: what is missing and the command to fix it."""
    head = f"Lantern cannot open its window: {WHAT.get(check, 'Qt')} needs libraries this system lacks."
    line = install_line(packages_for(sonames))
    if shutil.which("apt-get"):
        return f"{head} Install them with: {line}"
    return (f"{head} Install the packages that provide {', '.join(sonames)} with your package manager "
            f"(Debian/Ubuntu: {line}).")


def qt_platform(environ: Mapping[str, str] | None = None) -> str | None:
    """The platform plugin Qt will load first: QT_QPA_PLATFORM's first entry, else (on Linux) ``xcb``
    when there is an X display (GNOME on Wayland too: Qt uses XWayland there), ``wayland`` on other
    Wayland sessions; None when there is no display (Qt fails for another reason then)."""
    env = os.environ if environ is None else environ
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0].strip() or None
    if not sys.platform.startswith("linux"):
        return None
    desktop = f"{env.get('XDG_CURRENT_DESKTOP', '')} {env.get('XDG_SESSION_DESKTOP', '')}".lower()
    if "wayland" in env.get("XDG_SESSION_TYPE", "").lower() and env.get("WAYLAND_DISPLAY") and "gnome" not in desktop:
        return "wayland"
    return "xcb" if env.get("DISPLAY") else None


def startup_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """The advice to print instead of starting Qt, or None when the platform plugin Qt will use can load.
    Cheap (one ``ldd``); runs before the ``QApplication`` exists, as Qt aborts the process otherwise."""
    env = os.environ if environ is None else environ
    if env.get(SKIP_ENV) == "1":
        return None
    platform = qt_platform(env)
    if platform not in ("xcb", "offscreen"):
        return None
    lacking = missing(platform)
    return advice(lacking, platform) if lacking else None


def import_error_advice(exc: BaseException) -> str | None:
    """For an ``ImportError`` of PySide6 (QtGui links libEGL, libGL, libxkbcommon …): the same one line, or None."""
    found = _CANNOT_OPEN.findall(str(exc))
    if not found:
        return None
    lacking = missing("gui") or found
    return advice(lacking, "gui")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m desktop.qt_libs", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="append", choices=sorted(TARGETS),
                    help=f"what to check (repeatable; default: all of {', '.join(CHECKS)})")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--packages", action="store_true", help="print the Debian packages to install, one line")
    out.add_argument("--install-line", action="store_true", help="print the apt-get command, one line")
    out.add_argument("--libraries", action="store_true", help="print the missing libraries, one line")
    out.add_argument("--json", action="store_true", help="print {check: [missing libraries]}")
    args = ap.parse_args(argv)
    found = missing_all(args.check or CHECKS)
    lacking = list(dict.fromkeys(lib for libs in found.values() for lib in libs))
    packages = packages_for(lacking)
    if args.packages:
        print(" ".join(packages))
    elif args.install_line:
        print(install_line(packages) if packages else "")
    elif args.libraries:
        print(" ".join(lacking))
    elif args.json:
        print(json.dumps(found))
    else:
        if pyside_dir() is None:
            print("PySide6 is not installed: nothing to check")
        for check, libs in found.items():
            print(f"{WHAT[check]} ({check}): " + (f"missing {', '.join(libs)}" if libs else "all libraries found"))
        if packages:
            print(f"Install them with: {install_line(packages)}")
        return 1 if lacking else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
