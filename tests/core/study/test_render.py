"""The Study tab's texts: counts that read right, and summaries that say why fewer items came."""
from __future__ import annotations

from core.study.lesson import chapter_lesson
from core.study.guide import build_guide
from core.study.quizgen import lesson_quiz
from core.study.render import guide_html, plural, practice_summary, quiz_summary, score_html


def test_counts_read_right():
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards" and plural(2, "quiz", "quizzes") == \
        "2 quizzes"
    assert practice_summary(0, 1, "7") == "Chapter 7 has no exercises, so here is 1 item made from its text; " \
                                          "every answer is the book's own."
    assert practice_summary(0, 0, "7", "It has no exercises.").startswith("No practice in chapter 7.")


def test_quiz_summary_and_guide_links(manual):
    lib, book_id = manual
    lesson = chapter_lesson(lib, book_id, "3")
    run = lesson_quiz(lesson, 3)
    text = quiz_summary(run.questions, 3, run.seconds, run.note)
    assert text.startswith("3 questions (") and "checked against the book" in text
    empty = quiz_summary((), 5, 0.0, "No questions: chapter 9 has one page of text.")
    assert empty.startswith("No questions: chapter 9 has one page of text.") and "Guide" in empty
    html, refs = guide_html(build_guide(book_id, "3", lib.study_chunks(book_id, chapter="3"), lesson))
    assert "href='practice:3." in html and "href='page:0'" in html and refs


def test_the_score_reviews_each_miss_with_the_books_sentence_and_page():
    from core.study.models import QuestionType, QuizQuestion, SourceRef
    ref = SourceRef(3, "b", "3", "3.2", "Norms", 7, "65")
    q1 = QuizQuestion("What are folkways?", ("a", "b"), "everyday norms", ref, "", "Folkways are everyday norms.",
                      QuestionType.MULTIPLE_CHOICE)
    q2 = QuizQuestion("What are mores?", ("a", "b"), "moral norms", ref, "", "Mores are moral norms.",
                      QuestionType.MULTIPLE_CHOICE)
    assert score_html([(q1, True), (q2, True)], 2) == "<b>Your score: 2 of 2</b>. All right."
    review = score_html([(q1, True), (q2, False)], 3)
    assert review.startswith("<b>Your score: 1 of 3</b> (1 not answered). To review:")
    assert "moral norms" in review and "Mores are moral norms." in review and "3.2 Norms, p. 65" in review
    assert "What are folkways?" not in review


def test_the_interface_words_follow_the_translator_and_the_books_words_do_not():
    from core.study.models import QuestionType, QuizQuestion, SourceRef
    ref = SourceRef(3, "b", "3", "3.2", "Norms", 7, "65")
    q = QuizQuestion("What are mores?", ("a", "b"), "moral norms", ref, "", "Mores are moral norms.",
                     QuestionType.MULTIPLE_CHOICE)
    marked = lambda _context, text: f"«{text}»"  # noqa: E731  (a stand-in translator: shows what it translated)
    review = score_html([(q, False)], 1, marked)
    assert review.startswith("<b>«Your score: 0 of 1»</b>. «To review:»")
    assert "«The answer:» <b>moral norms</b>" in review and "<i>Mores are moral norms.</i>" in review  # the book's own
    assert practice_summary(2, 0, "7", translate=marked) == "«2 exercises from the book»."
