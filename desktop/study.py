"""The Study tab: practice, flashcard review, quizzes and chapter guides for any book.

Every tool starts from the chapter's lesson (``core.study.lesson``: what the chapter teaches, cached in
the library), so books without a glossary or exercises get practice, cards, quizzes and a guide too.
All library and model work runs on ``StudyJobs`` (one background thread, separate from imports and
the chat model's thread); results come back through queued signals, so slots run on the GUI thread.
Each tab has a status line that says what it is doing and, when it delivers fewer items than asked,
why; an empty tab offers the next useful action.  ``model_factory`` returns a chat model (or None);
the panel opens it lazily, only for quiz generation, and closes it on ``shutdown``.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import SIGNAL, QCoreApplication, QUrl, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QHBoxLayout, QLabel, QListWidgetItem, QTabWidget, QVBoxLayout,
                               QWidget)

from core.study import render
from desktop.conversations import CiteRecord
from desktop.errors import error_text
from desktop.settings import qsettings
from desktop.study_jobs import StudyJobs
from desktop.study_quiz import QuizActions
from desktop.study_tabs import cards_tab, guide_tab, practice_tab, quiz_tab

log = logging.getLogger(__name__)


class StudyPanel(QuizActions, QWidget):
    """Practice | Cards | Quiz | Guide for one book and chapter (chosen at the top).

    ``progressReady(book_id, {section_id: (heat, text)})`` reports study progress per section for the
    sidebar's heat-map; ``pageRequested(CiteRecord)`` asks the window to open the reader at a cited page
    (a card's, a quiz proof's, a guide line's); without a listener the panel asks its window directly.
    """

    progressReady = Signal(str, object)
    pageRequested = Signal(object)
    quizItemReady = Signal(object)  # a verified quiz item, from the study thread, while the rest are written

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
        self.answered: dict[int, bool] = {}
        self.guide_refs: list = []
        self.feedback_refs: list = []
        self._build()

    # -- construction ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.book = QComboBox()
        self.chapter = QComboBox()
        self.status = QLabel("")
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Book")))
        top.addWidget(self.book, 2)
        top.addWidget(QLabel(self.tr("Chapter")))
        top.addWidget(self.chapter, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(practice_tab(self), self.tr("Practice"))
        self.tabs.addTab(cards_tab(self), self.tr("Cards"))
        self.tabs.addTab(quiz_tab(self), self.tr("Quiz"))
        self.tabs.addTab(guide_tab(self), self.tr("Guide"))
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.status)
        self.book.currentIndexChanged.connect(self._book_changed)
        self.chapter.currentIndexChanged.connect(self._chapter_changed)
        self.jobs.emitter.progressed.connect(self._progressed)
        self.quizItemReady.connect(self._quiz_item_arrived)

    # -- book and chapter --------------------------------------------------------------------------
    def reload(self) -> None:
        """Refill the book list from the library (keeps the current book when it is still there).

        Called each time the tab is shown: when the library did not change, nothing is reloaded, so the
        chapter the student chose and a quiz half answered are still there after a visit to the chat."""
        current = self.book_id()
        ids = [b.id for b in self.library.books()]
        if current and ids == [self.book.itemData(i) for i in range(self.book.count())]:
            return
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
            chosen = self.chapter.findData(qsettings().value(f"study/chapter/{book_id}", ""))
            self.chapter.setCurrentIndex(max(chosen, 0))  # the chapter the student last chose in this book
        self.chapter.blockSignals(False)
        self._chapter_changed()

    def _chapter_changed(self) -> None:
        if not self.book_id():
            return
        if self.chapter_number():
            qsettings().setValue(f"study/chapter/{self.book_id()}", self.chapter_number())
        self.questions, self.q_index, self.answered = [], 0, {}
        self._show_question()
        self.quiz_status.setText("")
        self.load_practice()
        self.load_cards()
        self.load_guide()
        self.refresh_progress()
        self.update_saved_quiz()

    def next_chapter(self) -> None:
        """Empty-state action: move to the next chapter."""
        if self.chapter.currentIndex() + 1 < self.chapter.count():
            self.chapter.setCurrentIndex(self.chapter.currentIndex() + 1)

    def refresh_progress(self) -> None:
        """Recompute progress per section in the background and emit ``progressReady``."""
        from core.study.progress import heat, section_progress
        book = self.book_id()
        if not book:
            return

        def work(_progress):
            out = {}
            for r in section_progress(self.library, book):
                score = self.tr(", quiz {score}").format(score=f"{r.quiz_score:.0%}") if r.quiz_score is not None \
                    else ""
                out[r.section.id] = (heat(r), self.tr("practised {done}/{exercises}{quiz}, cards due {due}/{cards}, "
                                                      "asked {asked}").format(
                    done=r.practised, exercises=r.exercises, quiz=score, due=r.cards_due, cards=r.cards,
                    asked=r.asked))
            return out
        self.jobs.submit(work, lambda result: self.progressReady.emit(book, result), self._error)

    def _error(self, exc: BaseException) -> None:
        self.status.setText(error_text(exc))

    def _chat_model(self):
        with self._model_lock:  # called on the job thread
            if self._model is None and self.model_factory is not None:
                self._model = self.model_factory()
            return self._model

    def _lesson(self, book: str, chapter: str, progress=None):
        from core.study.lesson import chapter_lesson
        return chapter_lesson(self.library, book, chapter, progress=progress)

    # -- opening pages -----------------------------------------------------------------------------
    def _open_ref(self, ref) -> None:
        """Open the reader at a study item's page (``pageRequested``, or the window's ``open_citation``)."""
        if ref is None:
            return
        quote = ""
        if self.due and self.due[0].card.source is ref:
            quote = self.due[0].card.quote
        record = CiteRecord(n=1, book_id=ref.book_id, page_start=ref.page_start, page_end=ref.page_start,
                            printed_page=ref.printed_page, section_title=ref.section_title, label=ref.label,
                            quote=quote[:200], chunk_id=ref.chunk_id)
        if self.receivers(SIGNAL("pageRequested(PyObject)")) > 0:
            self.pageRequested.emit(record)
            return
        window = self.window()
        if window is not self and hasattr(window, "open_citation"):
            window.open_citation(record)

    def _open_link(self, url: QUrl, refs: list) -> None:
        scheme, _, value = url.toString().partition(":")
        if scheme == "page" and value.isdigit() and int(value) < len(refs):
            ref = refs[int(value)]
            self._open_ref(getattr(ref, "source", ref))
        elif scheme == "practice":
            self.tabs.setCurrentIndex(0)
            labels = [e.label for e in self.shown]
            if value in labels:
                self.exercise_list.setCurrentRow(labels.index(value))

    # -- practice ----------------------------------------------------------------------------------
    def load_practice(self) -> None:
        from core.study.drills import lesson_practice
        from core.study.practice import find_exercises
        book, chapter = self.book_id(), self.chapter_number()
        self.practice_status.setText(self.tr("Reading chapter {chapter} for exercises and practice…").format(
            chapter=chapter))

        def work(progress):
            own = [e for e in find_exercises(self.library.study_chunks(book)) if chapter is None
                   or e.source.chapter == chapter]
            lesson = self._lesson(book, chapter, progress) if chapter else None
            return own, (lesson_practice(lesson) if lesson else []), (lesson.size_note if lesson else "")
        self.jobs.submit(work, lambda found: self._show_exercises(*found, chapter), self._error)

    def _show_exercises(self, own: list, made: list, size_note: str, chapter: str | None) -> None:
        self.exercises = own + made
        self._fill_exercises(self.exercises)
        note = "" if self.exercises else self.tr("It has no exercises, and {size}: too little to practise on.").format(
            size=size_note)
        self.practice_status.setText(render.practice_summary(len(own), len(made), chapter or "", note,
                                                                 translate=QCoreApplication.translate))
        self.next_chapter_button.setVisible(not self.exercises)

    def _fill_exercises(self, items: list) -> None:
        self.shown = items
        self.exercise_list.clear()
        for e in items:
            mark = "" if not e.kind.generated else " ✎"
            self.exercise_list.addItem(QListWidgetItem(f"{e.label}{mark}  {' '.join(e.text.split())[:90]}"))
        self.exercise_text.setHtml("" if items else "<i>" + self.tr("Nothing to practise in this chapter. Try the next "
                                                                    "chapter, or ask the tutor about it in the Chat "
                                                                    "tab.") + "</i>")
        self.check_button.setEnabled(bool(items))
        self.like_button.setEnabled(bool(items))
        if items:
            self.exercise_list.setCurrentRow(0)

    def _exercise_selected(self, row: int) -> None:
        if 0 <= row < len(self.shown):
            self.exercise_text.setHtml(render.exercise_html(self.shown[row], QCoreApplication.translate))
            self.feedback.clear()

    def current_exercise(self):
        row = self.exercise_list.currentRow()
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def check_answer(self) -> None:
        from core.study.practice import feedback
        exercise, text = self.current_exercise(), self.answer.toPlainText()
        if exercise is None or not text.strip():
            self.practice_status.setText(self.tr("Type your answer first, then check it against the book."))
            return
        self.check_button.setEnabled(False)
        self.feedback.setHtml("<i>" + self.tr("Checking your answer against the book…") + "</i>")

        def work(_progress):
            from core.study.drills import by_meaning
            # the model explains the book's own exercises and judges a definition in the student's own words
            model = self._chat_model() if by_meaning(exercise) or not exercise.kind.generated else None
            fb = feedback(self.library, exercise, text, model=model)
            self.library.record_attempt(exercise.source.book_id, "practice", exercise.id,
                                        exercise.source.section_id, fb.score)
            return fb

        def done(fb) -> None:
            self.check_button.setEnabled(True)
            self.feedback_refs = list(fb.citations)
            self.feedback.setHtml(render.feedback_html(fb, code=exercise.kind.value in ("predict_output",
                                                                                          "worked_example"),
                                                       translate=QCoreApplication.translate))
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
            self.practice_status.setText(self.tr("Practice like {label}; change the chapter to see all again.").format(
                label=exercise.label))

    # -- cards -------------------------------------------------------------------------------------
    def load_cards(self, all_cards: bool = False) -> None:
        from core.study.lesson_cards import lesson_cards
        from core.study.schedule import new_schedule, now_iso
        book, chapter = self.book_id(), self.chapter_number()
        self.cards_info.setText(self.tr("Making cards from chapter {chapter}…").format(chapter=chapter))

        def work(progress):
            schedule, due = new_schedule()
            if chapter:
                self.library.add_cards(book, lesson_cards(self._lesson(book, chapter, progress)), schedule, due)
            every = self.library.cards(book, chapter=chapter)
            now = now_iso()
            return [c for c in every if all_cards or c.due <= now], every
        self.jobs.submit(work, lambda result: self._show_due(*result, all_cards=all_cards), self._error)

    def _cards_text(self, n: int) -> str:
        """"1 card", "3 cards" (in the interface's language)."""
        return self.tr("1 card") if n == 1 else self.tr("{n} cards").format(n=n)

    def _show_due(self, due: list, every: list | None = None, all_cards: bool = False) -> None:
        self.due = due
        every = every if every is not None else due
        self._every_card = every  # the chapter's cards: "No cards due" after the last one is rated, not "No cards"
        self.card_back.setText("")
        for b in self.rate_buttons.values():
            b.setEnabled(False)
        self.show_button.setEnabled(bool(due))
        self.page_button.setEnabled(bool(due))
        waiting = [c for c in every if c not in due]
        if due:
            text = (self.tr("{cards} to review ({total} in this chapter); the back of each is the book's own words, "
                            "“Open its page” shows where.") if all_cards else
                    self.tr("{cards} due ({total} in this chapter); the back of each is the book's own words, "
                            "“Open its page” shows where."))
            self.cards_info.setText(text.format(cards=self._cards_text(len(due)), total=len(every)))
            self.card_front.setText(due[0].card.front)
        elif every:
            nxt = min(c.due for c in waiting)[:10] if waiting else ""
            text = (self.tr("No cards due: all {cards} of this chapter are scheduled (next on {date}).") if nxt else
                    self.tr("No cards due: all {cards} of this chapter are scheduled."))
            self.cards_info.setText(text.format(cards=self._cards_text(len(every)), date=nxt))
            self.card_front.setText(self.tr("Nothing to review now."))
        else:
            self.cards_info.setText(self.tr("No cards: this chapter has no definitions, key terms or code examples "
                                            "to make cards from. Try the next chapter or the Guide."))
            self.card_front.setText("")
        self.review_all_button.setVisible(not due and bool(every))

    def reveal_card(self) -> None:
        if self.due:
            c = self.due[0].card
            self.card_back.setText(f"{render.html.escape(c.back)}<br>{render.cite(c.source)}".replace("\n", "<br>"))
            for b in self.rate_buttons.values():
                b.setEnabled(True)

    def open_card_page(self) -> None:
        """Open the reader at the current card's page."""
        if self.due:
            self._open_ref(self.due[0].card.source)

    def rate_card(self, name: str) -> None:
        from core.study.schedule import Rating, now_iso, review
        if not self.due:
            return
        card = self.due.pop(0)
        rating = Rating.parse(name)
        schedule, due = review(card.schedule, rating)
        self.library.save_review(card.id, int(rating), schedule, due, now_iso())
        if self.due:
            self._show_due(self.due, self._every_card)
        else:  # the chapter's cards again, with the schedules just saved (when the next one is due)
            self.load_cards()
        self.refresh_progress()

    def _choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export cards"), "cards.apkg",
                                              self.tr("Anki package (*.apkg);;CSV (*.csv)"))
        if path:
            self.export_cards(path)

    def export_cards(self, path: str) -> None:
        """Export this chapter's cards (all of them, due or not) to ``path`` (.apkg or .csv)."""
        from core.study.export import export_cards
        book = self.library.book(self.book_id())
        cards = self.library.cards(book.id, chapter=self.chapter_number())
        try:
            export_cards(cards, path, deck_name=f"Lantern: {book.title}", book_id=book.id, book_title=book.title)
            self.status.setText(self.tr("Exported {cards} to {path} (book, chapter, section and page as fields and "
                                        "tags)").format(cards=self._cards_text(len(cards)), path=path))
        except Exception as exc:  # a LanternError or an unwritable path
            self._error(exc)

    # -- guide -------------------------------------------------------------------------------------
    def load_guide(self) -> None:
        from core.study.guide import chapter_guide
        book, chapter = self.book_id(), self.chapter_number()
        if not chapter:
            self.guide_view.setHtml("<i>" + self.tr("This book has no numbered chapters.") + "</i>")
            return
        self.guide_status.setText(self.tr("Choosing the key sentences of chapter {chapter}…").format(chapter=chapter))

        def work(progress):
            return chapter_guide(self.library, book, chapter, progress=progress)
        self.jobs.submit(work, self._show_guide, self._error)

    def _show_guide(self, guide) -> None:
        text, self.guide_refs = render.guide_html(guide, QCoreApplication.translate)
        lines, sections, terms = len(guide.summary), len(guide.sections), len(guide.key_terms)
        if not lines:
            self.guide_status.setText(self.tr("This chapter has no sentences that read well on their own; open it in "
                                              "the reader instead."))
        else:
            self.guide_status.setText(self.tr("{sections}, {sentences} and {terms} — all in the book's own words; "
                                              "click a page to read it, “Try this” to practise.").format(
                sections=self.tr("1 section") if sections == 1 else self.tr("{n} sections").format(n=sections),
                sentences=self.tr("1 key sentence") if lines == 1 else self.tr("{n} key sentences").format(n=lines),
                terms=self.tr("1 key term") if terms == 1 else self.tr("{n} key terms").format(n=terms)))
        self.guide_view.setHtml(text)

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
