"""Chapter guides: learning objectives, per-section points and key terms of one chapter, every line cited.

Lines are the book's own sentences, chosen from the chapter's lesson (``core.study.lesson``): per
section one to three whole, standalone sentences (definitions and rules first, each passing
``core.study.prose.line_problem``: never a fragment, a tautology or a heading run into a sentence),
with "try this" links to practice items made from that section; key terms with the book's definition.
Guides are cached in the library (``Library.study_cache_*``) under a versioned key.  ``model_summary``
(a model's map over sections, kept only where the book supports it) remains for callers that want it.
"""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence

from core.errors import LanternError
from core.models import BookId, Chunk, ChunkId, ChunkRole
from core.study.drills import lesson_practice
from core.study.lesson import ChapterLesson, build_lesson, chapter_lesson
from core.study.models import ChapterGuide, GuideItem, GuideSection, SourceRef
from core.study.prose import line_problem
from core.study.statements import Statement, StatementKind
from core.study.text import is_prose, loose, normalize, sentences, stitch, support

log = logging.getLogger(__name__)

GUIDE_VERSION = 11
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


MAX_POINTS = 3  # per section
# The book says it is an example ("Sodium chloride, for example, consists of ...", "The formation of frost is an
# example of deposition."), or a whole sentence in brackets.
_ASIDE = re.compile(r"(?i)\bfor (?:example|instance)\b|"
                    r"\b(?:is|are|was|were) (?:an?|one|another)(?: \w+)? examples? of\b|^\(.*\)\W*$")


def section_points(statements: Sequence[Statement], headings: Sequence[str],
                   asides: frozenset = frozenset()) -> list[Statement]:
    """One to three whole, standalone sentences of a section: best scored, different terms, reading order.

    Never from ``asides`` (ids of the chapter's worked examples and code: a hand check of 138 guide lines found
    a worked example's numbers and "the ion" of one case among them)."""
    good = [s for s in statements if s.standalone and s.kind not in (StatementKind.EXAMPLE, StatementKind.PROCEDURE)
            and s.source.chunk_id not in asides and not _ASIDE.search(s.text) and line_problem(s.text, headings) is None]
    chosen: list[Statement] = []
    for s in sorted(good, key=lambda s: -s.score):
        if len(chosen) < MAX_POINTS and all(loose(s.term) != loose(c.term) for c in chosen):
            chosen.append(s)
    order = {id(s): i for i, s in enumerate(statements)}
    return sorted(chosen, key=lambda s: order[id(s)])


def _period(line: str) -> str:
    return line if re.search(r"[.!?][\"”’)]*$", line) else line.rstrip(" ;,") + "."


def build_guide(book_id: str, chapter: str, chunks: Sequence[Chunk], lesson: ChapterLesson | None = None
                ) -> ChapterGuide:
    """A guide from one chapter's chunks (pure): the book's objectives, then per section one to three
    whole sentences of the book, each cited, with practice items to try; key terms with their definitions."""
    if not chunks:
        raise LanternError(f"Chapter {chapter} has no text in this book.")
    lesson = lesson or build_lesson(book_id, chapter, chunks)
    seen: set[str] = set()
    objectives = []
    for c in chunks:
        if c.role is ChunkRole.OBJECTIVES and is_prose(c):
            for line in _lines(c):
                key = normalize(line)[:120]
                if key not in seen and len(objectives) < 20:
                    seen.add(key)
                    objectives.append(GuideItem(_period(line[:1].upper() + line[1:]), SourceRef.of(c)))
    headings = [s.title for s in lesson.sections] + [lesson.title]
    asides = frozenset(c.id for c in chunks if c.role in (ChunkRole.EXAMPLE, ChunkRole.CODE))
    try_this: dict[object, list[str]] = {}
    for e in lesson_practice(lesson):
        try_this.setdefault(e.source.section_id, []).append(e.label)
    sections = []
    shown: set[str] = set()
    for info in lesson.sections:
        fresh = [s for s in lesson.in_section(info.section_id) if loose(s.text) not in shown]
        points = section_points(fresh, headings, asides)
        shown.update(loose(p.text) for p in points)
        if points:
            sections.append(GuideSection(info.number, info.title, info.page,
                                         tuple(GuideItem(p.text, p.source) for p in points),
                                         tuple(try_this.get(info.section_id, [])[:2])))
    terms, named = [], set()
    glossary = {loose(g.term) for g in lesson.glossary}
    for s in lesson.concepts:  # the chapter's key concepts first, most central first
        if s.kind is StatementKind.DEFINITION and loose(s.term) not in named and len(terms) < MAX_TERMS \
                and (loose(s.term) in glossary or s.standalone and line_problem(s.text) is None):
            named.add(loose(s.term))
            terms.append(GuideItem(f"{s.term}: {s.text}" if loose(s.term) in glossary else f"{s.term} — {s.text}",
                                   s.source))
    for s in lesson.glossary:  # the book's own glossary lines, as printed ("term: definition")
        if loose(s.term) not in named and len(terms) < MAX_TERMS:
            named.add(loose(s.term))
            terms.append(GuideItem(f"{s.term}: {s.text}", s.source))
    for s in lesson.by_kind(StatementKind.DEFINITION):  # defining sentences of the text ("term — sentence")
        if loose(s.term) not in named and len(terms) < MAX_TERMS and s.standalone and line_problem(s.text) is None:
            named.add(loose(s.term))
            terms.append(GuideItem(f"{s.term} — {s.text}", s.source))
    summary = tuple(p for sec in sections for p in sec.points)
    return ChapterGuide(book_id, chapter, lesson.title, tuple(objectives), summary, tuple(terms),
                        "book sentences", tuple(sections))


