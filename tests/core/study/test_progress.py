"""Progress per section from practice attempts, quiz answers and cards."""
from __future__ import annotations

import json

from core.cli.main import main
from core.study.practice import find_exercise, find_exercises
from core.study.progress import heat, section_progress


def test_progress_folds_attempts_and_cards_onto_sections(sample, capsys):
    lib, book_id = sample
    exercise = find_exercise(find_exercises(lib.study_chunks(book_id)), "4.1")
    lib.record_attempt(book_id, "practice", exercise.id, exercise.source.section_id, 1.0)
    lib.record_attempt(book_id, "quiz", "q1", exercise.source.section_id, 0.0)
    lib.record_attempt(book_id, "quiz", "q2", exercise.source.section_id, 1.0)
    rows = {r.section.id: r for r in section_progress(lib, book_id)}
    row = rows[exercise.source.section_id]
    assert row.exercises == 5 and row.practised >= 1 and row.practice_score is not None
    assert row.quiz_answered >= 2 and 0 < row.quiz_score < 1
    assert 0 < heat(row) <= 1
    untouched = [r for r in rows.values() if not (r.exercises or r.practised or r.quiz_answered or r.cards)]
    assert all(heat(r) == 0 for r in untouched)
    assert main(["--library", str(lib.root), "progress", book_id, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == len(rows) and {"heat", "cards_due", "quiz_score"} <= set(out[0])
