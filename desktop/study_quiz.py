"""The Study tab's quiz (a mixin of ``desktop.study.StudyPanel``): make a quiz on the study thread with
progress and Cancel, answering each item as soon as it is verified while the rest are written
(``quizItemReady``), or take the chapter's saved one at once; one question at a time, each answer checked
against the book and recorded as progress.  Uses the panel's widgets (``desktop.study_tabs.quiz_tab``),
``jobs``, ``library`` and ``cancel_event``, on the GUI thread."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.study import render
from core.study.quiz import grade
from core.study.quizgen import QUIZ_BUDGET_S, lesson_quiz, save_quiz, saved_quiz
from desktop.errors import error_text

translate = QCoreApplication.translate  # a mixin, not a QObject: lupdate reads translate("Study", ...)


class QuizActions:
    """Making, taking and saving quizzes."""

    def make_quiz(self) -> None:
        book, chapter, n = self.book_id(), self.chapter_number(), self.quiz_count.value()
        self.cancel_event.clear()
        self.quiz_progress.setRange(0, 0)
        self.quiz_status.setText(translate("Study", "Reading chapter {chapter}…").format(chapter=chapter))
        self._show_quiz(None, making=True)  # items arrive one by one (``_quiz_item_arrived``)

        def work(progress):
            lesson = self._lesson(book, chapter, progress)
            model = self._chat_model()
            if model is not None:
                name = getattr(model, "display_name", None) or translate("Study", "the model")
                progress(translate("Study", "writing questions with {model}").format(model=name), 0, n)
            run = lesson_quiz(lesson, n, model=model, progress=progress, cancel=self.cancel_event.is_set,
                              on_item=self.quizItemReady.emit, budget_s=QUIZ_BUDGET_S)
            if not self.cancel_event.is_set():
                save_quiz(self.library, book, chapter, run)  # the student (or a course pack) can take it again
            return run
        self.jobs.submit(work, self._quiz_made, self._quiz_failed)

    def _quiz_item_arrived(self, item) -> None:
        """A verified item while the rest are written: the student can answer it now."""
        if self.generate_button.isEnabled():
            return  # made by a quiz that has ended (cancelled), not this one
        self.questions.append(item)
        if self.q_index == len(self.questions) - 1:  # the student is waiting for this one
            self._show_question()

    def _quiz_made(self, run) -> None:
        """The quiz is complete: keep the student's place and answers, say what was made."""
        self._set_making(False)
        self.questions = list(run.questions)
        self.quiz_status.setText(render.quiz_summary(run.questions, self.quiz_count.value(), run.seconds, run.note,
                                                         QCoreApplication.translate))
        if self.q_index >= len(self.questions):  # waiting for an item that will not come: the score
            self._show_question()
        else:  # "1/4", not "1/5": the count is known now (the answer being given is left alone)
            self._show_question_text()
        self.update_saved_quiz()

    def update_saved_quiz(self) -> None:
        """Offer the chapter's saved quiz (one made here before, or a teacher's from a course pack)."""
        book, chapter = self.book_id(), self.chapter_number()
        run = saved_quiz(self.library, book, chapter) if book and chapter else None
        self.saved_button.setVisible(run is not None)
        if run is not None:
            self.saved_button.setText(translate("Study", "Take the saved quiz ({n})").format(n=len(run.questions)))

    def take_saved_quiz(self) -> None:
        """Show the saved quiz at once (no model, no waiting)."""
        run = saved_quiz(self.library, self.book_id(), self.chapter_number())
        if run is None:
            return
        self._show_quiz(run)
        text = (translate("Study", "The quiz saved for this chapter: {n} questions, written by {generator}.")
                if run.generator else translate("Study", "The quiz saved for this chapter: {n} questions."))
        self.quiz_status.setText(text.format(n=len(run.questions), generator=run.generator))

    def _progressed(self, _token: int, stage: str, done: int, total: int) -> None:
        if not self.generate_button.isEnabled():  # a quiz is being made
            if total:
                self.quiz_progress.setRange(0, total)
                self.quiz_progress.setValue(done)
            self.quiz_status.setText(translate("Study", "{stage} — {done} of {total} ready…").format(
                stage=f"{stage[:1].upper()}{stage[1:]}", done=done, total=total) if total
                else translate("Study", "{stage}…").format(stage=stage))

    def _quiz_failed(self, exc: BaseException) -> None:
        self._show_quiz(None)
        self.quiz_status.setText(translate("Study", "No quiz: {error}").format(error=error_text(exc)))

    def _set_making(self, making: bool) -> None:
        """While a quiz is made: Cancel and the progress bar instead of "Make a quiz"."""
        self.generate_button.setEnabled(not making)
        self.cancel_button.setEnabled(making)
        self.quiz_progress.setVisible(making)

    def _show_quiz(self, run, making: bool = False) -> None:
        self._set_making(making)
        self.questions, self.q_index = (list(run.questions) if run else []), 0
        self.answered = {}  # question index -> right or not: the score and the review at the end
        if run is not None:
            self.quiz_status.setText(render.quiz_summary(run.questions, self.quiz_count.value(), run.seconds,
                                                         run.note, QCoreApplication.translate))
        self._show_question()
        if not making:
            self.update_saved_quiz()

    def _current_question_ref(self):
        return self.questions[self.q_index].source if self.q_index < len(self.questions) else None

    def _show_question(self) -> None:
        self.quiz_result.setText("")
        if self.q_index >= len(self.questions) and not self.generate_button.isEnabled():
            self.question.setText(translate("Study", "Question {n} is being written from the book…").format(
                n=self.q_index + 1) if self.questions else
                translate("Study", "The first question is being written from the book…"))
            self._hide_answer_widgets()
            return
        if self.q_index >= len(self.questions):
            answered = [(self.questions[i], ok) for i, ok in sorted(self.answered.items())]
            self.question.setText("" if not self.questions else
                                  render.score_html(answered, len(self.questions), QCoreApplication.translate))
            self._hide_answer_widgets()
            return
        q = self.questions[self.q_index]
        self._show_question_text()
        self.choice_group.setExclusive(False)
        for b, text in zip(self.choice_buttons, list(q.choices) + [""] * 4):
            b.setChecked(False)
            b.setText(text)
            b.setVisible(bool(text))
        self.choice_group.setExclusive(True)
        self.typed_answer.clear()
        self.typed_answer.setVisible(not q.choices)  # a term to type: no options were worth offering
        if not q.choices:
            self.typed_answer.setFocus()

    def _show_question_text(self) -> None:
        """The current question with its place: "2/5" while the other items are written, then "2/4"."""
        making = not self.generate_button.isEnabled()
        total = max(len(self.questions), self.quiz_count.value()) if making else len(self.questions)
        self.question.setText(render.question_html(self.questions[self.q_index], self.q_index + 1, total,
                                                   QCoreApplication.translate))

    def _hide_answer_widgets(self) -> None:
        for b in self.choice_buttons:
            b.hide()
        self.typed_answer.hide()

    def _given_answer(self, q) -> str | None:
        """The student's answer to ``q``: the option ticked, or the term typed (None: nothing yet)."""
        if not q.choices:
            return self.typed_answer.text().strip() or None
        return q.choices[self.choice_group.checkedId()] if self.choice_group.checkedId() >= 0 else None

    def submit_choice(self) -> bool | None:
        if self.q_index >= len(self.questions):
            return None
        q = self.questions[self.q_index]
        given = self._given_answer(q)
        if given is None:
            return None
        ok = grade(q, given)
        self.answered.setdefault(self.q_index, ok)  # the first answer counts
        self.quiz_result.setText(render.result_html(q, ok, QCoreApplication.translate))
        self.library.record_attempt(q.source.book_id, "quiz", q.question[:200], q.source.section_id, float(ok))
        self.refresh_progress()
        return ok

    def next_question(self) -> None:
        self.q_index += 1
        self._show_question()
