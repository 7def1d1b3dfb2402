"""The interface in the student's language, where a translation exists (Spanish and French so far).

Qt's own machinery: the window's strings go through ``tr``/``QCoreApplication.translate``; the translations are
``resources/i18n/lantern_<lang>.ts`` (Qt Linguist files, edited by hand or in ``pyside6-linguist``), compiled to
the ``.qm`` files beside them by ``make translations`` (``pyside6-lupdate`` collects new strings first).  The
language is the system's (``QLocale.system()``); ``LANTERN_UI_LANGUAGE=es`` overrides it.  Qt's own strings
(standard dialogs' buttons) come from the ``qtbase_<lang>.qm`` that PySide6 ships.

The language of an *answer* is not chosen here: it follows each question (``core.answer.language``).
"""
from __future__ import annotations

import logging
import os

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from core.paths import resources_dir

log = logging.getLogger(__name__)

ENV_LANGUAGE = "LANTERN_UI_LANGUAGE"


def ui_language(locale: QLocale | None = None) -> str:
    """"es" for a Spanish system (``LANTERN_UI_LANGUAGE`` first), "en" by default."""
    chosen = os.environ.get(ENV_LANGUAGE, "").strip()
    name = chosen or (locale or QLocale.system()).name()
    return name.split("_")[0].lower() or "en"


def translation_file(language: str):
    """``resources/i18n/lantern_<language>.qm`` (it may not exist)."""
    return resources_dir() / "i18n" / f"lantern_{language}.qm"


def install_translators(app: QCoreApplication, language: str | None = None) -> str:
    """Install Lantern's and Qt's translators for ``language`` (default: ``ui_language()``); returns the
    language the interface is now in ("en" when there is no translation for it)."""
    language = language or ui_language()
    if language == "en":
        return "en"
    ours = QTranslator(app)
    if not ours.load(str(translation_file(language))):
        log.info("no interface translation for %r: the interface stays in English", language)
        return "en"
    app.installTranslator(ours)
    qt = QTranslator(app)
    if qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
    app.setProperty("lantern_translators", [ours, qt])  # kept alive as long as the application
    return language
