"""Spaced repetition with FSRS (the ``fsrs`` package): the glue between stored JSON and the scheduler.

A card's schedule is FSRS's ``Card.to_dict()`` as JSON; ``due`` is its ISO-8601 UTC due time, stored
alongside so the library can list due cards with one indexed query.  Fuzzing is off, so the same
reviews always give the same intervals.
"""
from __future__ import annotations

import datetime as _dt
import enum
import json
from functools import lru_cache


class Rating(int, enum.Enum):
    """How well the student recalled a card (FSRS's four buttons)."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4

    @classmethod
    def parse(cls, text: str | int) -> Rating:
        """``3``, ``"good"`` or ``"g"`` -> ``Rating.GOOD``."""
        if isinstance(text, int) or str(text).strip().isdigit():
            return cls(int(text))
        t = str(text).strip().lower()
        for r in cls:
            if r.name.lower().startswith(t) and t:
                return r
        raise ValueError(f"not a rating: {text!r} (again, hard, good, easy or 1-4)")


@lru_cache(maxsize=1)
def _scheduler():
    from fsrs import Scheduler
    return Scheduler(enable_fuzzing=False)


def _iso(t: _dt.datetime) -> str:
    return t.astimezone(_dt.timezone.utc).isoformat(timespec="seconds")


def new_schedule(now: _dt.datetime | None = None) -> tuple[str, str]:
    """A new card's schedule JSON and due time (due now)."""
    from fsrs import Card
    now = now or _dt.datetime.now(_dt.timezone.utc)
    card = Card(due=now)
    return json.dumps(card.to_dict()), _iso(card.due)


def review(schedule: str, rating: Rating, now: _dt.datetime | None = None) -> tuple[str, str]:
    """Apply one review to a schedule; returns the new schedule JSON and the next due time."""
    from fsrs import Card
    from fsrs import Rating as FsrsRating
    now = now or _dt.datetime.now(_dt.timezone.utc)
    data = json.loads(schedule) if schedule and schedule != "{}" else None
    card = Card.from_dict(data) if data else Card(due=now)
    card, _ = _scheduler().review_card(card, FsrsRating(int(rating)), review_datetime=now)
    return json.dumps(card.to_dict()), _iso(card.due)


def now_iso() -> str:
    """The current time as stored in due columns."""
    return _iso(_dt.datetime.now(_dt.timezone.utc))
