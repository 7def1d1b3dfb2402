"""Help → Check library, and the quiet check after start-up: problems are shown and repaired.

The check runs first on the import thread, so it waits behind no warm-up; these tests replace the warm-up
(NLTK, the embedding model) by a fake, so they wait only for the check itself (and the one import the
damaged-library test needs).
"""
from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop import workers
from tests.desktop.conftest import wait_imports
from tests.waiting import HANG_GUARD_MS, HANG_GUARD_S, wait_signal


def buttons(box: QMessageBox) -> dict[str, object]:
    return {b.text().replace("&", ""): b for b in box.buttons()}


@pytest.fixture(autouse=True)
def no_real_warm_up(monkeypatch):
    """The window's warm-up is unrelated to the check: a fake that only records that it ran."""
    ran = []
    monkeypatch.setattr(workers, "warm_up", lambda library: ran.append(library))
    return ran


def wait_for_the_startup_check(qtbot, window):
    """The window queues a quiet check at start. It may already have finished while the window was shown
    (a busy machine is slower to get here than the check): then its outcome is kept, not waited for."""
    outcome = window.library_check.last
    if outcome is None:
        with wait_signal(qtbot, window.library_check.finished, "the start-up library check") as sig:
            pass
        outcome = sig.args[0]
    assert not isinstance(outcome, BaseException), outcome
    assert outcome.ok and window.library_check.box is None, "a fresh library passes quietly"


def test_a_healthy_library_says_so_when_asked(qtbot, window):
    wait_for_the_startup_check(qtbot, window)
    with wait_signal(qtbot, window.library_check.finished, "Help → Check library") as sig:
        window.library_check.start()
    assert sig.args[0].ok
    box = window.library_check.box
    assert box is not None and box.isVisible() and "healthy" in box.text()


def test_a_damaged_library_is_reported_and_repaired(qtbot, window, library, tiny_pdf):
    wait_for_the_startup_check(qtbot, window)
    window.import_files([tiny_pdf])
    wait_imports(qtbot, window)
    stray = library.root / "books" / "ffffffffffffffff.pdf"
    stray.write_bytes(b"left behind")
    window.library_check.box = None
    with wait_signal(qtbot, window.library_check.finished, "the check of the damaged library") as sig:
        window.library_check.start(quiet=True)
    assert [p.code for p in sig.args[0].problems] == ["orphan_file"]
    box = window.library_check.box
    assert box.isVisible() and "problems" in box.text() and "ffffffffffffffff.pdf" in box.informativeText()
    with wait_signal(qtbot, window.library_check.finished, "the repair") as sig:
        buttons(box)["Repair"].click()
    assert sig.args[0].ok and sig.args[0].repaired and not stray.exists()
    assert "repaired" in window.library_check.box.text()


def test_the_startup_check_stays_quiet_when_all_is_well(qtbot, window, no_real_warm_up):
    wait_for_the_startup_check(qtbot, window)
    assert window.imports.wait(HANG_GUARD_MS)
    assert no_real_warm_up == [window.library]  # the window still warms up (after the check)


def test_the_startup_check_does_not_wait_for_the_warm_up(qtbot, library, fake_asker, monkeypatch):
    """A warm-up that takes as long as it likes (here: until the test lets it go) does not hold the check."""
    release, order = threading.Event(), []

    def slow_warm_up(_library):
        order.append("warm-up started")
        release.wait(HANG_GUARD_S)
        order.append("warm-up done")
    monkeypatch.setattr(workers, "warm_up", slow_warm_up)
    from desktop.main_window import MainWindow
    window = MainWindow(library, asker=fake_asker)
    qtbot.addWidget(window)
    try:
        wait_for_the_startup_check(qtbot, window)
        assert "warm-up done" not in order, "the check finished while the warm-up was still held"
        assert window.imports.busy()  # the warm-up is still queued or running behind it
    finally:
        release.set()
        window.shutdown()
    assert order == ["warm-up started", "warm-up done"]
