"""Practice for a book without exercises: items whose answer the book states, checked with the page cited."""
from __future__ import annotations

import json

from core.cli.main import main
from core.study.drills import by_meaning, check_drill, drill_feedback, lesson_practice
from core.study.lesson import chapter_lesson
from core.study.models import ExerciseKind, Verdict


def test_practice_from_a_manual_chapter(manual):
    lib, book_id = manual
    items = lesson_practice(chapter_lesson(lib, book_id, "3"))
    assert len(items) >= 5 and all(e.answer and e.kind.generated for e in items)
    kinds = {e.kind for e in items}
    assert ExerciseKind.SHORT_ANSWER in kinds and kinds & {ExerciseKind.PREDICT_OUTPUT, ExerciseKind.WORKED_EXAMPLE}
    assert len({e.label for e in items}) == len(items) and all(e.label.startswith("3.") for e in items)
    defined = [e for e in items if by_meaning(e)]  # graded by meaning: each knows the term it asks about
    assert defined and all(e.term and e.term.lower() in e.text.lower() for e in defined)


def test_answers_are_checked_against_the_book():
    from core.study.models import Exercise, SourceRef
    ref = SourceRef(7, "b00k", "3", "3.2", "Ranges", 3, "iii", 4)
    output = Exercise("7:3.P1", None, "3.P1", "Predict the output:\n\n> diff(c(1, 4, 9, 16))",
                      ExerciseKind.PREDICT_OUTPUT, ref, "[1] 3 5 7", ref)
    assert check_drill(output, "3 5 7")[0] is Verdict.CORRECT
    assert check_drill(output, "[1] 3 5 8")[0] is Verdict.PARTLY
    defined = Exercise("7:3.Q1", None, "3.Q1", "What is a sorted vector?", ExerciseKind.SHORT_ANSWER, ref,
                       "A sorted vector is a vector whose elements are in increasing order.", ref)
    assert check_drill(defined, "its elements are in increasing order")[0] is Verdict.CORRECT
    assert check_drill(defined, "a list of words")[0] is Verdict.INCORRECT
    fb = drill_feedback(defined, "a list of words")
    assert "p. iii" in fb.text and fb.citations[0].printed_page == "iii" and fb.key == defined.answer


def test_cli_practice_on_a_book_without_exercises(manual, capsys):
    lib, book_id = manual
    assert main(["--library", str(lib.root), "practice", book_id, "--chapter", "3", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert len(items) >= 5 and all(i["answer"] for i in items)
    label = next(i["label"] for i in items if i["kind"] in ("predict_output", "worked_example"))
    answer = next(i["answer"] for i in items if i["label"] == label)
    assert main(["--library", str(lib.root), "practice", book_id, "--exercise", label, "--answer", answer,
                 "--json"]) == 0
    fb = json.loads(capsys.readouterr().out)
    assert fb["verdict"] == "correct" and fb["citations"][0]["printed_page"]


def test_a_definition_in_the_students_words_is_graded_by_meaning_and_a_miss_says_why():
    from core.study.models import Exercise, SourceRef
    from tests.core.study.conftest import ScriptedJsonModel
    from tests.fakes import HashingEmbedder
    ref = SourceRef(7, "b00k", "3", "3.2", "Norms", 3, "iii", 4)
    folkways = "Folkways are norms that direct appropriate behavior in the day-to-day practices of a culture."
    mores = "Mores are norms that embody the moral views and principles of a group."
    item = Exercise("7:3.Q1", None, "3.Q1", "What are folkways?", ExerciseKind.SHORT_ANSWER, ref, folkways, ref,
                    term="folkways")
    siblings = [("folkways", folkways), ("mores", mores)]
    encode = HashingEmbedder().encode
    judge = ScriptedJsonModel([{"same_meaning": True}])
    right = drill_feedback(item, "everyday norms for how to behave in a culture", encode=encode, siblings=siblings,
                           model=judge)
    assert right.verdict is Verdict.CORRECT and len(judge.prompts) == 1  # the model judged it
    other = drill_feedback(item, "norms that embody the moral views and principles of a group", encode=encode,
                           siblings=siblings, model=ScriptedJsonModel([{"same_meaning": False}]))
    assert other.verdict is Verdict.INCORRECT and "describes mores, not folkways" in other.text
    alone = drill_feedback(item, "norms that embody the moral views and principles of a group", encode=encode,
                           siblings=siblings)  # no model: graded by meaning alone
    assert alone.verdict is Verdict.INCORRECT and "describes mores" in alone.text
    missed = drill_feedback(item, "norms of a culture", encode=encode, siblings=siblings,
                            model=ScriptedJsonModel([{"same_meaning": False}]))
    assert missed.verdict in (Verdict.PARTLY, Verdict.INCORRECT) and "Missing:" in missed.text


def test_a_question_on_a_mass_noun_takes_no_article():
    from core.study.drills import _question
    from core.study.models import SourceRef
    from core.study.statements import Statement, StatementKind
    ref = SourceRef(0, "", None, None, "", 0, "")
    ask = lambda term: _question(Statement(StatementKind.DEFINITION, f"{term} is …", term, ref, 1.0))  # noqa: E731
    assert ask("classical conditioning") == "What is classical conditioning?"
    assert ask("radical behaviorism") == "What is radical behaviorism?"
    assert ask("cognitive map") == "What is a cognitive map?" and ask("instinct") == "What is an instinct?"
    assert ask("folkways") == "What are folkways?"
    # the book's own usage decides the rest: bare ("In continuous reinforcement, …") or with an article
    bare = "In continuous reinforcement, an organism receives a reinforcer each time. Continuous reinforcement works."
    counted = "A cognitive map is a mental picture. Rats built the cognitive map quickly."
    rule_text = "The energy of a photon. Energy is conserved."  # "the" counts nothing; "Energy is" is bare
    rule = lambda term, usage: _question(Statement(StatementKind.DEFINITION, "…", term, ref, 1.0), usage)  # noqa: E731
    assert rule("continuous reinforcement", bare) == "What is continuous reinforcement?"
    assert rule("cognitive map", counted) == "What is a cognitive map?"
    assert rule("continuous reinforcement", "") == "What is a continuous reinforcement?"  # no usage: as before
    assert rule("energy", rule_text) == "What is energy?"
    assert rule("ground state", "An atom in the ground state is stable.") == "What is a ground state?"
    assert rule("model", "model: a person whose behavior is imitated. Children copy the model.") == "What is a model?"
    assert rule("model", "They copy an attractive model, or a live model.") == "What is a model?"
