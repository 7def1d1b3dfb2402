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

from core import enrich
from core.chunk_cuts import boundary_similarities, cut_ranges
from core.chunk_reuse import SegmentLookup, reusable, segment_key
from core.embedding import TextEmbedder, release_heap
from core.importers.base import CancelFn, ProgressFn, check_cancel
from core.models import Block, BlockKind, ChunkDraft, ChunkRole, ParsedBook, SectionKind
from core.sentences import SentenceSplitter, train_splitter

log = logging.getLogger(__name__)

CHUNKER_VERSION = "late-1"
"""Bump on any change that alters chunk boundaries, texts or vectors (the index manifest checks it)."""

_ATOMIC = (BlockKind.CODE, BlockKind.EQUATION, BlockKind.TABLE)
PREFIX_SEP = " › "


@dataclass(frozen=True)
class ChunkConfig:
    """Chunking knobs; defaults chosen by measurement on two 500-page textbooks (see module docs)."""

    max_tokens: int = 200  # prefix + chunk text, in model word pieces (capped to the model window - 2)
    min_tokens: int = 64  # new (non-overlap) text a chunk should have before a valley may end it
    target_tokens: int = 150  # without a valley, prefer cuts near this size
    valley_percentile: float = 30.0  # boundaries whose similarity is below this percentile are valleys
    valley_window: int = 1  # units pooled on each side of a boundary when comparing
    overlap_sentences: int = 1  # sentences repeated at the start of the next chunk (0-2)
    overlap_max_tokens: int = 60  # ...unless the sentence is longer than this
    short_section_tokens: int = 40  # shorter sections get the full book/chapter/section context
    # "Chapter › Section" before every chunk's text.  Measured (pooled): Hit@1 +1 to +3.5 points,
    # MRR@10 +0.5 to +1, but Hit@10 -1 to -3 (chunks of one section cluster together).
    title_prefix: bool = True
    prefix_max_tokens: int = 40
    pool_prefix: bool = True  # include the prefix's token vectors in the chunk's pooled vector
    pooled: bool = True  # False: embed every chunk's embed_text again (2x cost; for comparison)
    batch_size: int = 4  # windows per forward pass: same speed as 8 or 16 on CPU, ~50-150 MB less peak RSS
    punkt_sample_chars: int = 400_000


@dataclass
class _Unit:
    text: str
    block: int
    page: int
    atomic: bool
    joiner: str  # placed before this unit when it follows another in a chunk
    ids: list[int] = field(default_factory=list)


@dataclass
class _Segment:
    section: int | None
    units: list[_Unit]
    prefix: str = ""
    prefix_ids: list[int] = field(default_factory=list)
    short: bool = False
    sums: np.ndarray | None = None  # (units, dim) summed token vectors
    prefix_sums: list[np.ndarray] = field(default_factory=list)  # one per window of the segment
    unit_window: list[int] = field(default_factory=list)  # window (within segment) of each unit
    key: str = ""  # what the model would see, hashed (core.chunk_reuse)


@dataclass
class Prepared:
    """A book after planning and the single embedding pass; ``finish`` turns it into chunks."""

    parsed: ParsedBook
    segments: list[_Segment]
    window_limit: int
    dimension: int
    reused: dict[int, tuple[list[tuple[int, int]], np.ndarray]] = field(default_factory=dict)  # by segment


# -- planning ------------------------------------------------------------------------------------
def _section_chain(parsed: ParsedBook, index: int | None) -> list[int]:
    chain: list[int] = []
    while index is not None:
        chain.append(index)
        index = parsed.sections[index].parent
    return chain[::-1]


def title_prefix(parsed: ParsedBook, section: int | None, *, full: bool) -> str:
    """"Chapter › Parent › Section" titles (``full`` adds the book title and every level)."""
    chain = [parsed.sections[i] for i in _section_chain(parsed, section)
             if parsed.sections[i].kind is not SectionKind.PART or full]
    titles = [s.title.strip() for s in chain if s.title.strip()]
    if not full and len(titles) > 3:  # chapter, parent and leaf say enough; deeper levels add noise
        titles = [titles[0], titles[-2], titles[-1]]
    if full and parsed.title.strip():
        titles = [parsed.title.strip(), *titles]
    return PREFIX_SEP.join(dict.fromkeys(titles))


