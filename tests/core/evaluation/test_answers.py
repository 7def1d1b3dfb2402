"""Answer metrics (``core.evaluation.answers``) and ``lantern eval --answers``: judged on a tiny real library
with a scripted model, so every number is checked against answers whose truth is known."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from core.cli import main as cli
from core.evaluation.answers import citation_valid, evaluate_answers, markers_valid, refusal_metrics, spread
from core.evaluation.choices import mc_prompt, multiple_choice, pick_choice
from core.retrieval.coverage import Coverage, nearest_sections
from core.evaluation.retrieval import GoldQuestion, load_questions
from core.models import Answer
from tests.core.answer.test_tutor import BOOK, covered, tutor
from tests.fakes import FakeChatModel, FakeEmbedder

PHOTO = GoldQuestion(qid="p", question="What does photosynthesis turn light energy into?", qtype="review",
                     section="2.1", gold_pages=None)
MEMBRANE = GoldQuestion(qid="m", question="What controls what enters and leaves the cell?", qtype="review",
                        section="1.2", gold_pages=None,
                        choices=("the nucleus", "the membrane", "the ribosome"), answer_letter="B")


def test_spread_is_even_and_deterministic():
    assert spread(list(range(10)), 5) == [0, 2, 4, 6, 8]
    assert spread([1, 2], 5) == [1, 2]
    assert spread([1, 2], 0) == []
    assert spread(list(range(10)), 5, shift=0.5) == [1, 3, 5, 7, 9]  # a fresh sample, disjoint from the first


def test_pick_choice_matches_the_option_the_reply_names():
    choices = ["the nucleus", "the membrane", "the ribosome"]
    assert pick_choice("The membrane.\nIt controls entry.", choices) == "B"
    assert pick_choice("ribosome", choices) == "C"
    with pytest.raises(ValueError):
        pick_choice("anything", [])


def test_mc_prompt_puts_the_passages_before_the_question():
    with_book = mc_prompt("Q?", ["a", "b"], "<source n=\"1\">text</source>")
    assert with_book.index("From the textbook") < with_book.index("Question: Q?") and "- b" in with_book
    assert "From the textbook" not in mc_prompt("Q?", ["a", "b"])


def test_load_questions_reads_the_keyed_letter(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"question": "Q?", "section": "1.1", "choices": ["x", "y"], "answer_letter": "b"})
                    + "\n" + json.dumps({"question": "Why?", "section": "1.2"}) + "\n", encoding="utf-8")
    keyed, open_q = load_questions(path)
    assert keyed.answer_letter == "B" and keyed.choices == ("x", "y") and open_q.answer_letter is None


def test_answers_are_judged_for_validity_and_the_gold_section(lib):
    model = FakeChatModel("Photosynthesis turns light energy into chemical energy [1].")
    report = evaluate_answers(tutor(lib, model), [PHOTO, MEMBRANE])
    assert report["questions"] == 2 and report["citation_validity"] == 1.0
    rows = {r["qid"]: r for r in report["rows"]}
    assert rows["p"]["any_gold"] and rows["p"]["gold_citations"] >= 1  # cites 2.1, the gold section
    assert report["refused"] == 0 and report["answers_without_citation"] == 0


def test_a_citation_that_does_not_resolve_is_invalid(lib):
    answer = _answer(lib)
    c = answer.citations[0]
    chunk = lib.chunks([c.chunk_id])[c.chunk_id]
    pages = {p.index: p.label for p in lib.pages(c.book_id)}
    assert citation_valid(c, chunk, pages) and markers_valid(answer)
    assert not citation_valid(replace(c, printed_page="999"), chunk, pages)
    assert not citation_valid(replace(c, chunk_id=10**9), lib.chunks([10**9]).get(10**9), pages)
    assert not citation_valid(replace(c, section="9.9"), chunk, pages)
    assert not citation_valid(replace(c, book_id="another-book"), chunk, pages)
    assert not markers_valid(replace(answer, text=answer.text + " Also this [9]."))


def _answer(lib) -> Answer:
    from core.answer.tutor import collect
    model = FakeChatModel("Photosynthesis turns light energy into chemical energy [1].")
    answer = collect(tutor(lib, model).ask(PHOTO.question))
    assert answer.citations
    return answer


def test_multiple_choice_with_and_without_the_book(lib):
    right = FakeChatModel("the membrane")
    out = multiple_choice(tutor(lib, right), [MEMBRANE, PHOTO])  # PHOTO has no choices: skipped
    assert out["questions"] == 1 and out["accuracy_with_book"] == 1.0 and out["accuracy_without_book"] == 1.0
    assert out["chance"] == pytest.approx(1 / 3, abs=1e-3)
    sent = right.calls[0][1]["content"]
    assert "From the textbook" in sent and "membrane controls" in sent  # the tutor's sources went in
    assert "From the textbook" not in right.calls[1][1]["content"]
    wrong = multiple_choice(tutor(lib, FakeChatModel("the nucleus")), [MEMBRANE])
    assert wrong["accuracy_with_book"] == 0.0


def test_refusal_precision_and_recall(lib):
    def assess(question, hits, **_):  # the library "covers" only questions about cells
        return Coverage(score=0.9 if "cell" in question else 0.1, covered="cell" in question,
                        nearest=nearest_sections(hits))
    t = tutor(lib, FakeChatModel(""), assess=assess)
    out = refusal_metrics(t, ["What is a cell?", "What is photosynthesis?"],
                          ["Who won the 1998 world cup?", "What is a cell phone tower?"])
    assert (out["in_book_declined"], out["off_book_declined"]) == (1, 1)
    assert out["precision"] == 0.5 and out["recall"] == 0.5


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    from core.library import Library
    root = tmp_path_factory.mktemp("answer-eval")
    (root / "bio.md").write_text(BOOK, encoding="utf-8")
    with Library(root / "lib", embedder=FakeEmbedder()) as library:
        library.import_book(root / "bio.md")
        yield library


def _questions_file(tmp_path):
    path = tmp_path / "q.jsonl"
    rows = [{"question": PHOTO.question, "section": "2.1", "qtype": "review"},
            {"question": MEMBRANE.question, "section": "1.2", "qtype": "review",
             "choices": list(MEMBRANE.choices), "answer_letter": "B"}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    off = tmp_path / "off.jsonl"
    off.write_text(json.dumps({"question": "Who painted the Mona Lisa?", "section": "9.9"}) + "\n", encoding="utf-8")
    return path, off


def test_eval_answers_from_the_command_line(monkeypatch, capsys, tmp_path):
    embedder = FakeEmbedder()
    monkeypatch.setattr("core.index.embedder.default_embedder", lambda: embedder)
    monkeypatch.setattr("core.retrieval.coverage.assess", covered)
    from core.cli import search as search_cli
    real = search_cli.Tutor
    model = FakeChatModel("The membrane controls what enters and leaves the cell [1].")
    monkeypatch.setattr(search_cli, "Tutor", lambda library, _model=None, **kw: real(library, model, **kw))
    (tmp_path / "bio.md").write_text(BOOK, encoding="utf-8")
    lib_dir = str(tmp_path / "lib")
    assert cli.main(["--library", lib_dir, "import", str(tmp_path / "bio.md")]) == 0
    questions, off = _questions_file(tmp_path)
    capsys.readouterr()
    code = cli.main(["--library", lib_dir, "eval", "--questions", str(questions), "--offbook", str(off),
                     "--answers", "2", "--choices", "without", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    a = report["answers"]
    assert a["model"] == "fake model" and a["answers"]["questions"] == 2 and a["answers"]["citation_validity"] == 1.0
    assert a["multiple_choice"]["questions"] == 1 and a["multiple_choice"]["accuracy_with_book"] == 1.0
    assert a["refusal"]["off_book"] == 1 and a["refusal"]["in_book"] == 2


def test_eval_answers_without_a_model_says_so(monkeypatch, capsys, tmp_path):
    embedder = FakeEmbedder()
    monkeypatch.setattr("core.index.embedder.default_embedder", lambda: embedder)
    (tmp_path / "bio.md").write_text(BOOK, encoding="utf-8")
    lib_dir = str(tmp_path / "lib")
    assert cli.main(["--library", lib_dir, "import", str(tmp_path / "bio.md")]) == 0
    questions, _ = _questions_file(tmp_path)
    capsys.readouterr()
    code = cli.main(["--library", lib_dir, "eval", "--questions", str(questions), "--choices", "without",
                     "--answers", "1", "--model", str(tmp_path / "missing.gguf")])
    assert code == 2 and "needs a chat model" in capsys.readouterr().err
