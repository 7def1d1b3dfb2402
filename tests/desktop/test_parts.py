"""Pieces of the desktop on their own: search-only answers, reader, settings, errors, entry point."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from core.errors import BookNotFoundError, ModelUnavailableError
from core.ingest.pdf.ocr import PageCache, picture_copy
from core.ingest.pdf.ocr_text import OcrLine
from core.models import AnswerEventKind, Book, SourceFormat
from core.paths import file_sha256
from desktop.errors import error_text, show_error
from desktop.reader import ReaderWidget
from desktop.search_asker import SearchOnlyAsker, best_sentence, distinct_quotes
from desktop.settings import AppSettings, SettingsDialog, check_model_file
from tests.core.test_library import BOOK_MD
from tests.desktop.conftest import make_pdf
from tests.waiting import wait_for


def never() -> bool:
    return False


# -- SearchOnlyAsker ----------------------------------------------------------------------------------------
def test_search_only_asker_streams_sources_tokens_done(library, tiny_pdf: Path):
    library.import_book(tiny_pdf)
    events = list(SearchOnlyAsker(library).ask("What is kinetic energy?", book_id=None, chapters=(), pages=None,
                                               cancel=never))
    kinds = [e.kind for e in events]
    assert kinds[0] is AnswerEventKind.SOURCES and kinds[-1] is AnswerEventKind.DONE
    assert set(kinds[1:-1]) == {AnswerEventKind.TOKEN}
    answer = events[-1].answer
    assert answer.extractive and not answer.refused and "[" in answer.text
    assert "".join(e.text for e in events[1:-1]) == answer.text
    assert answer.citations and all(c.quote and c.quote in answer.text for c in answer.citations)
    assert "Kinetic energy" in answer.text
    sources = events[0].sources
    assert sources[0].n == 1 and "Tiny Science" in sources[0].label and ", p. " in sources[0].label


def test_search_only_asker_declines_questions_outside_the_books(library, tiny_pdf: Path):
    library.import_book(tiny_pdf)
    events = list(SearchOnlyAsker(library).ask("Who painted the Mona Lisa?", book_id=None, chapters=(),
                                               pages=None, cancel=never))
    answer = events[-1].answer
    assert answer.refused and answer.nearest_sections and events[0].sources == ()


def test_search_only_asker_stops_when_cancelled(library, tiny_pdf: Path):
    library.import_book(tiny_pdf)
    seen = []
    for ev in SearchOnlyAsker(library).ask("What is a cell?", book_id=None, chapters=(), pages=None,
                                           cancel=lambda: len(seen) >= 3):
        seen.append(ev)
    assert len(seen) == 3 and seen[-1].kind is AnswerEventKind.TOKEN


def test_best_sentence_prefers_statements_over_questions_and_fragments():
    text = ("Worked Example 1\n\nA car moves. (a) What is its kinetic energy?\n\n"
            "The kinetic energy of a moving object is half its mass times its speed squared.")
    assert best_sentence(text, ["kinetic", "energy"]).startswith("The kinetic energy of a moving")
    pairs = [("s1", "The kinetic energy of an object is"), ("s2", "The kinetic energy of an object is ½mv².")]
    assert [q for _, q in distinct_quotes(pairs)] == ["The kinetic energy of an object is ½mv²."]


# -- reader -------------------------------------------------------------------------------------------------
def _book(path: Path, fmt: SourceFormat, pages: int) -> Book:
    return Book(id="b1", title=path.stem, source_format=fmt, file_name=path.name, file_hash="x", page_count=pages,
                chapter_count=2, section_count=0, paginated=fmt is SourceFormat.PDF, imported_at="now")


def test_reader_navigates_by_printed_page_zooms_and_finds(qtbot, tmp_path: Path):
    pdf = make_pdf(tmp_path / "r.pdf")
    reader = ReaderWidget()
    qtbot.addWidget(reader)
    reader.resize(700, 800)
    reader.show()
    labels = {1: "i", 2: "1", 3: "2", 4: "3", 5: "4"}
    reader.open_book(_book(pdf, SourceFormat.PDF, 5), pdf, labels)
    assert reader.go_to_label("3") and reader.current_page == 4
    assert reader.go_to_label("I") and reader.current_page == 1
    assert not reader.go_to_label("xx") and "no page" in reader.page_info.text()
    qtbot.mouseClick(reader.next_btn, Qt.MouseButton.LeftButton)
    assert reader.current_page == 2 and reader.page_box.text() == "1"
    width = reader.paged.canvas.width()
    reader.zoom_by(1.2)
    assert reader.paged.canvas.width() > width
    reader.open_find()
    assert reader.find_bar.isVisible()
    reader.find("membrane")
    wait_for(qtbot, lambda: reader.finder.done and reader.finder.current >= 0,
             "reader.finder.done and reader.finder.current >= 0")
    assert len(reader.finder.matches) == 3 * 2  # 3 repeats on each of chapter 1's two pages
    assert reader.paged.canvas.find_rects and reader.find_bar.status.text().startswith("1 of 6")
    reader.find("membrane")
    assert reader.finder.current == 1
    qtbot.keyClick(reader.find_bar.edit, Qt.Key.Key_Escape)
    assert not reader.find_bar.isVisible() and not reader.paged.canvas.find_rects


def test_reader_highlights_a_quote_spanning_lines(qtbot, tmp_path: Path):
    pdf = make_pdf(tmp_path / "r.pdf")
    reader = ReaderWidget()
    qtbot.addWidget(reader)
    reader.open_book(_book(pdf, SourceFormat.PDF, 5), pdf, {})
    quote = ("The membrane controls what enters and leaves the cell through tiny channels. "
             "Mitochondria release energy from food in a process called respiration.")
    reader.open_citation(1, 3, quote)
    assert reader.current_page == 2
    assert len(reader.highlight_rects) >= 2, "both lines of the quote are lit"
    reader.open_citation(4, 4, "words that are nowhere in this book at all")
    assert reader.current_page == 4 and reader.highlight_rects == []


def test_reader_highlights_and_finds_quotes_on_a_scanned_page_from_its_ocr_text(qtbot, tmp_path: Path):
    scan = picture_copy(make_pdf(tmp_path / "r.pdf"), tmp_path / "scan.pdf")
    digest = file_sha256(scan)
    # What the import's OCR cached for page 2 (0-based 1): one line of it, where it sits on the picture.
    PageCache(digest).append(1, [OcrLine("The membrane controls what enters and leaves the cell", 72, 120, 400, 134,
                                         3.3, 0.35)])
    reader = ReaderWidget()
    qtbot.addWidget(reader)
    book = Book(id="b2", title="scan", source_format=SourceFormat.PDF, file_name=scan.name, file_hash=digest,
                page_count=5, chapter_count=2, section_count=0, paginated=True, imported_at="now")
    reader.open_book(book, scan, {})
    reader.open_citation(1, 3, "The membrane controls what enters and leaves the cell")
    assert reader.current_page == 2 and len(reader.highlight_rects) == 1
    rect = reader.highlight_rects[0]
    assert 60 < rect.x0 < 90 and 110 < rect.y0 < 140
    reader.find("leaves the cell")
    wait_for(qtbot, lambda: reader.finder.done, "the search to finish")
    assert [p for p, _ in reader.finder.matches] == [2]


def test_reader_shows_markdown_books_as_text_and_scrolls_to_the_quote(qtbot, tmp_path: Path):
    md = tmp_path / "tiny.md"
    md.write_text(BOOK_MD + "\n" + ("Filler paragraph about nothing in particular. " * 40 + "\n\n") * 8,
                  encoding="utf-8")
    reader = ReaderWidget()
    qtbot.addWidget(reader)
    reader.resize(500, 300)
    reader.show()
    reader.open_book(_book(md, SourceFormat.MARKDOWN, 1), md, {})
    assert reader.stack.currentWidget() is reader.text and not reader.prev_btn.isVisible()
    assert "title:" not in reader.text.toPlainText(), "front matter is not shown"
    assert reader.text.scroll_to_heading("Photosynthesis")
    reader.open_citation(1, 1, "Plants turn light into chemical energy.", "Photosynthesis")
    assert reader.text.highlighted.startswith("Plants turn light")
    reader.find("membrane")
    assert reader.find_bar.status.text() == "2 matches"  # the "1.2 Membranes" heading and the text


# -- settings and errors -------------------------------------------------------------------------------------
def test_settings_round_trip_through_qsettings(isolated_settings):
    values = AppSettings(model_path="/m/x.gguf", threads=3, gpu_layers=12, library_dir="/lib", beyond_book=True)
    values.save()
    assert AppSettings.load() == values
    assert values.compute_display == "3 threads · GPU layers 12" and values.model_display == "x.gguf"


def test_model_file_is_checked(tmp_path: Path):
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        check_model_file(str(tmp_path / "missing.gguf"))
    bad = tmp_path / "notes.gguf"
    bad.write_text("hello", encoding="utf-8")
    with pytest.raises(ModelUnavailableError, match="not a GGUF"):
        check_model_file(str(bad))
    good = tmp_path / "tiny.gguf"
    good.write_bytes(b"GGUF" + bytes(16))
    check_model_file(str(good))


def test_settings_dialog_explains_a_bad_model_and_stays_open(qtbot, tmp_path: Path):
    bad = tmp_path / "broken.gguf"
    bad.write_text("not a model", encoding="utf-8")
    dialog = SettingsDialog(AppSettings())
    qtbot.addWidget(dialog)
    dialog.custom.setChecked(True)
    dialog.model_edit.setText(str(bad))
    dialog.accept()
    box = dialog.findChild(QMessageBox, "lanternErrorBox")
    assert box is not None and "not a GGUF" in box.text() and box.windowTitle() == "The model could not be used"
    assert dialog.result() != SettingsDialog.DialogCode.Accepted
    box.close()


def test_a_model_that_fails_to_load_falls_back_to_search_only(qtbot, library, fake_asker):
    from desktop.main_window import MainWindow

    def failing_factory(lib, settings):
        raise ModelUnavailableError("The model file is damaged.")
    window = MainWindow(library, asker=fake_asker, asker_factory=failing_factory, warm_up=False)
    qtbot.addWidget(window)
    window.apply_settings(AppSettings(threads=1, gpu_layers=0))
    box = window.findChild(QMessageBox, "lanternErrorBox")
    assert box is not None and box.text() == "The model file is damaged."
    assert isinstance(window.runner.asker, SearchOnlyAsker)
    assert window.compute_label.text() == "1 thread · CPU only"
    window.shutdown()


def test_error_text_never_shows_a_traceback():
    assert error_text(BookNotFoundError("No book with id 'x'.")) == "No book with id 'x'."
    assert "ValueError" in error_text(ValueError("boom")) and "Traceback" not in error_text(ValueError("boom"))
    assert show_error(None, __import__("core.errors").errors.ImportCancelled("Import cancelled.")) is None


# -- entry point ---------------------------------------------------------------------------------------------
def test_main_imports_the_sample_into_an_empty_library(qtbot, tmp_path: Path, monkeypatch):
    """``lantern-desktop --library DIR --import-sample`` (fake embedder; quits once the book is in)."""
    import desktop.app as app_module
    from core.library import Library
    from tests.fakes import HashingEmbedder

    monkeypatch.setattr(app_module, "Library", lambda root: Library(root, embedder=HashingEmbedder()))
    from core.answer.tutor import Tutor
    from tests.fakes import FakeChatModel
    model = FakeChatModel("Energy is conserved [1].")
    monkeypatch.setattr(app_module, "build_asker", lambda lib, settings: Tutor(lib, model))
    # Quit exactly once: closing the last window would post a second quit that lands after exec()
    # returned and stops every later event loop of the test session.
    qapp = QApplication.instance()
    qapp.setQuitOnLastWindowClosed(False)
    seen = {}

    def poll():
        window = next((w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow"), None)
        if window is not None and window.library.books() and window.imports.pending() == 0:
            seen["titles"] = [b.title for b in window.library.books()]
            seen["tree"] = window.sidebar.model.rowCount()
            window.close()
            QApplication.quit()
        else:
            QTimer.singleShot(50, poll)
    QTimer.singleShot(50, poll)
    try:
        assert app_module.main(["--library", str(tmp_path / "lib"), "--import-sample"]) == 0
    finally:
        qapp.setQuitOnLastWindowClosed(True)
    fired = []
    QTimer.singleShot(0, lambda: fired.append(True))
    wait_for(qtbot, lambda: bool(fired), "the event loop to run again")  # the event loop still runs afterwards
    assert seen["titles"] == ["A Gentle Introduction to Energy and Motion"] and seen["tree"] == 1
    assert model.closed  # the engine the app built is closed on the way out


def test_library_folder_precedence(tmp_path: Path, monkeypatch):
    from desktop.app import build_parser, library_dir
    chosen = AppSettings(library_dir=str(tmp_path / "from-settings"))
    monkeypatch.delenv("LANTERN_LIBRARY", raising=False)
    assert library_dir(None, chosen) == tmp_path / "from-settings"
    assert library_dir(str(tmp_path / "cli"), chosen) == tmp_path / "cli"
    monkeypatch.setenv("LANTERN_LIBRARY", str(tmp_path / "env"))
    assert library_dir(None, chosen) == tmp_path / "env"
    args = build_parser().parse_args(["--library", "x", "--import-sample"])
    assert args.library == "x" and args.import_sample


def test_screenshot_script_renders_every_view(qtbot, tmp_path: Path):
    from PySide6.QtGui import QImage

    from desktop.screenshots import make_screenshots
    from tests.fakes import HashingEmbedder
    shots = make_screenshots(tmp_path / "docs", embedder=HashingEmbedder(), size=(1200, 780), long_book_pages=60)
    assert [p.name for p in shots] == ["welcome.png", "library.png", "answer.png", "reader.png", "settings.png",
                                       "import-queue.png"]
    for path in shots:
        image = QImage(str(path))
        expected = (760, 420) if path.name == "settings.png" else (1200, 780)
        assert (image.width(), image.height()) == expected, path


def test_find_backwards_starts_before_the_page_on_screen(qtbot, tmp_path: Path):
    pdf = make_pdf(tmp_path / "r.pdf", pages_per_chapter=4)
    reader = ReaderWidget()
    qtbot.addWidget(reader)
    reader.open_book(_book(pdf, SourceFormat.PDF, 9), pdf, {})
    reader.show_page(7)  # chapter 2; "membrane" is only on pages 2-5 (chapter 1)
    reader.find("membrane", backwards=True)
    wait_for(qtbot, lambda: reader.finder.current >= 0, "reader.finder.current >= 0")
    assert reader.current_page == 5 and reader.finder.current == len(reader.finder.matches) - 1
    reader.find("membrane")  # forward from the last match wraps to the first
    assert reader.current_page == 2 and reader.finder.current == 0


def test_the_refcount_guard_keeps_long_sessions_alive(qtbot):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None per void call and to True per emit."""
    import sys

    from PySide6.QtWidgets import QLabel

    from desktop import qt_guard
    leaking = qt_guard.leaks_singleton_refs()
    guarded = qt_guard.guard_singleton_refcounts()
    assert guarded == (leaking and qt_guard._can_patch())
    label = QLabel()
    for _ in range(2000):
        label.setText("tick")
    if guarded:
        assert sys.getrefcount(None) > qt_guard._HEADROOM // 2 and sys.getrefcount(True) > qt_guard._HEADROOM // 2
    else:
        assert not leaking or sys.version_info >= (3, 12)


