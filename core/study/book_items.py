"""Quiz items made from the book's words alone, at once and without a model (``core.study.quizgen``
mixes them with the model's): a key concept asked among its sibling concepts ("Which term does the book
define as …?", or its sentence with the term blanked), true or false from two of the book's definitions
when a concept has too few of its kind, its sentence with the term to be typed when the chapter defines
too few concepts to offer, and "what does this code print?" from the book's examples.
Each appends its reason to ``reasons`` when it cannot be made.
"""
from __future__ import annotations

import random
import re

from core.study.concepts import sibling_concepts, swappable, term_forms
from core.study.examples import CodeExample
from core.study.lesson import ChapterLesson
from core.study.models import QuestionType, QuizQuestion
from core.study.prose import line_problem
from core.study.quiz import _choices, cloze, verify_candidate
from core.study.quizchecks import fair_distractors, gives_away, is_ident, perturbed_outputs
from core.study.statements import Statement, StatementKind
from core.study.text import contains_answer

CHOICE_TF = ("True", "False")


def _issue(reasons: dict[str, int], reason: str) -> None:
    reasons[reason] = reasons.get(reason, 0) + 1


def _unverified(reasons: dict[str, int], reason: str) -> None:
    """A concept item that failed ``verify_candidate``: "bad distractors" here means too few siblings."""
    _issue(reasons, reason if reason != "bad distractors" else "too few concepts of its kind in the chapter")


def cloze_item(statement: Statement, lesson: ChapterLesson, seed: int, reasons: dict[str, int],
               typed: bool = False) -> QuizQuestion | None:
    """The book's sentence with its term blanked; wrong answers are sibling concepts.  ``typed``: the student
    types the term instead (no options), for a chapter with too few concepts of one kind: other words of
    the chapter would be options of another kind ("heap" and "stack" for "slice"), so none are offered,
    and only a concept the chapter defines (or a code name) is asked."""
    term, sentence = statement.term, statement.text
    if not contains_answer(sentence, term):
        _issue(reasons, "term not in the sentence")
        return None
    question = cloze(sentence, term)
    if "_____" not in question:
        _issue(reasons, "term not in the sentence")
        return None
    if typed:
        return _typed_cloze(statement, lesson, question, reasons)
    distractors = fair_distractors(term, (), statement, lesson, question, seed,
                                   siblings=sibling_concepts(statement, lesson.concepts, seed, lesson.kin))
    v = verify_candidate(question, term, distractors, sentence, semantic=False)
    if not v.ok:
        _unverified(reasons, v.reason)
        return None
    return QuizQuestion(question, _choices(term, distractors, question), term, statement.source, statement.context,
                        sentence, QuestionType.CLOZE, "book sentence", verified="the book's own sentence")


def _typed_cloze(statement: Statement, lesson: ChapterLesson, question: str, reasons: dict[str, int]
                 ) -> QuizQuestion | None:
    if not (term_forms(statement.term) & lesson.defined_forms or _typable_name(statement.term)):
        _issue(reasons, "not a concept the chapter defines")  # "secret number", "draft": an example's names
        return None
    if question.count("_____") > 1:  # "unit _____ and integration _____": the word given away, or two answers
        _issue(reasons, "the term is blanked more than once")
        return None
    if not statement.standalone:  # "Cargo knows to look for _____ files in this directory.": which one?
        _issue(reasons, "the sentence leans on the one before")
        return None
    if gives_away(question, statement.term):
        _issue(reasons, "answer given away in the question")
        return None
    return QuizQuestion(question, (), statement.term, statement.source, statement.context, statement.text,
                        QuestionType.CLOZE, "book sentence", verified="the book's own sentence")


def _typable_name(term: str) -> bool:
    """A code name a student can type from memory ("assert_eq!", "split_whitespace", "`recv`"), not an
    expression ("v.push(1)", "drop(*self)", "#[derive(Copy)]")."""
    return is_ident(term) and re.fullmatch(r"`?[A-Za-z_][\w:]*!?(?:\(\))?`?", term.strip()) is not None


def concept_item(concept: Statement, lesson: ChapterLesson, seed: int, reasons: dict[str, int]
                 ) -> QuizQuestion | None:
    """A key concept asked without a model, at once: its sentence with the term blanked, or, for a glossary
    line (which does not print its term), "Which term does the book define as …?"; the wrong answers
    are the chapter's sibling concepts, each checked wrong by the book's sentence."""
    if contains_answer(concept.text, concept.term):
        return cloze_item(concept, lesson, seed, reasons)
    question = f"Which term does the book define as “{concept.text.rstrip('.')}”?"
    distractors = fair_distractors(concept.term, (), concept, lesson, question, seed,
                                   siblings=sibling_concepts(concept, lesson.concepts, seed, lesson.kin))
    line = _line(concept)
    v = verify_candidate(question, concept.term, distractors, line, semantic=False)
    if not v.ok:
        _unverified(reasons, v.reason)
        return None
    return QuizQuestion(question, _choices(concept.term, distractors, question), concept.term, concept.source,
                        concept.context, line, QuestionType.MULTIPLE_CHOICE,
                        "book glossary", verified="the book's own definition")


