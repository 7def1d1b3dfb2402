"""The chat pane: conversations list, scope, question box, streamed answer with citation chips, sources.

Answers come from ``AskRunner`` signals (GUI thread).  SOURCES fills the source cards at once;
TOKENs are appended and the transcript is re-rendered at most every ``RENDER_MS``; DONE applies the
final ``Answer`` (citations' quotes, refusal with nearest sections).
"""
from __future__ import annotations

import logging

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QMenu, QPushButton, QSplitter,
                               QTextBrowser, QVBoxLayout, QWidget)

from core.models import AnswerEvent, AnswerEventKind
from desktop.conversations import CiteRecord, Conversation, ConversationStore, Turn
from desktop.errors import show_error
from desktop.math_render import MathStyle
from desktop.scope_bar import ScopeBar
from desktop.transcript import SourceCards, conversation_html
from desktop.workers import AskRunner

log = logging.getLogger(__name__)

RENDER_MS = 30


class ChatPanel(QWidget):
    """Ask, watch the answer stream, click citations; conversations are kept and reopened."""

    citationClicked = Signal(object)  # CiteRecord
    sectionClicked = Signal(str, str)  # nearest-section name, book id of the scope ("" = any)
    streamingChanged = Signal(bool)

    def __init__(self, runner: AskRunner, store: ConversationStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.runner = runner
        self.store = store
        self.current: Conversation | None = None
        self.streaming: tuple[int, Conversation, Turn] | None = None  # request id, where it goes
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_MS)
        self._render_timer.timeout.connect(self.render)
        runner.event.connect(self._on_event)
        runner.failed.connect(self._on_failed)
        runner.ended.connect(self._on_ended)
        runner.quotesTranslated.connect(self._on_quotes)
        self._translating: dict[int, tuple[Turn, list[int]]] = {}  # request id -> turn, the numbers of its quotes
        self._build()
        self._fill_conversations()
        self.render()

    # -- layout ----------------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.conv_list = QListWidget()
        self.conv_list.setWordWrap(True)
        self.conv_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conv_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conv_list.itemClicked.connect(self._conversation_clicked)
        self.conv_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conv_list.customContextMenuRequested.connect(self._conv_menu)
        new_btn = QPushButton(self.tr("New conversation"))
        new_btn.clicked.connect(self.new_conversation)
        side = QWidget()
        side_box = QVBoxLayout(side)
        side_box.setContentsMargins(0, 0, 0, 0)
        side_box.addWidget(new_btn)
        side_box.addWidget(self.conv_list, 1)

        self.scope_bar = ScopeBar()
        self.transcript = QTextBrowser()
        self.transcript.setOpenLinks(False)
        self.transcript.anchorClicked.connect(self._link_clicked)
        self.sources = SourceCards()
        self.sources.cardClicked.connect(self.citationClicked)
        self.question = QLineEdit(placeholderText=self.tr("Ask about your books…  (Ctrl+L)"))
        self.question.returnPressed.connect(self.ask)
        self.ask_btn = QPushButton(self.tr("Ask"))
        self.ask_btn.setDefault(True)
        self.ask_btn.clicked.connect(self.ask)
        self.stop_btn = QPushButton(self.tr("Stop"), toolTip=self.tr("Stop the answer (Esc)"))
        self.stop_btn.clicked.connect(self.stop)
        self.copy_btn = QPushButton(self.tr("Copy answer"))
        self.copy_btn.clicked.connect(self.copy_answer)
        row = QHBoxLayout()
        row.addWidget(self.copy_btn)
        row.addStretch(1)
        row.addWidget(self.stop_btn)
        row.addWidget(self.ask_btn)

        answer_split = QSplitter(Qt.Orientation.Vertical)
        answer_split.addWidget(self.transcript)
        answer_split.addWidget(self.sources)
        answer_split.setStretchFactor(0, 3)
        answer_split.setStretchFactor(1, 2)
        answer_split.setChildrenCollapsible(False)
        answer_split.setSizes([460, 300])
        main = QWidget()
        main_box = QVBoxLayout(main)
        main_box.setContentsMargins(0, 0, 0, 0)
        main_box.addWidget(self.scope_bar)
        main_box.addWidget(answer_split, 1)
        main_box.addWidget(self.question)
        main_box.addLayout(row)

        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(side)
        self.split.addWidget(main)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([150, 530])
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.split)
        self._update_buttons()

    # -- asking ------------------------------------------------------------------------------------------------
    def ask(self, question: str | None = None) -> int | None:
        """Ask ``question`` (default: the text box) in the selected scope; returns the request id."""
        question = (question if isinstance(question, str) else self.question.text()).strip()
        if not question:
            return None
        if self.streaming:
            self.stop()
        if self.current is None:
            self.current = self.store.new(title=question[:60])
            self._fill_conversations()
        previous = self.current.turns[-1].as_context() if self.current.turns else None
        turn = Turn(question=question, scope=self.scope_bar.describe(),
                    still_indexing=self.scope_bar.still_indexing())
        self.current.turns.append(turn)
        rid = self.runner.ask(question, self.scope_bar.scope(), previous)
        self.streaming = (rid, self.current, turn)
        self.question.clear()
        self.sources.set_sources([])
        self.render()
        self._update_buttons()
        return rid

    def stop(self) -> None:
        """Stop the answer being streamed (Esc)."""
        if self.streaming:
            self.runner.stop()

    def is_streaming(self) -> bool:
        return self.streaming is not None

    def _target(self, rid: int) -> Turn | None:
        if self.streaming and self.streaming[0] == rid:
            return self.streaming[2]
        return None

    def _on_event(self, rid: int, ev: AnswerEvent) -> None:
        turn = self._target(rid)
        if turn is None:
            return
        if ev.kind is AnswerEventKind.SOURCES:
            turn.sources = [CiteRecord.from_source(s) for s in ev.sources]
            turn.show_preview(ev.preview)
            if self._showing(turn):
                self.sources.set_sources(turn.sources)
        elif ev.kind is AnswerEventKind.TOKEN:
            turn.answer += ev.text
        elif ev.kind is AnswerEventKind.CHECKING:
            turn.checking = True
        elif ev.kind is AnswerEventKind.DONE and ev.answer is not None:
            turn.finish(ev.answer)
        elif ev.kind is AnswerEventKind.ERROR:
            turn.state, turn.error = "error", ev.text
        self._schedule_render()

    def _on_failed(self, rid: int, exc: BaseException) -> None:
        turn = self._target(rid)
        if turn is not None:
            turn.state = "error"
            turn.error = getattr(exc, "message", "") or "The answer failed."
        show_error(self.window(), exc)

    def _on_ended(self, rid: int, cancelled: bool) -> None:
        turn = self._target(rid)
        if turn is None:
            return
        if turn.state == "streaming":
            turn.state = "stopped" if cancelled else "done"
        self.streaming = None
        self.store.save()
        self.render()
        self._update_buttons()

    # -- conversations ---------------------------------------------------------------------------------------
    def new_conversation(self) -> None:
        """Start afresh (the list keeps the old one)."""
        self.current = None
        self.sources.set_sources([])
        self.conv_list.clearSelection()
        self.render()
        self.question.setFocus()

    def open_conversation(self, conv_id: str) -> None:
        self.current = self.store.get(conv_id)
        last = self.current.turns[-1] if self.current and self.current.turns else None
        self.sources.set_sources(last.sources if last else [])
        self.render()

    def _fill_conversations(self) -> None:
        self.conv_list.clear()
        for conv in self.store.conversations:
            item = QListWidgetItem(conv.title)
            item.setToolTip(f"{conv.title}\n{conv.created} · {len(conv.turns)} question(s)")
            item.setData(Qt.ItemDataRole.UserRole, conv.id)
            self.conv_list.addItem(item)
            if self.current is not None and conv.id == self.current.id:
                item.setSelected(True)

    def _conversation_clicked(self, item: QListWidgetItem) -> None:
        self.open_conversation(item.data(Qt.ItemDataRole.UserRole))

    def _conv_menu(self, pos) -> None:
        item = self.conv_list.itemAt(pos)
        if item is None:
            return
        conv_id = item.data(Qt.ItemDataRole.UserRole)
        menu = QMenu(self)
        menu.addAction(self.tr("Delete conversation"), lambda: self._delete(conv_id))
        menu.popup(self.conv_list.viewport().mapToGlobal(pos))

    def _delete(self, conv_id: str) -> None:
        if self.streaming and self.streaming[1].id == conv_id:
            self.stop()
        self.store.delete(conv_id)
        if self.current and self.current.id == conv_id:
            self.new_conversation()
        self._fill_conversations()

    # -- rendering and links ---------------------------------------------------------------------------------
    def _showing(self, turn: Turn) -> bool:
        return self.current is not None and any(t is turn for t in self.current.turns)

    def _schedule_render(self) -> None:
        if not self._render_timer.isActive():
            self._render_timer.start()

    def render(self) -> None:
        """Re-render the shown conversation, keeping the view at the bottom while it streams."""
        bar = self.transcript.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        turns = self.current.turns if self.current else []
        self.transcript.setHtml(conversation_html(turns, self.palette(), MathStyle.for_widget(self.transcript)))
        if at_bottom or self.streaming:
            bar.setValue(bar.maximum())

    def _link_clicked(self, url: QUrl) -> None:
        scheme, _, rest = url.toString().partition(":")
        try:
            turn_index, key = (int(x) for x in rest.split(":"))
            turn = self.current.turns[turn_index]
        except (ValueError, IndexError, AttributeError):
            log.warning("ignoring link %s", url.toString())
            return
        if scheme in ("cite", "preview"):
            record = turn.preview if scheme == "preview" else turn.cite(key)
            if record is not None:
                self.citationClicked.emit(record)
        elif scheme == "quotes":
            self.translate_quotes(turn)
        elif scheme == "section" and key < len(turn.nearest_sections):
            self.sectionClicked.emit(turn.nearest_sections[key], self.scope_bar.book_id or "")

    def translate_quotes(self, turn: Turn) -> None:
        """Have the model translate the quotes the turn's chips show into the student's language (on request: it
        takes a few seconds, and the book's own words stay what the chips show)."""
        cited = turn.cited_quotes()
        if not cited or turn.translating_quotes:
            return
        rid = self.runner.translate_quotes([s.quote for s in cited], turn.language, turn.original_language)
        if rid is None:
            return
        self._translating[rid] = (turn, [s.n for s in cited])
        turn.translating_quotes = True
        self.render()

    def _on_quotes(self, rid: int, result: object) -> None:
        turn, numbers = self._translating.pop(rid, (None, []))
        if turn is None:
            return
        turn.translating_quotes = False
        if isinstance(result, BaseException):
            show_error(self.window(), result)
        else:
            turn.quote_translations = dict(zip(numbers, result))
            self.store.save()
        self.render()

    def copy_answer(self) -> str:
        """Copy the last answer with its sources as plain text; returns what was copied."""
        turns = self.current.turns if self.current else []
        if not turns:
            return ""
        turn = turns[-1]
        cited = turn.cited()
        text = turn.answer.strip()
        if cited:
            text += "\n\nSources:\n" + "\n".join(f"[{s.n}] {s.label}" for s in cited)
        QGuiApplication.clipboard().setText(text)
        return text

    def _update_buttons(self) -> None:
        self.stop_btn.setEnabled(self.streaming is not None)
        self.copy_btn.setEnabled(bool(self.current and self.current.turns))
        self.streamingChanged.emit(self.streaming is not None)
