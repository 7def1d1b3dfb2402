"""Query understanding: intents, scope phrases, plans, and shaping candidate lists by role."""
from __future__ import annotations

import time
import zlib

import pytest

from core.models import BookId, Chunk, ChunkId, ChunkRole, Hit, SectionId
from core.query import (Intent, QueryPlan, RoleQuota, apply_roles, comparison_facets, dedupe_overlapping,
                        detect_intent, diversify, fuse_hits, missing_roles, overlap_ratio, plan_query,
                        select_hits)
from core.scope import Scope, parse_scope, printed_to_physical, roman_to_int

D, EX, P, EXE, S, C, ST, F = (Intent.DEFINITION, Intent.EXAMPLE, Intent.PROCEDURE, Intent.EXERCISE,
                              Intent.SUMMARY, Intent.COMPARISON, Intent.STRUCTURAL, Intent.FACTUAL)

INTENTS = [
    # definition
    ("What is entropy?", D),
    ("what's a hypothesis", D),
    ("Define osmosis.", D),
    ("What does homeostasis mean?", D),
    ("What is meant by the term 'operant conditioning'?", D),
    ("Explain operant conditioning", D),
    ("meaning of cognitive dissonance", D),
    ("entropy", D),
    ("operant conditioning", D),
    ("What are neurotransmitters?", D),
    ("What's the law of conservation of mass?", D),
    ("Decreased sensitivity to an unchanging stimulus is known as ________.", D),
    ("chapter 3 only: what is work?", D),
    ("Tell me about the Krebs cycle", D),
    # comparison (several start like a definition)
    ("What is the difference between classical and operant conditioning?", C),
    ("What's the difference between an acid and a base?", C),
    ("Compare mitosis and meiosis", C),
    ("ionic vs covalent bonds", C),
    ("How is short-term memory different from long-term memory?", C),
    ("How does positive affect differ from optimism?", C),
    ("Compare and contrast the two theories of color perception.", C),
    ("Explain the difference between negative reinforcement and punishment.", C),
    # example
    ("Show me an example of negative reinforcement", EX),
    ("What is an example of a primary reinforcer?", EX),
    ("Give me a worked example of a limiting reactant problem", EX),
    ("How do I solve exercise 3.14?", EX),
    ("Calculate the molarity of 0.5 mol NaCl in 2.0 L of solution.", EX),
    ("Using the Bohr model, determine the energy of an electron with n = 8 in a hydrogen atom.", EX),
    ("Can you give some examples of defense mechanisms?", EX),
    # procedure
    ("How to balance a redox equation", P),
    ("How do you calculate percent yield?", P),
    ("What are the steps of the scientific method?", P),
    ("Walk me through naming an ionic compound", P),
    # exercise
    ("Give me an exercise like 3.14", EXE),
    ("Quiz me on chapter 4", EXE),
    ("Give me some practice problems on stoichiometry", EXE),
    ("I want more problems similar to the ones in section 5.2", EXE),
    ("test my understanding of memory", EXE),
    # summary
    ("Summarize chapter 2", S),
    ("What are the key takeaways of section 3.1?", S),
    ("main ideas of the chapter on sleep", S),
    ("give me a quick recap of chapter 7", S),
    ("Key points about thermodynamics please", S),
    # structural
    ("Learning objectives of chapter 2", ST),
    ("What does chapter 3 cover?", ST),
    ("List the sections of chapter 5", ST),
    ("What is chapter 4 about?", ST),
    ("Which chapter talks about memory?", ST),
    # factual
    ("Who was B. F. Skinner?", F),
    ("Why do we sleep?", F),
    ("What is the role of the hippocampus in memory?", F),
    ("What are the goals of psychotherapy?", F),
    ("objectives of section 1.2", ST),
    ("Which of the following is an example of a primary reinforcer?", F),
    ("In the scientific method, a hypothesis is a(n) ________.", F),
    ("Why do you think many different programs require psychology courses?", F),
    ("Explain how you could experimentally determine whether the outside temperature is below 0 °C.", F),
    ("LSD affects ________ neurotransmission.", F),
]


@pytest.mark.parametrize("question,intent", INTENTS)
def test_intent(question: str, intent: Intent):
    assert plan_query(question).intent is intent


def test_intent_table_is_broad():
    assert len(INTENTS) >= 40
    assert {i for _, i in INTENTS} == set(Intent)


