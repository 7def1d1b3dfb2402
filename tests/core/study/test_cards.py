"""Flashcards: extraction with verified quotes, FSRS scheduling, storage, and Anki/CSV export."""
from __future__ import annotations

import csv
import datetime as dt
import json
import sqlite3
import zipfile

from core.cli.main import main
from core.models import Citation, ChunkRole
from core.study.cards import card_from_citation, extract_cards, verify_card
from core.study.export import export_apkg, export_csv
from core.study.models import CardOrigin
from core.study.schedule import Rating, new_schedule, review
from tests.core.study.conftest import make_chunk

GLOSSARY = ("Summary text.\n\nKey Terms\n\n- allele: specific version of a gene\n\n"
            "- **genotype**: genetic makeup of an individual\n\n- phenotype: individual’s inheritable physical ")


def test_glossary_lines_become_cards_with_verbatim_quotes():
    chunks = [make_chunk(1, GLOSSARY, role=ChunkRole.GLOSSARY),
              make_chunk(2, "- phenotype: individual’s inheritable physical characteristics",
                         role=ChunkRole.GLOSSARY)]
    cards = {c.front: c for c in extract_cards(chunks)}
    assert set(cards) == {"allele", "genotype", "phenotype"}
    assert cards["allele"].back == "specific version of a gene" and cards["allele"].origin is CardOrigin.GLOSSARY
    # the line cut by the chunk boundary is cited from the chunk that holds it whole
    assert cards["phenotype"].source.chunk_id == 2 and cards["phenotype"].back.endswith("characteristics")
    for card in cards.values():
        assert verify_card(card, chunks[card.source.chunk_id - 1])


def test_definitions_and_defining_sentences():
    text = ("Definition (Weight). The weight of an object is the gravitational force exerted on it by a planet.\n\n"
            "The tendency of an object to keep doing what it is already doing is called inertia. "
            "Inertia was studied by Galileo. Three white balls are visible in the figure, which is nice.")
    cards = {c.front: c.back for c in extract_cards([make_chunk(1, text, key_terms=("inertia", "white balls"))])}
    assert cards["Weight"].startswith("The weight of an object is")
    assert cards["inertia"].endswith("is called inertia.")
    assert "white balls" not in cards


def test_verification_rejects_a_changed_quote():
    chunk = make_chunk(1, GLOSSARY, role=ChunkRole.GLOSSARY)
    card = extract_cards([chunk])[0]
    from dataclasses import replace
    assert not verify_card(replace(card, quote=card.quote.replace("gene", "protein"),
                                   back=card.back.replace("gene", "protein")), chunk)
    cite = Citation(1, chunk.id, chunk.book_id, "1", "1.1", "Basics", 3, 3, "3", "specific version of a gene")
    assert card_from_citation("What is an allele?", cite, chunk).back == "specific version of a gene"
    bad = Citation(1, chunk.id, chunk.book_id, "1", "1.1", "Basics", 3, 3, "3", "a made-up quote")
    assert card_from_citation("What is an allele?", bad, chunk) is None


def test_fsrs_schedule():
    t0 = dt.datetime(2026, 11, 22, 8, 0, tzinfo=dt.timezone.utc)
    schedule, due = new_schedule(t0)
    assert due == "2026-11-22T08:00:00+00:00" and json.loads(schedule)["state"] == 1
    again = review(schedule, Rating.AGAIN, t0)[1]
    good = review(schedule, Rating.GOOD, t0)[1]
    easy_schedule, easy = review(schedule, Rating.EASY, t0)
    assert t0.isoformat() < again <= good < easy
    # a card recalled again later gets a longer interval
    later = dt.datetime.fromisoformat(easy)
    _, next_due = review(easy_schedule, Rating.GOOD, later)
    assert dt.datetime.fromisoformat(next_due) - later > later - t0
    assert review(schedule, Rating.GOOD, t0) == review(schedule, Rating.GOOD, t0)  # no fuzz
    assert Rating.parse("good") is Rating.GOOD and Rating.parse("1") is Rating.AGAIN
    assert Rating.parse("e") is Rating.EASY


