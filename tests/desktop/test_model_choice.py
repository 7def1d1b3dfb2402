"""Choosing the model from the desktop: what Settings says, and measuring that yields to everything else.

The measurement is a fake (``core.llm.choice.choose_for_machine`` replaced) that runs until the test
releases it or the window cancels it, so the tests see the order of events, not how fast anything is.
"""
from __future__ import annotations

import threading
import pytest

import core.llm.choice as llm_choice
from core.llm.choice import QUALITY_ORDER, Choice, MachineBusy, MeasurementCancelled, Quality
from desktop import workers
from desktop.model_choice import ModelChooser, choice_text
from tests.desktop.conftest import wait_imports
from tests.desktop.fake_asker import FakeAsker
from tests.waiting import HANG_GUARD_S, wait_for, wait_signal

NAME = "Qwen2.5-Coder 1.5B Instruct (Q4_K_M)"
BIG, MID, _ = QUALITY_ORDER


def test_the_model_is_named_once_with_its_reason():
    choice = Choice("qwen2.5-coder-1.5b", Quality.BALANCED, f"{NAME} is the most correct model that starts answering "
                    "within 10 s.")
    assert choice_text(choice, NAME) == f"Runs {NAME}: it is the most correct model that starts answering within 10 s."
    other = Choice("x", Quality.FASTEST, "No model answers within 10 s here.")
    assert choice_text(other, NAME) == f"Runs {NAME}: No model answers within 10 s here."
    assert choice_text(None, NAME) == f"Runs {NAME}."
    assert "measures them when it is idle" in choice_text(None, NAME, "busy")


def test_settings_says_when_the_speed_is_provisional():
    speeds = {BIG: llm_choice.Speed(BIG, 40, 5, 1.0, 2, 0, "2026-11-30", others_share=0.9, runs=2,
                                    runs_agree=True, fair=False)}
    text = choice_text(llm_choice.choose(speeds), NAME)
    assert text.startswith(f"Runs {NAME}: it is the most correct model")
    assert "provisional: the computer was busy (other programs used 90 % of the CPU)" in text


class FakeMeasuring:
    """Stands in for ``choose_for_machine``: each call runs until released (-> a choice) or cancelled."""

    def __init__(self, outcome=None):
        self.events: list[str] = []
        self.release = threading.Event()
        self.outcome = outcome or Choice(MID, Quality.BALANCED, "fake: measured idle.")
        self.calls = 0

    def __call__(self, open_model, installed, *, cancel, **_kw):
        self.calls += 1
        n = self.calls
        self.events.append(f"measuring {n}")
        while not cancel():
            if self.release.wait(0.01):  # polls the cancel flag; no time budget
                self.events.append(f"measured {n}")
                if isinstance(self.outcome, BaseException):
                    raise self.outcome
                return self.outcome
        self.events.append(f"cancelled {n}")
        raise MeasurementCancelled("stopped")


@pytest.fixture
def measuring(monkeypatch):
    fake = FakeMeasuring()
    monkeypatch.setenv("LANTERN_MEASURE_MODELS", "1")
    monkeypatch.setattr(llm_choice, "choose_for_machine", fake)
    monkeypatch.setattr(llm_choice, "installed_models", lambda: [BIG, MID])
    return fake


