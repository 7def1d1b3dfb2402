"""The Study tab (pytest-qt): practice with feedback, card review and export, a quiz, the guide."""
from __future__ import annotations

import html
import zipfile

import pytest
from PySide6.QtCore import Qt

from core.library import Library
from core.paths import sample_books
from desktop.study import StudyPanel
from tests.fakes import FakeEmbedder
from tests.waiting import wait_for, wait_signal


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    embedder = FakeEmbedder()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("core.index.embedder.default_embedder", lambda: embedder)
        with Library(tmp_path_factory.mktemp("study-ui") / "lib", embedder=embedder) as lib:
            lib.import_book(sample_books()[0].with_suffix(".md"))
            yield lib


@pytest.fixture
def panel(qtbot, library):
    w = StudyPanel(library)  # no model factory: extractive feedback, glossary quizzes
    qtbot.addWidget(w)
    w.reload()
    wait_for(qtbot, lambda: not w.jobs.busy(), "the study job to finish")
    yield w
    w.shutdown()


def test_practice_lists_chapter_exercises_and_gives_cited_feedback(qtbot, panel):
    assert panel.chapter.count() >= 4 and panel.chapter_number() == "1"
    labels = [e.label for e in panel.shown]
    assert labels[:5] == ["1.1", "1.2", "1.3", "1.4", "1.5"]  # the book's own exercises first
    assert all(e.kind.generated for e in panel.shown[5:]) and len(labels) > 5  # then items made from the text
    assert "5 exercises from the book" in panel.practice_status.text()
    assert "items made from its text" in panel.practice_status.text()
    panel.exercise_list.setCurrentRow(1)
    assert "90 km/h" in panel.exercise_text.toPlainText()
    panel.answer.setPlainText("25 m/s")
    panel.check_answer()
    wait_for(qtbot, lambda: "Correct" in panel.feedback.toPlainText(), '"Correct" in panel.feedback.toPlainText()')
    assert "[1]" in panel.feedback.toPlainText()
    panel.show_like()
    assert panel.shown[0].label == "1.2" and len(panel.shown) > 1


def test_cards_review_and_export(qtbot, panel, tmp_path):
    panel.tabs.setCurrentIndex(1)
    due_before = len(panel.due)
    assert due_before > 0 and panel.card_front.text() == panel.due[0].card.front
    panel.reveal_card()
    assert panel.card_back.text() and panel.rate_buttons["good"].isEnabled()
    panel.rate_card("good")
    assert len(panel.due) == due_before - 1
    panel.export_cards(str(tmp_path / "ch1.apkg"))
    with zipfile.ZipFile(tmp_path / "ch1.apkg") as zf:
        assert "collection.anki2" in zf.namelist()


def make_quiz(qtbot, panel, chapter: str, n: int) -> None:
    """Choose ``chapter``, make an ``n``-question quiz and wait until it is shown."""
    panel.chapter.setCurrentIndex(panel.chapter.findData(chapter))
    wait_for(qtbot, lambda: not panel.jobs.busy(), "the study job to finish")
    panel.quiz_count.setValue(n)
    panel.make_quiz()
    wait_for(qtbot, lambda: panel.generate_button.isEnabled(), "the quiz to be made")


def test_quiz_without_a_model(qtbot, panel):
    make_quiz(qtbot, panel, "2", 2)
    assert len(panel.questions) == 2
    q = panel.questions[0]
    panel.choice_buttons[list(q.choices).index(q.answer)].setChecked(True)
    assert panel.submit_choice() is True and "Right" in panel.quiz_result.text()
    panel.next_question()
    assert "2/2" in panel.question.text()


def test_the_end_of_a_quiz_gives_the_score_and_reviews_the_misses(qtbot, panel):
    make_quiz(qtbot, panel, "2", 2)
    first, second = panel.questions
    panel.choice_buttons[list(first.choices).index(first.answer)].setChecked(True)
    assert panel.submit_choice() is True
    panel.next_question()
    wrong = next(c for c in second.choices if c != second.answer)
    panel.choice_buttons[list(second.choices).index(wrong)].setChecked(True)
    assert panel.submit_choice() is False
    panel.next_question()
    end = panel.question.text()
    assert "Your score: 1 of 2" in end and "To review" in end and second.answer in end
    assert html.escape(first.question) not in end and html.escape(second.source.label.split(",")[0]) in end


