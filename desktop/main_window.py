"""Lantern's main window: library sidebar + import queue | chat | reader, menus, status bar (importing,
drag and drop and removing books: ``desktop.importing``).

The window owns two single-thread pools (through ``ImportQueue`` and ``AskRunner``): library writes
and the model each have their own thread, and widgets are only touched here, on the GUI thread.

At start-up nothing waits behind work it does not need: the library check runs first on the import thread
(it is quick, and its dialog must not wait for the warm-up), then the warm-up (NLTK, the embedding model),
then the books whose indexing stopped; the chat model loads on its own thread meanwhile.  Measuring the
chat models (``desktop.model_choice``) comes last: only when none of that is queued or running and no
answer streams, cancelled when an import or a question arrives, and only while the computer is idle.
"""
from __future__ import annotations

import gc
import logging
import os
import re
from collections.abc import Callable

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QSplitter, QTabWidget

from core.errors import LanternError
from core.llm.choice import MEASURE_ENV, Quality
from core.paths import resources_dir, sample_books
from desktop.chat import ChatPanel
from desktop.conversations import CiteRecord, ConversationStore
from desktop.errors import error_text, show_error
from desktop.import_panel import ImportPanel
from desktop.importing import ImportActions
from desktop.library_check import LibraryCheck
from desktop.library_view import LibrarySidebar, Node
from desktop.model_choice import ModelChooser, choice_text
from desktop.protocols import Asker
from desktop.reader import ReaderWidget
from desktop.search_asker import SearchOnlyAsker
from desktop.settings import AppSettings, SettingsDialog, qsettings
from desktop.study import StudyPanel
from desktop.workers import AskRunner, ImportQueue

_PAGE_SUFFIX = re.compile(r",\s*pp?\.\s*[^,]+$")  # the ", p. 45" / ", pp. 9–10" a refusal adds to a name

log = logging.getLogger(__name__)

AskerFactory = Callable[[object, AppSettings], Asker]


