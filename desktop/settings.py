"""Settings (QSettings, organisation "Lantern", application "Lantern") and the Settings dialog.

Model choice, threads and GPU layers are read by ``desktop.app.build_asker``; the library folder
takes effect the next time Lantern starts (``--library`` and ``LANTERN_LIBRARY`` still win).
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton, QSpinBox, QVBoxLayout,
                               QWidget)

from core.errors import LanternError, ModelUnavailableError
from core.llm.gguf import GGUF_MAGIC
from desktop.errors import show_error

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # outside the dialog: lupdate reads translate("Settings", ...)

ORGANIZATION = APPLICATION = "Lantern"


def qsettings() -> QSettings:
    """The app's settings store (tests redirect it with ``QSettings.setPath``)."""
    return QSettings(ORGANIZATION, APPLICATION)


@dataclass
class AppSettings:
    """The user's choices.

    ``model_path == ""``: the bundled default model.  ``threads == 0``: automatic (llama.cpp's
    physical cores).  ``gpu_layers``: 0 = CPU only, -1 = every layer (as ``core.llm.settings.LLMSettings``).
    """

    model_path: str = ""
    threads: int = 0
    gpu_layers: int = -1  # a GPU when present (the CPU otherwise); 0 = CPU only
    library_dir: str = ""
    beyond_book: bool = False
    quality: str = "balanced"  # "best" / "balanced" / "fastest" (``core.llm.choice.Quality``)

    @classmethod
    def load(cls, store: QSettings | None = None) -> "AppSettings":
        s = store or qsettings()
        d = cls()
        return cls(model_path=str(s.value("model/path", d.model_path) or ""),
                   threads=_int(s.value("model/threads", d.threads), d.threads),
                   gpu_layers=_int(s.value("model/gpu_layers", d.gpu_layers), d.gpu_layers),
                   library_dir=str(s.value("library/folder", d.library_dir) or ""),
                   beyond_book=_bool(s.value("answer/beyond_book", d.beyond_book)),
                   quality=_quality(s.value("answer/quality", d.quality)))

    def save(self, store: QSettings | None = None) -> None:
        s = store or qsettings()
        s.setValue("model/path", self.model_path)
        s.setValue("model/threads", self.threads)
        s.setValue("model/gpu_layers", self.gpu_layers)
        s.setValue("library/folder", self.library_dir)
        s.setValue("answer/beyond_book", self.beyond_book)
        s.setValue("answer/quality", self.quality)
        s.sync()

    @property
    def model_display(self) -> str:
        return Path(self.model_path).name if self.model_path else translate("Settings", "bundled default")

    @property
    def compute_display(self) -> str:
        if self.gpu_layers == 0:
            gpu = translate("Settings", "CPU only")
        elif self.gpu_layers == -1:
            gpu = translate("Settings", "GPU when present")
        else:
            gpu = translate("Settings", "GPU layers {n}").format(n=self.gpu_layers)
        if self.threads <= 0:
            threads = translate("Settings", "auto threads")
        elif self.threads == 1:
            threads = translate("Settings", "1 thread")
        else:
            threads = translate("Settings", "{n} threads").format(n=self.threads)
        return f"{threads} · {gpu}"


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _bool(value) -> bool:
    return value in (True, "true", "1", 1)


def _quality(value) -> str:
    return str(value) if str(value) in QUALITIES else "balanced"


QUALITIES = ("best", "balanced", "fastest")  # ``core.llm.choice.Quality``'s values


def quality_labels() -> dict[str, str]:
    """Each answer quality as Settings offers it (in the interface's language)."""
    return {"best": translate("Settings", "Best — the most correct model, however slow"),
            "balanced": translate("Settings", "Balanced — the most correct model that answers in time here"),
            "fastest": translate("Settings", "Fastest — the quickest answers")}