def test_import_stage_text_counts_pages_but_shows_indexing_as_a_share():
    from desktop.import_panel import stage_text
    assert stage_text("reading pages", 12, 300) == "Reading pages 12/300"
    assert stage_text("reading scanned pages", 3, 40) == "Reading scanned pages (OCR) 3/40"
    assert stage_text("embedding", 15_000, 60_000) == "Indexing meaning 25\u00a0%"  # word pieces, not windows
    assert stage_text("done", 1, 1) == "Saving"


def test_scanned_pages_show_the_time_left_once_the_rate_is_known(qtbot, monkeypatch):
    from desktop import import_panel
    from desktop.import_panel import ImportRow, estimate_left, time_left
    assert estimate_left((0.0, 0), 5.0, 10, 100) is None  # under 10 s: not yet
    assert estimate_left((0.0, 5), 30.0, 7, 100) is None  # 2 pages read: not yet (the rest were cached)
    assert estimate_left((0.0, 0), 25.0, 10, 100) == 225.0
    assert [time_left(s) for s in (30, 225, 1100, 7200)] == [
        "under a minute left", "about 4 min left", "about 18 min left", "about 2.0 h left"]
    clock = iter([100.0, 124.0])
    monkeypatch.setattr(import_panel.time, "monotonic", lambda: next(clock))
    row = ImportRow(1, "/books/scan.pdf")
    qtbot.addWidget(row)
    row.progress("reading scanned pages", 0, 500)
    assert row.stage.text() == "Reading scanned pages (OCR) 0/500"
    row.progress("reading scanned pages", 10, 500)
    assert row.stage.text() == "Reading scanned pages (OCR) 10/500 · about 20 min left"


def test_the_sidebar_skips_a_book_removed_while_it_reloads(qtbot):
    """The import queue refreshes the sidebar while a removal may be committing on another thread: a book
    listed by ``books()`` and gone by ``sections()`` is left out, not an exception in the event loop."""
    from types import SimpleNamespace

    from desktop.library_view import LibraryModel

    class Vanishing:
        def books(self):
            return [SimpleNamespace(id="gone")]

        def pages(self, book_id):
            return []

        def sections(self, book_id):
            raise BookNotFoundError(f"No book with id {book_id!r} in this library.")

    model = LibraryModel()
    model.reload(Vanishing())
    assert model.rowCount() == 0
