"""Chunker properties on a tiny hand-made book, with a fast fake embedder (one real-model test)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from core.index.chunk_cuts import boundary_similarities, cut_ranges
from core.index.chunker import CHUNKER_VERSION, chunk_book
from core.index.chunk_plan import ChunkConfig, title_prefix
from core.errors import ImportCancelled
from core.ingest.tree import finalize_sections
from core.models import Block, BlockKind, ChunkRole, Page, ParsedBook, SectionKind, SectionNode, SourceFormat
from tests.fakes import HashingEmbedder

DOGS = [
    "Pavlov studied salivation in dogs during digestion experiments.",
    "The dogs salivated when food was placed in their mouths.",
    "Later the dogs salivated at the sound of the bell before food arrived.",
    "Pavlov called the bell a conditioned stimulus for the dogs.",
    "Salivation to the bell was a conditioned response in the dogs.",
    "The food itself was an unconditioned stimulus for salivation.",
]
EXTINCTION = [
    "Extinction happens when the tone repeatedly appears without any reward.",
    "During extinction responding fades over many unrewarded trials.",
    "After a rest, spontaneous recovery makes extinguished responding return briefly.",
    "Recovery after extinction shows that extinction suppresses rather than erases learning.",
    "Renewal is another way extinguished responding comes back in a new context.",
    "Extinction therefore depends strongly on context and timing.",
]
CODE = "def reinforce(rate):\n    # one schedule step\n    return rate * 2"
EQUATION = "response = strength * (1 - exp(-trials / tau))"
TABLE_ROWS = "\n".join(f"| schedule {i} | ratio {i} | interval {i * 2} |" for i in range(12))  # > window


def make_book() -> ParsedBook:
    sections = finalize_sections([
        SectionNode(1, SectionKind.CHAPTER, "6", "Learning", 1),
        SectionNode(2, SectionKind.SECTION, None, "Learning Objectives", 1),
        SectionNode(2, SectionKind.SECTION, "6.1", "Classical Conditioning", 1),
        SectionNode(2, SectionKind.SECTION, "6.2", "Operant Conditioning", 3),
        SectionNode(3, SectionKind.SUBSECTION, None, "Key Takeaways", 5),
    ], last_page=5)
    blocks = [
        Block(BlockKind.TEXT, "A short preface line before any heading.", 1, None),
        Block(BlockKind.TEXT, "Explain classical conditioning.", 1, 1),
        Block(BlockKind.TEXT, " ".join(DOGS[:3]), 1, 2, emphasis=("conditioned stimulus",)),
        Block(BlockKind.TEXT, " ".join(DOGS[3:]), 2, 2),
        Block(BlockKind.TEXT, " ".join(EXTINCTION), 2, 2, emphasis=("Extinction", "spontaneous recovery")),
        Block(BlockKind.TEXT, "Skinner boxes deliver food after lever presses. Rats learn to press levers. "
                              "Reinforcement schedules control how often food arrives.", 3, 3),
        Block(BlockKind.CODE, CODE, 3, 3),
        Block(BlockKind.EQUATION, EQUATION, 4, 3),
        Block(BlockKind.TEXT, "Ratio schedules reward a number of presses. Interval schedules reward "
                              "the first press after a delay. Variable schedules resist extinction.", 4, 3),
        Block(BlockKind.TABLE, TABLE_ROWS, 4, 3),
        Block(BlockKind.LIST, "Reinforcement strengthens behavior.\nPunishment weakens it.", 5, 4),
    ]
    return ParsedBook("Psychology Mini", SourceFormat.MARKDOWN, tuple(Page(i, str(i)) for i in range(1, 6)),
                      sections, tuple(blocks))


CFG = ChunkConfig(max_tokens=60, min_tokens=12, target_tokens=35, overlap_max_tokens=30,
                  short_section_tokens=12, prefix_max_tokens=16, batch_size=4)


@pytest.fixture
def fake() -> HashingEmbedder:
    return HashingEmbedder(dimension=256, max_tokens=64)


@pytest.fixture
def chunked(fake):
    book = make_book()
    drafts, vectors = chunk_book(book, fake, config=CFG)
    return book, drafts, vectors


def _section_text(book: ParsedBook, section) -> str:
    return "\n".join(b.text for b in book.blocks if b.section == section)


def test_version_is_a_string():
    assert isinstance(CHUNKER_VERSION, str) and CHUNKER_VERSION


def test_no_chunk_crosses_a_section(chunked):
    book, drafts, _ = chunked
    assert drafts
    for d in drafts:
        text = _section_text(book, d.section)
        for piece in d.text.replace("\n\n", "\n").split("\n"):
            assert piece in text, f"chunk {d.ordinal} has text from outside section {d.section}: {piece!r}"


def test_atomic_blocks_are_never_split(chunked):
    book, drafts, _ = chunked
    for atomic in (CODE, EQUATION, TABLE_ROWS):
        holders = [d for d in drafts if atomic in d.text]
        assert len(holders) == 1, "an atomic block appears whole in exactly one chunk"
        first_line = atomic.splitlines()[0]
        assert all(atomic in d.text for d in drafts if first_line in d.text)


def test_oversized_table_is_its_own_chunk(chunked, fake):
    _, drafts, _ = chunked
    (table,) = [d for d in drafts if TABLE_ROWS in d.text]
    assert table.text == TABLE_ROWS
    assert table.token_count > fake.max_tokens  # kept whole, embedded by its first window


def test_every_chunk_fits_the_budget(chunked, fake):
    _, drafts, _ = chunked
    for d in drafts:
        if TABLE_ROWS in d.text:
            continue
        assert fake.count_tokens(d.embed_text) <= CFG.max_tokens
        assert d.token_count == fake.count_tokens(d.text)


def test_consecutive_chunks_of_a_section_overlap_by_a_sentence(chunked):
    _, drafts, _ = chunked
    sec2 = [d for d in drafts if d.section == 2]
    assert len(sec2) >= 2
    for a, b in zip(sec2, sec2[1:]):
        last = re.split(r"(?<=\.)\s+", a.text)[-1]
        assert b.text.startswith(last), (a.text, b.text)


def test_cut_falls_in_the_topic_valley(chunked):
    _, drafts, _ = chunked
    sec2 = [d for d in drafts if d.section == 2]
    # No chunk mixes the dog/salivation sentences with the later extinction ones beyond the
    # one-sentence overlap: the first chunk that holds extinction starts near the topic change.
    mixed = [d for d in sec2 if sum(s in d.text for s in DOGS) > 1 and sum(s in d.text for s in EXTINCTION) > 1]
    assert not mixed


def test_short_sections_get_full_title_context(chunked):
    book, drafts, _ = chunked
    (obj,) = [d for d in drafts if d.section == 1]
    assert obj.embed_text.startswith("Psychology Mini › Learning › Learning Objectives\n")
    assert obj.text == "Explain classical conditioning."
    (pre,) = [d for d in drafts if d.section is None]
    assert pre.embed_text.startswith("Psychology Mini\n")


def test_long_sections_get_chapter_section_prefix(chunked):
    _, drafts, _ = chunked
    d = next(d for d in drafts if d.section == 2)
    assert d.embed_text.startswith("Learning › Classical Conditioning\n")
    assert d.embed_text.endswith(d.text)


def test_page_spans(chunked):
    book, drafts, _ = chunked
    for d in drafts:
        pages = [b.page for b in book.blocks if b.section == d.section
                 and any(line and line in d.text for line in b.text.split(". "))]
        assert d.page_start == min(pages) and d.page_end == max(pages)
    assert any(d.page_start < d.page_end for d in drafts), "a chunk spanning two pages exists"


def test_vectors_normalised_and_aligned(chunked, fake):
    _, drafts, vectors = chunked
    assert vectors.dtype == np.float32 and vectors.shape == (len(drafts), fake.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # The fake's token vectors ignore context, so pooling equals embedding the chunk's embed_text.
    for d, v in zip(drafts, vectors):
        if TABLE_ROWS in d.text:
            continue
        assert np.allclose(v, fake.encode([d.embed_text])[0], atol=1e-5), d.embed_text


def test_single_pass_when_pooled(fake):
    chunk_book(make_book(), fake, config=CFG)
    assert fake.encode_calls == 0
    assert all(len(w) <= fake.max_tokens - 2 for w in fake.windows_seen)


def test_reembed_mode_uses_encode(fake):
    import dataclasses
    drafts, vectors = chunk_book(make_book(), fake, config=dataclasses.replace(CFG, pooled=False))
    assert fake.encode_calls == 1
    assert np.allclose(vectors, fake.encode([d.embed_text for d in drafts]), atol=1e-6)


def test_roles_and_metadata(chunked):
    _, drafts, _ = chunked
    by_text = {d.text: d for d in drafts}
    assert by_text["Explain classical conditioning."].role is ChunkRole.OBJECTIVES
    takeaways = [d for d in drafts if d.section == 4]
    assert takeaways and all(d.role is ChunkRole.SUMMARY for d in takeaways)
    assert any(d.has_equation for d in drafts if EQUATION in d.text)
    assert any("Extinction" in d.key_terms for d in drafts)
    assert [d.ordinal for d in drafts] == list(range(len(drafts)))


def test_objectives_block_gets_its_own_chunk(fake):
    sections = finalize_sections([SectionNode(1, SectionKind.SECTION, "1.1", "Memory", 1)], 1)
    blocks = (Block(BlockKind.TEXT, "By the end of this section, you will be able to: describe memory.", 1, 0),
              Block(BlockKind.LIST, "Define encoding\nDefine retrieval", 1, 0),
              Block(BlockKind.TEXT, "Memory is the set of processes used to encode and store information.", 1, 0))
    book = ParsedBook("B", SourceFormat.TEXT, (Page(1, "1"),), sections, blocks)
    drafts, _ = chunk_book(book, fake, config=CFG)
    assert [d.role for d in drafts] == [ChunkRole.OBJECTIVES, ChunkRole.CONCEPT]
    assert "Define retrieval" in drafts[0].text and "Memory is" in drafts[1].text


def test_overlong_sentence_is_split_at_words(fake):
    sections = finalize_sections([SectionNode(1, SectionKind.SECTION, "1", "Run-on", 1)], 1)
    words = " ".join(f"word{i}" for i in range(150))
    book = ParsedBook("B", SourceFormat.TEXT, (Page(1, "1"),), sections, (Block(BlockKind.TEXT, words, 1, 0),))
    drafts, vectors = chunk_book(book, fake, config=CFG)
    assert len(drafts) >= 3 and len(vectors) == len(drafts)
    assert all(fake.count_tokens(d.embed_text) <= CFG.max_tokens for d in drafts)
    assert "word0" in drafts[0].text and "word149" in drafts[-1].text


def test_long_sentence_pieces_fit_even_when_target_exceeds_budget(fake):
    import dataclasses
    sections = finalize_sections([SectionNode(1, SectionKind.SECTION, "1", "Run-on", 1)], 1)
    words = " ".join(f"word{i}" for i in range(300))
    book = ParsedBook("B", SourceFormat.TEXT, (Page(1, "1"),), sections, (Block(BlockKind.TEXT, words, 1, 0),))
    drafts, _ = chunk_book(book, fake, config=dataclasses.replace(CFG, target_tokens=500))
    assert all(fake.count_tokens(d.embed_text) <= CFG.max_tokens for d in drafts)
    assert all(f"word{i}" in " ".join(d.text for d in drafts).split() for i in range(300))  # nothing dropped


def test_giant_unspaced_word_is_split(fake):
    sections = finalize_sections([SectionNode(1, SectionKind.SECTION, "1", "Formula", 1)], 1)
    formula = "-".join(f"x{i}" for i in range(200))  # one 'word' of ~400 tokens
    book = ParsedBook("B", SourceFormat.TEXT, (Page(1, "1"),), sections,
                      (Block(BlockKind.TEXT, f"The formula is {formula} indeed.", 1, 0),))
    drafts, _ = chunk_book(book, fake, config=CFG)
    assert len(drafts) > 3
    assert all(fake.count_tokens(d.embed_text) <= CFG.max_tokens for d in drafts)
    # Cut inside the word: no spaces added, and counts stay an upper bound of the real ones.
    assert all(d.text in book.blocks[0].text for d in drafts)
    assert all(d.token_count >= fake.count_tokens(d.text) for d in drafts)


def test_cancel_raises(fake):
    with pytest.raises(ImportCancelled):
        chunk_book(make_book(), fake, config=CFG, cancel=lambda: True)
    calls = {"n": 0}

    def later() -> bool:  # cancel midway, during embedding
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(ImportCancelled):
        chunk_book(make_book(), fake, config=CFG, cancel=later)


def test_progress_reports_stages(fake):
    seen = []
    chunk_book(make_book(), fake, config=CFG, progress=lambda stage, done, total: seen.append((stage, done, total)))
    stages = {s for s, _, _ in seen}
    assert {"chunking", "embedding"} <= stages
    emb = [(d, t) for s, d, t in seen if s == "embedding"]
    assert emb[-1][0] == emb[-1][1]


def test_empty_book(fake):
    book = ParsedBook("Empty", SourceFormat.TEXT, (Page(1, "1"),), (), ())
    drafts, vectors = chunk_book(book, fake, config=CFG)
    assert drafts == [] and vectors.shape == (0, fake.dimension)


def test_deterministic(fake):
    a, va = chunk_book(make_book(), fake, config=CFG)
    b, vb = chunk_book(make_book(), HashingEmbedder(dimension=256, max_tokens=64), config=CFG)
    assert a == b and np.array_equal(va, vb)


# -- pure helpers --------------------------------------------------------------------------------
def test_boundary_similarities_window():
    e = np.eye(4, dtype=np.float32)
    sums = np.stack([e[0], e[0], e[1], e[1]])
    assert np.allclose(boundary_similarities(sums, 1), [1, 0, 1])
    assert boundary_similarities(sums[:1]).shape == (0,)


def test_cut_ranges_valley_min_max_and_overlap():
    tokens = [10] * 10
    sims = np.array([0.9, 0.9, 0.9, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9], dtype=np.float32)  # valley before unit 4
    ranges = cut_ranges(tokens, sims, budget=60, min_tokens=20, target_tokens=40, threshold=0.5, overlap=1)
    assert ranges[0] == (0, 4)
    assert ranges[1][0] == 3  # one sentence of overlap
    assert ranges[-1][1] == 10
    assert all(sum(tokens[a:b]) <= 60 for a, b in ranges)


def test_cut_ranges_oversized_unit_alone_and_whole_fit():
    assert cut_ranges([5, 5], np.array([0.2]), budget=20, min_tokens=5, target_tokens=10, threshold=0.5) == [(0, 2)]
    ranges = cut_ranges([10, 10, 100, 10, 10], np.zeros(4), budget=30, min_tokens=5, target_tokens=20,
                        threshold=0.5, can_overlap=[True, True, False, True, True])
    assert (2, 3) in ranges
    assert all(2 not in range(a, b) or (a, b) == (2, 3) for a, b in ranges)


def test_cut_ranges_merges_tiny_tail():
    ranges = cut_ranges([20, 20, 20, 3], np.array([0.9, 0.9, 0.9]), budget=65, min_tokens=10,
                        target_tokens=40, threshold=0.0, overlap=0)
    assert ranges[-1][1] == 4 and sum([20, 20, 20, 3][ranges[-1][0]:]) <= 65
    assert all(b - a >= 1 for a, b in ranges)


def test_title_prefix_levels():
    book = make_book()
    assert title_prefix(book, 4, full=False) == "Learning › Operant Conditioning › Key Takeaways"
    assert title_prefix(book, 4, full=True) == "Psychology Mini › Learning › Operant Conditioning › Key Takeaways"
    assert title_prefix(book, None, full=False) == ""


# -- the real model, end to end ------------------------------------------------------------------
@pytest.mark.realmodel
def test_real_model_end_to_end():  # ~8 s on an idle 2-core machine, model load included (no time budget)
    from core.index.embedder import Embedder
    emb = Embedder()
    book = make_book()
    cfg = ChunkConfig(max_tokens=80, min_tokens=20, target_tokens=50, short_section_tokens=12)
    drafts, vectors = chunk_book(book, emb, config=cfg)
    assert vectors.shape == (len(drafts), 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    for d in drafts:
        if TABLE_ROWS in d.text:
            continue
        n = emb.count_tokens(d.embed_text)  # real word pieces of prefix + text
        assert n <= cfg.max_tokens and n + emb.special_tokens <= emb.max_tokens
    # Pooled vectors land close to embedding the chunk text on its own ...
    again = emb.encode([d.embed_text for d in drafts])
    cos = (again * vectors).sum(axis=1)
    assert float(np.median(cos)) > 0.8, cos
    # ... and a question finds its chunk.
    q = emb.encode_query("What is spontaneous recovery after extinction?")
    best = drafts[int(np.argmax(vectors @ q))]
    assert "spontaneous recovery" in best.text


def test_a_labelled_table_is_its_own_chunk_embedded_from_its_rows_as_sentences(fake):
    from dataclasses import replace
    from core.index.chunk_plan import plan_book
    from core.ingest.captions import table_sentences
    book = make_book()
    grid = "| Schedule | Reward |\n| Fixed ratio | every 5th press |\n| Variable ratio | any press |"
    blocks = list(book.blocks)
    blocks.insert(9, Block(BlockKind.TABLE, grid, 4, 3, label="Table 6.1"))
    book = replace(book, blocks=tuple(blocks))
    (unit,) = [u for seg in plan_book(book, fake, CFG) for u in seg.units if u.text == grid]
    assert unit.embed == table_sentences(grid) == ("Schedule Fixed ratio: Reward every 5th press.\n"
                                                    "Schedule Variable ratio: Reward any press.")
    assert unit.ids == fake.token_ids([unit.embed])[0]
    drafts, _ = chunk_book(book, fake, config=CFG)
    (table,) = [d for d in drafts if d.label == "Table 6.1"]
    assert table.text == grid  # the stored text stays the table
