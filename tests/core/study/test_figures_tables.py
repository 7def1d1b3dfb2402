"""Figure captions and tables are chunks of their own (``Chunk.label``): the study generators make no cards,
quiz passages, statements or practice items from them alone, while the same text without a label is used."""
from __future__ import annotations

from core.models import ChunkRole
from core.study.cards import extract_cards
from core.study.practice import find_exercises
from core.study.quiz import select_passages
from core.study.statements import statements
from core.study.text import is_prose
from tests.core.study.conftest import make_chunk

FIGURE = ("Figure 3.2 The parts of a nerve cell. A neuron is a cell that carries electrical signals through the "
          "nervous system. Dendrites receive signals from other neurons, and the axon carries signals away from the "
          "cell body. The myelin sheath insulates the axon and speeds the transmission of signals along it.")
FIGURE_TERMS = ("neuron", "dendrites", "myelin sheath", "axon")
TABLE = ("Table 1.1 SI base units\n"
         "Mass | The base unit of mass in the SI system is called the kilogram.\n"
         "Length | The base unit of length in the SI system is called the metre.\n"
         "Time | The base unit of time in the SI system is called the second.\n"
         "Current | The base unit of electric current is called the ampere.\n"
         "Temperature | The base unit of thermodynamic temperature is called the kelvin.")
TABLE_TERMS = ("kilogram", "metre", "second", "ampere", "kelvin")
PROSE = ("Inertia is studied in every first course of mechanics. The tendency of an object to keep doing what it is "
         "already doing is called inertia. A force is a push or a pull acting on an object, and forces change how "
         "objects move. Newton described how forces and inertia together decide the motion of a body.")


def _pair(text: str, terms: tuple[str, ...], label: str):
    """The same chunk twice: as running text (no label) and as a figure's or table's own chunk."""
    return make_chunk(1, text, key_terms=terms), make_chunk(1, text, key_terms=terms, label=label)


def test_is_prose():
    assert is_prose(make_chunk(1, PROSE))
    assert not is_prose(make_chunk(1, FIGURE, label="Figure 3.2"))
    assert not is_prose(make_chunk(1, TABLE, label="Table 1.1"))


def test_cards_skip_captions_and_tables():
    for text, terms, label in ((FIGURE, FIGURE_TERMS, "Figure 3.2"), (TABLE, TABLE_TERMS, "Table 1.1")):
        plain, labelled = _pair(text, terms, label)
        assert extract_cards([plain])  # the text alone does make cards ...
        assert extract_cards([labelled]) == []  # ... but not as a caption or a table
    # a glossary-looking caption ("Figure 3.2: ...") is no glossary line either
    caption = "Figure 3.2: a nerve cell with its dendrites, axon and myelin sheath drawn"
    assert extract_cards([make_chunk(1, caption, role=ChunkRole.GLOSSARY)])
    assert extract_cards([make_chunk(1, caption, role=ChunkRole.GLOSSARY, label="Figure 3.2")]) == []


def test_quiz_passages_skip_captions_and_tables():
    for text, terms, label in ((FIGURE, FIGURE_TERMS, "Figure 3.2"), (TABLE, TABLE_TERMS, "Table 1.1")):
        plain, labelled = _pair(text, terms, label)
        assert len(text) >= 300 and select_passages([plain], 3) == [plain]
        assert select_passages([labelled], 3) == []


def test_statements_skip_captions_and_tables():
    for text, terms, label in ((FIGURE, FIGURE_TERMS, "Figure 3.2"), (TABLE, TABLE_TERMS, "Table 1.1")):
        plain, labelled = _pair(text, terms, label)
        assert statements([plain])
        assert statements([labelled]) == []


def test_prose_beside_a_figure_and_a_table_is_still_used():
    chunks = [make_chunk(1, PROSE, key_terms=("inertia", "force")),
              make_chunk(2, FIGURE, key_terms=FIGURE_TERMS, label="Figure 3.2"),
              make_chunk(3, TABLE, key_terms=TABLE_TERMS, label="Table 1.1")]
    assert {c.front for c in extract_cards(chunks)} == {"inertia", "force"}
    assert {c.source.chunk_id for c in extract_cards(chunks)} == {1}
    assert [c.id for c in select_passages(chunks, 3)] == [1]
    found = statements(chunks)
    assert found and {s.source.chunk_id for s in found} == {1}


def test_a_caption_alone_in_an_exercise_section_is_no_exercise():
    caption = "Figure 3.14 A block resting on an inclined plane, with the forces acting on it drawn as arrows."
    plain = make_chunk(1, caption, role=ChunkRole.EXERCISE, section_title="Exercises")
    labelled = make_chunk(1, caption, role=ChunkRole.EXERCISE, section_title="Exercises", label="Figure 3.14")
    assert [e.text for e in find_exercises([plain])] == [caption]
    assert find_exercises([labelled]) == []
