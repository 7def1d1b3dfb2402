"""Cut a parsed book into retrieval chunks and embed them, with one transformer pass ("late chunking").

Pipeline (``chunk_book``):

1. *Plan*: group blocks into segments (a run of blocks of one section; a learning-objectives
   block gets its own segment), split TEXT/LIST blocks into sentences (Punkt trained on the
   book), keep CODE/EQUATION/TABLE blocks whole, tokenise everything with the model's tokenizer.
2. *Embed once*: pack each segment's units (sentences/atomic blocks), behind its title prefix, into
   windows of at most the model's 256 word pieces, aligned to unit boundaries, and run the
   transformer over them.  Each unit keeps only the sum of its contextual token vectors.
3. *Cut*: inside a segment, similarity between the units either side of every boundary finds
   topic valleys; chunks are cut at valleys below a percentile of that segment's similarities,
   within min/max token limits, with one sentence of overlap.
4. *Pool*: a chunk's vector is the normalised mean of its units' token vectors (plus its window's
   title-prefix tokens) -- no second pass.  Measured on Psychology 2e and Chemistry 2e this
   retrieves as well as re-embedding each chunk's text (Hit@k within +-1 point), and the whole
   of ``chunk_book`` takes less time than embedding the final chunks once (overlap and prefixes
   make the chunks ~25% more tokens than the book).

Chunks never cross a section (``Block.section``, the deepest heading).  An atomic block longer
than ``max_tokens`` becomes its own chunk; past the model window only its first 254 word pieces
are embedded (logged).
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from core.index.chunk_cuts import boundary_similarities, cut_ranges
from core.index.chunk_plan import ChunkConfig, Segment, plan_book, section_chain
from core.index.chunk_reuse import SegmentLookup, reusable, segment_key
from core.index.embedder import TextEmbedder, release_heap
from core.ingest import enrich
from core.models import ChunkDraft, ParsedBook
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

CHUNKER_VERSION = "late-1"
"""Bump only when stored vectors no longer fit this code: the index manifest then refuses a library built
before (its books must be imported again).  Where chunks are cut needs no bump: a segment cut differently
has another key (``chunk_reuse``), and a book imported before keeps its chunks until it is imported again."""


@dataclass
class Prepared:
    """A book after planning and the single embedding pass; ``finish`` turns it into chunks."""

    parsed: ParsedBook
    segments: list[Segment]
    window_limit: int
    dimension: int
    reused: dict[int, tuple[list[tuple[int, int]], np.ndarray]] = field(default_factory=dict)  # by segment
    unit_terms: list[list[list[str]]] = field(default_factory=list)  # candidate key phrases, per segment and unit
    scorer: enrich.KeyphraseScorer = field(default_factory=enrich.KeyphraseScorer)


# -- the single transformer pass -----------------------------------------------------------------
def pack_windows(seg: Segment, limit: int) -> list[list[tuple[int, int, int]]]:
    """Unit-aligned windows for one segment: lists of (unit, offset, length) after the prefix."""
    windows: list[list[tuple[int, int, int]]] = []
    cur: list[tuple[int, int, int]] = []
    used = len(seg.prefix_ids)
    for i, u in enumerate(seg.units):
        n = min(len(u.ids), limit - len(seg.prefix_ids))
        if cur and used + n > limit:
            windows.append(cur)
            cur, used = [], len(seg.prefix_ids)
        cur.append((i, used, n))
        used += n
        if u.atomic and len(u.ids) > n:
            log.info("block %d (%s, %d tokens) exceeds the model window; its vector covers the first %d",
                     u.block, "atomic", len(u.ids), n)
    if cur:
        windows.append(cur)
    return windows


def window_ids(seg: Segment, window: list[tuple[int, int, int]]) -> list[int]:
    """The word-piece ids the model sees for one of ``pack_windows``' windows: the prefix, then its units."""
    ids = list(seg.prefix_ids)
    for ui, _, n in window:
        ids.extend(seg.units[ui].ids[:n])
    return ids


