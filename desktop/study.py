"""The Study tab: practice with the book's exercises, flashcard review, quizzes and chapter guides.

All library and model work runs on ``StudyJobs`` (one background thread, separate from imports and
the chat model's thread); results come back through queued signals, so slots run on the GUI thread.
``model_factory`` returns a chat model (or None for the extractive / glossary-based modes); the
panel opens it lazily, only for quiz generation and feedback, and closes it on ``shutdown``.
"""
from __future__ import annotations

import html
import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPlainTextEdit, QProgressBar, QPushButton, QRadioButton, QSpinBox,
                               QTabWidget, QTextBrowser, QVBoxLayout, QWidget)

from desktop.errors import error_text
from desktop.study_jobs import StudyJobs

log = logging.getLogger(__name__)


def _cite(ref) -> str:
    return f"<small style='color:#666'>— {html.escape(ref.label)}</small>"


class StudyPanel(QWidget):
    """Practice | Cards | Quiz | Guide for one book and chapter (chosen at the top).

    ``progressReady(book_id, {section_id: (heat, text)})`` reports study progress per section (after
    loading and after every answer or review) for the sidebar's heat-map.
    """

    progressReady = Signal(str, object)

    def __init__(self, library, *, model_factory: Callable[[], Any] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.library = library
        self.model_factory = model_factory
        self._model = None
        self._model_lock = threading.Lock()
        self.jobs = StudyJobs(self)
        self.cancel_event = threading.Event()
        self.exercises: list = []
        self.shown: list = []
        self.due: list = []
        self.questions: list = []
        self.q_index = 0
        self._build()

    # -- construction ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.book = QComboBox()
        self.chapter = QComboBox()
        self.status = QLabel("")
        top = QHBoxLayout()
        top.addWidget(QLabel("Book"))
        top.addWidget(self.book, 2)
        top.addWidget(QLabel("Chapter"))
        top.addWidget(self.chapter, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._practice_tab(), "Practice")
        self.tabs.addTab(self._cards_tab(), "Cards")
        self.tabs.addTab(self._quiz_tab(), "Quiz")
        self.tabs.addTab(self._guide_tab(), "Guide")
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.status)
        self.book.currentIndexChanged.connect(self._book_changed)
        self.chapter.currentIndexChanged.connect(self._chapter_changed)

    def _practice_tab(self) -> QWidget:
        w = QWidget()
        self.exercise_list = QListWidget()
        self.exercise_text = QTextBrowser()
        self.answer = QPlainTextEdit()
        self.answer.setPlaceholderText("Your answer")
        self.answer.setMaximumHeight(70)
        self.check_button = QPushButton("Check my answer")
        self.like_button = QPushButton("Exercises like this")
        self.feedback = QTextBrowser()
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.like_button)
        layout = QVBoxLayout(w)
        for widget, stretch in ((self.exercise_list, 2), (self.exercise_text, 2), (self.answer, 0)):
            layout.addWidget(widget, stretch)
        layout.addLayout(buttons)
        layout.addWidget(self.feedback, 2)
        self.exercise_list.currentRowChanged.connect(self._exercise_selected)
        self.check_button.clicked.connect(self.check_answer)
        self.like_button.clicked.connect(self.show_like)
        return w

    def _cards_tab(self) -> QWidget:
        w = QWidget()
        self.cards_info = QLabel("")
        self.card_front = QLabel("")
        self.card_front.setWordWrap(True)
        self.card_front.setStyleSheet("font-size: 15pt; font-weight: 600")
        self.card_back = QLabel("")
        self.card_back.setWordWrap(True)
        self.card_back.setTextFormat(Qt.TextFormat.RichText)
        self.show_button = QPushButton("Show answer")
        self.rate_buttons = {name: QPushButton(name.capitalize()) for name in ("again", "hard", "good", "easy")}
        self.export_button = QPushButton("Export…")
        rates = QHBoxLayout()
        for b in self.rate_buttons.values():
            rates.addWidget(b)
            b.setEnabled(False)
        layout = QVBoxLayout(w)
        layout.addWidget(self.cards_info)
        layout.addWidget(self.card_front, 1)
        layout.addWidget(self.show_button)
        layout.addWidget(self.card_back, 1)
        layout.addLayout(rates)
        layout.addWidget(self.export_button)
        self.show_button.clicked.connect(self.reveal_card)
        for name, b in self.rate_buttons.items():
            b.clicked.connect(lambda _=False, n=name: self.rate_card(n))
        self.export_button.clicked.connect(self._choose_export)
        return w

    def _quiz_tab(self) -> QWidget:
        w = QWidget()
        self.quiz_count = QSpinBox()
        self.quiz_count.setRange(1, 30)
        self.quiz_count.setValue(5)
        self.generate_button = QPushButton("Make a quiz")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.quiz_progress = QProgressBar()
        self.quiz_progress.hide()
        self.question = QLabel("")
        self.question.setWordWrap(True)
        self.choice_group = QButtonGroup(self)
        self.choice_buttons = [QRadioButton("") for _ in range(4)]
        self.submit_button = QPushButton("Check")
        self.next_button = QPushButton("Next question")
        self.quiz_result = QLabel("")
        self.quiz_result.setWordWrap(True)
        self.quiz_result.setTextFormat(Qt.TextFormat.RichText)
        row = QHBoxLayout()
        row.addWidget(QLabel("Questions"))
        row.addWidget(self.quiz_count)
        row.addWidget(self.generate_button)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(w)
        layout.addLayout(row)
        layout.addWidget(self.quiz_progress)
        layout.addWidget(self.question)
        for i, b in enumerate(self.choice_buttons):
            self.choice_group.addButton(b, i)
            layout.addWidget(b)
            b.hide()
        nav = QHBoxLayout()
        nav.addWidget(self.submit_button)
        nav.addWidget(self.next_button)
        layout.addLayout(nav)
        layout.addWidget(self.quiz_result, 1)
        self.generate_button.clicked.connect(self.make_quiz)
        self.cancel_button.clicked.connect(self.cancel_event.set)
        self.submit_button.clicked.connect(self.submit_choice)
        self.next_button.clicked.connect(self.next_question)
        self.jobs.emitter.progressed.connect(self._quiz_progressed)
        return w

    def _guide_tab(self) -> QWidget:
        w = QWidget()
        self.guide_view = QTextBrowser()
        layout = QVBoxLayout(w)
        layout.addWidget(self.guide_view)
        return w

    # -- book and chapter --------------------------------------------------------------------------
    def reload(self) -> None:
        """Refill the book list from the library (keeps the current book when it is still there)."""
        current = self.book_id()
        self.book.blockSignals(True)
        self.book.clear()
        for b in self.library.books():
            self.book.addItem(b.title, b.id)
        self.book.blockSignals(False)
        idx = self.book.findData(current) if current else 0
        self.book.setCurrentIndex(max(idx, 0))
        self._book_changed()

    def set_book(self, book_id: str) -> None:
        idx = self.book.findData(book_id)
        if idx >= 0:
            self.book.setCurrentIndex(idx)

    def book_id(self) -> str | None:
        return self.book.currentData()

    def chapter_number(self) -> str | None:
        return self.chapter.currentData()

    def _book_changed(self) -> None:
        book_id = self.book_id()
        self.chapter.blockSignals(True)
        self.chapter.clear()
        if book_id:
            for s in self.library.sections(book_id):
                if s.level == 1 and s.number:
                    self.chapter.addItem(s.display, s.number)
        self.chapter.blockSignals(False)
        self._chapter_changed()

    def _chapter_changed(self) -> None:
        if not self.book_id():
            return
        self.load_practice()
        self.load_cards()
        self.load_guide()
        self.refresh_progress()

    def refresh_progress(self) -> None:
        """Recompute progress per section in the background and emit ``progressReady``."""
        from core.study.progress import heat, section_progress
        book = self.book_id()
        if not book:
            return

        def work(_progress):
            out = {}
            for r in section_progress(self.library, book):
                score = f", quiz {r.quiz_score:.0%}" if r.quiz_score is not None else ""
                out[r.section.id] = (heat(r), f"practised {r.practised}/{r.exercises}{score}, "
                                              f"cards due {r.cards_due}/{r.cards}, asked {r.asked}")
            return out
        self.jobs.submit(work, lambda result: self.progressReady.emit(book, result), self._error)

    def _error(self, exc: BaseException) -> None:
        self.status.setText(error_text(exc))

    def _chat_model(self):
        with self._model_lock:  # called on the job thread
            if self._model is None and self.model_factory is not None:
                self._model = self.model_factory()
            return self._model

    # -- practice ----------------------------------------------------------------------------------
    def load_practice(self) -> None:
        from core.study.practice import find_exercises
        book, chapter = self.book_id(), self.chapter_number()

        def work(_progress):
            return find_exercises(self.library.study_chunks(book))
        self.jobs.submit(work, lambda found: self._show_exercises(found, chapter), self._error)

    def _show_exercises(self, found: list, chapter: str | None) -> None:
        self.exercises = found
        self._fill_exercises([e for e in found if chapter is None or e.source.chapter == chapter])

    def _fill_exercises(self, items: list) -> None:
        self.shown = items
        self.exercise_list.clear()
        for e in items:
            self.exercise_list.addItem(QListWidgetItem(f"{e.label}  {' '.join(e.text.split())[:90]}"))
        self.exercise_text.setHtml("" if items else "<i>No exercises found in this chapter.</i>")
        if items:
            self.exercise_list.setCurrentRow(0)

    def _exercise_selected(self, row: int) -> None:
        if 0 <= row < len(self.shown):
            e = self.shown[row]
            body = html.escape(e.text).replace("\n", "<br>")
            self.exercise_text.setHtml(f"<b>{html.escape(e.label)}</b><br>{body}<br>{_cite(e.source)}")
            self.feedback.clear()

    def current_exercise(self):
        row = self.exercise_list.currentRow()
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def check_answer(self) -> None:
        from core.study.practice import feedback
        exercise, text = self.current_exercise(), self.answer.toPlainText()
        if exercise is None or not text.strip():
            return
        self.check_button.setEnabled(False)
        self.feedback.setHtml("<i>Checking…</i>")

        def work(_progress):
            fb = feedback(self.library, exercise, text, model=self._chat_model())
            self.library.record_attempt(exercise.source.book_id, "practice", exercise.id,
                                        exercise.source.section_id, fb.score)
            return fb

        def done(fb) -> None:
            self.check_button.setEnabled(True)
            cites = "".join(f"<li>[{c.n}] {html.escape(c.label)}</li>" for c in fb.citations)
            body = html.escape(fb.text).replace("\n", "<br>")
            self.feedback.setHtml(f"<b>{fb.verdict.value.capitalize()}</b><br>{body}<ul>{cites}</ul>")
            self.refresh_progress()

        def failed(exc) -> None:
            self.check_button.setEnabled(True)
            self._error(exc)
        self.jobs.submit(work, done, failed)

    def show_like(self) -> None:
        from core.study.practice import exercises_like
        exercise = self.current_exercise()
        if exercise is not None:
            self._fill_exercises([exercise, *exercises_like(self.exercises, exercise, k=5)])

    # -- cards -------------------------------------------------------------------------------------
    def load_cards(self) -> None:
        from core.study.cards import extract_cards
        from core.study.schedule import new_schedule, now_iso
        book, chapter = self.book_id(), self.chapter_number()

        def work(_progress):
            schedule, due = new_schedule()
            self.library.add_cards(book, extract_cards(self.library.study_chunks(book, chapter=chapter)),
                                   schedule, due)
            return self.library.cards(book, chapter=chapter, due_before=now_iso())
        self.jobs.submit(work, self._show_due, self._error)

    def _show_due(self, due: list) -> None:
        self.due = due
        self.cards_info.setText(f"{len(due)} cards due")
        self.card_back.setText("")
        for b in self.rate_buttons.values():
            b.setEnabled(False)
        self.show_button.setEnabled(bool(due))
        self.card_front.setText(due[0].card.front if due else "No cards due in this chapter.")

    def reveal_card(self) -> None:
        if self.due:
            c = self.due[0].card
            self.card_back.setText(f"{html.escape(c.back)}<br>{_cite(c.source)}")
            for b in self.rate_buttons.values():
                b.setEnabled(True)

    def rate_card(self, name: str) -> None:
        from core.study.schedule import Rating, now_iso, review
        if not self.due:
            return
        card = self.due.pop(0)
        rating = Rating.parse(name)
        schedule, due = review(card.schedule, rating)
        self.library.save_review(card.id, int(rating), schedule, due, now_iso())
        self._show_due(self.due)
        self.refresh_progress()

    def _choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export cards", "cards.apkg", "Anki package (*.apkg);;CSV (*.csv)")
        if path:
            self.export_cards(path)

    def export_cards(self, path: str) -> None:
        """Export this chapter's cards (all of them, due or not) to ``path`` (.apkg or .csv)."""
        from core.study.export import export_cards
        book = self.library.book(self.book_id())
        cards = self.library.cards(book.id, chapter=self.chapter_number())
        try:
            export_cards(cards, path, deck_name=f"Lantern: {book.title}", book_id=book.id)
            self.status.setText(f"Exported {len(cards)} cards to {path}")
        except Exception as exc:  # a LanternError or an unwritable path
            self._error(exc)

    # -- quiz --------------------------------------------------------------------------------------
    def make_quiz(self) -> None:
        from core.study.quiz import glossary_quiz, model_quiz
        book, chapter, n = self.book_id(), self.chapter_number(), self.quiz_count.value()
        self.cancel_event.clear()
        self.generate_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.quiz_progress.show()
        self.quiz_progress.setRange(0, 0)

        def work(progress):
            chunks = self.library.study_chunks(book, chapter=chapter)
            model = self._chat_model()
            questions: tuple = ()
            if model is not None:
                questions = model_quiz(model, chunks, n, progress=progress, cancel=self.cancel_event.is_set).questions
            if len(questions) < n and not self.cancel_event.is_set():
                questions += glossary_quiz(chunks, n - len(questions)).questions
            return list(questions)
        self.jobs.submit(work, self._show_quiz, self._quiz_failed)

    def _quiz_progressed(self, _token: int, done: int, total: int) -> None:
        if total:
            self.quiz_progress.setRange(0, total)
            self.quiz_progress.setValue(done)

    def _quiz_failed(self, exc: BaseException) -> None:
        self._show_quiz([])
        self._error(exc)

    def _show_quiz(self, questions: list) -> None:
        self.generate_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.quiz_progress.hide()
        self.questions, self.q_index = questions, 0
        self._show_question()

    def _show_question(self) -> None:
        self.quiz_result.setText("")
        if self.q_index >= len(self.questions):
            self.question.setText("No questions." if not self.questions else "End of the quiz.")
            for b in self.choice_buttons:
                b.hide()
            return
        q = self.questions[self.q_index]
        self.question.setText(f"{self.q_index + 1}/{len(self.questions)}. {q.question}")
        self.choice_group.setExclusive(False)
        for b, text in zip(self.choice_buttons, list(q.choices) + [""] * 4):
            b.setChecked(False)
            b.setText(text)
            b.setVisible(bool(text))
        self.choice_group.setExclusive(True)

    def submit_choice(self) -> bool | None:
        from core.study.quiz import grade
        if self.q_index >= len(self.questions) or self.choice_group.checkedId() < 0:
            return None
        q = self.questions[self.q_index]
        ok = grade(q, q.choices[self.choice_group.checkedId()])
        verdict = "Right!" if ok else f"Not quite: the answer is <b>{html.escape(q.answer)}</b>."
        self.quiz_result.setText(f"{verdict}<br><i>{html.escape(q.evidence)}</i><br>{_cite(q.source)}")
        self.library.record_attempt(q.source.book_id, "quiz", q.question[:200], q.source.section_id, float(ok))
        self.refresh_progress()
        return ok

    def next_question(self) -> None:
        self.q_index += 1
        self._show_question()

    # -- guide -------------------------------------------------------------------------------------
    def load_guide(self) -> None:
        from core.study.guide import chapter_guide
        book, chapter = self.book_id(), self.chapter_number()
        if not chapter:
            self.guide_view.setHtml("<i>This book has no numbered chapters.</i>")
            return

        def work(_progress):
            return chapter_guide(self.library, book, chapter)
        self.jobs.submit(work, self._show_guide, self._error)

    def _show_guide(self, guide) -> None:
        parts = [f"<h2>Chapter {html.escape(guide.chapter)}: {html.escape(guide.title)}</h2>"]
        for heading, items in (("Objectives", guide.objectives), ("Summary", guide.summary),
                               ("Key terms", guide.key_terms)):
            if items:
                parts.append(f"<h3>{heading}</h3><ul>")
                parts += [f"<li>{html.escape(i.text)} {_cite(i.source)}</li>" for i in items]
                parts.append("</ul>")
        self.guide_view.setHtml("".join(parts))

    # -- lifecycle ---------------------------------------------------------------------------------
    def forget_model(self) -> None:
        """Drop the cached chat model (the engine changed); the next job asks ``model_factory`` again."""
        with self._model_lock:
            self._model = None

    def shutdown(self, wait_ms: int = 15_000) -> None:
        """Stop quiz generation, wait for the job thread, close the chat model if one was opened."""
        self.cancel_event.set()
        self.jobs.wait(wait_ms)
        if self._model is not None:
            self._model.close()
            self._model = None
