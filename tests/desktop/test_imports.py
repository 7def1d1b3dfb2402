"""The import queue: progress stages, per-file cancel, readable errors, and a responsive event loop."""
from __future__ import annotations

import gc
import logging
import os
import threading
import time
from pathlib import Path

from PySide6.QtCore import QTimer

from core.models import ImportStatus
from desktop.transcript import turn_html
from tests.desktop.conftest import ImportGate, drop_files, make_pdf, wait_imports
from tests.waiting import HANG_GUARD_S, wait_for, wait_signal

log = logging.getLogger(__name__)


def test_progress_stages_are_shown_then_the_outcome(qtbot, window, tiny_pdf: Path):
    stages = []
    window.imports.progressed.connect(lambda job, stage, done, total: stages.append(stage))
    window.import_files([tiny_pdf])
    row = next(iter(window.import_panel.rows.values()))
    assert window.import_panel.isVisible() and row.cancel_btn.isVisible()
    wait_imports(qtbot, window)
    assert stages[0] == "reading pages" and "chunking" in stages and "embedding" in stages
    assert row.stage.text().startswith("✓ Imported") and row.bar.isHidden()


def test_cancelling_an_import_leaves_no_book(qtbot, window, library, tmp_path: Path, monkeypatch):
    big = make_pdf(tmp_path / "big.pdf", pages_per_chapter=60, repeat=6)
    gate = ImportGate(library, monkeypatch, stage="*")  # the import waits at its first report for the click
    results = []
    window.imports.finished.connect(lambda job, result: results.append(result))
    (job,) = window.import_files([big])
    row = window.import_panel.rows[job]

    def cancel(*_):
        if row.cancel_btn.isEnabled():
            row.cancel_btn.click()
        gate.open()
    window.imports.progressed.connect(cancel)
    wait_imports(qtbot, window)
    assert results[0].status is ImportStatus.ERROR and results[0].error_code == "cancelled"
    assert library.books() == [] and library.chunk_count() == 0
    assert not any((library.root / "books").iterdir()), "no stored copy is left behind"
    assert "Cancelled" in row.stage.text() and window.import_panel.errors() == []


def _count_column(window, book_id: str) -> str:
    item = window.sidebar.model.book_item(book_id)
    return window.sidebar.model.item(item.row(), 1).text()


def test_a_dropped_book_is_askable_before_its_meaning_index_is_built(qtbot, window, library, tiny_pdf: Path,
                                                                     monkeypatch):
    gate = ImportGate(library, monkeypatch, searchable=True)  # indexing goes on once the window has shown it
    events = []

    def shown(job, book):
        events.append(("searchable", book.pending, _count_column(window, book.id),
                       window.import_panel.rows[job].searchable))
        gate.open()
    window.imports.searchable.connect(shown)
    window.imports.finished.connect(lambda job, result: events.append(("finished", result.status)))
    window.import_files([tiny_pdf])
    wait_imports(qtbot, window)
    (book,) = library.books()
    assert events[0] == ("searchable", True, events[0][2], True) and "keyword search only" in events[0][2]
    assert events[1] == ("finished", ImportStatus.IMPORTED)
    assert "keyword search only" not in _count_column(window, book.id) and not book.pending


def test_stopping_while_indexing_keeps_the_book_searchable_and_the_next_start_finishes_it(
        qtbot, window, library, tmp_path: Path, monkeypatch):
    big = make_pdf(tmp_path / "big.pdf", pages_per_chapter=30, repeat=4)
    gate = ImportGate(library, monkeypatch, stage="embedding")  # embedding waits for the click
    results = []
    window.imports.finished.connect(lambda job, result: results.append(result))
    (job,) = window.import_files([big])
    row = window.import_panel.rows[job]

    def stop(_job, stage, *_):
        if stage == "embedding":
            if row.cancel_btn.isEnabled():
                row.cancel_btn.click()
            gate.open()
    window.imports.progressed.connect(stop)
    wait_imports(qtbot, window)
    assert results[0].status is ImportStatus.SEARCHABLE and "keyword" in row.stage.text()
    (book,) = library.pending_books()
    assert "keyword search only" in _count_column(window, book.id)
    window.chat.ask("What is in the first chapter?")  # askable now, and the answer says how it was found
    wait_for(qtbot, lambda: not window.chat.is_streaming(), "the answer to finish")
    turn = window.chat.current.turns[-1]
    assert turn.still_indexing == [book.title] and turn.answer
    assert "Found by keyword search only" in turn_html(turn, 0, window.palette())
    (again,) = window.imports.resume_pending()  # what the app does when it starts
    assert window.import_panel.rows[again].name.text() == "big.pdf"
    wait_imports(qtbot, window)
    assert results[1].status is ImportStatus.IMPORTED and library.pending_books() == []
    assert "keyword search only" not in _count_column(window, book.id) and library.doctor().ok