def _block_units(block: Block, index: int, splitter: SentenceSplitter) -> list[_Unit]:
    text = block.text.strip()
    if not text:
        return []
    if block.kind in _ATOMIC:
        return [_Unit(text, index, block.page, True, "\n\n")]
    units: list[_Unit] = []
    lines = text.split("\n") if block.kind is BlockKind.LIST else [text]
    for li, line in enumerate(lines):
        prev_end = None
        for s, e in splitter.spans(line):
            if prev_end is None:
                joiner = "\n\n" if li == 0 else "\n"
            else:
                joiner = "\n" if "\n" in line[prev_end:s] else " "
            piece = line[s:e]
            if units and not any(ch.isalnum() for ch in piece):
                # A stray "." or ")." left by a removed figure reference is not a sentence.
                units[-1].text += joiner + piece
            else:
                units.append(_Unit(piece, index, block.page, False, joiner))
            prev_end = e
    return units


def _is_objectives_block(block: Block) -> bool:
    return block.kind is BlockKind.TEXT and enrich.role_from_text(block.text) is ChunkRole.OBJECTIVES


def _segment_blocks(parsed: ParsedBook) -> list[tuple[int | None, list[int]]]:
    """Runs of consecutive blocks of one section; an objectives block (+ its list) is a run alone.

    Objectives ("By the end of this section, you will be able to...") are kept out of the prose
    chunks so their chunk can be labelled OBJECTIVES without mislabelling the explanation after it.
    """
    runs: list[tuple[int | None, list[int]]] = []
    alone = False  # the current run is an objectives run
    for i, b in enumerate(parsed.blocks):
        objectives = _is_objectives_block(b)
        if runs and runs[-1][0] == b.section and not objectives and (not alone or b.kind is BlockKind.LIST):
            runs[-1][1].append(i)
        else:
            runs.append((b.section, [i]))
            alone = objectives
    return runs


