"""Chapter guides: objectives, summary and key terms, every line cited and found in its chunk; cached."""
from __future__ import annotations

import json

from core.cli.main import main
from core.study.guide import GUIDE_VERSION, build_guide, chapter_guide, guide_lines, section_points
from core.study.models import SourceRef
from core.study.statements import Statement, StatementKind
from core.study.lesson import lesson_key
from core.study.prose import line_problem
from core.study.text import normalize


def test_guide_lines_are_cited_and_verbatim(sample):
    lib, book_id = sample
    chunks = lib.study_chunks(book_id, chapter="1")
    guide = build_guide(book_id, "1", chunks)
    assert guide.title == "Describing Motion"
    assert len(guide.objectives) == 4 and guide.objectives[0].text.startswith("Distinguish between distance")
    assert guide.summary and guide.key_terms and guide.sections
    by_id = {c.id: normalize(c.text) for c in chunks}
    for item in guide.summary:  # the book's own sentences, verbatim, cited where they stand
        assert normalize(item.text) in by_id[item.source.chunk_id]
    assert all(1 <= len(s.points) <= 3 for s in guide.sections)
    assert [line for line in guide_lines(guide) if line_problem(line)] == []


def test_guide_is_cached_in_the_library(sample, capsys):
    lib, book_id = sample
    first = chapter_guide(lib, book_id, "2")
    assert lib.study_cache_get(book_id, f"guide:v{GUIDE_VERSION}:2") and lib.study_cache_get(book_id, lesson_key("2"))
    assert chapter_guide(lib, book_id, "2") == first
    assert main(["--library", str(lib.root), "guide", book_id, "--chapter", "2", "--no-model", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["chapter"] == "2" and out["key_terms"][0]["source"]["page_start"]


def test_model_summary_keeps_only_supported_sentences(sample):
    from core.study.guide import model_summary
    from tests.core.study.conftest import ScriptedJsonModel
    lib, book_id = sample
    chunks = lib.study_chunks(book_id, chapter="2")
    model = ScriptedJsonModel(chat_reply="A force is a push or a pull exerted on an object by another object. "
                                         "Forces were discovered on the Moon in 1969 by penguins.")
    summary = model_summary(model, chunks)
    texts = [i.text for i in summary]
    assert texts and all(t.startswith("A force is a push") for t in texts)  # the invented one is dropped
    by_id = {c.id: c for c in chunks}
    assert all("push or a pull" in by_id[i.source.chunk_id].text for i in summary)


def test_section_points_skip_worked_examples_and_asides():
    def statement(text, chunk, score):
        return Statement(StatementKind.DEFINITION, text, text.split()[1], SourceRef(chunk, "b", "1", "1.1", "Heat", 1, "1"),
                         score)
    worked = statement("The final temperature of the water was measured as 42.7 degrees.", 7, 9.0)
    instance = statement("Sodium chloride, for example, consists of equal numbers of two ions.", 3, 9.5)
    aside = statement("(Dwarf planets are discussed further in a later chapter of the book.)", 3, 9.4)
    said = statement("The formation of frost is an example of deposition from the gas phase.", 3, 9.3)
    plain = [statement(f"A {w} is a quantity of heat that is measured in joules.", 2, 3.0 - i)
             for i, w in enumerate(("calorie", "kilocalorie", "joule"))]
    points = section_points([worked, instance, aside, said, *plain], [], asides=frozenset({7}))
    assert points == plain