class MainWindow(ImportActions, QMainWindow):
    """Library | chat | reader.  Pass ``asker`` to use a real engine (default: ``SearchOnlyAsker``)."""

    def __init__(self, library, *, asker: Asker | None = None, settings: AppSettings | None = None,
                 asker_factory: AskerFactory | None = None, warm_up: bool = True):
        super().__init__()
        self.library = library
        self.settings = settings or AppSettings.load()
        self.asker_factory = asker_factory
        self.setWindowTitle("Lantern")
        icon = resources_dir() / "lantern.png"
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self.imports = ImportQueue(library, self)
        self.runner = AskRunner(asker or SearchOnlyAsker(library), self)
        self.model_problem: LanternError | None = None
        self.store = ConversationStore(getattr(library, "root", None))
        self.library_check = LibraryCheck(library, self.imports, self)
        self._build()
        self._menus()
        self._status()
        self._wire()
        self.refresh_library()
        self._restore_state()
        self.reopen_last_book()
        self._route_drops()
        gc.freeze()  # Qt, NumPy and friends are long-lived: keep them out of every GC pass
        self.chooser = ModelChooser(self, ready=self._idle_for_measuring)
        self.chooser.chosen.connect(self._model_chosen)
        self.chooser.deferred.connect(self._model_deferred)
        self.chooser.started.connect(self._update_status)
        self._wire_chooser()
        if warm_up:
            self.library_check.start(quiet=True)  # first: a quick read, its dialog waits for nothing else
            self.imports.warm_up()  # then NLTK and the embedding model, before the student's first import
            self.imports.resume_pending()  # books whose indexing stopped when the app last closed
            self.runner.prewarm()  # the model loads on its own thread while the student looks around
            self._choose_model()  # measured last, when all of the above is done

    # -- construction ------------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.sidebar = LibrarySidebar()
        self.import_panel = ImportPanel()
        self.import_panel.hide()
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.sidebar)
        left.addWidget(self.import_panel)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        self.chat = ChatPanel(self.runner, self.store)
        # Study tab (practice, cards, quiz, guide): loads only when first shown
        self.study = StudyPanel(self.library, model_factory=self._study_model)
        self.center = QTabWidget()
        self.center.addTab(self.chat, self.tr("Chat"))
        self.center.addTab(self.study, self.tr("Study"))
        self.center.currentChanged.connect(lambda _i: self._refresh_study())
        self.reader = ReaderWidget()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (left, self.center, self.reader):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.resize(1420, 860)
        self.splitter.setSizes([360, 520, 540])
        left.setSizes([600, 260])

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.import_action = self._action(file_menu, self.tr("&Import books…"), self.choose_files,
                                          QKeySequence.StandardKey.Open)
        self.open_pack_action = self._action(file_menu, self.tr("&Open course pack…"), self.choose_pack)
        self.export_pack_action = self._action(file_menu, self.tr("&Export course pack…"), self.export_pack)
        self.sample_action = self._action(file_menu, self.tr("Try the &sample book"), self.import_sample)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("&Settings…"), self.open_settings, QKeySequence.StandardKey.Preferences)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        ask_menu = self.menuBar().addMenu(self.tr("&Ask"))
        self._action(ask_menu, self.tr("&Question box"), self.focus_question, QKeySequence("Ctrl+L"))
        self.stop_action = self._action(ask_menu, self.tr("&Stop answer"), self.chat.stop,
                                        QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setEnabled(False)
        self._action(ask_menu, self.tr("&Copy answer"), self.chat.copy_answer)
        self._action(ask_menu, self.tr("&New conversation"), self.chat.new_conversation,
                     QKeySequence.StandardKey.New)
        view_menu = self.menuBar().addMenu(self.tr("&Reader"))
        self._action(view_menu, self.tr("&Find in book…"), self.reader.open_find, QKeySequence.StandardKey.Find)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("Check &library…"), lambda: self.library_check.start())
        self._action(help_menu, self.tr("&About Lantern"), self.about)

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        self.addAction(action)
        return action

    def _status(self) -> None:
        bar = self.statusBar()
        self.offline_badge = QLabel(self.tr("Offline ✓"))
        self.offline_badge.setObjectName("offlineBadge")
        self.offline_badge.setFrameShape(QLabel.Shape.StyledPanel)
        self.offline_badge.setContentsMargins(6, 0, 6, 0)
        font = self.offline_badge.font()
        font.setBold(True)
        self.offline_badge.setFont(font)
        self.offline_badge.setToolTip(
            self.tr("Lantern never uses the network: your books and questions stay here."))
        self.model_label = QLabel()
        self.compute_label = QLabel()
        for w in (self.offline_badge, self.model_label, self.compute_label):
            bar.addPermanentWidget(w)
        self._update_status()

    def _update_status(self) -> None:
        asker = self.runner.asker
        engine = getattr(asker, "model_name", "") or type(asker).__name__
        tip = self.tr("Chosen model file: {file}").format(file=self.settings.model_display) \
            if self.settings.model_path else choice_text(getattr(asker, "choice", None), engine, self.chooser_state)
        if self.model_problem is not None:
            engine += self.tr(" — unavailable, answers quote the book")
            tip += "\n" + error_text(self.model_problem)
        self.model_label.setText(self.tr("Model: {engine}").format(engine=engine))
        self.model_label.setToolTip(tip)
        self.compute_label.setText(self.settings.compute_display)

    @property
    def chooser_state(self) -> str:
        chooser = getattr(self, "chooser", None)  # the status bar is built before the chooser
        return chooser.state if chooser is not None else ""

    def _model_prewarmed(self, asker, error) -> None:
        """The model thread finished loading ``asker``'s model (``error``: why it cannot answer)."""
        if asker is self.runner.asker:
            self.model_problem = error
            self._update_status()

    def _wire(self) -> None:
        self.imports.queued.connect(self.import_panel.add)
        self.runner.prewarmed.connect(self._model_prewarmed)
        self.imports.progressed.connect(self.import_panel.progress)
        self.imports.searchable.connect(self._import_searchable)
        self.imports.finished.connect(self._import_finished)
        self.imports.packFinished.connect(self._pack_finished)
        self.import_panel.cancelRequested.connect(self.imports.cancel)
        self.sidebar.openRequested.connect(self.open_node)
        self.sidebar.sampleRequested.connect(self.import_sample)
        self.sidebar.importRequested.connect(self.choose_files)
        self.sidebar.removeRequested.connect(self.remove_book)
        self.sidebar.askAboutRequested.connect(self._ask_about)
        self.chat.citationClicked.connect(self.open_citation)
        self.chat.sectionClicked.connect(self.open_section_named)
        self.chat.streamingChanged.connect(self.stop_action.setEnabled)
        self.study.progressReady.connect(self.sidebar.set_progress)
        self.study.pageRequested.connect(self.open_citation)

    # -- library ------------------------------------------------------------------------------------------------
    def refresh_library(self) -> None:
        """Reload the sidebar and the scope selector from the library."""
        self.sidebar.reload(self.library)
        self.chat.scope_bar.set_library(self.library)
        self.sample_action.setEnabled(bool(sample_books()))
        self._refresh_study()

    def _refresh_study(self) -> None:
        if self.center.currentWidget() is self.study:
            self.study.reload()

    def _study_model(self):
        """The Study tab's chat model: the tutor's own (one model in memory, one thread owning it), or None."""
        tutor = self.runner.asker
        if not hasattr(tutor, "model_error") or tutor.model_error() is not None:
            return None
        return tutor.model

    # -- reader -------------------------------------------------------------------------------------------------
    def _open_book(self, book_id: str) -> bool:
        try:
            book = self.library.book(book_id)
            labels = {p.index: p.label for p in self.library.pages(book.id)}
            self.reader.open_book(book, self.library.book_file(book.id), labels)
        except LanternError as exc:
            show_error(self, exc)
            return False
        return True

    def open_node(self, node: Node) -> None:
        """Open the reader at a sidebar node (a book's first page or a section's start)."""
        if self._open_book(node.book_id) and node.section_id is not None:
            self.reader.open_section(node.page, node.heading)

    def open_citation(self, record: CiteRecord) -> None:
        """Open the reader at a cited page with the quote highlighted."""
        if self._open_book(record.book_id):
            self.reader.open_citation(record.page_start, record.page_end, record.quote, record.section_title,
                                      frame=record.frame)

    def open_section_named(self, name: str, book_id: str) -> None:
        """Open a refused answer's nearest section, matched by its heading text ("2.3 Title, p. 45")."""
        wanted = _PAGE_SUFFIX.sub("", " ".join(name.split())).lower()
        books = [book_id] if book_id else [b.id for b in self.library.books()]
        for bid in books:
            for s in self.library.sections(bid):
                if wanted in (s.display.lower(), s.title.lower()) or s.display.lower().endswith(wanted):
                    self.open_node(Node(bid, s.id, s.page_start, s.title))
                    return
        self.statusBar().showMessage(self.tr("Could not find the section “{name}”.").format(name=name), 6000)

    # -- chat ------------------------------------------------------------------------------------------------------
    def focus_question(self) -> None:
        self.chat.question.setFocus()
        self.chat.question.selectAll()

    def _ask_about(self, book_id: str) -> None:
        self.chat.scope_bar.select_book(book_id)
        self.focus_question()

    def set_asker(self, asker: Asker) -> None:
        """Use another answer engine from the next question on."""
        self.chat.stop()
        self.runner.wait(10_000)
        old, self.runner.asker = self.runner.asker, asker
        if old is not asker and hasattr(old, "close"):
            self.study.forget_model()  # it shared the old tutor's model
            old.close()  # frees the old model's memory and ends its thread
        self.model_problem = None
        self._update_status()
        self.runner.prewarm()

    def _wire_chooser(self) -> None:
        """Measuring yields: it stops when an import is queued or a question asked, and starts again when
        the import thread and the model thread are both idle."""
        self.imports.queued.connect(lambda *_: self.chooser.cancel())
        self.runner.asked.connect(lambda _rid: self.chooser.cancel())
        self.imports.idle.connect(self.chooser.poke)
        self.runner.prewarmed.connect(lambda *_: self.chooser.poke())
        self.runner.ended.connect(lambda *_: self.chooser.poke())

    def _idle_for_measuring(self) -> bool:
        """No import, library check or warm-up queued, the model loaded, no answer streaming."""
        return not (self.imports.busy() or self.runner.busy() or self.runner.warming)

    def _choose_model(self) -> None:
        """Measure the installed models in the background (when the window is idle) unless a model file is
        chosen or the tutor already runs the model fairly chosen for this computer."""
        asker = self.runner.asker
        choice = getattr(asker, "choice", None)
        if self.settings.model_path or self.asker_factory is None or (choice is not None and not choice.provisional):
            return
        if os.environ.get(MEASURE_ENV, "1") == "0":  # tests and the smoke test: keep the default model
            return
        self.chooser.start(Quality(self.settings.quality), self.settings.threads or None, self.settings.gpu_layers)
        self._update_status()

    def _model_chosen(self, choice) -> None:
        asker = self.runner.asker
        model = getattr(asker, "model", None)
        running = getattr(getattr(model, "settings", None), "model", None)
        if choice.model != running and self.asker_factory is not None and not self.chat.is_streaming():
            self.set_asker(self.asker_factory(self.library, self.settings))
            asker = self.runner.asker
        if hasattr(asker, "choice") and getattr(getattr(getattr(asker, "model", None), "settings", None),
                                                "model", choice.model) == choice.model:
            asker.choice = choice  # with its reason and whether it is provisional
        self.statusBar().showMessage(choice.reason, 15_000)
        self._update_status()

    def _model_deferred(self, message: str) -> None:
        self.statusBar().showMessage(message, 15_000)
        self._update_status()

    # -- settings / help ----------------------------------------------------------------------------------------
    def open_settings(self) -> None:
        asker = self.runner.asker
        note = choice_text(getattr(asker, "choice", None), getattr(asker, "model_name", "") or "no model",
                           self.chooser_state)
        dialog = SettingsDialog(self.settings, self, model_note=note)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.apply_settings(dialog.values())

    def apply_settings(self, values: AppSettings) -> None:
        """Save ``values`` and rebuild the answer engine; a model that fails to load is explained."""
        self.settings = values
        values.save()
        if self.asker_factory is not None:
            try:
                self.set_asker(self.asker_factory(self.library, values))
            except LanternError as exc:
                show_error(self, exc)
                self.set_asker(SearchOnlyAsker(self.library))
            self._choose_model()
        self._update_status()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Lantern"), self.tr(
            "<b>Lantern</b> — an offline tutor for your own textbooks.<br>Answers cite chapter, section and page. "
            "Licensed AGPL-3.0-or-later."))

    # -- state ---------------------------------------------------------------------------------------------------
    def _restore_state(self) -> None:
        s = qsettings()
        geometry, state, split = (s.value(k) for k in ("window/geometry", "window/state", "window/splitter"))
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state)
        if isinstance(split, QByteArray):
            self.splitter.restoreState(split)

    def save_state(self) -> None:
        s = qsettings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/splitter", self.splitter.saveState())
        book = self.reader.book
        s.setValue("reader/book", book.id if book is not None else "")
        s.setValue("reader/page", self.reader.current_page)
        s.sync()

    def reopen_last_book(self) -> bool:
        """Open the book (and page) the reader showed when Lantern was last closed, if it is still here."""
        s = qsettings()
        book_id = str(s.value("reader/book", "") or "")
        if not book_id or book_id not in {b.id for b in self.library.books()} or not self._open_book(book_id):
            return False
        try:
            page = int(s.value("reader/page", 0) or 0)
        except (TypeError, ValueError):
            page = 0
        if page > 1:
            self.reader.show_page(page)
        return True

    def shutdown(self, wait_ms: int = 15_000) -> None:
        """Stop measuring and answering, cancel imports, wait for both threads (idempotent)."""
        self.chooser.stop()
        self.runner.close(wait_ms)
        if hasattr(self.runner.asker, "close"):
            self.runner.asker.close()
        self.study.shutdown(wait_ms)
        self.imports.close(wait_ms)
        self.store.save()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.save_state()
        self.shutdown()
        self.reader.close_book()
        super().closeEvent(event)
