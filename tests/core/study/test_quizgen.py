"""Quizzes from a chapter's lesson: model-written items verified against the book's sentence, code-output
items from the book's examples, clozes without a model, and the reason when there are fewer than asked."""
from __future__ import annotations

from core.study.lesson import chapter_lesson
from core.study.models import QuestionType
from core.study.quizchecks import false_ok, gives_away, perturbed_outputs
from core.study.quizgen import lesson_quiz, save_quiz, saved_quiz


def test_without_a_model_clozes_and_code_items_are_the_books_own(manual):
    lib, book_id = manual
    lesson = chapter_lesson(lib, book_id, "3")
    run = lesson_quiz(lesson, 5)
    assert len(run.questions) == 5 and run.note == ""
    kinds = {q.type for q in run.questions}
    assert kinds <= {QuestionType.CLOZE, QuestionType.CODE_OUTPUT} and QuestionType.CODE_OUTPUT in kinds
    for q in run.questions:
        assert q.answer in q.choices and len(set(q.choices)) == 4 and q.verified
        if q.type is QuestionType.CLOZE:
            assert q.evidence in {s.text for s in lesson.statements} and "_____" in q.question
        else:
            assert q.code and q.answer == q.evidence and q.answer in {e.output for e in lesson.examples}


def test_a_short_chapter_says_exactly_why_it_has_fewer_questions(manual):
    lib, book_id = manual
    run = lesson_quiz(chapter_lesson(lib, book_id, "1"), 5)
    assert len(run.questions) < 5
    head = f"{len(run.questions)} of 5 questions: " if run.questions else "No questions: "
    assert run.note.startswith(head + "chapter 1 has one page of text, with ")


GOOD = {"sum()": "Which function gives the total of all the elements of a vector?",
        "mean()": "Which function divides the sum of the elements by their number?"}


class _QuizModel:
    """A stand-in for the chat model that reads its prompt: writes a good question for ``sum()``, a question
    its own read-back rejects for every other key, and a one-word change for true/false items."""

    display_name = "scripted"

    def __init__(self):
        self.calls = []

    def complete_json(self, messages, schema, **_):
        prompt = messages[-1]["content"]
        self.calls.append(schema)
        props = schema["properties"]
        if "false_statement" in props:
            sentence = prompt.split('"')[1]
            return {"false_statement": sentence.replace("returns", "never returns", 1)}
        if "answer" in props:  # the read-back check
            return {"answer": "sum()" if "the total" in prompt else "mean()" if "arithmetic" in prompt else "none"}
        key = prompt.split('Correct answer: "')[1].split('"')[0]
        if key in GOOD:
            return {"question": GOOD[key], "distractors": ["mean()", "range()", "diff()"]}
        return {"question": "Which one is described by the sentence about vectors?", "distractors": ["a", "b", "c"]}


def test_model_questions_are_kept_only_when_the_sentence_answers_them(manual):
    lib, book_id = manual
    lesson = chapter_lesson(lib, book_id, "3")
    model = _QuizModel()
    run = lesson_quiz(lesson, 5, model=model)
    assert len(run.questions) == 5 and run.generator == "scripted"
    mc = [q for q in run.questions if q.type is QuestionType.MULTIPLE_CHOICE]
    assert mc and {q.answer for q in mc} <= {"sum()", "mean()"} and mc[0].generator == "scripted"
    for q in mc:
        assert q.answer in q.evidence and q.answer not in q.question and q.answer in q.choices
        assert not any(d in q.evidence for d in q.choices if d != q.answer)  # no wrong answer the sentence names
    assert dict(run.rejected).get("the sentence does not answer it with the key", 0) + \
        dict(run.rejected).get("question not about the sentence", 0) >= 1
    assert any(q.type is QuestionType.TRUE_FALSE for q in run.questions)
    assert any("enum" in str(schema) for schema in model.calls)  # the read-back is constrained to the choices


def test_verification_helpers():
    assert gives_away("What is an expression that calls a function?", "Calling a function")
    assert not gives_away("Which function gives the total of a vector?", "sum()")
    original = "The function sum() returns the total of all the elements of a vector."
    assert false_ok(original, original, _Lesson()) == "false statement unchanged"
    assert false_ok(original, original.replace("returns", "never returns"), _Lesson()) is None
    assert false_ok(original, original.replace("all the", "half the"), _Lesson()) == \
        "false statement not a checkable change"  # a word the book cannot prove wrong (could be a synonym)
    assert false_ok("A bit holds 2 values.", "A bit holds 3 values.", _Lesson()) is None
    assert false_ok(original, "Vectors are great.", _Lesson()) == "false statement rewritten"
    wrong = perturbed_outputs("[1] 3 5 7", ["[1] 12"], seed=1)
    assert len(wrong) == 3 and "[1] 3 5 7" not in wrong and all(w.startswith("[1]") for w in wrong)


class _Lesson:
    statements = ()
    terms = ()