def test_measuring_waits_for_the_start_up_work_and_yields_to_an_import_and_a_question(
        qtbot, library, measuring, monkeypatch, tiny_pdf):
    from desktop.main_window import MainWindow
    warm = threading.Event()

    def held_warm_up(_library):
        measuring.events.append("warm-up started")
        warm.wait(HANG_GUARD_S)
        measuring.events.append("warm-up done")
    monkeypatch.setattr(workers, "warm_up", held_warm_up)
    built = []

    def factory(lib, settings):
        built.append(FakeAsker(lib))
        return built[-1]
    class RecordingAsker(FakeAsker):
        def ask(self, *args, **kwargs):
            try:
                yield from super().ask(*args, **kwargs)
            finally:  # on the model thread, as the answer's work ends (the runner closes it after DONE)
                measuring.events.append("answered")
    window = MainWindow(library, asker=RecordingAsker(library), asker_factory=factory)
    qtbot.addWidget(window)
    window.library_check.finished.connect(lambda _r: measuring.events.append("library checked"))
    window.imports.finished.connect(lambda *_: measuring.events.append("imported"))
    try:
        wait_for(qtbot, lambda: "library checked" in measuring.events, "the start-up check")
        wait_for(qtbot, lambda: "warm-up started" in measuring.events, "the warm-up to start")
        assert measuring.calls == 0 and window.chooser.state == "waiting"  # the warm-up still holds the thread
        assert "measured on this computer when it is idle" in window.model_label.toolTip()
        with wait_signal(qtbot, window.chooser.started, "the measurement to start"):
            warm.set()
        window.import_files([tiny_pdf])  # the student drops a book: the measurement stops at once
        wait_imports(qtbot, window)
        wait_for(qtbot, lambda: measuring.calls == 2, "the measurement to start again after the import")
        window.chat.ask("What is kinetic energy?")  # a question stops it too
        wait_for(qtbot, lambda: measuring.calls == 3, "the measurement to start again after the answer")
        with wait_signal(qtbot, window.chooser.chosen, "the choice"):
            measuring.release.set()
        at = {event: i for i, event in enumerate(measuring.events)}
        assert at["library checked"] < at["warm-up done"] < at["measuring 1"]  # the check waited for no warm-up
        assert max(at["cancelled 1"], at["imported"]) < at["measuring 2"], measuring.events
        assert max(at["cancelled 2"], at["answered"]) < at["measuring 3"] < at["measured 3"], measuring.events
        assert built and window.runner.asker is built[-1]  # the chosen model now answers
        assert window.runner.asker.choice is measuring.outcome and window.chooser.state == "done"
    finally:
        warm.set()
        measuring.release.set()
        window.shutdown()


def test_a_provisional_choice_or_a_busy_computer_is_measured_again_later(qtbot, monkeypatch):
    outcomes = [MachineBusy("The computer is busy."),
                Choice(BIG, Quality.BALANCED, "provisional.", provisional=True),
                Choice(MID, Quality.BALANCED, "fair.")]
    calls = []

    def fake(open_model, installed, *, cancel, **_kw):
        calls.append(len(calls))
        outcome = outcomes[len(calls) - 1]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome
    monkeypatch.setattr(llm_choice, "choose_for_machine", fake)
    monkeypatch.setattr(llm_choice, "installed_models", lambda: [BIG, MID])
    chooser = ModelChooser(retry_ms=0)
    seen = []
    chooser.deferred.connect(lambda message: seen.append(("deferred", chooser.state)))
    chooser.chosen.connect(lambda c: seen.append((c.model, chooser.state)))
    chooser.start(Quality.BALANCED, 2, 0)
    wait_for(qtbot, lambda: len(seen) == 3, "three measurements")
    assert seen == [("deferred", "busy"), (BIG, "provisional"), (MID, "done")]
    assert not chooser.running and chooser.last.model == MID
    chooser.poke()  # a fair choice: nothing more to measure
    assert not chooser.running and len(calls) == 3


def test_a_closing_window_stops_the_measurement(qtbot, library, measuring):
    from desktop.main_window import MainWindow
    window = MainWindow(library, asker=FakeAsker(library), asker_factory=lambda lib, s: FakeAsker(lib),
                        warm_up=False)
    qtbot.addWidget(window)
    window.chooser.start(Quality.BALANCED, 2, 0)
    wait_for(qtbot, lambda: measuring.calls == 1, "the measurement to start")
    window.shutdown()
    assert window.chooser.wait(HANG_GUARD_S) and measuring.events == ["measuring 1", "cancelled 1"]


def test_settings_changed_during_a_measurement_are_measured_next(qtbot, monkeypatch):
    qualities, release = [], threading.Event()

    def fake(open_model, installed, *, cancel, quality, **_kw):
        qualities.append(quality)
        release.wait(HANG_GUARD_S)
        return Choice(MID, quality, "fair.")
    monkeypatch.setattr(llm_choice, "choose_for_machine", fake)
    monkeypatch.setattr(llm_choice, "installed_models", lambda: [BIG, MID])
    chooser = ModelChooser(retry_ms=0)
    chosen = []
    chooser.chosen.connect(chosen.append)
    chooser.start(Quality.BALANCED, 2, 0)
    wait_for(qtbot, lambda: qualities == [Quality.BALANCED], "the first measurement")
    chooser.start(Quality.BEST, 2, 0)  # Settings: "Best" while the balanced measurement still runs
    release.set()
    wait_for(qtbot, lambda: chosen, "a choice")
    assert [c.quality for c in chosen] == [Quality.BEST] and qualities == [Quality.BALANCED, Quality.BEST]