def embed_segments(segments: list[Segment], embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
                   progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> None:
    """Run the model once over every segment's windows; store per-unit summed token vectors."""
    limit = embedder.max_tokens - embedder.special_tokens
    dim = embedder.dimension
    layout: list[tuple[int, list[tuple[int, int, int]]]] = []
    ids: list[list[int]] = []
    for si, seg in enumerate(segments):
        seg.sums = np.zeros((len(seg.units), dim), dtype=np.float32)
        seg.unit_window = [0] * len(seg.units)
        seg.prefix_sums = []
        for window in pack_windows(seg, limit):
            layout.append((si, window))
            ids.append(window_ids(seg, window))
    for (si, window), tokens in zip(layout, embedder.embed_windows(
            ids, batch_size=config.batch_size, progress=progress, cancel=cancel), strict=True):
        seg = segments[si]
        p = len(seg.prefix_ids)
        seg.prefix_sums.append(tokens[:p].sum(axis=0) if p else np.zeros(dim, dtype=np.float32))
        w = len(seg.prefix_sums) - 1
        # One reduceat per window, not one sum per unit: numpy releases the GIL in each call, and
        # thousands of tiny release/re-acquire cycles starve other threads (a GUI) of the GIL.
        units = np.array([ui for ui, _, n in window if n > 0], dtype=np.int64)
        if len(units):
            offsets = np.array([off - p for _, off, n in window if n > 0], dtype=np.int64)
            seg.sums[units] = np.add.reduceat(tokens[p:], offsets, axis=0)
        for ui, _, _ in window:
            seg.unit_window[ui] = w


# -- cutting -------------------------------------------------------------------------------------
# (boundary_similarities and cut_ranges live in core.index.chunk_cuts)


# -- assembling ----------------------------------------------------------------------------------
ORDINAL_STRIDE = 1 << 16
"""A staged import numbers segment ``s``'s chunks ``s * ORDINAL_STRIDE + j`` until the book is complete
(``core.library`` then renumbers them 0, 1, 2 ...): a segment's keyword-only chunks and the embedded
chunks that replace them share one ordinal range, so a resumed import can tell which segments are done."""


def plan(parsed: ParsedBook, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
         progress: ProgressFn | None = None, cancel: CancelFn | None = None,
         reuse: SegmentLookup | None = None) -> Prepared:
    """Segments, sentence units, token ids, segment keys and key-phrase statistics: everything but the
    model pass (a few seconds for a 500-page book).  Segments ``reuse`` finds stored need no pass."""
    segments = plan_book(parsed, embedder, config, progress=progress, cancel=cancel)
    release_heap()  # Punkt training and bulk tokenising leave tens of MB of freed fragments
    salt = f"{CHUNKER_VERSION}|{embedder.model_name}|{config!r}"
    prep = Prepared(parsed, segments, embedder.max_tokens - embedder.special_tokens, embedder.dimension)
    for si, seg in enumerate(segments):
        seg.key = segment_key(seg.prefix_ids, [(u.atomic, u.ids) for u in seg.units], short=seg.short, salt=salt)
        found = reusable(reuse(seg.key), len(seg.units), embedder.dimension) if reuse is not None else None
        if found is not None:
            prep.reused[si] = found
    if prep.reused:
        log.info("reusing the vectors of %d of %d segments (unchanged since an earlier import)",
                 len(prep.reused), len(segments))
    prep.unit_terms = [[enrich.candidate_phrases(u.text) for u in seg.units] for seg in segments]
    prep.scorer.docs = len(segments)
    for terms in prep.unit_terms:
        prep.scorer.df.update({t for ts in terms for t in ts})
    return prep


def prepare(parsed: ParsedBook, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
            progress: ProgressFn | None = None, cancel: CancelFn | None = None,
            reuse: SegmentLookup | None = None) -> Prepared:
    """``plan`` + the one embedding pass over every segment (what ``chunk_book`` does before cutting)."""
    prep = plan(parsed, embedder, config, progress=progress, cancel=cancel, reuse=reuse)
    embed_segments([seg for si, seg in enumerate(prep.segments) if si not in prep.reused], embedder, config,
                   progress=progress, cancel=cancel)
    return prep


def keyword_drafts(prep: Prepared, config: ChunkConfig = ChunkConfig()) -> list[ChunkDraft]:
    """Chunks cut by size alone, before any model pass, so a book is keyword-searchable at once.

    Numbered with ``ORDINAL_STRIDE``; ``embedded_drafts`` later replaces each segment's with the real cut.
    """
    drafts: list[ChunkDraft] = []
    for si, seg in enumerate(prep.segments):
        flat = np.zeros(max(len(seg.units) - 1, 0), dtype=np.float32)  # no similarities yet: cut near the target
        ranges = _ranges(seg, flat, -1.0, min(config.max_tokens, prep.window_limit), config)
        drafts.extend(_draft(prep, si, a, b, si * ORDINAL_STRIDE + j) for j, (a, b) in enumerate(ranges))
    return drafts


def embedded_drafts(prep: Prepared, segment_indexes: list[int], embedder: TextEmbedder,
                    config: ChunkConfig = ChunkConfig(), *, progress: ProgressFn | None = None,
                    cancel: CancelFn | None = None) -> tuple[list[ChunkDraft], np.ndarray]:
    """The model pass and the real cut for some segments (one chapter of a staged import), numbered with
    ``ORDINAL_STRIDE``: drafts and their vectors.  The segments' token sums are freed afterwards."""
    todo = [si for si in segment_indexes if si not in prep.reused]
    embed_segments([prep.segments[si] for si in todo], embedder, config, progress=progress, cancel=cancel)
    drafts: list[ChunkDraft] = []
    vectors: list[np.ndarray] = []
    for si in segment_indexes:
        ranges, pooled = _segment_cut(prep, si, config)
        vectors.append(pooled)
        drafts.extend(_draft(prep, si, a, b, si * ORDINAL_STRIDE + j) for j, (a, b) in enumerate(ranges))
        seg = prep.segments[si]
        seg.sums, seg.prefix_sums = None, []
    matrix = np.concatenate(vectors) if vectors else np.zeros((0, prep.dimension))
    return drafts, matrix.astype(np.float32)


def _segment_cut(prep: Prepared, si: int, config: ChunkConfig) -> tuple[list[tuple[int, int]], np.ndarray]:
    """One embedded (or reused) segment's chunk ranges and pooled vectors."""
    if si in prep.reused:
        return prep.reused[si]
    seg = prep.segments[si]
    assert seg.sums is not None, "embed_segments must run first"
    sims = boundary_similarities(seg.sums, config.valley_window)
    threshold = float(np.percentile(sims, config.valley_percentile)) if len(sims) else 0.0
    ranges = _ranges(seg, sims, threshold, min(config.max_tokens, prep.window_limit), config)
    return ranges, _pool(seg, ranges, config.pool_prefix or seg.short)


def _ranges(seg: Segment, sims: np.ndarray, threshold: float, cap: int, config: ChunkConfig) -> list[tuple[int, int]]:
    """A segment's chunk ranges (``cut_ranges`` with the configured limits); a short segment is one chunk."""
    if seg.short:
        return [(0, len(seg.units))]
    return cut_ranges([len(u.ids) for u in seg.units], sims, budget=cap - len(seg.prefix_ids),
                      min_tokens=config.min_tokens, target_tokens=config.target_tokens, threshold=threshold,
                      overlap=config.overlap_sentences, overlap_max_tokens=config.overlap_max_tokens,
                      can_overlap=[not u.atomic for u in seg.units])


def finish(prep: Prepared, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
           progress: ProgressFn | None = None, cancel: CancelFn | None = None
           ) -> tuple[list[ChunkDraft], np.ndarray]:
    """Cut every prepared segment, pool (or re-embed) chunk vectors and build the drafts (ordinals 0, 1, 2 ...)."""
    drafts: list[ChunkDraft] = []
    vectors: list[np.ndarray] = []
    for si in range(len(prep.segments)):
        check_cancel(cancel)
        ranges, pooled = _segment_cut(prep, si, config)
        vectors.append(pooled)
        base = len(drafts)
        drafts.extend(_draft(prep, si, a, b, base + j) for j, (a, b) in enumerate(ranges))
    if progress is not None:
        progress("chunking", len(prep.segments), len(prep.segments))
    matrix = (np.concatenate(vectors) if vectors else np.zeros((0, prep.dimension))).astype(np.float32)
    if not config.pooled and drafts:
        matrix = embedder.encode([d.embed_text for d in drafts], batch_size=config.batch_size,
                                 progress=progress, cancel=cancel)
    return drafts, matrix


def _pool(seg: Segment, ranges: list[tuple[int, int]], with_prefix: bool) -> np.ndarray:
    """Normalised mean token vector of every range of a segment, in a few whole-segment numpy calls.

    (Per-chunk numpy calls would each drop and re-take the GIL; see ``embed_segments``.)
    """
    assert seg.sums is not None
    csum = np.zeros((len(seg.units) + 1, seg.sums.shape[1]), dtype=np.float64)
    np.cumsum(seg.sums, axis=0, out=csum[1:])
    starts = np.array([a for a, _ in ranges], dtype=np.int64)
    ends = np.array([b for _, b in ranges], dtype=np.int64)
    vecs = csum[ends] - csum[starts]
    if with_prefix:
        vecs += np.stack(seg.prefix_sums)[np.asarray(seg.unit_window, dtype=np.int64)[starts]]
    vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    return vecs.astype(np.float32)


def _draft(prep: Prepared, si: int, a: int, b: int, ordinal: int) -> ChunkDraft:
    parsed, seg, terms, scorer = prep.parsed, prep.segments[si], prep.unit_terms[si], prep.scorer
    units = seg.units[a:b]
    text = units[0].text + "".join(u.joiner + u.text for u in units[1:])
    blocks = [parsed.blocks[i] for i in dict.fromkeys(u.block for u in units)]
    kinds = [blk.kind for blk in blocks]
    emphasis = [e for blk in blocks for e in blk.emphasis]
    node = parsed.sections[seg.section] if seg.section is not None else None
    ancestors = [parsed.sections[i].title for i in section_chain(parsed, seg.section)[:-1]]
    role = enrich.classify_role(node.title if node else "", text, section_kind=node.kind if node else None,
                                ancestor_titles=ancestors, block_kinds=kinds, emphasis=emphasis)
    tf = Counter(t for ts in terms[a:b] for t in ts)
    keyphrases = scorer.top_counts(tf, 3)
    pages = [u.page for u in units]
    figure = blocks[0] if len(blocks) == 1 and blocks[0].label else None
    return ChunkDraft(
        section=seg.section, ordinal=ordinal, text=text,
        embed_text=f"{seg.prefix}\n{text}" if seg.prefix else text,
        role=role, page_start=min(pages), page_end=max(pages),
        token_count=sum(len(u.ids) for u in units),
        key_terms=enrich.key_terms(text, emphasis, extra=keyphrases),
        has_equation=enrich.has_equation(text, kinds), figure_refs=enrich.figure_refs(text),
        segment_key=seg.key, unit_start=a, unit_end=b,
        label=figure.label if figure else "", frame=figure.frame if figure else None)


def chunk_book(parsed: ParsedBook, embedder: TextEmbedder, *, progress: ProgressFn | None = None,
               cancel: CancelFn | None = None, config: ChunkConfig = ChunkConfig(),
               reuse: SegmentLookup | None = None) -> tuple[list[ChunkDraft], np.ndarray]:
    """Chunk and embed a book -> (drafts in reading order, float32 L2-normalised vectors, one per draft).

    Progress stages: "chunking" (planning and cutting) and "embedding" (windows done/total).
    Raises ``ImportCancelled`` when ``cancel()`` turns true, ``ModelUnavailableError`` if the model
    cannot load.  ``reuse`` (see ``core.index.chunk_reuse``) supplies stored vectors of unchanged segments.
    """
    prep = prepare(parsed, embedder, config, progress=progress, cancel=cancel, reuse=reuse)
    drafts, vectors = finish(prep, embedder, config, progress=progress, cancel=cancel)
    log.info("chunked %r: %d chunks from %d segments (chunker %s)", parsed.title, len(drafts),
             len(prep.segments), CHUNKER_VERSION)
    return drafts, vectors
