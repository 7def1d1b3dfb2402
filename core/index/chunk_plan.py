"""Planning a book's chunks before any model runs: segments (a run of one section's blocks), their sentence
units, title prefixes and token ids.  ``core.index.chunker`` then embeds and cuts them.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from core.index.embedder import TextEmbedder
from core.ingest import enrich
from core.ingest.captions import table_sentences
from core.ingest.sentences import SentenceSplitter, train_splitter
from core.models import Block, BlockKind, ChunkRole, ParsedBook, SectionKind
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

_ATOMIC = (BlockKind.CODE, BlockKind.EQUATION, BlockKind.TABLE, BlockKind.FIGURE)
PREFIX_SEP = " › "


@dataclass(frozen=True)
class ChunkConfig:
    """Chunking knobs; defaults chosen by measurement on two 500-page textbooks (see ``core.index.chunker``)."""

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
class Unit:
    text: str
    block: int
    page: int
    atomic: bool
    joiner: str  # placed before this unit when it follows another in a chunk
    ids: list[int] = field(default_factory=list)
    embed: str = ""  # what its token ids are made from when not ``text`` (a table's rows as sentences)


@dataclass
class Segment:
    section: int | None
    units: list[Unit]
    prefix: str = ""
    prefix_ids: list[int] = field(default_factory=list)
    short: bool = False
    sums: np.ndarray | None = None  # (units, dim) summed token vectors
    prefix_sums: list[np.ndarray] = field(default_factory=list)  # one per window of the segment
    unit_window: list[int] = field(default_factory=list)  # window (within segment) of each unit
    key: str = ""  # what the model would see, hashed (core.index.chunk_reuse)


# -- planning ------------------------------------------------------------------------------------
def section_chain(parsed: ParsedBook, index: int | None) -> list[int]:
    chain: list[int] = []
    while index is not None:
        chain.append(index)
        index = parsed.sections[index].parent
    return chain[::-1]


def title_prefix(parsed: ParsedBook, section: int | None, *, full: bool) -> str:
    """"Chapter › Parent › Section" titles (``full`` adds the book title and every level)."""
    chain = [parsed.sections[i] for i in section_chain(parsed, section)
             if parsed.sections[i].kind is not SectionKind.PART or full]
    titles = [s.title.strip() for s in chain if s.title.strip()]
    if not full and len(titles) > 3:  # chapter, parent and leaf say enough; deeper levels add noise
        titles = [titles[0], titles[-2], titles[-1]]
    if full and parsed.title.strip():
        titles = [parsed.title.strip(), *titles]
    return PREFIX_SEP.join(dict.fromkeys(titles))


def _block_units(block: Block, index: int, splitter: SentenceSplitter) -> list[Unit]:
    text = block.text.strip()
    if not text:
        return []
    if block.kind in _ATOMIC:
        # A table's meaning is in "Age 14–17 years: Recommended 8–10 hours", not in a grid of cells: its
        # vector is made from its rows as sentences (the stored text stays the table).
        embed = table_sentences(text) if block.kind is BlockKind.TABLE and block.label else ""
        return [Unit(text, index, block.page, True, "\n\n", embed=embed if embed != text else "")]
    units: list[Unit] = []
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
                units.append(Unit(piece, index, block.page, False, joiner))
            prev_end = e
    return units


def _is_objectives_block(block: Block) -> bool:
    return block.kind is BlockKind.TEXT and enrich.role_from_text(block.text) is ChunkRole.OBJECTIVES


def _segment_blocks(parsed: ParsedBook) -> list[tuple[int | None, list[int]]]:
    """Runs of consecutive blocks of one section; an objectives block (+ its list) is a run alone, and so is
    a labelled figure caption or table.

    Objectives ("By the end of this section, you will be able to...") are kept out of the prose
    chunks so their chunk can be labelled OBJECTIVES without mislabelling the explanation after it.
    A figure or table is a chunk of its own so that an answer can cite it ("Figure 3.2, p. 57").
    """
    runs: list[tuple[int | None, list[int]]] = []
    alone = False  # the current run is an objectives run
    labelled = False  # the current run is a figure or table
    for i, b in enumerate(parsed.blocks):
        objectives = _is_objectives_block(b)
        if (runs and runs[-1][0] == b.section and not objectives and not b.label and not labelled
                and (not alone or b.kind is BlockKind.LIST)):
            runs[-1][1].append(i)
        else:
            runs.append((b.section, [i]))
            alone, labelled = objectives, bool(b.label)
    return runs


def _split_long(unit: Unit, limit: int, embedder: TextEmbedder) -> list[Unit]:
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
    return [Unit(text, unit.block, unit.page, False, unit.joiner if i == 0 else glue)
            for i, (glue, text) in enumerate(pieces)]


def plan_book(parsed: ParsedBook, embedder: TextEmbedder, config: ChunkConfig = ChunkConfig(), *,
              progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> list[Segment]:
    """Segments with their sentence units, title prefixes and token ids (no model inference yet)."""
    check_cancel(cancel)
    splitter = train_splitter((b.text for b in parsed.blocks if b.kind in (BlockKind.TEXT, BlockKind.LIST)),
                              sample_chars=config.punkt_sample_chars)
    window_limit = embedder.max_tokens - embedder.special_tokens
    cap = min(config.max_tokens, window_limit)
    runs = _segment_blocks(parsed)
    segments: list[Segment] = []
    for n, (section, block_ids) in enumerate(runs):
        if n % 50 == 0:
            check_cancel(cancel)
            if progress is not None:
                progress("chunking", n, len(runs))
        units = [u for i in block_ids for u in _block_units(parsed.blocks[i], i, splitter)]
        if units:
            segments.append(Segment(section, units))
    # One tokenizer call for the whole book: the Rust tokenizer is fast in bulk, slow per call.
    all_units = [u for seg in segments for u in seg.units]
    for u, ids in zip(all_units, embedder.token_ids([u.embed or u.text for u in all_units])):
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
            fixed: list[Unit] = []
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
