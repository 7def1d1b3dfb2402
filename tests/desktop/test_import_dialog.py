"""File → Import (Ctrl+O) opens in Documents, else Downloads, else home — never the working folder — and
then where the last import came from."""
from __future__ import annotations

from pathlib import Path

import pytest

from desktop import importing as importing_module
from desktop.importing import import_start_folder
from tests.desktop.conftest import make_pdf, wait_imports


def test_start_folder_prefers_documents_then_downloads_then_home(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    assert import_start_folder(home) == home
    (home / "Downloads").mkdir()
    assert import_start_folder(home) == home / "Downloads"
    (home / "Documents").mkdir()
    assert import_start_folder(home) == home / "Documents"


@pytest.fixture
def home(tmp_path: Path, monkeypatch) -> Path:
    """A home folder of our own (QStandardPaths and Path.home() both read HOME), run from elsewhere."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs: the English names
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return home


class FakeDialog:
    """Stands in for QFileDialog.getOpenFileNames: records the start folder, returns ``answer``."""

    def __init__(self):
        self.starts: list[str] = []
        self.answer: list[str] = []

    def __call__(self, parent, caption, directory, file_filter):
        self.starts.append(directory)
        return list(self.answer), file_filter


@pytest.fixture
def dialog(monkeypatch) -> FakeDialog:
    fake = FakeDialog()
    monkeypatch.setattr(importing_module.QFileDialog, "getOpenFileNames", fake)
    return fake


def test_dialog_opens_in_home_not_the_working_folder(window, home: Path, dialog: FakeDialog):
    window.choose_files()
    assert dialog.starts == [str(home)]


def test_dialog_opens_in_documents_then_remembers_the_last_folder(qtbot, window, home: Path, dialog: FakeDialog,
                                                                  tmp_path: Path):
    (home / "Downloads").mkdir()
    (home / "Documents").mkdir()
    window.choose_files()  # cancelled: nothing to remember
    assert dialog.starts == [str(home / "Documents")]
    books = tmp_path / "course" / "books"
    books.mkdir(parents=True)
    dialog.answer = [str(make_pdf(books / "tiny.pdf"))]
    window.choose_files()
    wait_imports(qtbot, window)
    dialog.answer = []
    window.choose_files()
    assert dialog.starts[1:] == [str(home / "Documents"), str(books)]
    assert [b.title for b in window.library.books()] == ["Tiny Science"]


def test_dialog_uses_downloads_when_there_are_no_documents(window, home: Path, dialog: FakeDialog):
    (home / "Downloads").mkdir()
    window.choose_files()
    assert dialog.starts == [str(home / "Downloads")]
