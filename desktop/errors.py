"""The one place that turns errors into dialogs.

Every part of the window that catches an exception calls ``show_error(parent, exc)``:
``LanternError``s show their readable ``.message``; anything else is logged with its traceback and
shown as a short generic message (the student never sees a Python traceback).
"""
from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from core.errors import ImportCancelled, LanternError, LibraryError, ModelUnavailableError

log = logging.getLogger(__name__)

_TITLES = {
    ModelUnavailableError: "The model could not be used",
    LibraryError: "The library cannot be used",
}


def error_title(exc: BaseException) -> str:
    """The dialog title for ``exc`` (by its most specific known class)."""
    for cls, title in _TITLES.items():
        if isinstance(exc, cls):
            return title
    return "Lantern"


def error_text(exc: BaseException) -> str:
    """The readable message for ``exc``: a LanternError's message, else a generic sentence."""
    if isinstance(exc, LanternError):
        return exc.message
    return f"Something went wrong inside Lantern ({type(exc).__name__}: {exc}). Details are in the log."


def show_error(parent: QWidget | None, exc: BaseException) -> QMessageBox | None:
    """Show ``exc`` in a window-modal message box (non-blocking) and return it.

    Cancellations are not errors: they are logged and nothing is shown (returns None).
    """
    if isinstance(exc, ImportCancelled):
        log.info("cancelled: %s", exc.message)
        return None
    if isinstance(exc, LanternError):
        log.warning("%s: %s", type(exc).__name__, exc.message)
    else:
        log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
    box = QMessageBox(QMessageBox.Icon.Warning, error_title(exc), error_text(exc),
                      QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("lanternErrorBox")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()  # window-modal, returns at once: never blocks worker signals or tests
    return box
