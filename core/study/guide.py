"""Chapter guides: learning objectives, summary points and key terms of one chapter, every line cited.

This is the extractive guide (no model): lines are the book's own objectives, summary/key-takeaway
points and glossary definitions, each tied to the chunk it was read from.  Guides are cached in the
library (``Library.study_cache_*``) under a versioned key.
"""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import replace

from core.errors import LanternError
from core.models import BookId, Chunk, ChunkId, ChunkRole
from core.study.cards import extract_cards
from core.study.models import ChapterGuide, GuideItem, SourceRef
from core.study.text import normalize, sentences, stitch, support

log = logging.getLogger(__name__)

GUIDE_VERSION = 2
MAX_SUMMARY = 16
MAX_TERMS = 40
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_LEAD_IN = re.compile(r"(?i)^(?:after studying this|by the end of this|in this (?:chapter|section)|you should be able|"
                      r"learning objectives|summary|key (?:takeaways|terms)|review)\b")


_ABLE_TO = re.compile(r"(?is)^.*?\b(?:able to|you will|you should)\b[^:]*:\s*")
_SUMMARY_HEAD = re.compile(r"(?mi)^[ \t]*(?:#+\s*)?(?:summary|key takeaways|section summary|chapter summary|"
                           r"in summary)[ \t]*$")


def _lines(chunk: Chunk) -> list[str]:
    """A chunk's list items (one per line, or inline " - " bullets), or its sentences when it has none."""
    text = _ABLE_TO.sub("", chunk.text, count=1) if chunk.role is ChunkRole.OBJECTIVES else chunk.text
    raw = [ln.strip() for ln in text.splitlines() if ln.strip()]
    bullets = [_BULLET.sub("", ln) for ln in raw if _BULLET.match(ln)]
    if chunk.role is ChunkRole.OBJECTIVES and len(bullets) <= 1:  # "... able to: - Define X - Explain Y" on one line
        bullets = [b for b in re.split(r"\s+[-•]\s+(?=[A-Z])|^\s*[-•]\s+", " ".join(bullets or raw)) if b.strip()]
    items = bullets or sentences(text)
    return [" ".join(i.split()) for i in items if len(i) > 15 and not _LEAD_IN.match(i.strip())]


def _summary_paragraphs(chunks: Sequence[Chunk], limit: int) -> list[GuideItem]:
    """The first sentences under each "Summary" heading inside the chapter's text."""
    out: list[GuideItem] = []
    for run in stitch(chunks):
        for m in _SUMMARY_HEAD.finditer(run.text):
            body = run.text[m.end():m.end() + 3000]
            stop = re.search(r"(?mi)^[ \t]*(?:key terms|glossary|review questions|exercises)\b", body)
            body = body[:stop.start()] if stop else body
            chunk = run.chunk_at(m.end())
            for sentence in sentences(body)[:2]:
                text = " ".join(sentence.split())
                if len(text) > 30 and normalize(text) in normalize(chunk.text) and len(out) < limit:
                    out.append(GuideItem(text, SourceRef.of(chunk)))
    return out


def build_guide(book_id: str, chapter: str, chunks: Sequence[Chunk]) -> ChapterGuide:
    """An extractive guide from one chapter's chunks (pure)."""
    if not chunks:
        raise LanternError(f"Chapter {chapter} has no text in this book.")
    seen: set[str] = set()

    def take(role: ChunkRole, limit: int) -> tuple[GuideItem, ...]:
        out = []
        for c in chunks:
            if c.role is not role:
                continue
            for line in _lines(c):
                key = normalize(line)[:120]
                if key not in seen and len(out) < limit:
                    seen.add(key)
                    out.append(GuideItem(line, SourceRef.of(c)))
        return tuple(out)

    objectives = take(ChunkRole.OBJECTIVES, 20)
    summary = take(ChunkRole.SUMMARY, MAX_SUMMARY)
    summary += tuple(i for i in _summary_paragraphs(chunks, MAX_SUMMARY - len(summary))
                     if normalize(i.text)[:120] not in seen)
    terms = tuple(GuideItem(f"{card.front}: {card.back}", card.source) for card in extract_cards(chunks)[:MAX_TERMS])
    title = next((c.chapter_title for c in chunks if c.chapter_title), f"Chapter {chapter}")
    return ChapterGuide(book_id, chapter, title, objectives, summary, terms)