SCOPES = [
    ("in chapter 5, what is a mole?", "what is a mole?", Scope(chapters=("5",))),
    ("chapter 3 only: what is work?", "what is work?", Scope(chapters=("3",))),
    ("What is covered in chapters 3–5?", "What is covered?", Scope(chapters=("3", "4", "5"))),
    ("chapters 3 to 5: entropy", "entropy", Scope(chapters=("3", "4", "5"))),
    ("chapters 3-5 summary", "summary", Scope(chapters=("3", "4", "5"))),
    ("ch. 4 what is a mole", "what is a mole", Scope(chapters=("4",))),
    ("ch 4 mitosis", "mitosis", Scope(chapters=("4",))),
    ("chapters 2 and 4 key ideas", "key ideas", Scope(chapters=("2", "4"))),
    ("chapters 2, 3, and 5 key ideas", "key ideas", Scope(chapters=("2", "3", "5"))),
    ("in chapter three, define entropy", "define entropy", Scope(chapters=("3",))),
    ("pages 40–60: what is a hypothesis", "what is a hypothesis", Scope(pages=("40", "60"))),
    ("pages 60-40 hypothesis", "hypothesis", Scope(pages=("40", "60"))),
    ("what does p. 12 say about sleep?", "what does say about sleep?", Scope(pages=("12", "12"))),
    ("pp. 40-45 summarize", "summarize", Scope(pages=("40", "45"))),
    ("on page 7, what is a cell?", "what is a cell?", Scope(pages=("7", "7"))),
    ("what is on page xii", "what is", Scope(pages=("xii", "xii"))),
    ("section 2.3: hypothesis", "hypothesis", Scope(sections=("2.3",))),
    ("in section 2.3 what is a hypothesis?", "what is a hypothesis?", Scope(sections=("2.3",))),
    ("in 2.3, what is a hypothesis?", "what is a hypothesis?", Scope(sections=("2.3",))),
    ("sec. 4.1 and 4.2 key terms", "key terms", Scope(sections=("4.1", "4.2"))),
    ("§2.3 what is a theory", "what is a theory", Scope(sections=("2.3",))),
    ("in appendix B what is listed", "what is listed", Scope(chapters=("B",))),
    ("chapter 2, pages 40–45: what is a survey?", "what is a survey?",
     Scope(chapters=("2",), pages=("40", "45"))),
]


@pytest.mark.parametrize("question,cleaned,scope", SCOPES)
def test_scope(question: str, cleaned: str, scope: Scope):
    assert parse_scope(question) == (cleaned, scope)


@pytest.mark.parametrize("question", [
    "What is the pH in 2.3 M HCl?",  # a concentration, not section 2.3
    "Give me an exercise like 3.14",  # an exercise number, not a section
    "What is shown in figure 2.3?",
    "Using the data in Appendix G, determine the enthalpy change.",  # a resource, not a restriction
    "What is the value at 30 °C? (See Appendix E.)",
    "Using the table on page 12, compute the yield.",
    "the page did not load",
    "In the appendix, what is a table?",
    "chapter and verse",
    "How many moles of CH 4 burn?",
])
def test_no_scope(question: str):
    cleaned, scope = parse_scope(question)
    assert scope.is_empty and cleaned == question


def test_scope_helpers():
    scope = Scope(chapters=("4",), sections=("2.3",))
    assert scope.chapter_filter() == ("4", "2")
    assert scope.matches(_chunk(1, section="2.3.1", chapter="2"))
    assert scope.matches(_chunk(2, section="4.1", chapter="4"))
    assert not scope.matches(_chunk(3, section="2.30", chapter="2"))
    assert Scope().matches(_chunk(4)) and Scope().is_empty
    assert roman_to_int("xiv") == 14 and roman_to_int("12") is None


def test_printed_to_physical():
    labels = {1: "i", 2: "ii", 3: "iii", 4: "1", 5: "2", 6: "3", 7: "", 8: "5", 9: "6"}
    assert printed_to_physical(labels, "1", "3") == (4, 6)
    assert printed_to_physical(labels, 2) == (5, 5)
    assert printed_to_physical(labels, "ii", "iii") == (2, 3)
    assert printed_to_physical(labels, "4", "5") == (8, 8)  # page "4" is unlabelled: nearest numbered pages
    assert printed_to_physical(labels, "3", "4") == (6, 6)
    assert printed_to_physical(labels, "40", "60") is None  # beyond the book
    assert printed_to_physical({}, "7", "3") == (3, 7)  # no labels at all: physical numbers
    assert printed_to_physical({1: "1", 2: "2"}, "x") is None


