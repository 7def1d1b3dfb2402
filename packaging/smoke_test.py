"""Smoke-test a frozen Lantern build headless, with the network blocked, and report size and timings.

    python packaging/smoke_test.py dist/lantern [--tarball FILE] [--skip-source]

With the frozen ``lantern``: import the sample book and a generated PDF, answer one question with
citations, run ``doctor``; with the frozen ``lantern-desktop --self-test`` (on Xvfb through Qt's xcb plugin when ``xvfb-run`` exists, else
offscreen): start-up to a
usable window and to a first answer, beside the same from source (``.venv``).  Every run uses a fresh
HOME, XDG folders and library in a temp folder, inside a network namespace with no interfaces when
``unshare -rn`` is allowed (the frozen app also blocks sockets itself).  Fails if the bundle folder
changed (no writes next to the executable), or when the installer (the tarball; the folder when no
tarball is given) is 2.2 GB or more.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIMIT_BYTES = 2_200_000_000  # the installer a student downloads
HANG_GUARD_S = 30 * 60
"""Each run may take this long: a guard against a hang, not a speed budget (tests/waiting.py has the same)."""
QUESTION = "What is kinetic energy?"


def program(folder: Path, name: str) -> str:
    """``folder/name`` with the platform's executable suffix."""
    return str(folder / (name + (".exe" if os.name == "nt" else "")))


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in root.rglob("*") if p.is_file()}


