"""Typed records of the study tools: exercises, feedback, flashcards, quiz questions, guides.

Frozen dataclasses only; nothing here touches storage or models.  ``to_json`` helpers give the
shapes the CLI prints (``lantern practice/cards/quiz --json``).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NewType

from core.models import Chunk, ChunkId, Citation

CardId = NewType("CardId", int)


@dataclass(frozen=True)
class SourceRef:
    """Where a study item comes from: a chunk and what a citation shows."""

    chunk_id: ChunkId
    book_id: str
    chapter: str | None
    section: str | None
    section_title: str
    page_start: int
    printed_page: str
    section_id: int | None = None

    @classmethod
    def of(cls, chunk: Chunk) -> SourceRef:
        """The reference of a stored chunk."""
        return cls(chunk.id, chunk.book_id, chunk.chapter_number, chunk.section_number, chunk.section_title,
                   chunk.page_start, chunk.printed_page_start, chunk.section_id)

    @classmethod
    def from_json(cls, data: dict[str, Any], book_id: str) -> SourceRef:
        """The reverse of ``to_json`` (which leaves the book out: it is known where the JSON is kept)."""
        return cls(data["chunk_id"], book_id, data.get("chapter"), data.get("section"), data.get("section_title", ""),
                   int(data["page_start"]), str(data.get("printed_page") or ""), data.get("section_id"))

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "section_title": self.section_title, "page_start": self.page_start,
                "printed_page": self.printed_page, "chapter": self.chapter, "section": self.section,
                "section_id": self.section_id}

    @property
    def label(self) -> str:
        """``"1.4 Motion with Constant Acceleration, p. 12"``."""
        title = f"{self.section or ''} {self.section_title}".strip() or f"Chapter {self.chapter}"
        return f"{title}, p. {self.printed_page or self.page_start}"


class ExerciseKind(str, enum.Enum):
    EXERCISE = "exercise"  # a numbered end-of-section/chapter exercise or review question
    CHECK = "check"  # "Check Your Learning" / "Try it" inside the text, usually with its answer
    SHORT_ANSWER = "short_answer"  # made from a sentence of the book that states the answer
    PREDICT_OUTPUT = "predict_output"  # a code example of the book whose output it prints
    WORKED_EXAMPLE = "worked_example"  # a worked example of the book: the problem, its printed result

    @property
    def generated(self) -> bool:
        """Made by Lantern from the text (not printed in the book as an exercise)."""
        return self in (ExerciseKind.SHORT_ANSWER, ExerciseKind.PREDICT_OUTPUT, ExerciseKind.WORKED_EXAMPLE)


@dataclass(frozen=True)
class Exercise:
    """One practice item found in the book; ``answer`` is the book's own key or solution, if any."""

    id: str  # stable within a library: "<chunk_id>:<n>"
    number: str | None  # "3.14" as printed; None when the book does not number it
    label: str  # what a student types to pick it ("3.14", or "1.5#2" for unnumbered items)
    text: str
    kind: ExerciseKind
    source: SourceRef
    answer: str | None = None
    answer_source: SourceRef | None = None
    term: str = ""  # what an item made from a definition asks about ("folkways"); "" otherwise

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number, "label": self.label, "kind": self.kind.value,
                "text": self.text, "answer": self.answer, "source": self.source.to_json(),
                "answer_source": self.answer_source.to_json() if self.answer_source else None}


