"""``lantern ask``: the JSON contract, streaming text, and no crash without a model."""
from __future__ import annotations

import json

import pytest

from core.cli import main as cli
from tests.core.answer.test_tutor import BOOK, covered
from tests.fakes import FakeEmbedder


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    # The fast hashing embedder stands in for MiniLM (the CLI's Library asks core.index.embedder for it).
    embedder = FakeEmbedder()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("core.index.embedder.default_embedder", lambda: embedder)
        root = tmp_path_factory.mktemp("ask")
        (root / "bio.md").write_text(BOOK, encoding="utf-8")
        assert cli.main(["--library", str(root / "lib"), "import", str(root / "bio.md")]) == 0
        yield str(root / "lib")


@pytest.fixture(autouse=True)
def book_covers_everything(monkeypatch):
    # the hashing embedder's similarities are not calibrated for the coverage threshold
    monkeypatch.setattr("core.retrieval.coverage.assess", covered)


def test_ask_json_without_a_model_is_extractive(capsys, library, tmp_path):
    capsys.readouterr()
    code = cli.main(["--library", library, "ask", "Where does photosynthesis happen?", "--json",
                     "--model", str(tmp_path / "missing.gguf")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"answer", "refused", "citations", "timings"} <= set(out)
    assert set(out["timings"]) == {"retrieval_ms", "first_token_ms", "total_ms"}
    assert out["extractive"] and "missing.gguf" in out["notice"] and not out["refused"]
    c = out["citations"][0]
    assert {"n", "chunk_id", "book_id", "chapter", "section", "section_title", "page_start", "page_end",
            "printed_page", "quote"} <= set(c)
    assert c["section"] == "2.1" and c["quote"] and f"[{c['n']}]" in out["answer"]


def test_ask_streams_text_and_lists_sources(capsys, library, tmp_path):
    capsys.readouterr()
    code = cli.main(["--library", library, "ask", "What does the membrane control?",
                     "--model", str(tmp_path / "missing.gguf")])
    out = capsys.readouterr().out
    assert code == 0 and "Sources:" in out and "1.2 Membranes" in out and "Note:" in out


def test_ask_a_new_conversation_then_a_followup(capsys, library, tmp_path):
    capsys.readouterr()
    args = ["--library", library, "ask", "--json", "--model", str(tmp_path / "missing.gguf")]
    assert cli.main(args + ["What is photosynthesis?", "--new-conversation"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["conversation_id"]
    assert cli.main(args + ["give another example", "--conversation", str(first["conversation_id"])]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["search_question"] == "Give another example of photosynthesis."


def test_the_tail_says_which_greyed_sentences_are_about_the_students_code():
    import io
    from core.answer.attribution import ABOUT_CODE_LABEL, UNSUPPORTED_LABEL
    from core.cli.output import print_answer_tail
    from core.models import Answer
    out = io.StringIO()
    print_answer_tail(Answer("Does it compile?", "Yes, it compiles. Rust has no null.", (),
                             unsupported=("Yes, it compiles.", "Rust has no null."),
                             about_code=("Yes, it compiles.",)), out, "Yes, it compiles. Rust has no null.")
    text = out.getvalue()
    assert f"({UNSUPPORTED_LABEL}: Rust has no null.)" in text and f"({ABOUT_CODE_LABEL}: Yes, it compiles.)" in text


def test_the_tail_shows_a_quote_in_the_students_language_when_asked_for():
    import io
    from core.cli.output import citation_record, print_answer_tail
    from core.models import Answer, Citation
    quote = Citation(n=1, chunk_id=7, book_id="b", chapter="1", section="1.2.8", section_title="Tubes nommés",
                     page_start=42, page_end=42, printed_page="14", quote="La taille d’un tube est toujours nulle.",
                     quote_translation="The size of a pipe is always zero.")
    out = io.StringIO()
    print_answer_tail(Answer("How big is a FIFO?", "Its size is always zero [1].", (quote,), language="en",
                             original="Sa taille est toujours nulle [1].", original_language="fr"), out)
    text = out.getvalue()
    assert "translated from the French answer" in text and "Sa taille" not in text
    assert "\u201cLa taille d’un tube est toujours nulle.\u201d\n      (English: The size of a pipe is always zero.)" in text
    assert citation_record(quote)["quote_translation"] == "The size of a pipe is always zero."


def test_ask_says_when_the_written_answer_is_being_checked(capsys, library, monkeypatch):
    from tests.fakes import FakeChatModel
    monkeypatch.setattr("core.cli.ask.resolve_model", lambda *a, **k: (None, None))
    monkeypatch.setattr("core.cli.ask.LocalModel", lambda llm: FakeChatModel("Photosynthesis happens in the "
                                                                             "chloroplasts [1]."))
    capsys.readouterr()
    assert cli.main(["--library", library, "ask", "Where does photosynthesis happen?"]) == 0
    out, err = capsys.readouterr()
    assert "chloroplasts" in out and "checking each sentence against your book" in err
    assert cli.main(["--library", library, "ask", "Where does photosynthesis happen?", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["answer"] and "checking" not in err  # JSON output stays clean