def test_a_saved_quiz_comes_back_whole(manual):
    lib, book_id = manual
    run = lesson_quiz(chapter_lesson(lib, book_id, "3"), 4)
    assert saved_quiz(lib, book_id, "3-test") is None
    save_quiz(lib, book_id, "3-test", run)
    again = saved_quiz(lib, book_id, "3-test")
    assert again.questions == run.questions and again.generator == run.generator
    lib.study_cache_put(book_id, "quiz:v1:3-test", '{"questions": [{"question": 1}]}')  # an older shape
    assert saved_quiz(lib, book_id, "3-test") is None


def test_items_arrive_one_by_one_and_the_first_needs_no_model(manual):
    lib, book_id = manual
    lesson = chapter_lesson(lib, book_id, "3")
    model = _QuizModel()
    arrived = []

    def on_item(item):
        arrived.append((item, len(model.calls)))

    run = lesson_quiz(lesson, 5, model=model, on_item=on_item)
    assert [a for a, _ in arrived] == list(run.questions)  # each item handed on as soon as it is verified
    first, calls_before = arrived[0]
    assert calls_before == 0 and first.generator in {"book sentence", "book glossary", "book example"}  # no model


def test_with_no_time_left_the_model_writes_nothing_and_the_book_fills_the_quiz(manual):
    lib, book_id = manual
    model = _QuizModel()
    run = lesson_quiz(chapter_lesson(lib, book_id, "3"), 5, model=model, budget_s=0.0)
    assert model.calls == [] and len(run.questions) == 5
    assert all(q.generator in {"book sentence", "book glossary", "book example"} for q in run.questions)


def test_a_concept_with_too_few_of_its_kind_is_asked_true_or_false_from_two_book_definitions(sample):
    from core.study.book_items import swap_item
    lib, book_id = sample
    lesson = chapter_lesson(lib, book_id, "2")
    concept = next(c for c in lesson.concepts if c.term.lower() == "friction")
    false = swap_item(concept, lesson, False, 0, {})
    assert false.answer == "False" and false.type is QuestionType.TRUE_FALSE
    other = next(c for c in lesson.concepts if c.term != concept.term and c.text in false.evidence)
    assert concept.text in false.evidence and "riction" in false.question  # its own and the other's sentence
    assert other.text.rstrip(".")[-25:] in false.question  # the other concept's definition, not its own
    true = swap_item(concept, lesson, True, 0, {})
    assert true.answer == "True" and concept.text.rstrip(".") in true.question


def test_a_chapter_with_too_few_concepts_of_a_kind_asks_its_concepts_typed_never_with_stray_options():
    from core.models import ChunkRole
    from core.study.lesson import build_lesson
    from core.study.quiz import grade
    from tests.core.study.conftest import make_chunk
    texts = ["A cons list is a data structure made up of nested pairs that comes from the Lisp language.",
             "The heap holds data whose size is unknown at compile time. A cons list uses the heap.",
             "Each item in a cons list holds a value and the next item. The cons list ends with Nil.",
             "Some command line options go to the test binary, and the tests run when you call them."]
    chunks = [make_chunk(i + 1, t, role=ChunkRole.CONCEPT) for i, t in enumerate(texts)]
    rest = [make_chunk(100, "A program runs. Options vary.", chapter="2", section_id=9)]
    lesson = build_lesson("b00k", "1", chunks, book_chunks=chunks + rest)
    run = lesson_quiz(lesson, 5)
    assert run.questions, run.note
    concepts = {c.term.lower() for c in lesson.concepts}
    for q in run.questions:
        if q.type is QuestionType.CLOZE and not q.choices:  # typed: its key is one of the chapter's concepts
            assert q.answer.lower() in concepts and "_____" in q.question and q.evidence in q.passage
            assert grade(q, q.answer.upper()) and not grade(q, "stack")
        else:
            assert len(set(q.choices)) == len(q.choices) >= 2
    assert any(not q.choices for q in run.questions)


def test_a_term_with_its_abbreviation_is_prose_not_a_code_name():
    from core.study.quizchecks import is_ident
    assert all(is_ident(t) for t in ("sum()", "`mut`", "snake_case", "camelCase", "print(x)"))
    assert not any(is_ident(t) for t in ("rapid eye movement (REM) sleep", "heat (q)", "joule (J)"))


def test_no_two_wrong_options_name_the_same_thing():
    from core.study.quizchecks import fair_distractors
    from tests.core.study.test_concepts import _glossary_lesson
    lesson = _glossary_lesson("Congress works in committees.", [
        "select committee: a committee formed for a limited time to study one question",
        "standing committee: a permanent committee that considers bills in one policy area",
        "joint committee: a committee with members of both chambers",
        "conference committee: a committee that settles the two chambers' versions of a bill"])
    key = next(c for c in lesson.concepts if c.term == "select committee")
    out = fair_distractors(key.term, (), key, lesson, "Which term does the book define as ...?", 0,
                           siblings=["standing committee", "standing committees", "joint committee",
                                     "conference committee"])
    assert out == ["standing committee", "joint committee", "conference committee"]  # the plural is the same