class Verdict(str, enum.Enum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    PARTLY = "partly"
    UNCHECKED = "unchecked"  # the book has no key: feedback only


@dataclass(frozen=True)
class Feedback:
    """Feedback on a student's answer: a verdict against the key (when there is one) and cited help."""

    exercise_id: str
    verdict: Verdict
    text: str
    citations: tuple[Citation, ...]
    key: str | None = None
    extractive: bool = True
    score: float | None = None  # 0..1 agreement with the key

    def to_json(self) -> dict[str, Any]:
        return {"exercise_id": self.exercise_id, "verdict": self.verdict.value, "score": self.score,
                "text": self.text, "key": self.key, "extractive": self.extractive,
                "citations": [{"n": c.n, "chunk_id": c.chunk_id, "section_title": c.section_title,
                               "page_start": c.page_start, "printed_page": c.printed_page, "quote": c.quote}
                              for c in self.citations]}


class CardOrigin(str, enum.Enum):
    GLOSSARY = "glossary"  # a "term: definition" line of a key-terms/glossary list
    DEFINITION = "definition"  # "Definition (X). ..." or "X is ..." sentence in the text
    ANSWER = "answer"  # made from a tutor answer's cited quote
    STATEMENT = "statement"  # a key term or identifier and the book's sentence about it
    CODE = "code"  # a code example and the output the book prints for it


@dataclass(frozen=True)
class Flashcard:
    """A card before it is stored: ``quote`` is verbatim text of the source chunk backing ``back``."""

    front: str
    back: str
    quote: str
    origin: CardOrigin
    source: SourceRef

    @property
    def key(self) -> str:
        """De-duplication key within a book: the normalised front."""
        return " ".join(self.front.lower().split())


@dataclass(frozen=True)
class StoredCard:
    """A card in the library with its scheduling state (``schedule`` is FSRS's card dict)."""

    id: CardId
    card: Flashcard
    due: str  # ISO-8601 UTC
    schedule: str  # JSON
    reviews: int = 0

    def to_json(self) -> dict[str, Any]:
        c = self.card
        return {"id": self.id, "front": c.front, "back": c.back, "quote": c.quote, "origin": c.origin.value,
                "due": self.due, "reviews": self.reviews, "source": c.source.to_json()}


class QuestionType(str, enum.Enum):
    MULTIPLE_CHOICE = "multiple_choice"
    SHORT_ANSWER = "short_answer"
    TRUE_FALSE = "true_false"  # the book's sentence (true) or a changed one (false); the sentence is the proof
    CODE_OUTPUT = "code_output"  # "what does this code print?" with the output the book shows
    CLOZE = "cloze"  # the book's sentence with its key term blanked (no model needed)


@dataclass(frozen=True)
class QuizQuestion:
    """A generated question; it is only ever shown when ``answer`` was verified against ``passage``."""

    question: str
    choices: tuple[str, ...]
    answer: str
    source: SourceRef
    passage: str
    evidence: str = ""  # the passage sentence that contains / supports the answer
    type: QuestionType = QuestionType.MULTIPLE_CHOICE
    generator: str = "glossary"  # "glossary" (no model) or the model's name
    code: str = ""  # the code a CODE_OUTPUT question shows
    verified: str = ""  # how it was verified against the book ("answer in the sentence", ...)

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "choices": list(self.choices), "answer": self.answer,
                "type": self.type.value, "evidence": self.evidence, "generator": self.generator,
                "code": self.code, "verified": self.verified, "source": self.source.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any], book_id: str) -> QuizQuestion:
        """A question saved with ``to_json`` plus its ``passage`` (``core.study.quizgen.save_quiz``)."""
        return cls(str(data["question"]), tuple(map(str, data["choices"])), str(data["answer"]),
                   SourceRef.from_json(data["source"], book_id), str(data.get("passage") or data.get("evidence", "")),
                   str(data.get("evidence", "")), QuestionType(data.get("type", "multiple_choice")),
                   str(data.get("generator", "")), str(data.get("code", "")), str(data.get("verified", "")))


@dataclass(frozen=True)
class GuideItem:
    """One cited line of a chapter guide."""

    text: str
    source: SourceRef


@dataclass(frozen=True)
class GuideSection:
    """One section of a chapter guide: one to three whole sentences of the book and practice to try."""

    number: str | None
    title: str
    page: str
    points: tuple[GuideItem, ...]
    practice: tuple[str, ...] = ()  # labels of practice items made from this section ("try this")

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "title": self.title, "page": self.page,
                "points": [{"text": x.text, "source": x.source.to_json()} for x in self.points],
                "practice": list(self.practice)}


@dataclass(frozen=True)
class ChapterGuide:
    """A chapter's study guide: summary points, key terms and objectives, every line cited."""

    book_id: str
    chapter: str
    title: str
    objectives: tuple[GuideItem, ...]
    summary: tuple[GuideItem, ...]
    key_terms: tuple[GuideItem, ...]
    generator: str = "extractive"
    sections: tuple[GuideSection, ...] = ()

    def to_json(self) -> dict[str, Any]:
        def items(xs: tuple[GuideItem, ...]) -> list[dict[str, Any]]:
            return [{"text": x.text, "source": x.source.to_json()} for x in xs]
        return {"book_id": self.book_id, "chapter": self.chapter, "title": self.title,
                "objectives": items(self.objectives), "summary": items(self.summary),
                "key_terms": items(self.key_terms), "generator": self.generator,
                "sections": [s.to_json() for s in self.sections]}