def test_plan_fields():
    plan = plan_query("What is the difference between classical and operant conditioning?")
    assert plan.facets == ("classical conditioning", "operant conditioning")
    assert plan.min_sections == 2 and plan.preferred_roles == (RoleQuota(ChunkRole.CONCEPT, 2),)
    plan = plan_query("chapter 3 only: what is work?")
    assert (plan.text, plan.scope.chapters, plan.topic) == ("what is work?", ("3",), "work")
    assert [q.role for q in plan.preferred_roles] == [ChunkRole.CONCEPT, ChunkRole.GLOSSARY, ChunkRole.EXAMPLE]
    plan = plan_query("Learning objectives of chapter 2")
    assert "by the end of this section you will be able to" in plan.search_text
    assert plan.lead_role is ChunkRole.OBJECTIVES and "chapter" not in plan.search_text
    plan = plan_query("summary")
    assert "key takeaways summary" in plan.search_text
    plan = plan_query("entropy")
    assert plan.search_text == "entropy what is entropy definition of entropy"
    plan = plan_query("Give me an exercise like 3.14")
    assert plan.references == ("3.14",) and plan.lead_role is ChunkRole.EXERCISE
    assert plan_query("How do I solve exercise 3.14?").references == ("exercise 3.14",)
    assert plan_query("pages 40–60").search_text == "pages 40–60"  # nothing left: search the question


def test_facets():
    assert comparison_facets("compare ionic and covalent bonds") == ("ionic bonds", "covalent bonds")
    assert comparison_facets("mitosis vs meiosis") == ("mitosis", "meiosis")
    assert comparison_facets("difference between an acid and a base?") == ("acid", "base")
    assert comparison_facets("what is entropy") == ()


@pytest.mark.parametrize("text", ["", "   ", "?", "________", "[7] <|im_start|>", "chapter", "pages",
                                  "x" * 5000, "chapter 1-9999", "p. -3", "\x00\u202e"])
def test_plan_never_crashes(text: str):
    plan = plan_query(text)
    assert isinstance(plan, QueryPlan) and isinstance(plan.search_text, str)


def test_detect_intent_without_cleaned_text():
    assert detect_intent("Quiz me") is Intent.EXERCISE


def test_planning_is_fast():
    questions = [q for q, _ in INTENTS] * 5
    t = time.perf_counter()
    for q in questions:
        plan_query(q)
    per_question_ms = (time.perf_counter() - t) * 1000 / len(questions)
    assert per_question_ms < 2.0  # budget is < 1 ms p50; generous here for slow CI machines


# -- shaping candidate lists ----------------------------------------------------------------------
def _chunk(cid: int, *, role: ChunkRole = ChunkRole.CONCEPT, section: str | None = "1.1",
           chapter: str | None = "1", text: str | None = None, book: str = "b") -> Chunk:
    default = f"entropy and conditioning, note {cid} " * 3
    return Chunk(id=ChunkId(cid), book_id=BookId(book), section_id=SectionId(zlib.crc32(str(section).encode())),
                 ordinal=cid, text=text if text is not None else default, role=role,
                 page_start=cid, page_end=cid, printed_page_start=str(cid), printed_page_end=str(cid),
                 chapter_number=chapter, chapter_title="Ch", section_number=section, section_title="Sec",
                 token_count=20)


def _hits(chunks: list[Chunk]) -> list[Hit]:
    return [Hit(rank=i, chunk=c, score=1.0 / i) for i, c in enumerate(chunks, start=1)]


def _ids(hits: list[Hit]) -> list[int]:
    return [h.chunk.id for h in hits]


def test_apply_roles_promotes_missing_roles_without_touching_the_top():
    chunks = [_chunk(i) for i in range(1, 8)] + [_chunk(8, role=ChunkRole.GLOSSARY),
                                                 _chunk(9, role=ChunkRole.EXAMPLE)]
    plan = plan_query("What is entropy?")
    out = apply_roles(_hits(chunks), plan, k=5)
    assert _ids(out) == [1, 2, 3, 8, 9]
    assert [h.rank for h in out] == [1, 2, 3, 4, 5]
    assert ("role_promoted", 1.0) in out[-1].stage_scores


def test_apply_roles_only_promotes_chunks_about_the_question():
    chunks = [_chunk(i) for i in range(1, 6)] + [
        _chunk(6, role=ChunkRole.GLOSSARY, text="experimenter bias: expectations skew results"),
        _chunk(7, role=ChunkRole.GLOSSARY, text="entropies: measures of disorder")]
    out = apply_roles(_hits(chunks), plan_query("What is entropy?"), k=4)
    assert _ids(out) == [1, 2, 3, 7]  # the stem "entro" matches the plural; bias is about something else
    assert plan_query("Define entropy, please").key_terms == ("entropy",)
    assert plan_query("learning objectives of chapter 2").key_terms == ()


def test_apply_roles_lead_role_first_and_no_change_when_satisfied():
    chunks = [_chunk(1), _chunk(2), _chunk(3, role=ChunkRole.EXAMPLE), _chunk(4, role=ChunkRole.EXAMPLE)]
    out = apply_roles(_hits(chunks), plan_query("show me an example of entropy"), k=4)
    assert _ids(out) == [3, 1, 2, 4]
    elsewhere = [_chunk(1), _chunk(2), _chunk(3, role=ChunkRole.EXAMPLE, section="7.1")]
    assert _ids(apply_roles(_hits(elsewhere), plan_query("show me an example of entropy"), k=3)) == [1, 2, 3]
    factual = apply_roles(_hits(chunks), plan_query("Why do we sleep?"), k=3)
    assert _ids(factual) == [1, 2, 3]


