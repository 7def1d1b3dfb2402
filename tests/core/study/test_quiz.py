"""Generated quizzes: verification, the model path with scripted JSON, the glossary path, the CLI."""
from __future__ import annotations

import json

from core.cli.main import main
from core.models import ChunkRole
from core.llm.settings import ModelOutputError
from core.study.quiz import (ANCHORED_SCHEMA, QUESTION_SCHEMA, asks_to_define, glossary_quiz, grade, model_quiz,
                             on_topic, repair_distractors, select_passages, verify_candidate)
from tests.core.study.conftest import ScriptedJsonModel, make_chunk

PASSAGE = ("Glial cells, or glia, provide scaffolding on which the nervous system is built. Neurons communicate "
           "with each other through chemical messengers called neurotransmitters. The myelin sheath insulates "
           "the axon and speeds the transmission of signals along it. " * 2)


def test_verify_candidate():
    ok = verify_candidate("What insulates the axon?", "the myelin sheath", ["dendrites", "glia", "the soma"], PASSAGE)
    assert ok.ok and ok.reason == "verbatim" and "myelin" in ok.evidence
    semantic = verify_candidate("What do neurons use to communicate?", "chemical neurotransmitters",
                                ["electric fields", "hormones", "blood"], PASSAGE)
    assert semantic.ok and semantic.reason == "semantic"
    assert verify_candidate("What insulates the axon?", "the cortex", ["a", "b", "c"], PASSAGE).reason == \
        "answer not in the passage"
    assert verify_candidate("What insulates the axon?", "myelin", ["glia", "glia", "soma"], PASSAGE).reason == \
        "bad distractors"
    assert verify_candidate("What does the myelin sheath insulate?", "myelin sheath", ["x", "y", "z"],
                            PASSAGE).reason == "answer given away in the question"
    assert not verify_candidate("What insulates the axon?", "myelin", ["glia", "myelin", "soma"], PASSAGE).ok


def _chunks():
    return [make_chunk(i, PASSAGE, section_id=i % 3, key_terms=("myelin",)) for i in range(1, 7)]


def test_model_quiz_keeps_only_verified_questions():
    replies = [
        {"question": "What insulates the axon?", "answer": "the myelin sheath",
         "distractors": ["glia", "soma", "dendrite"]},
        {"question": "What is the brain's fuel?", "answer": "glucose", "distractors": ["fat", "protein", "water"]},
        ModelOutputError("The model returned invalid JSON"),
        {"question": "What builds the scaffolding of the nervous system?", "answer": "Glial cells",
         "distractors": ["neurons", "axons", "synapses"]},
    ]
    model = ScriptedJsonModel(replies)
    run = model_quiz(model, _chunks(), n=2, attempts=4, anchored=False)
    assert [q.answer for q in run.questions] == ["the myelin sheath", "Glial cells"]
    assert run.attempted == 4 and dict(run.rejected) == {"answer not in the passage": 1, "generation failed": 1}
    q = run.questions[0]
    assert q.answer in q.choices and len(q.choices) == 4 and q.generator == "scripted"
    assert q.answer.lower() in q.passage.lower() and q.source.chunk_id in {c.id for c in _chunks()}
    assert model.schemas[0] is QUESTION_SCHEMA and "Passage" in model.prompts[0][-1]["content"]
    assert grade(q, q.answer) and grade(q, "ABCD"[q.choices.index(q.answer)]) and not grade(q, "glia")


def test_model_quiz_stops_at_n_and_honours_cancel():
    reply = {"question": "What insulates the axon?", "answer": "myelin sheath", "distractors": ["a", "b", "c"]}
    assert len(model_quiz(ScriptedJsonModel([reply] * 5), _chunks(), n=1, anchored=False).questions) == 1
    assert model_quiz(ScriptedJsonModel([reply] * 5), _chunks(), n=3, cancel=lambda: True).attempted == 0


def test_select_passages_spreads_over_sections():
    picked = select_passages(_chunks(), 3)
    assert len({c.section_id for c in picked}) == 3


def test_glossary_quiz_on_the_sample(sample):
    lib, book_id = sample
    chunks = lib.study_chunks(book_id)
    run = glossary_quiz(chunks, 6)
    assert len(run.questions) == 6
    texts = {c.id: c.text.lower() for c in chunks}
    for q in run.questions:
        assert q.answer in q.choices and len(set(q.choices)) == 4
        assert q.answer.lower() in texts[q.source.chunk_id]


