"""Shaping candidate lists: role quotas, de-duplication, per-section diversity, fusion, the whole selection."""
from __future__ import annotations

import pytest

from core.models import Chunk, ChunkRole, Hit
from core.retrieval.fusion import fuse_hits
from core.retrieval.plan import plan_query
from core.retrieval.selection import (apply_roles, dedupe_overlapping, diversify, missing_roles, overlap_ratio,
                                      select_hits)
from tests.core.retrieval.chunks import make_chunk

def _hits(chunks: list[Chunk]) -> list[Hit]:
    return [Hit(rank=i, chunk=c, score=1.0 / i) for i, c in enumerate(chunks, start=1)]


def _ids(hits: list[Hit]) -> list[int]:
    return [h.chunk.id for h in hits]


def test_apply_roles_promotes_missing_roles_without_touching_the_top():
    chunks = [make_chunk(i) for i in range(1, 8)] + [make_chunk(8, role=ChunkRole.GLOSSARY),
                                                 make_chunk(9, role=ChunkRole.EXAMPLE)]
    plan = plan_query("What is entropy?")
    out = apply_roles(_hits(chunks), plan, k=5)
    assert _ids(out) == [1, 2, 3, 8, 9]
    assert [h.rank for h in out] == [1, 2, 3, 4, 5]
    assert ("role_promoted", 1.0) in out[-1].stage_scores


def test_apply_roles_only_promotes_chunks_about_the_question():
    chunks = [make_chunk(i) for i in range(1, 6)] + [
        make_chunk(6, role=ChunkRole.GLOSSARY, text="experimenter bias: expectations skew results"),
        make_chunk(7, role=ChunkRole.GLOSSARY, text="entropies: measures of disorder")]
    out = apply_roles(_hits(chunks), plan_query("What is entropy?"), k=4)
    assert _ids(out) == [1, 2, 3, 7]  # the stem "entro" matches the plural; bias is about something else
    assert plan_query("Define entropy, please").key_terms == ("entropy",)
    assert plan_query("learning objectives of chapter 2").key_terms == ()


def test_apply_roles_lead_role_first_and_no_change_when_satisfied():
    chunks = [make_chunk(1), make_chunk(2), make_chunk(3, role=ChunkRole.EXAMPLE), make_chunk(4, role=ChunkRole.EXAMPLE)]
    out = apply_roles(_hits(chunks), plan_query("show me an example of entropy"), k=4)
    assert _ids(out) == [3, 1, 2, 4]
    elsewhere = [make_chunk(1), make_chunk(2), make_chunk(3, role=ChunkRole.EXAMPLE, section="7.1")]
    assert _ids(apply_roles(_hits(elsewhere), plan_query("show me an example of entropy"), k=3)) == [1, 2, 3]
    factual = apply_roles(_hits(chunks), plan_query("Why do we sleep?"), k=3)
    assert _ids(factual) == [1, 2, 3]


def test_apply_roles_respects_depth_and_protection():
    chunks = [make_chunk(1)] + [make_chunk(i) for i in range(2, 30)] + [make_chunk(30, role=ChunkRole.EXERCISE)]
    plan = plan_query("quiz me on entropy")
    assert ChunkRole.EXERCISE not in {h.chunk.role for h in apply_roles(_hits(chunks), plan, k=3)}
    deep = apply_roles(_hits(chunks), plan, k=3, depth=40)
    assert _ids(deep) == [30, 1, 2]  # promoted over rank 3, then led
    only_exercises = [make_chunk(1, role=ChunkRole.EXERCISE), make_chunk(2, role=ChunkRole.EXERCISE)]
    assert _ids(apply_roles(_hits(only_exercises), plan, k=5)) == [1, 2]
    assert apply_roles(_hits(chunks), plan, k=0) == []


def test_missing_roles_asks_for_a_role_filtered_search():
    plan = plan_query("What is entropy?")
    concept_only = _hits([make_chunk(i) for i in range(1, 6)])
    assert missing_roles(concept_only, plan, 5) == (ChunkRole.GLOSSARY, ChunkRole.EXAMPLE)
    complete = _hits([make_chunk(1), make_chunk(2, role=ChunkRole.GLOSSARY), make_chunk(3, role=ChunkRole.EXAMPLE)])
    assert missing_roles(complete, plan, 5) == ()
    assert missing_roles(concept_only, plan_query("Why do we sleep?"), 5) == ()