def _split_long(unit: _Unit, limit: int, embedder: TextEmbedder) -> list[_Unit]:
    """Cut a sentence longer than ``limit`` word pieces at word boundaries (no sentence end found).

    A single "word" longer than ``limit`` (a long formula, URL or unspaced script) is cut inside;
    joiners record whether a cut fell between words (" ") or inside one ("") so text is preserved.
    """
    raw = unit.text.split(" ")
    words: list[tuple[str, str]] = []  # (text, glue before it)
    for w, c in zip(raw, embedder.count_tokens_batch(raw)):
        if c > limit:
            size = max(1, len(w) * limit // (2 * c))
            words.extend((w[i:i + size], " " if i == 0 else "") for i in range(0, len(w), size))
        else:
            words.append((w, " "))
    counts = embedder.count_tokens_batch([w for w, _ in words])
    pieces: list[list[str]] = []  # [glue before the piece, text]
    used = 0
    for (w, glue), c in zip(words, counts):
        if not pieces or used + c > limit:
            pieces.append([glue, w])
            used = c
        else:
            pieces[-1][1] += glue + w
            used += c
    return [_Unit(text, unit.block, unit.page, False, unit.joiner if i == 0 else glue)
            for i, (glue, text) in enumerate(pieces)]


def plan_book(parsed: ParsedBook, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
              progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> list[_Segment]:
    """Segments with their sentence units, title prefixes and token ids (no model inference yet)."""
    check_cancel(cancel)
    splitter = train_splitter((b.text for b in parsed.blocks if b.kind in (BlockKind.TEXT, BlockKind.LIST)),
                              sample_chars=config.punkt_sample_chars)
    window_limit = embedder.max_tokens - embedder.special_tokens
    cap = min(config.max_tokens, window_limit)
    runs = _segment_blocks(parsed)
    segments: list[_Segment] = []
    for n, (section, block_ids) in enumerate(runs):
        if n % 50 == 0:
            check_cancel(cancel)
            if progress is not None:
                progress("chunking", n, len(runs))
        units = [u for i in block_ids for u in _block_units(parsed.blocks[i], i, splitter)]
        if units:
            segments.append(_Segment(section, units))
    # One tokenizer call for the whole book: the Rust tokenizer is fast in bulk, slow per call.
    all_units = [u for seg in segments for u in seg.units]
    for u, ids in zip(all_units, embedder.token_ids([u.text for u in all_units])):
        u.ids = ids
    prefixes: dict[tuple[int | None, bool], tuple[str, list[int]]] = {}
    for seg in segments:
        total = sum(len(u.ids) for u in seg.units)
        seg.short = total < config.short_section_tokens
        if config.title_prefix or seg.short:
            key = (seg.section, seg.short)
            if key not in prefixes:
                text = title_prefix(parsed, seg.section, full=seg.short)
                ids = embedder.token_ids([text])[0] if text else []
                if len(ids) > config.prefix_max_tokens:  # absurdly long headings: keep the tail (the leaf)
                    text = " ".join(text.split(" ")[-config.prefix_max_tokens // 2:])
                    ids = embedder.token_ids([text])[0][-config.prefix_max_tokens:]
                prefixes[key] = (text, ids)
            seg.prefix, seg.prefix_ids = prefixes[key]
        budget = cap - len(seg.prefix_ids)
        if any(not u.atomic and len(u.ids) > budget for u in seg.units):
            fixed: list[_Unit] = []
            for u in seg.units:
                if u.atomic or len(u.ids) <= budget:
                    fixed.append(u)
                    continue
                parts = _split_long(u, min(budget, config.target_tokens), embedder)
                for p, ids in zip(parts, embedder.token_ids([p.text for p in parts])):
                    if len(ids) > budget:  # cannot happen with word-piece tokenizers; stay safe
                        log.warning("a sentence piece of %d tokens was truncated to %d", len(ids), budget)
                    p.ids = ids[:budget]
                fixed.extend(parts)
            seg.units = fixed
    if progress is not None:
        progress("chunking", len(runs), len(runs))
    return segments


# -- the single transformer pass -----------------------------------------------------------------
def _pack_windows(seg: _Segment, limit: int) -> list[list[tuple[int, int, int]]]:
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


def embed_segments(segments: list[_Segment], embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
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
        for window in _pack_windows(seg, limit):
            layout.append((si, window))
            w_ids = list(seg.prefix_ids)
            for ui, _, n in window:
                w_ids.extend(seg.units[ui].ids[:n])
            ids.append(w_ids)
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
# (boundary_similarities and cut_ranges live in core.chunk_cuts)


# -- assembling ----------------------------------------------------------------------------------
def prepare(parsed: ParsedBook, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
            progress: ProgressFn | None = None, cancel: CancelFn | None = None,
            reuse: SegmentLookup | None = None) -> Prepared:
    """Plan + the one embedding pass (what ``chunk_book`` does before cutting); segments ``reuse``
    finds stored (an earlier edition) skip the pass."""
    segments = plan_book(parsed, embedder, config, progress=progress, cancel=cancel)
    release_heap()  # Punkt training and bulk tokenising leave tens of MB of freed fragments
    salt = f"{CHUNKER_VERSION}|{embedder.model_name}|{config!r}"
    reused: dict[int, tuple[list[tuple[int, int]], np.ndarray]] = {}
    for si, seg in enumerate(segments):
        seg.key = segment_key(seg.prefix_ids, [(u.atomic, u.ids) for u in seg.units], short=seg.short, salt=salt)
        found = reusable(reuse(seg.key), len(seg.units), embedder.dimension) if reuse is not None else None
        if found is not None:
            reused[si] = found
    if reused:
        log.info("reusing the vectors of %d of %d segments (unchanged since an earlier import)",
                 len(reused), len(segments))
    embed_segments([seg for si, seg in enumerate(segments) if si not in reused], embedder, config,
                   progress=progress, cancel=cancel)
    return Prepared(parsed, segments, embedder.max_tokens - embedder.special_tokens, embedder.dimension, reused)


def finish(prep: Prepared, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
           progress: ProgressFn | None = None, cancel: CancelFn | None = None
           ) -> tuple[list[ChunkDraft], np.ndarray]:
    """Cut every prepared segment, pool (or re-embed) chunk vectors and build the drafts."""
    parsed = prep.parsed
    cap = min(config.max_tokens, prep.window_limit)
    unit_terms: list[list[list[str]]] = [[enrich.candidate_phrases(u.text) for u in seg.units]
                                         for seg in prep.segments]
    scorer = enrich.KeyphraseScorer()
    scorer.docs = len(prep.segments)
    for terms in unit_terms:
        scorer.df.update({t for ts in terms for t in ts})
    drafts: list[ChunkDraft] = []
    vectors: list[np.ndarray] = []
    for si, seg in enumerate(prep.segments):
        check_cancel(cancel)
        if si in prep.reused:
            ranges, pooled = prep.reused[si]
            vectors.append(pooled)
            for a, b in ranges:
                drafts.append(_draft(parsed, seg, a, b, len(drafts), scorer, unit_terms[si]))
            continue
        tokens = [len(u.ids) for u in seg.units]
        assert seg.sums is not None, "embed_segments must run first"
        sims = boundary_similarities(seg.sums, config.valley_window)
        threshold = float(np.percentile(sims, config.valley_percentile)) if len(sims) else 0.0
        if seg.short:
            ranges = [(0, len(seg.units))]
        else:
            ranges = cut_ranges(tokens, sims, budget=cap - len(seg.prefix_ids), min_tokens=config.min_tokens,
                                target_tokens=config.target_tokens, threshold=threshold,
                                overlap=config.overlap_sentences, overlap_max_tokens=config.overlap_max_tokens,
                                can_overlap=[not u.atomic for u in seg.units])
        vectors.append(_pool(seg, ranges, config.pool_prefix or seg.short))
        for a, b in ranges:
            drafts.append(_draft(parsed, seg, a, b, len(drafts), scorer, unit_terms[si]))
    if progress is not None:
        progress("chunking", len(prep.segments), len(prep.segments))
    matrix = (np.concatenate(vectors) if vectors else np.zeros((0, prep.dimension))).astype(np.float32)
    if not config.pooled and drafts:
        matrix = embedder.encode([d.embed_text for d in drafts], batch_size=config.batch_size,
                                 progress=progress, cancel=cancel)
    return drafts, matrix


def _pool(seg: _Segment, ranges: list[tuple[int, int]], with_prefix: bool) -> np.ndarray:
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


def _draft(parsed: ParsedBook, seg: _Segment, a: int, b: int, ordinal: int,
           scorer: enrich.KeyphraseScorer, terms: list[list[str]]) -> ChunkDraft:
    units = seg.units[a:b]
    text = units[0].text + "".join(u.joiner + u.text for u in units[1:])
    blocks = [parsed.blocks[i] for i in dict.fromkeys(u.block for u in units)]
    kinds = [blk.kind for blk in blocks]
    emphasis = [e for blk in blocks for e in blk.emphasis]
    node = parsed.sections[seg.section] if seg.section is not None else None
    ancestors = [parsed.sections[i].title for i in _section_chain(parsed, seg.section)[:-1]]
    role = enrich.classify_role(node.title if node else "", text, section_kind=node.kind if node else None,
                                ancestor_titles=ancestors, block_kinds=kinds, emphasis=emphasis)
    tf = Counter(t for ts in terms[a:b] for t in ts)
    keyphrases = scorer.top_counts(tf, 3)
    pages = [u.page for u in units]
    return ChunkDraft(
        section=seg.section, ordinal=ordinal, text=text,
        embed_text=f"{seg.prefix}\n{text}" if seg.prefix else text,
        role=role, page_start=min(pages), page_end=max(pages),
        token_count=sum(len(u.ids) for u in units),
        key_terms=enrich.key_terms(text, emphasis, extra=keyphrases),
        has_equation=enrich.has_equation(text, kinds), figure_refs=enrich.figure_refs(text),
        segment_key=seg.key, unit_start=a, unit_end=b)


def chunk_book(parsed: ParsedBook, embedder: TextEmbedder, *, progress: ProgressFn | None = None,
               cancel: CancelFn | None = None, config: ChunkConfig = ChunkConfig(),
               reuse: SegmentLookup | None = None) -> tuple[list[ChunkDraft], np.ndarray]:
    """Chunk and embed a book -> (drafts in reading order, float32 L2-normalised vectors, one per draft).

    Progress stages: "chunking" (planning and cutting) and "embedding" (windows done/total).
    Raises ``ImportCancelled`` when ``cancel()`` turns true, ``ModelUnavailableError`` if the model
    cannot load.  ``reuse`` (see ``core.chunk_reuse``) supplies stored vectors of unchanged segments.
    """
    prep = prepare(parsed, embedder, config, progress=progress, cancel=cancel, reuse=reuse)
    drafts, vectors = finish(prep, embedder, config, progress=progress, cancel=cancel)
    log.info("chunked %r: %d chunks from %d segments (chunker %s)", parsed.title, len(drafts),
             len(prep.segments), CHUNKER_VERSION)
    return drafts, vectors