def _line(concept: Statement) -> str:
    return re.sub(r"^\s*[-*•]\s*", "", concept.context or concept.text)  # the glossary line, not its bullet


def _says(concept: Statement, definition_of: Statement) -> str:
    """``concept`` stated with the definition of ``definition_of``: the glossary line's form, or the
    defining sentence with its term replaced."""
    if contains_answer(definition_of.text, definition_of.term):
        def named(m: re.Match) -> str:  # "Friction is ..." at the start, "... is called friction" inside
            term = concept.term
            if m.start() > 0 and term[:1].isupper() and term[1:2].islower() and " " not in term.strip():
                term = term[0].lower() + term[1:]
            return term[0].upper() + term[1:] if m.start() == 0 else term
        return re.sub(rf"(?i)(?<!\w){re.escape(definition_of.term)}(?!\w)", named, definition_of.text, count=1)
    definition = re.sub(r"^(?:\([^)]*\)\s*)+", "", definition_of.text).rstrip(".")  # "(also, dative bond) ..."
    return f"In the book's glossary: “{concept.term}: {definition}”."  # reads whatever the definition's form


def _other_concept(concept: Statement, lesson: ChapterLesson, seed: int) -> Statement | None:
    """The concept whose definition makes ``concept``'s false statement (see ``swap_item``)."""
    form = contains_answer(concept.text, concept.term)  # a sentence naming its term, or a glossary line
    others = {c.term: c for c in lesson.concepts if c.kind is StatementKind.DEFINITION  # a glossary line is no
              and contains_answer(c.text, c.term) == form and (not form or line_problem(c.text) is None)}  # sentence
    order = [t for t in sibling_concepts(concept, lesson.concepts, seed, lesson.kin, same_subject=False)
             if t in others]
    if not form:  # a glossary line ("term: definition"): another one reads well; the nearest in meaning
        near = next((ts for t, ts in lesson.kin if t == concept.term), ())  # is the least obviously false
        order += [t for t in near if t in others and t not in order]
        order += [t for t, _ in sorted(((t, random.Random(seed + i).random()) for i, t in enumerate(others)),
                                       key=lambda x: x[1]) if t not in order]
    return next((others[t] for t in order if swappable(concept, others[t])), None)


def swap_item(concept: Statement, lesson: ChapterLesson, truth: bool, seed: int, reasons: dict[str, int]
              ) -> QuizQuestion | None:
    """True or false without a model: the concept with its own definition (true) or with the definition the
    book gives another concept of the chapter (false): one of the same kind, or for a glossary line any
    other glossary line (a defining sentence with another kind's name put in would not read as a sentence).
    The other concept must be neither a kind of this one nor this one a kind of it, and neither definition
    may name the other, so the book's two sentences settle it."""
    if line_problem(concept.text) is not None and contains_answer(concept.text, concept.term):
        _issue(reasons, "the concept's sentence is not whole")
        return None
    # the other concept is found for a true item too: a true item only where a false one could be made
    # (otherwise a quiz of verbatim quotes, all "True")
    other = _other_concept(concept, lesson, seed)
    if other is None:
        _issue(reasons, "no other defined concept to swap with")
        return None
    if not truth:
        text, proof = _says(concept, other), f"{_line(concept)} — and of “{other.term}”: {_line(other)}"
    else:
        text, proof = _says(concept, concept), _line(concept)
    quoted = text.startswith("In the book's glossary")  # it quotes the book itself: no outer quotes
    return QuizQuestion(f"True or false: {text}" if quoted else f"True or false: “{text.rstrip('.')}.”", CHOICE_TF,
                        "True" if truth else "False", concept.source, concept.context, proof,
                        QuestionType.TRUE_FALSE, "book glossary", verified="the book's own definitions")


def code_item(example: CodeExample, lesson: ChapterLesson, seed: int, reasons: dict[str, int]
              ) -> QuizQuestion | None:
    """"What does this code print?" keyed to the output the book shows; wrong answers verified different."""
    if example.output.count("\n") > 2 or len(example.output) > 140:
        _issue(reasons, "code output too long for a choice")
        return None
    others = [e.output for e in lesson.examples if e.error == example.error]
    distractors = perturbed_outputs(example.output, others, seed)
    if len(distractors) < 3:
        _issue(reasons, "code example with too few wrong outputs")
        return None
    question = ("What happens when this code is compiled?" if example.error else
                "What does this code print?" if not example.code.lstrip().startswith(">") else
                "What does R print for the last command?" if "<-" in example.code else
                "What is printed after the last command?")
    return QuizQuestion(question, _choices(example.output, distractors, example.code), example.output,
                        example.source, example.intro, example.output, QuestionType.CODE_OUTPUT, "book example",
                        code=example.code, verified="the output the book prints")


