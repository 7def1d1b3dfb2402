"""Export flashcards to Anki (``.apkg`` through ``genanki``) and CSV.

The Anki note type and deck ids are derived from the book id, so re-exporting a book updates the
same deck in Anki instead of creating a new one; each note's GUID comes from the book and the card
front, so re-imports update notes rather than duplicating them.
"""
from __future__ import annotations

import csv
import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from core.errors import LanternError
from core.study.models import StoredCard

ANKI_FIELDS = ("Front", "Back", "Book", "Chapter", "Section", "Page", "Source")
CSV_FIELDS = ("front", "back", "book", "source", "chapter", "section", "page", "due", "quote")


def _stable_id(*parts: str) -> int:
    """A 31-bit positive id (Anki wants ids that fit a signed 64-bit int; genanki uses ints)."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return (int.from_bytes(digest[:8], "big") % (1 << 31)) + (1 << 30)


def _row(card: StoredCard, book: str = "") -> dict[str, str]:
    c = card.card
    section = f"{c.source.section or ''} {c.source.section_title}".strip()
    return {"front": c.front, "back": c.back, "book": book, "source": c.source.label, "chapter": c.source.chapter or "",
            "section": section, "page": c.source.printed_page or str(c.source.page_start),
            "due": card.due, "quote": c.quote}


def _tag(text: str) -> str:
    """An Anki tag: no spaces (Anki splits tags at spaces)."""
    return re.sub(r"[^\w.\-:]+", "_", text.strip()).strip("_")[:60]


def card_tags(card: StoredCard, book: str) -> list[str]:
    """Anki tags of a card: ``lantern``, the book, ``chapter::N``, ``section::2.3`` and ``page::45``."""
    c = card.card
    tags = ["lantern", _tag(book or c.source.book_id)]
    if c.source.chapter:
        tags.append(f"chapter::{_tag(c.source.chapter)}")
    if c.source.section or c.source.section_title:
        tags.append(f"section::{_tag(c.source.section or c.source.section_title)}")
    tags.append(f"page::{_tag(c.source.printed_page or str(c.source.page_start))}")
    return [t for t in tags if t]


def export_csv(cards: Sequence[StoredCard], path: str | os.PathLike[str], *, book_title: str = "") -> Path:
    """Write cards to a UTF-8 CSV with a header row (``CSV_FIELDS``); returns the path."""
    out = Path(path)
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for card in cards:
            writer.writerow(_row(card, book_title))
    return out


def export_apkg(cards: Sequence[StoredCard], path: str | os.PathLike[str], *, deck_name: str,
                book_id: str, book_title: str = "") -> Path:
    """Write cards as an Anki package (a zip holding ``collection.anki2``); returns the path.

    Each note carries the book, chapter, section and printed page as fields and as tags."""
    try:
        import genanki
    except ImportError as exc:  # pragma: no cover - pinned dependency
        raise LanternError("Anki export needs the genanki package (pip install genanki).") from exc
    book = book_title or deck_name.removeprefix("Lantern: ")
    model = genanki.Model(
        _stable_id("lantern-model", "v2"), "Lantern card",
        fields=[{"name": name} for name in ANKI_FIELDS],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                    "afmt": "{{FrontSide}}<hr id=answer>{{Back}}<br><small>{{Book}} › {{Section}}, p. {{Page}}"
                            "</small>"}])
    deck = genanki.Deck(_stable_id("lantern-deck", book_id), deck_name)
    for card in cards:
        c = card.card
        row = _row(card, book)
        note = genanki.Note(model=model, fields=[_html(row[f.lower()]) for f in ANKI_FIELDS],
                            guid=genanki.guid_for(book_id, c.key), tags=card_tags(card, book))
        deck.add_note(note)
    out = Path(path)
    genanki.Package(deck).write_to_file(str(out))
    return out


def _html(text: str) -> str:
    import html
    return html.escape(text).replace("\n", "<br>")


def export_cards(cards: Sequence[StoredCard], path: str | os.PathLike[str], *, deck_name: str,
                 book_id: str, book_title: str = "") -> Path:
    """Export by file extension: ``.apkg`` (Anki) or ``.csv``."""
    suffix = Path(path).suffix.lower()
    book = book_title or deck_name.removeprefix("Lantern: ")
    if suffix == ".apkg":
        return export_apkg(cards, path, deck_name=deck_name, book_id=book_id, book_title=book)
    if suffix == ".csv":
        return export_csv(cards, path, book_title=book)
    raise LanternError(f"Cannot export cards to {path}: use a .apkg or .csv file name.")