def test_library_stores_cards_once_and_records_reviews(sample):
    lib, book_id = sample
    cards = extract_cards(lib.study_chunks(book_id, chapter="2"))
    assert cards and any(c.front == "Weight" for c in cards)
    schedule, due = new_schedule(dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))
    assert lib.add_cards(book_id, cards, schedule, due) == len(cards)
    assert lib.add_cards(book_id, cards, schedule, due) == 0  # duplicates skipped
    stored = lib.cards(book_id, chapter="2")
    assert len(stored) == len(cards) and all(s.card.source.section_title for s in stored)
    first = stored[0]
    new_schedule_json, new_due = review(first.schedule, Rating.EASY)
    lib.save_review(first.id, int(Rating.EASY), new_schedule_json, new_due, "2026-01-01T00:00:00+00:00")
    due_now = lib.cards(book_id, chapter="2", due_before="2026-06-01T00:00:00+00:00")
    assert first.id not in {c.id for c in due_now} and len(due_now) == len(cards) - 1
    assert [c for c in lib.cards(book_id) if c.id == first.id][0].reviews == 1


def test_export_apkg_and_csv_read_back(sample, tmp_path):
    lib, book_id = sample
    schedule, due = new_schedule()
    lib.add_cards(book_id, extract_cards(lib.study_chunks(book_id)), schedule, due)
    stored = lib.cards(book_id)
    apkg = export_apkg(stored, tmp_path / "deck.apkg", deck_name="Lantern: sample", book_id=book_id)
    with zipfile.ZipFile(apkg) as zf:
        assert "collection.anki2" in zf.namelist()
        zf.extract("collection.anki2", tmp_path)
    db = sqlite3.connect(tmp_path / "collection.anki2")
    fields = [r[0].split("\x1f") for r in db.execute("SELECT flds FROM notes")]
    assert len(fields) == len(stored)
    assert {f[0] for f in fields} >= {"Weight", "Net force"}
    assert db.execute("SELECT COUNT(*) FROM cards").fetchone()[0] == len(stored)
    assert "Lantern: sample" in db.execute("SELECT decks FROM col").fetchone()[0]
    db.close()
    path = export_csv(stored, tmp_path / "deck.csv")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == len(stored) and rows[0]["front"] == stored[0].card.front and rows[0]["source"]


def test_cli_cards(sample, tmp_path, capsys):
    lib, book_id = sample
    root = str(lib.root)
    out = tmp_path / "ch3.csv"
    assert main(["--library", root, "cards", book_id, "--chapter", "3", "--export", str(out), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert cards and all(c["source"]["chapter"] == "3" for c in cards)
    assert len(list(csv.DictReader(out.open(encoding="utf-8")))) == len(cards)
    assert main(["--library", root, "cards", book_id, "--rate", str(cards[0]["id"]), "good", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rating"] == "good"
    assert main(["--library", root, "cards", book_id, "--export", str(tmp_path / "x.txt")]) == 2
    assert main(["--library", root, "cards", book_id, "--rate", "999999", "good"]) == 2


def test_cli_makes_cards_from_a_conversation(sample, capsys):
    from core.models import Turn
    lib, book_id = sample
    chunk = next(c for c in lib.study_chunks(book_id, chapter="2") if "Definition (Weight)" in c.text)
    quote = "The weight of an object is the gravitational force exerted on it by a planet or moon."
    good = Citation(1, chunk.id, chunk.book_id, "2", "2.3", chunk.section_title, 9, 9, "9", quote)
    bad = Citation(1, chunk.id, chunk.book_id, "2", "2.3", chunk.section_title, 9, 9, "9", "Weight is a colour.")
    conv = lib.create_conversation("weight", book_id)
    lib.append_turn(conv.id, Turn("What is weight, physically?", "Weight is ... [1]", citations=(good,)))
    lib.append_turn(conv.id, Turn("Is weight a colour?", "Yes [1]", citations=(bad,)))
    assert main(["--library", str(lib.root), "cards", book_id, "--from-conversation", str(conv.id), "--json"]) == 0
    cards = {c["front"]: c for c in json.loads(capsys.readouterr().out)}
    made = cards["What is weight, physically?"]
    assert made["back"] == quote and made["origin"] == "answer"
    assert "Is weight a colour?" not in cards  # its quote is not in the cited chunk