def test_cli_quiz_json_contract(sample, capsys):
    lib, book_id = sample
    assert main(["--library", str(lib.root), "quiz", book_id, "--chapter", "2", "-n", "2", "--no-model",
                 "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert len(items) == 2
    for item in items:
        assert {"question", "choices", "answer", "source"} <= set(item)
        assert {"chunk_id", "section_title", "page_start", "printed_page"} <= set(item["source"])
        assert item["source"]["chapter"] == "2"  # a term to type has no choices
        assert item["answer"] in item["choices"] or (item["choices"] == [] and item["type"] == "cloze")


def test_anchored_generation_keys_a_glossary_term_printed_in_the_passage():
    glossary = ("Key Terms\n\n- myelin sheath: fatty layer that insulates the axon\n\n"
                "- neurotransmitters: chemical messengers between neurons")
    chunks = [make_chunk(1, PASSAGE, key_terms=("bird sings",)),
              make_chunk(2, PASSAGE, section_id=2),
              make_chunk(3, "No terms here. " * 30, section_id=3),
              make_chunk(4, glossary, section_id=4, role=ChunkRole.GLOSSARY)]  # the book's terms, never a passage
    replies = [{"question": "What covers the axon and speeds signals?", "distractors": ["dendrite", "soma", "synapse"]},
               {"question": "What are neurotransmitters for?", "distractors": ["a", "b", "c"]},  # gives it away
               {"question": "What is made of nothing?", "answer": "the cortex", "distractors": ["x", "y", "z"]}]
    model = ScriptedJsonModel(replies)
    run = model_quiz(model, chunks, n=3, attempts=3, cloze_fallback=False)
    assert [q.answer for q in run.questions] == ["myelin sheath"]
    assert model.schemas[:2] == [ANCHORED_SCHEMA, ANCHORED_SCHEMA] and model.schemas[2] is QUESTION_SCHEMA
    assert '"myelin sheath"' in model.prompts[0][-1]["content"]
    assert '"neurotransmitters"' in model.prompts[1][-1]["content"]  # a term already asked is not reused
    assert dict(run.rejected) == {"answer given away in the question": 1, "answer not in the passage": 1}


def test_repair_distractors_drops_copies_of_the_answer_and_fills_from_book_terms():
    terms = ["stimulus generalization", "extinction", "operant conditioning", "stimulus discrimination"]
    fixed = repair_distractors("stimulus discrimination", ["stimulus generalization", "Stimulus discrimination", " "],
                               terms, "What is it called when an organism responds differently?")
    assert len(fixed) == 3 and len({f.lower() for f in fixed}) == 3
    assert "stimulus generalization" in fixed and all("discrimination" not in f for f in fixed)


def test_cloze_fallback_when_the_model_names_the_answer():
    glossary = ("Key Terms\n\n- myelin sheath: fatty layer that insulates the axon\n\n"
                "- dendrite: branch that receives signals from other neurons")
    chunks = [make_chunk(1, PASSAGE), make_chunk(2, glossary, section_id=2, role=ChunkRole.GLOSSARY)]
    reply = {"question": "What does the myelin sheath do?", "distractors": ["myelin sheath", "soma", "glia"]}
    run = model_quiz(ScriptedJsonModel([reply]), chunks, n=1, attempts=1)
    q = run.questions[0]
    assert q.question.startswith("Fill in the blank: “The _____ insulates the axon")
    assert q.answer == "myelin sheath" and q.generator == "scripted + cloze" and len(set(q.choices)) == 4


def test_negated_or_off_topic_model_questions_fall_back_to_the_cloze():
    glossary = ("Key Terms\n\n- myelin sheath: fatty layer that insulates the axon\n\n"
                "- dendrite: branch that receives signals\n\n- soma: cell body\n\n- synapse: junction")
    chunks = [make_chunk(1, PASSAGE), make_chunk(2, glossary, section_id=2, role=ChunkRole.GLOSSARY)]
    for question in ("Which of these does NOT insulate the axon?", "To what extent is a child unlike an adult?"):
        reply = {"question": question, "distractors": ["dendrite", "soma", "synapse"]}
        q = model_quiz(ScriptedJsonModel([reply]), chunks, n=1, attempts=1).questions[0]
        assert q.question.startswith("Fill in the blank") and q.answer == "myelin sheath"
    assert on_topic("What insulates the axon and speeds signals?", PASSAGE.split(". ")[2])


def test_what_is_term_questions_and_cloze_distractors():
    terms = ["formal operational stage", "concrete operational stage", "adolescence"]
    assert asks_to_define("What is the formal operational stage in Piaget's theory?", terms)
    assert not asks_to_define("What stage comes after the concrete one?", terms)
    glossary = ("Key Terms\n\n- myelin sheath: fatty insulating layer\n\n- axon: long fibre of a neuron\n\n"
                "- dendrite: branch that receives signals\n\n- soma: cell body of a neuron\n\n"
                "- synapse: junction between two neurons")
    chunks = [make_chunk(1, PASSAGE), make_chunk(2, glossary, section_id=2, role=ChunkRole.GLOSSARY)]
    reply = {"question": "What is the myelin sheath?", "distractors": ["axon", "soma", "dendrite"]}
    q = model_quiz(ScriptedJsonModel([reply]), chunks, n=1, attempts=1).questions[0]
    assert q.question.startswith("Fill in the blank: “The _____ insulates the axon")
    assert "axon" not in q.choices  # printed in the blanked sentence: not a fair distractor


def test_a_typed_answer_names_the_term_in_any_of_its_forms_with_one_slip_allowed():
    from core.study.quiz import typed_right
    assert typed_right("a cons list", "cons list") and typed_right("Cons lists", "cons list")
    assert typed_right("cosn list", "cons list") and typed_right("cons lst", "cons list")  # one slip
    assert typed_right("UCS", "unconditioned stimulus (UCS)") and typed_right("recv", "`recv`")
    assert typed_right("HashMap", "`HashMap<K, V>`")
    assert not typed_right("heep", "heap")  # a short word: no slip allowed (heap / help / hear)
    assert not typed_right("stack", "heap") and not typed_right("", "heap") and not typed_right("cons", "cons list")