def size_of(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def netns_prefix() -> list[str]:
    """``unshare -rn`` when this machine lets us create a network namespace, else nothing."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-rn"]
    return []


class Runner:
    def __init__(self, home: Path, prefix: list[str]):
        self.home, self.prefix = home, prefix
        # LANTERN_MEASURE_MODELS=0: answer with the default model at once (measuring is tested elsewhere).
        self.env = dict(os.environ, LANTERN_MEASURE_MODELS="0", HOME=str(home), XDG_DATA_HOME=str(home / "data"),
                        XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"),
                        LOCALAPPDATA=str(home / "data"), APPDATA=str(home / "config"),  # Windows
                        QT_QPA_PLATFORM="offscreen", LANTERN_LIBRARY=str(home / "library"),
                        LANTERN_SELF_TEST_TIMEOUT_S=str(HANG_GUARD_S))  # --self-test gives up no sooner
        for var in ("LANTERN_CHAT_MODEL", "LANTERN_MODEL_CACHE", "LANTERN_RESOURCES", "VIRTUAL_ENV"):
            self.env.pop(var, None)

    def run(self, argv: list[str], timeout: int = HANG_GUARD_S) -> tuple[subprocess.CompletedProcess, float]:
        t0 = time.perf_counter()
        proc = subprocess.run(self.prefix + argv, env=self.env, capture_output=True, text=True, timeout=timeout)
        return proc, time.perf_counter() - t0


def make_pdf(path: Path) -> Path:
    """A two-chapter PDF with bookmarks, made with the build environment's PyMuPDF."""
    import pymupdf
    doc = pymupdf.open()
    toc = []
    for n, (title, text) in enumerate([("Cells", "A cell is the smallest unit of life. Cells divide by mitosis."),
                                       ("Energy", "Mitochondria release energy from glucose in respiration.")], 1):
        page = doc.new_page()
        page.insert_text((72, 80), f"Chapter {n} {title}", fontsize=18)
        page.insert_text((72, 130), "\n".join([text] * 12), fontsize=11, lineheight=1.5)
        toc.append([1, f"Chapter {n} {title}", n])
    doc.set_toc(toc)
    doc.save(str(path))
    return path


def check(ok: bool, what: str, detail: object = "") -> None:
    print(f"  {'ok ' if ok else 'FAIL'} {what}{'' if ok else f': {detail}'}", flush=True)
    if not ok:
        raise SystemExit(1)


def frozen_cli(app: Path, runner: Runner, tmp: Path) -> None:
    sample = app / "_internal" / "resources" / "sample" / "energy-and-motion.pdf"
    cells = make_pdf(tmp / "cells.pdf")
    from core.ingest.pdf.ocr import picture_copy  # the build environment's Lantern: pictures only, 150 dpi
    scan = picture_copy(cells, tmp / "cells-scanned.pdf")
    proc, secs = runner.run([program(app, "lantern"), "import", str(sample), str(cells), str(scan), "--json"])
    check(proc.returncode == 0, f"lantern import (sample, generated PDF, its scan) in {secs:.1f} s", proc.stderr[-800:])
    results = json.loads(proc.stdout)
    check([r["status"] for r in results] == ["imported"] * 3, "all three imported (the scan by OCR)", results)
    sample_id = results[0]["book_id"]
    proc, secs = runner.run([program(app, "lantern"), "ask", QUESTION, "--book", sample_id, "--json"])
    check(proc.returncode == 0, f"lantern ask in {secs:.1f} s", proc.stderr[-800:])
    answer = json.loads(proc.stdout)
    check(bool(answer.get("citations")) and not answer.get("refused"), "the answer cites the book", answer)
    check(not answer.get("extractive") and bool(answer.get("model")), f"written by the chat model ({answer.get('model')})",
          answer.get("notice"))
    print(f"     answer: {answer.get('answer', '')[:160]!r}")
    proc, _ = runner.run([program(app, "lantern"), "doctor", "--json"])
    check(proc.returncode == 0 and json.loads(proc.stdout)["ok"], "lantern doctor: library healthy", proc.stdout[-400:])


def display_prefix() -> tuple[list[str], str]:
    """Run the desktop on a virtual X server (Qt's xcb plugin, as on a student's desktop) when
    ``xvfb-run`` is there; else Qt's offscreen platform."""
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a", "-s", "-screen 0 1400x900x24"], "xcb"
    return [], "offscreen"


def self_test(argv: list[str], runner: Runner, label: str) -> dict:
    prefix, platform = display_prefix()
    runner.env["QT_QPA_PLATFORM"] = platform
    proc, secs = runner.run(prefix + argv + ["--self-test", QUESTION])
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    check(proc.returncode == 0 and bool(lines), f"{label}: lantern-desktop --self-test ({platform})", proc.stderr[-1500:])
    report = json.loads(lines[-1])
    report["wall_s"] = round(secs, 1)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("app", type=Path, help="the one-folder build (dist/lantern)")
    ap.add_argument("--tarball", type=Path)
    ap.add_argument("--skip-source", action="store_true", help="do not time the source install beside it")
    args = ap.parse_args(argv)
    app = args.app.resolve()
    prefix = netns_prefix()
    print(f"smoke test of {app}  (network: {'namespace without interfaces' if prefix else 'blocked in-process'})")
    before = tree_state(app)
    size = size_of(app)
    installer = args.tarball.stat().st_size if args.tarball else size
    print(f"  bundle folder {size / 1e6:,.0f} MB")
    check(installer < LIMIT_BYTES, f"installer {(args.tarball or app).name} {installer / 1e6:,.0f} MB "
                                   f"(< {LIMIT_BYTES / 1e6:,.0f} MB)", installer)
    rows = {}
    with tempfile.TemporaryDirectory(prefix="lantern-smoke-") as tmp:
        frozen_cli(app, Runner(Path(tmp) / "cli-home", prefix), Path(tmp))
        rows["frozen"] = self_test([program(app, "lantern-desktop")], Runner(Path(tmp) / "gui-home", prefix), "frozen")
        if not args.skip_source:
            source = [program(REPO / ".venv" / ("Scripts" if os.name == "nt" else "bin"), "lantern-desktop")]
            rows["source"] = self_test(source, Runner(Path(tmp) / "src-home", prefix), "source")
    check(tree_state(app) == before, "nothing was written inside the bundle folder")
    print("\n  start-up (ms since process start)   window   sample imported   sources   first token   answer")
    for label, r in rows.items():
        print(f"  {label:<36} {r.get('window_ms', 0):>6.0f} {r.get('ready_ms', 0):>17.0f} {r.get('sources_ms', 0):>9.0f}"
              f" {r.get('first_token_ms', 0):>13.0f} {r.get('answer_ms', 0):>8.0f}")
    for label, r in rows.items():
        print(f"  {label}: {r.get('model')}; answer {r.get('answer', '')[:120]!r}; cited pages {r.get('cited_pages')}")
    print(json.dumps({"size_bytes": size, "installer_bytes": installer, "runs": rows}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