def check_model_file(path: str) -> None:
    """Raise ``ModelUnavailableError`` with a readable reason when ``path`` is not a usable GGUF file."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ModelUnavailableError(translate("Settings", "The model file {path} does not exist.").format(path=p))
    try:
        with open(p, "rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelUnavailableError(translate("Settings", "The model file {path} cannot be read: {reason}.").format(
            path=p, reason=exc.strerror or exc)) from None
    if magic != GGUF_MAGIC:
        raise ModelUnavailableError(translate("Settings", "{name} is not a GGUF model file (Lantern runs llama.cpp "
                                              "models saved as .gguf).").format(name=p.name))


class SettingsDialog(QDialog):
    """Model, threads, GPU layers, library folder and "explain beyond the book"."""

    def __init__(self, settings: AppSettings, parent: QWidget | None = None, model_note: str = ""):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Lantern settings"))
        self.quality_buttons: dict[str, QRadioButton] = {}
        quality_group = QButtonGroup(self)
        quality_box = QWidget()
        quality_rows = QVBoxLayout(quality_box)
        quality_rows.setContentsMargins(0, 0, 0, 0)
        for key, text in quality_labels().items():
            button = QRadioButton(text)
            button.setChecked(key == settings.quality)
            quality_group.addButton(button)
            quality_rows.addWidget(button)
            self.quality_buttons[key] = button
        self.model_note = QLabel(model_note, wordWrap=True)
        self.bundled = QRadioButton(self.tr("Chosen for this computer (bundled models)"))
        self.custom = QRadioButton(self.tr("A .gguf file:"))
        group = QButtonGroup(self)
        group.addButton(self.bundled)
        group.addButton(self.custom)
        self.model_edit = QLineEdit(settings.model_path, placeholderText=self.tr("/path/to/model.gguf"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._choose_model)
        (self.custom if settings.model_path else self.bundled).setChecked(True)
        self.threads = QSpinBox(minimum=0, maximum=max(64, os.cpu_count() or 1), value=settings.threads,
                                specialValueText=self.tr("automatic"))
        self.gpu = QSpinBox(minimum=-1, maximum=999, value=settings.gpu_layers,
                            specialValueText=self.tr("all layers (GPU when present)"),
                            toolTip=self.tr("0 = CPU only; -1 = every layer on the GPU when this build and computer "
                                            "have one (the CPU otherwise)"))
        self.library_edit = QLineEdit(settings.library_dir, placeholderText=self.tr("default folder"))
        lib_browse = QPushButton(self.tr("Choose…"))
        lib_browse.clicked.connect(self._choose_library)
        self.beyond = QCheckBox(self.tr("Explain beyond the book (such answers are labelled)"))
        self.beyond.setChecked(settings.beyond_book)
        form = QFormLayout()
        form.addRow(self.tr("Answer quality:"), quality_box)
        form.addRow("", self.model_note)
        form.addRow(self.tr("Model:"), self.bundled)
        form.addRow("", _row(self.custom, self.model_edit, browse))
        form.addRow(self.tr("Threads:"), self.threads)
        form.addRow(self.tr("GPU layers:"), self.gpu)
        form.addRow(self.tr("Library folder:"), _row(self.library_edit, lib_browse))
        form.addRow("", QLabel(self.tr("A new library folder is used the next time Lantern starts."), wordWrap=True))
        form.addRow("", self.beyond)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(buttons)

    def values(self) -> AppSettings:
        return AppSettings(model_path=self.model_edit.text().strip() if self.custom.isChecked() else "",
                           threads=self.threads.value(), gpu_layers=self.gpu.value(),
                           library_dir=self.library_edit.text().strip(), beyond_book=self.beyond.isChecked(),
                           quality=next(k for k, b in self.quality_buttons.items() if b.isChecked()))

    def accept(self) -> None:
        """Refuse to close on a model file that cannot work, saying why (central error handler)."""
        values = self.values()
        try:
            if values.model_path:
                check_model_file(values.model_path)
        except LanternError as exc:
            show_error(self, exc)
            return
        super().accept()

    def _choose_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a model"), "",
                                              self.tr("GGUF models (*.gguf);;All files (*)"))
        if path:
            self.model_edit.setText(path)
            self.custom.setChecked(True)

    def _choose_library(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Choose the library folder"))
        if path:
            self.library_edit.setText(path)


def _row(*widgets: QWidget) -> QWidget:
    w = QWidget()
    row = QHBoxLayout(w)
    row.setContentsMargins(0, 0, 0, 0)
    for x in widgets:
        row.addWidget(x, 1 if isinstance(x, QLineEdit) else 0)
    return w