def test_a_made_quiz_is_saved_and_can_be_taken_again_at_once(qtbot, panel):
    from core.study.quizgen import saved_quiz
    library, book = panel.library, panel.book_id()
    make_quiz(qtbot, panel, "2", 2)
    made = [q.question for q in panel.questions]
    assert not panel.saved_button.isHidden() and panel.saved_button.text() == "Take the saved quiz (2)"
    panel.chapter.setCurrentIndex(panel.chapter.findData("1"))
    wait_for(qtbot, lambda: not panel.jobs.busy(), "the study job to finish")
    assert panel.questions == [] and panel.saved_button.isHidden() == (saved_quiz(library, book, "1") is None)
    panel.chapter.setCurrentIndex(panel.chapter.findData("2"))
    wait_for(qtbot, lambda: not panel.jobs.busy(), "the study job to finish")
    panel.saved_button.click()
    assert [q.question for q in panel.questions] == made and "saved for this chapter: 2" in panel.quiz_status.text()
    q = panel.questions[0]
    panel.choice_buttons[list(q.choices).index(q.answer)].setChecked(True)
    assert panel.submit_choice() is True


def test_the_chosen_chapter_and_a_quiz_in_progress_survive_a_visit_to_the_chat_and_a_restart(qtbot, panel):
    make_quiz(qtbot, panel, "2", 2)
    panel.next_question()
    asked = list(panel.questions)
    panel.reload()  # what showing the Study tab again does
    assert panel.chapter_number() == "2" and panel.questions == asked and panel.q_index == 1
    again = StudyPanel(panel.library)  # the next start of the app
    qtbot.addWidget(again)
    again.reload()
    assert again.chapter_number() == "2"
    wait_for(qtbot, lambda: not again.jobs.busy(), "the study job to finish")
    again.shutdown()


def test_guide(qtbot, panel):
    wait_for(qtbot, lambda: "You should be able to" in panel.guide_view.toPlainText(),
             '"You should be able to" in panel.guide_view.toPlainText()')
    assert "Key terms" in panel.guide_view.toPlainText() and "key sentence" in panel.guide_status.text()
    assert "Try this" in panel.guide_view.toPlainText()


def test_card_opens_its_page_and_counts_read_right(qtbot, panel):
    opened = []
    panel.pageRequested.connect(opened.append)
    panel.tabs.setCurrentIndex(1)
    card = panel.due[0].card
    panel.open_card_page()
    assert opened and opened[0].page_start == card.source.page_start and opened[0].book_id == card.source.book_id
    panel._show_due(panel.due[:1], panel.due[:1])
    assert panel.cards_info.text().startswith("1 card due (1 in this chapter)")
    panel._show_due([], panel.due[:1])
    assert "No cards due" in panel.cards_info.text() and panel.review_all_button.isVisibleTo(panel)


def test_quiz_says_why_it_has_fewer_questions(qtbot, panel):
    panel.quiz_count.setValue(30)
    panel.make_quiz()
    wait_for(qtbot, lambda: panel.generate_button.isEnabled(), "the quiz to be made")
    got = len(panel.questions)
    assert got < 30
    assert (f"{got} of 30 questions" if got else "No questions") in panel.quiz_status.text()
    assert "pages of text" in panel.quiz_status.text() or "page of text" in panel.quiz_status.text()


def test_main_window_has_a_study_tab_that_loads_when_shown(qtbot, library):
    from desktop.main_window import MainWindow
    from desktop.settings import AppSettings
    window = MainWindow(library, settings=AppSettings(), warm_up=False)
    qtbot.addWidget(window)
    window.study.model_factory = None  # no chat model in this test
    assert window.study.book.count() == 0  # nothing loaded while the Chat tab is showing
    window.center.setCurrentWidget(window.study)
    wait_for(qtbot, lambda: len(window.study.shown) > 5, "len(window.study.shown) > 5")
    window.shutdown()


def test_quiz_with_a_model_runs_in_the_background_and_closes_the_model(qtbot, library):
    from tests.core.study.conftest import ScriptedJsonModel
    reply = {"question": "What is the name of the energy stored by lifting an object?",
             "distractors": ["kinetic energy", "work", "power"]}
    model = ScriptedJsonModel([reply] * 10)
    w = StudyPanel(library, model_factory=lambda: model)
    qtbot.addWidget(w)
    w.reload()
    wait_for(qtbot, lambda: not w.jobs.busy(), "the study job to finish")
    w.chapter.setCurrentIndex(w.chapter.findData("2"))
    wait_for(qtbot, lambda: not w.jobs.busy(), "the study job to finish")
    w.quiz_count.setValue(2)
    w.make_quiz()
    wait_for(qtbot, lambda: w.generate_button.isEnabled(), "the quiz to be made")
    assert len(w.questions) == 2 and model.prompts  # the model was asked (glossary tops up what it misses)
    w.shutdown()
    assert model.closed