def test_apply_roles_comparison_needs_two_sections():
    chunks = ([make_chunk(i, section="3.1") for i in range(1, 6)] + [make_chunk(6, section="3.2")]
              + [make_chunk(7, section="3.3", text="Operant conditioning uses consequences.")])
    plan = plan_query("difference between classical and operant conditioning")
    out = apply_roles(_hits(chunks), plan, k=4)
    assert _ids(out) == [1, 2, 3, 7]  # 6 is from another section too, but not about the question


def test_dedupe_overlapping_keeps_designed_overlap():
    a = "Entropy measures disorder. It always grows in an isolated system. Heat flows from hot to cold bodies."
    b = "Heat flows from hot to cold bodies. The second law explains why engines waste energy in practice today."
    dup = "Entropy measures disorder. It always grows in an isolated system. Heat flows from hot to cold."
    chunks = [make_chunk(1, text=a), make_chunk(2, text=b), make_chunk(3, text=dup), make_chunk(4, text=a, section="9.9")]
    out = dedupe_overlapping(_hits(chunks))
    assert _ids(out) == [1, 2]  # 3 repeats 1 in its section; 4 is identical text elsewhere
    assert overlap_ratio(a, b) < 0.4 and overlap_ratio(a, dup) > 0.9
    partial = "Entropy measures disorder. It always grows in an isolated system. Engines waste heat."
    assert 0.6 <= overlap_ratio(a, partial) < 0.9
    assert _ids(dedupe_overlapping(_hits([make_chunk(1, text=a), make_chunk(5, text=partial, section="2.2")]))) == [1, 5]
    assert _ids(dedupe_overlapping(_hits([make_chunk(1, text=a), make_chunk(5, text=partial)]))) == [1]


def test_diversify_defers_instead_of_dropping():
    chunks = [make_chunk(1, section="1.1"), make_chunk(2, section="1.1"), make_chunk(3, section="1.1"),
              make_chunk(4, section="2.1"), make_chunk(5, section="1.1"), make_chunk(6, section="3.1")]
    out = diversify(_hits(chunks), max_per_section=2)
    assert _ids(out) == [1, 2, 4, 6, 3, 5]
    assert [h.rank for h in out] == list(range(1, 7))
    with pytest.raises(ValueError):
        diversify([], 0)


def test_fuse_hits():
    a = _hits([make_chunk(1), make_chunk(2), make_chunk(3)])
    b = _hits([make_chunk(3), make_chunk(4)])
    out = fuse_hits([a, b])
    assert _ids(out) == [3, 1, 2, 4]
    assert out[0].score == pytest.approx(1 / 63 + 1 / 61)


def test_select_hits_runs_the_whole_pipeline_against_a_search_function():
    words = "alpha beta gamma delta epsilon zeta eta theta iota".split()

    def c(i: int, section: str, role: ChunkRole = ChunkRole.CONCEPT) -> Chunk:
        return make_chunk(i, section=section, role=role, text=f"entropy {words[i - 1]} " + f"{words[i - 1]}{i} " * 5)

    pool = ([c(i, "2.3") for i in range(1, 6)] + [c(6, "2.4"), c(7, "2.3")]
            + [c(8, "9.1", ChunkRole.GLOSSARY), c(9, "2.3", ChunkRole.GLOSSARY)])
    calls = []

    def search(text: str, n: int, roles: tuple[str, ...]) -> list[Hit]:
        calls.append((text, n, roles))
        found = [c for c in pool[:7] if not roles] or [c for c in pool if c.role.value in roles]
        return _hits(found[:n])

    plan = plan_query("section 2.3: what is entropy?")
    out = select_hits(plan, search, 4)
    assert calls[0] == ("what is entropy?", 40, ())
    assert ("what is entropy?", 4, ("glossary",)) in calls
    assert [h.chunk.section_number for h in out] == ["2.3"] * 4  # 2.4 filtered out, 9.1 too
    assert _ids(out) == [1, 2, 3, 9]  # the glossary quota replaces the weakest surplus concept