def _from_json(data: dict) -> ChapterGuide:
    def items(xs: list[dict]) -> tuple[GuideItem, ...]:
        return tuple(GuideItem(x["text"], SourceRef(ChunkId(x["source"]["chunk_id"]), data["book_id"],
                                                    x["source"].get("chapter"), x["source"].get("section"),
                                                    x["source"]["section_title"], x["source"]["page_start"],
                                                    x["source"]["printed_page"], x["source"].get("section_id")))
                     for x in xs)
    return ChapterGuide(BookId(data["book_id"]), data["chapter"], data["title"], items(data["objectives"]),
                        items(data["summary"]), items(data["key_terms"]), data.get("generator", "extractive"))


MIN_SUPPORT = 0.7  # share of a generated sentence's content words one source sentence must hold
_MAP_SYSTEM = ("Summarise a section of a textbook for a student in two short sentences. Use only facts stated in "
               "the text. Write plain sentences, no lists.")


def _section_text(chunks: Sequence[Chunk], limit: int = 1500) -> str:
    paras = [i.text for i in _summary_paragraphs(chunks, 4)]
    body = " ".join(paras) if paras else " ".join(" ".join(c.text.split()) for c in chunks
                                                   if c.role in (ChunkRole.CONCEPT, ChunkRole.SUMMARY))
    return body[:limit]


def attribute(sentence: str, chunks: Sequence[Chunk]) -> Chunk | None:
    """The chunk with a sentence holding at least ``MIN_SUPPORT`` of ``sentence``'s content words, or None."""
    best, best_share = None, 0.0
    for c in chunks:
        share = support(c.text, sentence)[0]
        if share > best_share:
            best, best_share = c, share
    return best if best_share >= MIN_SUPPORT else None


def model_summary(model, chunks: Sequence[Chunk], *, progress=None, cancel=None) -> tuple[GuideItem, ...]:
    """Map: the model summarises each section in two sentences; reduce: the sections' sentences in reading
    order, each kept only when a sentence of that section supports it (and cited there), duplicates dropped."""
    sections: dict[object, list[Chunk]] = {}
    for c in chunks:
        if c.section_id is not None:
            sections.setdefault(c.section_id, []).append(c)
    out: list[GuideItem] = []
    seen: set[str] = set()
    for i, members in enumerate(sections.values()):
        if cancel and cancel():
            break
        if progress:
            progress("guide", i, len(sections))
        text = _section_text(members)
        if len(text) < 200:
            continue
        try:
            prompt = f"Section: {members[0].section_title}\n\n{text}\n\nSummary:"
            reply = model.chat([{"role": "system", "content": _MAP_SYSTEM}, {"role": "user", "content": prompt}],
                               max_tokens=120, temperature=0.2)
        except LanternError as exc:
            log.info("guide: section skipped: %s", exc)
            continue
        for sentence in sentences(" ".join(reply.split())):
            source = attribute(sentence, members)
            key = normalize(sentence)[:120]
            if source is not None and key not in seen and len(sentence) > 25:
                seen.add(key)
                out.append(GuideItem(sentence, SourceRef.of(source)))
    if progress:
        progress("guide", len(sections), len(sections))
    return tuple(out)


def chapter_guide(lib, book_id: str, chapter: str, *, refresh: bool = False, model=None, progress=None,
                  cancel=None) -> ChapterGuide:
    """The chapter's guide from the library's cache, built (and cached) when missing or ``refresh``.

    With ``model`` the summary is the model's map-reduce over sections (every sentence attributed to a
    supporting source sentence, unsupported ones dropped); without, it is the book's own summary points.
    """
    book = lib.book(book_id)
    key = f"guide:v{GUIDE_VERSION}:{chapter}:{'model' if model is not None else 'extractive'}"
    cached = None if refresh else lib.study_cache_get(book.id, key)
    if cached:
        return _from_json(json.loads(cached))
    chunks = lib.study_chunks(book.id, chapter=chapter)
    guide = build_guide(book.id, chapter, chunks)
    if model is not None:
        summary = model_summary(model, chunks, progress=progress, cancel=cancel)
        if summary:
            guide = replace(guide, summary=summary, generator=getattr(model, "display_name", "model"))
    lib.study_cache_put(book.id, key, json.dumps(guide.to_json(), ensure_ascii=False))
    return guide


def format_guide(guide: ChapterGuide) -> str:
    """The guide as text, each line with its section and page."""
    lines = [f"Chapter {guide.chapter}: {guide.title}"]
    for heading, items in (("Objectives", guide.objectives), ("Summary", guide.summary),
                           ("Key terms", guide.key_terms)):
        if items:
            lines.append(f"\n{heading}")
            lines += [f"  - {i.text}  ({i.source.label})" for i in items]
    return "\n".join(lines)