def guide_lines(guide: ChapterGuide) -> list[str]:
    """Every sentence the guide shows: section points and key terms' defining sentences (the book's
    glossary lines, "term: definition", are shown as printed and are not sentences)."""
    lines = [p.text for p in guide.summary] + [t.text.split(" — ", 1)[1] for t in guide.key_terms if " — " in t.text]
    return list(dict.fromkeys(lines))


def _from_json(data: dict) -> ChapterGuide:
    def items(xs: list[dict]) -> tuple[GuideItem, ...]:
        return tuple(GuideItem(x["text"], SourceRef(ChunkId(x["source"]["chunk_id"]), data["book_id"],
                                                    x["source"].get("chapter"), x["source"].get("section"),
                                                    x["source"]["section_title"], x["source"]["page_start"],
                                                    x["source"]["printed_page"], x["source"].get("section_id")))
                     for x in xs)
    sections = tuple(GuideSection(x["number"], x["title"], x["page"], items(x["points"]), tuple(x["practice"]))
                     for x in data.get("sections", []))
    return ChapterGuide(BookId(data["book_id"]), data["chapter"], data["title"], items(data["objectives"]),
                        items(data["summary"]), items(data["key_terms"]), data.get("generator", "extractive"),
                        sections)


MIN_SUPPORT = 0.7  # share of a generated sentence's content words one source sentence must hold
_MAP_SYSTEM = ("Summarise a section of a textbook for a student in two short sentences. Use only facts stated in "
               "the text. Write plain sentences, no lists.")


def _section_text(chunks: Sequence[Chunk], limit: int = 1500) -> str:
    chunks = [c for c in chunks if is_prose(c)]
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
            if source is not None and key not in seen and line_problem(sentence) is None:
                seen.add(key)
                out.append(GuideItem(sentence, SourceRef.of(source)))
    if progress:
        progress("guide", len(sections), len(sections))
    return tuple(out)


def chapter_guide(lib, book_id: str, chapter: str, *, refresh: bool = False, model=None, progress=None,
                  cancel=None) -> ChapterGuide:
    """The chapter's guide from the library's cache, built (and cached) when missing or ``refresh``.

    The guide is made of the book's own sentences (``build_guide``), so it never shows a fragment or a
    claim the book does not make; ``model`` is accepted for compatibility and not used."""
    book = lib.book(book_id)
    key = f"guide:v{GUIDE_VERSION}:{chapter}"
    cached = None if refresh else lib.study_cache_get(book.id, key)
    if cached:
        return _from_json(json.loads(cached))
    lesson = chapter_lesson(lib, book.id, chapter, refresh=refresh, progress=progress, cancel=cancel)
    guide = build_guide(book.id, chapter, lib.study_chunks(book.id, chapter=chapter), lesson)
    if not (cancel and cancel()):
        lib.study_cache_put(book.id, key, json.dumps(guide.to_json(), ensure_ascii=False))
    return guide


def format_guide(guide: ChapterGuide) -> str:
    """The guide as text, each line with its section and page."""
    lines = [f"Chapter {guide.chapter}: {guide.title}"]
    if guide.objectives:
        lines.append("\nObjectives")
        lines += [f"  - {i.text}  ({i.source.label})" for i in guide.objectives]
    if guide.sections:
        for sec in guide.sections:
            lines.append(f"\n{(sec.number or '') + ' ' if sec.number else ''}{sec.title} (p. {sec.page})")
            lines += [f"  - {p.text}  (p. {p.source.printed_page or p.source.page_start})" for p in sec.points]
            if sec.practice:
                lines.append(f"    try this: lantern practice BOOK --exercise {sec.practice[0]} --answer ...")
    elif guide.summary:
        lines.append("\nSummary")
        lines += [f"  - {i.text}  ({i.source.label})" for i in guide.summary]
    if guide.key_terms:
        lines.append("\nKey terms")
        lines += [f"  - {i.text}  ({i.source.label})" for i in guide.key_terms]
    return "\n".join(lines)
