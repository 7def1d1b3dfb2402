"""A chapter's lesson: built once from the chapter's chunks, cached in the library, read back equal."""
from __future__ import annotations

import json

from core.study.lesson import ChapterLesson, book_chapters, chapter_lesson, lesson_key, merge_lessons


def test_lesson_is_cached_and_round_trips(manual):
    lib, book_id = manual
    stages = []
    lesson = chapter_lesson(lib, book_id, "3", refresh=True, progress=lambda s, d, t: stages.append(s))
    assert stages and lesson.title.endswith("Summary functions")
    assert lesson.statements and lesson.examples and lesson.terms
    cached = lib.study_cache_get(book_id, lesson_key("3"))
    assert ChapterLesson.from_json(json.loads(cached)) == lesson
    assert chapter_lesson(lib, book_id, "3") == lesson
    assert lesson.size_note == "chapter 3 has one page of text"


def test_a_cancelled_lesson_is_not_cached(manual):
    lib, book_id = manual
    cancelled = chapter_lesson(lib, book_id, "2", refresh=True, cancel=lambda: True)
    assert not cancelled.statements
    cached = lib.study_cache_get(book_id, lesson_key("2"))
    assert cached is None or ChapterLesson.from_json(json.loads(cached)).statements
    assert book_chapters(lib, book_id) == ["1", "2", "3"]
    both = merge_lessons([chapter_lesson(lib, book_id, ch) for ch in ("2", "3")])
    assert both.chapter == "2, 3" and len(both.statements) == sum(
        len(chapter_lesson(lib, book_id, ch).statements) for ch in ("2", "3"))
