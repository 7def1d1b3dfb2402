"""Course packs in the window: a dropped pack adds its books ready to ask, a bad one says why and adds
nothing, and File → Export course pack… writes the chosen books with progress."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.index.pack_format import PackReader
from core.library import Library
from core.models import SearchMode
from desktop.course_pack import ExportPackDialog
from tests.desktop.conftest import drop_files, make_pdf, wait_imports
from tests.fakes import HashingEmbedder
from tests.waiting import wait_for


def teacher_pack(tmp_path: Path) -> Path:
    with Library(tmp_path / "teacher", embedder=HashingEmbedder()) as teacher:
        teacher.import_book(make_pdf(tmp_path / "tiny-science.pdf"))
        path = tmp_path / "Tiny Science.lantern"
        teacher.export_pack([b.id for b in teacher.books()], path)
    return path


def test_a_dropped_course_pack_adds_its_books_ready_to_ask(qtbot, window, library, tmp_path: Path):
    pack = teacher_pack(tmp_path)
    searchable = []
    window.imports.searchable.connect(lambda job, book: searchable.append(book.id))
    assert drop_files(window.chat.transcript, [pack])
    wait_imports(qtbot, window)
    [book] = library.books()
    assert searchable == [book.id] and not book.pending
    assert library.vector_index().ntotal == library.chunk_count() > 0
    assert library.search("kinetic energy moving", 3, mode=SearchMode.VECTOR)
    [row] = window.import_panel.rows.values()
    assert row.stage.text() == "✓ Added “Tiny Science” with its index, ready to ask."
    assert window.reader.book is not None and window.reader.book.id == book.id
    assert window.sidebar.model.book_item(book.id) is not None

    drop_files(window.chat.transcript, [pack])  # again: already there, left as it is
    wait_imports(qtbot, window)
    assert "already in your library" in list(window.import_panel.rows.values())[-1].stage.text()
    assert len(library.books()) == 1


def test_a_damaged_pack_says_why_and_adds_nothing(qtbot, window, library, tmp_path: Path):
    pack = teacher_pack(tmp_path)
    data = pack.read_bytes()
    cut = tmp_path / "cut.lantern"
    cut.write_bytes(data[: len(data) // 3])
    window.import_files([cut])
    wait_imports(qtbot, window)
    [error] = window.import_panel.errors()
    assert error.startswith("cut.lantern is not a complete course pack") and library.books() == []
    assert not any((library.root / "books").iterdir())


def test_export_writes_the_chosen_books(qtbot, window, library, tmp_path: Path, monkeypatch):
    book = library.import_book(make_pdf(tmp_path / "tiny-science.pdf")).book
    window.refresh_library()
    target = tmp_path / "out" / "class pack"
    target.parent.mkdir()
    chosen = {}

    def accept(dialog: ExportPackDialog):
        chosen["ids"] = dialog.chosen()
        chosen["study"] = dialog.study.isChecked()
        chosen["progress"] = dialog.progress.isChecked()
        return ExportPackDialog.DialogCode.Accepted
    monkeypatch.setattr(ExportPackDialog, "exec", accept)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.last_export = None
    window.export_pack()
    wait_for(qtbot, lambda: window.last_export is not None, "the export to finish")
    assert chosen == {"ids": [book.id], "study": True, "progress": False}
    written = target.with_name("class pack.lantern")
    assert window.last_export.path == written and written.is_file()
    with PackReader(written) as pack:
        assert [b.id for b in pack.manifest.books] == [book.id] and pack.manifest.with_study
    assert "Wrote class pack.lantern" in window.statusBar().currentMessage()


def test_a_book_still_being_indexed_cannot_be_chosen(qtbot, library, tmp_path: Path):
    seen = []
    pending = library.import_book(make_pdf(tmp_path / "a.pdf"), cancel=lambda: bool(seen),
                                  on_searchable=seen.append).book
    assert pending.pending
    dialog = ExportPackDialog(library.books())
    qtbot.addWidget(dialog)
    item = dialog.books.item(0)
    assert item.checkState() == Qt.CheckState.Unchecked and not (item.flags() & Qt.ItemFlag.ItemIsEnabled)
    assert dialog.chosen() == [] and not dialog.ok.isEnabled()
