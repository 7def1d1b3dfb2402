"""Progress per section of the table of contents: practised, quiz score, cards due, asked about.

``section_progress`` folds the library's study records (attempts, cards, conversations) onto the
book's sections; ``heat`` turns one record into a 0..1 value for a heat-map.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.models import Section
from core.study.practice import find_exercises
from core.study.schedule import now_iso


@dataclass(frozen=True)
class SectionProgress:
    """What the student did in one section."""

    section: Section
    exercises: int = 0  # practice items the book has here
    practised: int = 0  # practice answers given
    practice_score: float | None = None  # mean agreement with the book's keys (0..1)
    quiz_answered: int = 0
    quiz_score: float | None = None  # share answered right
    cards: int = 0
    cards_due: int = 0
    asked: int = 0  # tutor answers that cited this section

    def to_json(self) -> dict[str, Any]:
        s = self.section
        return {"section_id": s.id, "number": s.number, "title": s.title, "level": s.level,
                "exercises": self.exercises, "practised": self.practised, "practice_score": self.practice_score,
                "quiz_answered": self.quiz_answered, "quiz_score": self.quiz_score, "cards": self.cards,
                "cards_due": self.cards_due, "asked": self.asked, "heat": round(heat(self), 3)}


def heat(p: SectionProgress) -> float:
    """0 = untouched, 1 = practised, quizzed well and no cards due (for the sidebar heat-map)."""
    parts = []
    if p.exercises or p.practised:
        parts.append(min(1.0, p.practised / max(1, p.exercises)) * (p.practice_score if p.practice_score is not None
                                                                    else 1.0))
    if p.quiz_answered:
        parts.append(p.quiz_score or 0.0)
    if p.cards:
        parts.append(1.0 - p.cards_due / p.cards)
    if p.asked:
        parts.append(min(1.0, p.asked / 3))
    return sum(parts) / len(parts) if parts else 0.0


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


def section_progress(lib, book_id: str, now: str | None = None) -> list[SectionProgress]:
    """Every section of the book (reading order) with the student's study records on it."""

    book = lib.book(book_id)
    now = now or now_iso()
    sections = lib.sections(book.id)
    exercises: dict[int | None, int] = {}
    for e in find_exercises(lib.study_chunks(book.id)):
        exercises[e.source.section_id] = exercises.get(e.source.section_id, 0) + 1
    practice: dict[int | None, list[float]] = {}
    practised: dict[int | None, int] = {}
    quiz: dict[int | None, list[float]] = {}
    for a in lib.attempts(book.id):
        sid = a["section_id"]
        if a["kind"] == "practice":
            practised[sid] = practised.get(sid, 0) + 1
            if a["score"] is not None:
                practice.setdefault(sid, []).append(a["score"])
        elif a["kind"] == "quiz":
            quiz.setdefault(sid, []).append(a["score"] or 0.0)
    cards: dict[int | None, int] = {}
    due: dict[int | None, int] = {}
    for c in lib.cards(book.id):
        sid = c.card.source.section_id
        cards[sid] = cards.get(sid, 0) + 1
        due[sid] = due.get(sid, 0) + (c.due <= now)
    asked: dict[int | None, int] = {}
    cited_ids = [cit.chunk_id for conv in lib.conversations(book.id)
                 for turn in lib.load_conversation(conv.id).turns for cit in turn.citations]
    for chunk in lib.chunks(sorted(set(cited_ids))).values():
        asked[chunk.section_id] = asked.get(chunk.section_id, 0) + cited_ids.count(chunk.id)
    return [SectionProgress(s, exercises.get(s.id, 0), practised.get(s.id, 0), _mean(practice.get(s.id, [])),
                            len(quiz.get(s.id, [])), _mean(quiz.get(s.id, [])), cards.get(s.id, 0),
                            due.get(s.id, 0), asked.get(s.id, 0)) for s in sections]