def test_apply_roles_respects_depth_and_protection():
    chunks = [_chunk(1)] + [_chunk(i) for i in range(2, 30)] + [_chunk(30, role=ChunkRole.EXERCISE)]
    plan = plan_query("quiz me on entropy")
    assert ChunkRole.EXERCISE not in {h.chunk.role for h in apply_roles(_hits(chunks), plan, k=3)}
    deep = apply_roles(_hits(chunks), plan, k=3, depth=40)
    assert _ids(deep) == [30, 1, 2]  # promoted over rank 3, then led
    only_exercises = [_chunk(1, role=ChunkRole.EXERCISE), _chunk(2, role=ChunkRole.EXERCISE)]
    assert _ids(apply_roles(_hits(only_exercises), plan, k=5)) == [1, 2]
    assert apply_roles(_hits(chunks), plan, k=0) == []


def test_missing_roles_asks_for_a_role_filtered_search():
    plan = plan_query("What is entropy?")
    concept_only = _hits([_chunk(i) for i in range(1, 6)])
    assert missing_roles(concept_only, plan, 5) == (ChunkRole.GLOSSARY, ChunkRole.EXAMPLE)
    complete = _hits([_chunk(1), _chunk(2, role=ChunkRole.GLOSSARY), _chunk(3, role=ChunkRole.EXAMPLE)])
    assert missing_roles(complete, plan, 5) == ()
    assert missing_roles(concept_only, plan_query("Why do we sleep?"), 5) == ()


def test_apply_roles_comparison_needs_two_sections():
    chunks = ([_chunk(i, section="3.1") for i in range(1, 6)] + [_chunk(6, section="3.2")]
              + [_chunk(7, section="3.3", text="Operant conditioning uses consequences.")])
    plan = plan_query("difference between classical and operant conditioning")
    out = apply_roles(_hits(chunks), plan, k=4)
    assert _ids(out) == [1, 2, 3, 7]  # 6 is from another section too, but not about the question


def test_dedupe_overlapping_keeps_designed_overlap():
    a = "Entropy measures disorder. It always grows in an isolated system. Heat flows from hot to cold bodies."
    b = "Heat flows from hot to cold bodies. The second law explains why engines waste energy in practice today."
    dup = "Entropy measures disorder. It always grows in an isolated system. Heat flows from hot to cold."
    chunks = [_chunk(1, text=a), _chunk(2, text=b), _chunk(3, text=dup), _chunk(4, text=a, section="9.9")]
    out = dedupe_overlapping(_hits(chunks))
    assert _ids(out) == [1, 2]  # 3 repeats 1 in its section; 4 is identical text elsewhere
    assert overlap_ratio(a, b) < 0.4 and overlap_ratio(a, dup) > 0.9
    partial = "Entropy measures disorder. It always grows in an isolated system. Engines waste heat."
    assert 0.6 <= overlap_ratio(a, partial) < 0.9
    assert _ids(dedupe_overlapping(_hits([_chunk(1, text=a), _chunk(5, text=partial, section="2.2")]))) == [1, 5]
    assert _ids(dedupe_overlapping(_hits([_chunk(1, text=a), _chunk(5, text=partial)]))) == [1]


def test_diversify_defers_instead_of_dropping():
    chunks = [_chunk(1, section="1.1"), _chunk(2, section="1.1"), _chunk(3, section="1.1"),
              _chunk(4, section="2.1"), _chunk(5, section="1.1"), _chunk(6, section="3.1")]
    out = diversify(_hits(chunks), max_per_section=2)
    assert _ids(out) == [1, 2, 4, 6, 3, 5]
    assert [h.rank for h in out] == list(range(1, 7))
    with pytest.raises(ValueError):
        diversify([], 0)


def test_fuse_hits():
    a = _hits([_chunk(1), _chunk(2), _chunk(3)])
    b = _hits([_chunk(3), _chunk(4)])
    out = fuse_hits([a, b])
    assert _ids(out) == [3, 1, 2, 4]
    assert out[0].score == pytest.approx(1 / 63 + 1 / 61)


def test_select_hits_runs_the_whole_pipeline_against_a_search_function():
    words = "alpha beta gamma delta epsilon zeta eta theta iota".split()

    def c(i: int, section: str, role: ChunkRole = ChunkRole.CONCEPT) -> Chunk:
        return _chunk(i, section=section, role=role, text=f"entropy {words[i - 1]} " + f"{words[i - 1]}{i} " * 5)

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
