"""The interface in the student's language: the translation files are complete and current, and load."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from core.paths import resources_dir
from desktop.i18n import ENV_LANGUAGE, install_translators, translation_file, ui_language

REPO = Path(__file__).resolve().parents[2]
TOOLS = Path(sys.executable).parent
LANGUAGES = ("es", "fr")


def sources(ts: Path) -> set[str]:
    return set(re.findall(r"<source>(.*?)</source>", ts.read_text(encoding="utf-8"), re.S))


def test_the_system_language_is_used_unless_overridden(monkeypatch):
    monkeypatch.delenv(ENV_LANGUAGE, raising=False)
    assert ui_language(QLocale("es_MX")) == "es" and ui_language(QLocale("en_US")) == "en"
    monkeypatch.setenv(ENV_LANGUAGE, "fr")
    assert ui_language(QLocale("es_MX")) == "fr"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_and_the_compiled_file_is_current(language, tmp_path):
    ts = resources_dir() / "i18n" / f"lantern_{language}.ts"
    text = ts.read_text(encoding="utf-8")
    assert 'type="unfinished"' not in text and "<translation></translation>" not in text
    fresh = tmp_path / f"lantern_{language}.ts"
    # the Study tab's words come from core/study/render.py (no Qt: it takes Qt's translate as an argument)
    inputs = [*sorted((REPO / "desktop").glob("*.py")), REPO / "core" / "study" / "render.py"]
    subprocess.run([str(TOOLS / "pyside6-lupdate"), *map(str, inputs), "-ts", str(fresh)], check=True,
                   capture_output=True)
    assert sources(fresh) == sources(ts), "run `make translations` and translate the new strings"
    qm = tmp_path / "check.qm"
    subprocess.run([str(TOOLS / "pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)
    assert qm.read_bytes() == translation_file(language).read_bytes(), "run `make translations`"


def test_a_spanish_system_gets_a_spanish_window(qtbot, library, fake_asker):
    from desktop.main_window import MainWindow
    app = QApplication.instance()
    assert install_translators(app, "es") == "es"
    try:
        win = MainWindow(library, asker=fake_asker)
        qtbot.addWidget(win)
        assert win.chat.ask_btn.text() == app.translate("ChatPanel", "Ask") != "Ask"
        assert [win.menuBar().actions()[0].text()] != ["&File"]
        win.shutdown()
    finally:
        for translator in app.property("lantern_translators") or []:
            app.removeTranslator(translator)
    assert install_translators(app, "xx") == "en"  # no such translation: English, quietly
