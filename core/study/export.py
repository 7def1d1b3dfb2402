"""Export flashcards to Anki (``.apkg`` through ``genanki``) and CSV.

The Anki note type and deck ids are derived from the book id, so re-exporting a book updates the
same deck in Anki instead of creating a new one; each note's GUID comes from the book and the card
front, so re-imports update notes rather than duplicating them.
"""
from __future__ import annotations

import csv
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from core.errors import LanternError
from core.study.models import StoredCard

CSV_FIELDS = ("front", "back", "source", "chapter", "section", "page", "due", "quote")


def _stable_id(*parts: str) -> int:
    """A 31-bit positive id (Anki wants ids that fit a signed 64-bit int; genanki uses ints)."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return (int.from_bytes(digest[:8], "big") % (1 << 31)) + (1 << 30)


def _row(card: StoredCard) -> dict[str, str]:
    c = card.card
    return {"front": c.front, "back": c.back, "source": c.source.label, "chapter": c.source.chapter or "",
            "section": c.source.section or "", "page": c.source.printed_page or str(c.source.page_start),
            "due": card.due, "quote": c.quote}


def export_csv(cards: Sequence[StoredCard], path: str | os.PathLike[str]) -> Path:
    """Write cards to a UTF-8 CSV with a header row (``CSV_FIELDS``); returns the path."""
    out = Path(path)
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for card in cards:
            writer.writerow(_row(card))
    return out


def export_apkg(cards: Sequence[StoredCard], path: str | os.PathLike[str], *, deck_name: str,
                book_id: str) -> Path:
    """Write cards as an Anki package (a zip holding ``collection.anki2``); returns the path."""
    try:
        import genanki
    except ImportError as exc:  # pragma: no cover - pinned dependency
        raise LanternError("Anki export needs the genanki package (pip install genanki).") from exc
    model = genanki.Model(
        _stable_id("lantern-model", "v1"), "Lantern card",
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Source"}],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                    "afmt": "{{FrontSide}}<hr id=answer>{{Back}}<br><small>{{Source}}</small>"}])
    deck = genanki.Deck(_stable_id("lantern-deck", book_id), deck_name)
    for card in cards:
        c = card.card
        note = genanki.Note(model=model, fields=[_html(c.front), _html(c.back), _html(c.source.label)],
                            guid=genanki.guid_for(book_id, c.key))
        deck.add_note(note)
    out = Path(path)
    genanki.Package(deck).write_to_file(str(out))
    return out


def _html(text: str) -> str:
    import html
    return html.escape(text).replace("\n", "<br>")


def export_cards(cards: Sequence[StoredCard], path: str | os.PathLike[str], *, deck_name: str,
                 book_id: str) -> Path:
    """Export by file extension: ``.apkg`` (Anki) or ``.csv``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".apkg":
        return export_apkg(cards, path, deck_name=deck_name, book_id=book_id)
    if suffix == ".csv":
        return export_csv(cards, path)
    raise LanternError(f"Cannot export cards to {path}: use a .apkg or .csv file name.")
