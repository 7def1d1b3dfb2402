"""Evidence sentences: candidates from chunks, rank fusion, neighbours and definitions, book order, the prompt."""
from __future__ import annotations

import numpy as np

from core.answer.attribution import stems
from core.answer.evidence import (Unit, chunk_units, defined_term, evidence_units, fused_scores, grouped, is_code,
                                  is_display_equation, is_heading, is_reference, select_evidence)
from core.answer.prompt import build_prompt, citation_grammar, format_evidence
from core.models import BookId, Chunk, ChunkId, ChunkRole, Hit, SectionId, Source


def chunk(cid: int, text: str, *, ordinal: int | None = None, section: int = 7, number: str = "3.2",
          title: str = "Norms", page: int = 40, label: str = "") -> Chunk:
    return Chunk(id=ChunkId(cid), book_id=BookId("b"), section_id=SectionId(section),
                 ordinal=cid if ordinal is None else ordinal, text=text, role=ChunkRole.CONCEPT, page_start=page,
                 page_end=page, printed_page_start=str(page - 2), printed_page_end=str(page - 2),
                 chapter_number="3", chapter_title="Culture", section_number=number, section_title=title,
                 token_count=len(text.split()), label=label)


def words(text: str) -> int:
    return len(text.split())


NORMS = chunk(1, "Sociologists study how people behave. Folkways are norms for routine or casual interaction. "
                 "They include how to dress and how to greet someone. Mores are norms that embody the moral views "
                 "of a group.")
LATER = chunk(2, "Taboos are the strongest norms of all. Breaking one causes disgust.", page=41)
OTHER = chunk(3, "Values are a culture's standard for judging what is good. Beliefs are tenets people hold true.",
              section=8, number="3.3", title="Values", page=45)


def test_units_are_sentences_and_code_blocks_stay_whole():
    units = chunk_units(NORMS, hit_rank=0)
    assert [u.text for u in units][:2] == ["Sociologists study how people behave.",
                                            "Folkways are norms for routine or casual interaction."]
    code = chunk(4, "The loop prints each value.\n\nfn main() {\n    let v = vec![1, 2];\n    for x in &v {\n"
                    "        println!(\"{x}\");\n    }\n}")
    units = chunk_units(code, hit_rank=0)
    assert units[-1].code and units[-1].text.startswith("fn main() {") and units[-1].text.endswith("}")
    assert is_code("let x = 5;\nlet y = x + 1;") and not is_code("A plain sentence about loops.")


def test_neighbours_join_in_their_hits_section_only():
    hits = [Hit(rank=1, chunk=NORMS, score=1.0)]
    units = evidence_units(hits, [LATER, OTHER], k=4)
    assert {u.chunk.id for u in units} == {1, 2}  # OTHER is another section
    assert all(u.hit_rank == 0 for u in units)


def test_fusion_needs_no_weights():
    scores = fused_scores([0.9, 0.1, 0.5], [0.0, 1.0, 0.5], [0, 0, 1])
    assert scores.shape == (3,) and scores[2] < max(scores[0], scores[1])


def test_selection_prefers_the_definition_and_brings_the_sentence_a_pronoun_needs():
    units = evidence_units([Hit(rank=1, chunk=NORMS, score=1.0), Hit(rank=2, chunk=OTHER, score=0.5)], [], k=4)
    cos = np.array([0.2, 0.5, 0.6, 0.4, 0.1, 0.1])
    chosen = select_evidence("What are folkways?", units, cos, token_budget=30, count_tokens=words, stems=stems)
    texts = [e.text for e in chosen]
    assert "Folkways are norms for routine or casual interaction." in texts
    # "They include …" leans on the sentence before it, which comes along and stays before it
    assert texts.index("Folkways are norms for routine or casual interaction.") < texts.index(
        "They include how to dress and how to greet someone.")
    assert [e.id for e in chosen] == list(range(1, len(chosen) + 1))
    assert [(e.chunk.ordinal, e.index) for e in chosen] == sorted((e.chunk.ordinal, e.index) for e in chosen)
    assert sum(words(e.text) + 3 for e in chosen) <= 30


