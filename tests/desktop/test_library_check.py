"""Help → Check library, and the quiet check after start-up: problems are shown and repaired."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.desktop.conftest import wait_imports


def buttons(box: QMessageBox) -> dict[str, object]:
    return {b.text().replace("&", ""): b for b in box.buttons()}


def wait_for_the_startup_check(qtbot, window):
    """The window queues a quiet check behind its warm-up; nothing is delivered before the loop runs.

    The warm-up imports NLTK and the model stack; on a loaded 2-core machine that once took over 30 s."""
    with qtbot.waitSignal(window.library_check.finished, timeout=90_000) as sig:
        pass
    assert not isinstance(sig.args[0], BaseException), sig.args[0]
    assert sig.args[0].ok and window.library_check.box is None, "a fresh library passes quietly"


def test_a_healthy_library_says_so_when_asked(qtbot, window):
    wait_for_the_startup_check(qtbot, window)
    with qtbot.waitSignal(window.library_check.finished, timeout=20_000) as sig:
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
    with qtbot.waitSignal(window.library_check.finished, timeout=20_000) as sig:
        window.library_check.start(quiet=True)
    assert [p.code for p in sig.args[0].problems] == ["orphan_file"]
    box = window.library_check.box
    assert box.isVisible() and "problems" in box.text() and "ffffffffffffffff.pdf" in box.informativeText()
    with qtbot.waitSignal(window.library_check.finished, timeout=20_000) as sig:
        buttons(box)["Repair"].click()
    assert sig.args[0].ok and sig.args[0].repaired and not stray.exists()
    assert "repaired" in window.library_check.box.text()


def test_the_startup_check_stays_quiet_when_all_is_well(qtbot, window):
    wait_for_the_startup_check(qtbot, window)