def test_removing_a_book_while_it_is_indexed_stops_the_indexing_first(qtbot, window, library, tmp_path: Path,
                                                                       monkeypatch):
    from PySide6.QtWidgets import QMessageBox
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    big = make_pdf(tmp_path / "big.pdf", pages_per_chapter=30, repeat=4)
    results = []
    window.imports.finished.connect(lambda job, result: results.append(result.status))
    gate = ImportGate(library, monkeypatch, searchable=True)  # indexing waits until the removal was asked

    def remove(_job, book):
        window.remove_book(book.id)  # as soon as it shows
        gate.open()
    window.imports.searchable.connect(remove)
    window.import_files([big])
    wait_imports(qtbot, window)
    wait_for(qtbot, lambda: window.sidebar.model.rowCount() == 0,
             "the removal to reach the sidebar")  # the removal ran
    assert results == [ImportStatus.SEARCHABLE]  # stopped between chapters, not embedded to the end
    assert library.books() == [] and library.doctor().ok


def test_cancelling_a_queued_file_skips_it_and_the_queue_goes_on(qtbot, window, library, tmp_path: Path,
                                                                   tiny_pdf: Path):
    other = make_pdf(tmp_path / "other.pdf", pages_per_chapter=3)
    first, second = window.import_files([tiny_pdf, other])
    window.imports.cancel(second)
    wait_imports(qtbot, window)
    assert [b.file_name for b in library.books()] == [tiny_pdf.name]
    assert "Cancelled" in window.import_panel.rows[second].stage.text()


def test_a_bad_file_shows_one_readable_error_and_the_next_file_imports(qtbot, window, library, tmp_path: Path,
                                                                        tiny_pdf: Path):
    garbage = tmp_path / "broken.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    notes = tmp_path / "notes.xyz"
    notes.write_text("not a book format", encoding="utf-8")
    assert drop_files(window, [garbage, notes, tiny_pdf])
    wait_imports(qtbot, window)
    errors = window.import_panel.errors()
    assert len(errors) == 2, errors
    assert all("Traceback" not in e and len(e) < 300 for e in errors)
    assert "broken.pdf" in errors[0]
    assert [b.file_name for b in library.books()] == [tiny_pdf.name]
    assert window.sidebar.model.rowCount() == 1


def test_a_duplicate_is_reported_not_stored_twice(qtbot, window, library, tiny_pdf: Path):
    window.import_files([tiny_pdf, tiny_pdf])
    wait_imports(qtbot, window)
    texts = [r.stage.text() for r in window.import_panel.rows.values()]
    assert texts[0].startswith("✓") and texts[1].startswith("Already in your library")
    assert len(library.books()) == 1


def test_a_300_page_import_leaves_the_gui_thread_free(qtbot, window, library, tmp_path: Path, monkeypatch):
    """The window stays responsive while a 301-page PDF is read, chunked, embedded and stored.

    What keeps it so, checked directly: the import runs on the import thread, never the GUI thread; the
    GUI thread keeps handling events mid-import (the import thread waits, half-way, until a timer of the
    GUI thread answers it); and no full (generation-2) GC pass runs during the import
    (``desktop.heap.HeapPolicy``): such a pass holds the GIL for every thread and stalled the window for
    120-250 ms on this book.  The worst gap between the GUI timer's 10 ms ticks is logged, not asserted:
    on a busy computer it measures the other programs as much as Lantern.
    """
    from desktop.heap import SUSPENDED_THRESHOLD
    wait_for(qtbot, lambda: not window.imports.busy(), "the warm-up and the start-up check")
    gui = threading.get_ident()
    importing = threading.Event()
    seen: dict[str, list] = {"import threads": [], "thresholds": [], "full passes": [], "answered": []}
    asked, answered = threading.Event(), threading.Event()

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2 and importing.is_set():
            seen["full passes"].append(threading.get_ident())
    real_import = library.import_book

    def spy(path, progress, cancel, on_searchable=None):
        def watched(stage: str, done: int, total: int) -> None:
            seen["thresholds"].append(gc.get_threshold()[2])
            if stage == "embedding" and not asked.is_set():  # half-way: is the GUI thread still serving events?
                asked.set()
                seen["answered"].append(answered.wait(HANG_GUARD_S))
            progress(stage, done, total)
        seen["import threads"].append(threading.get_ident())
        importing.set()
        try:
            return real_import(path, watched, cancel, on_searchable=on_searchable)
        finally:
            importing.clear()
    monkeypatch.setattr(library, "import_book", spy)
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(time.perf_counter())
        if asked.is_set():
            answered.set()
    timer = QTimer(interval=10)
    timer.timeout.connect(tick)
    gc.callbacks.append(on_gc)
    timer.start()
    try:
        big = make_pdf(tmp_path / "big.pdf", pages_per_chapter=150, repeat=8)
        with wait_signal(qtbot, window.imports.idle, "the 301-page import"):
            window.import_files([big])
    finally:
        timer.stop()
        gc.callbacks.remove(on_gc)
    assert library.books()[-1].page_count == 301
    assert seen["import threads"] and gui not in seen["import threads"], "the import ran on the GUI thread"
    assert seen["answered"] == [True], "the GUI thread answered while the import was half-way"
    assert seen["thresholds"] and set(seen["thresholds"]) == {SUSPENDED_THRESHOLD}, "full GC passes were allowed"
    assert seen["full passes"] == [], "a full GC pass ran during the import"
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    log.info("301-page import: %d GUI ticks, worst gap %.0f ms (load average %.1f; informative only)",
             len(ticks), max(gaps, default=0.0) * 1000, os.getloadavg()[0])
