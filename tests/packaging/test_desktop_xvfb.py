"""The desktop app from source (``.venv/bin/lantern-desktop --self-test``) on a virtual X server.

The desktop tests run offscreen; this one goes through Qt's real xcb plugin, as on a student's
desktop, so a system library the plugin lacks (issue 23: libxcb-icccm4) fails ``make test``.
packaging/smoke_test.py does the same for the frozen app (and the source app beside it) after the build.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.waiting import HANG_GUARD_S

REPO = Path(__file__).resolve().parents[2]
DESKTOP = REPO / ".venv" / "bin" / "lantern-desktop"


def smoke_module():
    """packaging/smoke_test.py (its isolated HOME/XDG folders and network namespace), loaded by path."""
    spec = importlib.util.spec_from_file_location("lantern_smoke_test", REPO / "packaging" / "smoke_test.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.realmodel
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Xvfb and Qt's xcb plugin are Linux only")
@pytest.mark.skipif(shutil.which("xvfb-run") is None,
                    reason="xvfb-run is not installed (apt-get install xvfb xauth; packaging/setup-venv.sh does it "
                           "when it can): the desktop app was not started on an X server")
def test_lantern_desktop_self_test_on_xvfb(tmp_path: Path):
    assert DESKTOP.exists(), f"{DESKTOP} is missing: run packaging/setup-venv.sh"
    smoke = smoke_module()
    runner = smoke.Runner(tmp_path / "home", smoke.netns_prefix())
    runner.env["QT_QPA_PLATFORM"] = "xcb"  # xcb only: no silent fallback to another platform
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "LANTERN_SKIP_QT_CHECK"):
        runner.env.pop(var, None)
    xvfb = ["xvfb-run", "-a", "-s", "-screen 0 1400x900x24"]
    proc, secs = runner.run(xvfb + [str(DESKTOP), "--self-test", smoke.QUESTION], timeout=HANG_GUARD_S)
    assert "Lantern cannot open its window" not in proc.stderr, proc.stderr  # desktop.qt_libs' advice
    assert "qt.qpa.plugin" not in proc.stderr, proc.stderr[-2000:]
    reports = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and reports, f"exit {proc.returncode} after {secs:.0f} s\n{proc.stderr[-2000:]}"
    report = json.loads(reports[-1])
    assert report["window_ms"] > 0 and report["books"] == ["A Gentle Introduction to Energy and Motion"]
    assert report["state"] == "done" and report["sources"] > 0 and not report["refused"], report
    assert os.listdir(tmp_path / "home" / "library"), "the sample book was not imported into the isolated library"
