"""Cards from a chapter's lesson: the book's own words on the back, exported to Anki with their fields."""
from __future__ import annotations

import sqlite3
import zipfile

from core.study.export import export_apkg
from core.study.lesson import chapter_lesson
from core.study.lesson_cards import lesson_cards
from core.study.models import CardOrigin
from core.study.schedule import new_schedule


def test_cards_of_a_manual_chapter_back_verbatim_and_exported_with_fields_and_tags(manual, tmp_path):
    lib, book_id = manual
    lesson = chapter_lesson(lib, book_id, "3")
    cards = lesson_cards(lesson)
    assert len(cards) >= 8
    texts = {c.id: c.text for c in lib.study_chunks(book_id, chapter="3")}
    for card in cards:  # the back is the book's own words, in the chunk it cites (or the book's output)
        assert card.back in texts[card.source.chunk_id] or card.origin is CardOrigin.CODE
    schedule, due = new_schedule()
    lib.add_cards(book_id, cards, schedule, due)
    stored = lib.cards(book_id, chapter="3")
    apkg = export_apkg(stored, tmp_path / "m.apkg", deck_name="Lantern: Calc", book_id=book_id,
                       book_title="A Short Manual of the Calc Language")
    with zipfile.ZipFile(apkg) as zf:
        zf.extract("collection.anki2", tmp_path)
    db = sqlite3.connect(tmp_path / "collection.anki2")
    notes = db.execute("SELECT flds, tags FROM notes").fetchall()
    db.close()
    fields, tags = notes[0][0].split("\x1f"), notes[0][1]
    assert len(fields) == 7 and fields[2] == "A Short Manual of the Calc Language" and fields[3] == "3"
    assert "chapter::3" in tags and "page::" in tags and "section::3." in tags