def test_budget_and_duplicates():
    twice = [Unit(NORMS, 0, "Folkways are norms for casual interaction.", 0),
             Unit(LATER, 0, "Folkways are norms for casual interaction.", 1)]
    chosen = select_evidence("folkways", twice, None, token_budget=100, count_tokens=words, stems=stems)
    assert len(chosen) == 1
    assert select_evidence("folkways", twice, None, token_budget=5, count_tokens=words, stems=stems) == ()
    assert select_evidence("anything", [], None, token_budget=100, count_tokens=words, stems=stems) == ()


def test_a_footnote_reference_is_no_evidence():
    reference = ('Lydia Saad, "Trust in Federal Government\'s Competence Remains Low," Gallup, 29 September 2020, '
                 "https://news.gallup.com/poll/321119/trust.aspx.")
    link = "On Windows, go to https://www.rust-lang.org/tools/install and follow the instructions for installing Rust."
    assert is_reference(reference) and not is_reference(link) and not is_reference('The word "hello" is printed.')
    units = [Unit(NORMS, 0, reference, 0), Unit(NORMS, 1, link, 0)]
    chosen = select_evidence("How do I trust the government?", units, None, token_budget=200, count_tokens=words,
                             stems=stems)
    assert [e.text for e in chosen] == [link]


def test_the_prompt_numbers_sentences_under_their_sections():
    units = evidence_units([Hit(rank=1, chunk=NORMS, score=1.0), Hit(rank=2, chunk=OTHER, score=0.5)], [], k=4)
    chosen = select_evidence("What are mores and values?", units, None, token_budget=80, count_tokens=words,
                             stems=stems)
    assert [h for h, _ in grouped(chosen)] == ["3.2 Norms (p. 38)", "3.3 Values (p. 43)"]
    sources = [Source(n=e.id, chunk=e.chunk, text=e.text, label="x") for e in chosen]
    block = format_evidence(sources)
    assert block.splitlines()[0] == "3.2 Norms, p. 38" and "[1] " in block and "\n\n3.3 Values, p. 43\n" in block
    user = build_prompt("What are mores?", sources)[1]["content"]
    assert user.startswith("Evidence from the textbook:") and user.rstrip().endswith("Question: What are mores?")


def test_citation_grammar_lists_only_the_given_ids():
    g = citation_grammar([3, 1, 12])
    assert 'cite ::= "1" | "3" | "12"' in g and g.startswith("root ::=")


def test_a_displayed_equation_and_a_run_in_head_join_the_sentence_they_belong_to():
    text = ("Energy is the capacity to do work.\n\nDefinition (Kinetic energy). The kinetic energy of an object of "
            "mass m moving at speed v is\n\nEk = ½mv²\n\nIt is never negative.\n\nWe write:\n\nlet x = 5;\n\n"
            "Wnet = ΔEk = ½mvf² − ½mvi²")
    units = [u.text for u in chunk_units(chunk(9, text), hit_rank=0)]
    assert "Definition (Kinetic energy). The kinetic energy of an object of mass m moving at speed v is Ek = ½mv²" \
        in units
    assert "let x = 5;" in units  # code after a colon stays code
    assert units[-1] == "Wnet = ΔEk = ½mvf² − ½mvi²"  # no sentence leads into it: left alone (and too short)
    assert is_display_equation("PV = nRT") and not is_display_equation("let x = 5;")
    assert not is_display_equation("Find the pressure using the formula P = nRT/V for the gas.")