def test_progress_heat_map_reaches_the_sidebar(qtbot, library):
    from desktop.main_window import MainWindow
    from desktop.settings import AppSettings
    window = MainWindow(library, settings=AppSettings(), warm_up=False)
    qtbot.addWidget(window)
    window.study.model_factory = None
    window.center.setCurrentWidget(window.study)
    wait_for(qtbot, lambda: len(window.study.shown) > 5, "len(window.study.shown) > 5")
    wait_for(qtbot, lambda: not window.study.jobs.busy(), "the study job to finish")  # the first progress is in
    exercise = window.study.shown[0]
    window.study.answer.setPlainText("8.0 km")
    with wait_signal(qtbot, window.study.progressReady, "the progress after checking an answer") as blocker:
        window.study.check_answer()
    book_id, progress = blocker.args
    assert progress[exercise.source.section_id][0] > 0
    book = window.sidebar.model.book_item(book_id)
    shaded = []
    stack = [book]
    while stack:
        item = stack.pop()
        for row in range(item.rowCount()):
            child = item.child(row, 0)
            stack.append(child)
            if "Study: practised" in child.toolTip() and child.background().color().alpha() > 0:
                shaded.append(child.text())
    assert shaded
    window.shutdown()


def test_a_quiz_item_can_be_answered_while_later_items_are_written(qtbot, panel):
    from core.study.lesson import chapter_lesson
    from core.study.quizgen import lesson_quiz
    run = lesson_quiz(chapter_lesson(panel.library, panel.book_id(), "2"), 2)
    panel.quiz_count.setValue(2)
    panel.generate_button.setEnabled(False)  # as make_quiz leaves it while the study thread writes
    panel._show_quiz(None, making=True)
    assert "being written" in panel.question.text()
    panel.quizItemReady.emit(run.questions[0])
    assert "1/2" in panel.question.text()  # the count asked for, while the rest are written
    q = panel.questions[0]
    panel.choice_buttons[list(q.choices).index(q.answer)].setChecked(True)
    assert panel.submit_choice() is True
    panel.next_question()
    assert "Question 2 is being written" in panel.question.text()
    panel.quizItemReady.emit(run.questions[1])  # it arrives while the student waits: shown at once
    assert panel.q_index == 1 and not panel.choice_buttons[0].isHidden()
    panel._quiz_made(run)
    assert panel.generate_button.isEnabled() and panel.answered == {0: True} and panel.q_index == 1


def test_rating_the_last_due_card_says_none_are_due_not_that_the_chapter_has_none(qtbot, panel):
    panel.tabs.setCurrentIndex(1)
    panel.load_cards(all_cards=True)
    wait_for(qtbot, lambda: not panel.jobs.busy(), "the cards to load")
    total = len(panel.due)
    assert total > 0
    while panel.due:
        panel.rate_card("good")
        wait_for(qtbot, lambda: not panel.jobs.busy(), "the cards to reload")
    assert panel.cards_info.text().startswith(f"No cards due: all {total} cards of this chapter are scheduled")


def test_a_term_to_type_is_answered_in_a_line_and_checked(qtbot, panel):
    import dataclasses
    from core.study.quiz import QuizRun
    make_quiz(qtbot, panel, "2", 1)
    typed = dataclasses.replace(panel.questions[0], choices=())  # an item with no options worth offering
    panel._show_quiz(QuizRun((typed,), 1))
    assert not panel.typed_answer.isHidden() and all(b.isHidden() for b in panel.choice_buttons)
    assert "type the missing term" in panel.question.text()
    assert panel.submit_choice() is None  # nothing typed yet: nothing graded
    qtbot.keyClicks(panel.typed_answer, typed.answer.upper())
    qtbot.keyClick(panel.typed_answer, Qt.Key.Key_Return)
    assert "Right" in panel.quiz_result.text() and panel.answered == {0: True}
    panel.next_question()
    assert panel.typed_answer.isHidden() and "Your score: 1 of 1" in panel.question.text()


def test_the_question_count_is_the_quizs_own_once_it_is_made(qtbot, panel):
    from core.study.quiz import QuizRun
    make_quiz(qtbot, panel, "2", 2)
    first = panel.questions[0]
    panel._show_quiz(None, making=True)  # a quiz of 5 asked for, being made: the first item arrives
    panel.quiz_count.setValue(5)
    panel._quiz_item_arrived(first)
    assert "1/5" in panel.question.text()
    panel._quiz_made(QuizRun((first,), 1))  # only one could be made
    assert "1/1" in panel.question.text()