def test_a_sentence_the_layout_broke_into_two_paragraphs_is_one_unit_again():
    text = ("The syndrome consists of three stages: (1) alarm reaction,\n\n(2) stage of resistance, and (3) stage of "
            "exhaustion. Alarm reaction comes first.\n\nthe cells divide and grow\n\nA new paragraph starts here.\n\n"
            "It ends on a word\n\nNext Heading Starts Upper-Case")
    units = [u.text for u in chunk_units(chunk(9, text), hit_rank=0)]
    assert units[0] == ("The syndrome consists of three stages: (1) alarm reaction, (2) stage of resistance, and (3) "
                        "stage of exhaustion.")
    assert units[1] == "Alarm reaction comes first."  # a finished sentence is never joined to the next paragraph
    assert "the cells divide and grow" in units
    assert units[-2:] == ["It ends on a word", "Next Heading Starts Upper-Case"]


def test_the_asked_terms_definition_comes_first_and_a_broader_terms_is_left_out():
    text = ("Energy is the capacity to do work. It comes in many forms, and the first we meet is motion. "
            "Definition (Kinetic energy). The kinetic energy of an object of mass m moving at speed v is Ek = ½mv². "
            "Kinetic energy is a scalar measured in joules.")
    units = chunk_units(chunk(9, text), hit_rank=0)
    assert defined_term(units[2].text, stems) == stems("kinetic energy")  # the head of "X of Y", past the run-in head
    chosen = [e.text for e in select_evidence("What is kinetic energy?", units, None, token_budget=200,
                                              count_tokens=words, stems=stems)]
    assert chosen[0].startswith("Definition (Kinetic energy).")
    assert not any(t.startswith(("Energy is", "It comes")) for t in chosen)
    # with no definition of the asked term, the broader one is the best there is and stays
    alone = [u for u in units if "Kinetic energy" not in u.text and "kinetic energy" not in u.text]
    assert any(e.text.startswith("Energy is") for e in select_evidence(
        "What is kinetic energy?", alone, None, token_budget=200, count_tokens=words, stems=stems))


def test_a_heading_is_told_from_a_sentence():
    assert is_heading("Calculating Molar Concentrations from the Mass of Solute")
    assert is_heading("## Key Concepts and Summary") and is_heading("INFLUENCES ON THE COURT")
    assert not is_heading("Molarity is the number of moles of solute in exactly 1 liter of solution.")
    assert not is_heading("> Inf - Inf") and not is_heading("Family name Link functions")  # code; a table's header



def test_a_lead_in_takes_the_reactions_displayed_after_it():
    text = ("The equations below show the two possible acid-base reactions for bicarbonate ion and water:\n\n"
            "HCO_3^–(aq)+H_2O(l)⇌CO_3^{2–}(aq)+H_3O^+(aq)\n\nHCO_3^–(aq)+H_2O(l)⇌H_2CO_3(aq)+OH^–(aq)\n\n"
            "Water is amphiprotic too.")
    units = [u.text for u in chunk_units(chunk(9, text), hit_rank=0)]
    assert units[0].endswith("water: HCO_3^–(aq)+H_2O(l)⇌CO_3^{2–}(aq)+H_3O^+(aq) HCO_3^–(aq)+H_2O(l)⇌H_2CO_3(aq)+OH^–(aq)")
    assert units[1] == "Water is amphiprotic too."
    assert is_display_equation("2H_2 + O_2 → 2H_2O")


def test_an_evidence_sentence_that_takes_its_subject_from_the_one_before_carries_that_one():
    def leans(ch, question: str) -> dict[str, str]:
        chosen = select_evidence(question, chunk_units(ch, 0), None, token_budget=400, count_tokens=words,
                                 stems=stems)
        return {e.text[:12]: e.leans_on for e in chosen}
    got = leans(NORMS, "How do people greet someone?")
    assert got["They include"] == "Folkways are norms for routine or casual interaction."
    assert got["Folkways are"] == "" and got["Mores are no"] == ""
    opened = chunk(5, "The document they created was the Constitution. For the most part, it also resolved the "
                      "conflicts between small and large states.")
    assert leans(opened, "What resolved the conflicts between small and large states?")["For the most"] == \
        "The document they created was the Constitution."
    # the first sentence of a chunk has nothing before it to lean on
    assert leans(chunk(6, "It is case sensitive, so A and a are different symbols."), "Is R case sensitive?") == {
        "It is case s": ""}
