"""Render each Study tab on a book to PNG (offscreen is fine), for docs/study-*.png.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/study_screenshots.py --library /tmp/study-libs/r-intro \\
        --chapter 5 --model qwen2.5-coder-1.5b --out docs

Writes ``study-practice.png`` (a practice item made from the text, with feedback on an answer),
``study-cards.png`` (a card with its back shown), ``quiz-while-writing.png`` (the first quiz item answered
while the model writes the others; ``study-quiz.png`` when the quiz was complete at once), ``quiz-score.png``
(every item answered, some wrongly: the score and the review of the misses) and ``study-guide.png``.  Use a copy of the library: cards are stored.
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication  # noqa: E402

from core.library import Library  # noqa: E402
from desktop.capture import grab, settle, wait_until  # noqa: E402
from desktop.study import StudyPanel  # noqa: E402

log = logging.getLogger("study_screenshots")


def _answer(panel, right: bool) -> None:
    q = panel.questions[panel.q_index]
    if not q.choices:  # a term to type
        panel.typed_answer.setText(q.answer.strip("`") if right else "stack")
        panel.submit_choice()
        return
    pick = q.answer if right else next(c for c in q.choices if c != q.answer)
    panel.choice_buttons[list(q.choices).index(pick)].setChecked(True)
    panel.submit_choice()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--library", required=True, help="a library folder (a copy: cards get stored)")
    ap.add_argument("--chapter", default="5")
    ap.add_argument("--model", default="", help="catalogue key of the chat model for the quiz ('' = none)")
    ap.add_argument("--out", default="docs")
    ap.add_argument("--answer", default="", help="the answer typed into the practice item (default: the book's, "
                    "so the picture shows a checked, correct answer)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    app = QApplication.instance() or QApplication([])
    out = Path(args.out)
    factory = None
    if args.model:
        from core.llm.model import LocalModel
        from core.llm.settings import LLMSettings
        factory = lambda: LocalModel(LLMSettings(model=args.model))  # noqa: E731
    with Library(args.library) as lib:
        panel = StudyPanel(lib, model_factory=factory)
        panel.resize(900, 760)
        panel.show()
        panel.reload()
        wait_until(app, lambda: not panel.jobs.busy())
        panel.chapter.setCurrentIndex(panel.chapter.findData(args.chapter))
        wait_until(app, lambda: not panel.jobs.busy())
        # practice: the first code item made from the text, answered
        rows = [i for i, e in enumerate(panel.shown) if e.answer and " ".join(e.answer.split()) == args.answer]
        rows = rows or [i for i, e in enumerate(panel.shown) if e.kind.value in ("predict_output", "worked_example")]
        panel.exercise_list.setCurrentRow(rows[0] if rows else 0)
        panel.answer.setPlainText(args.answer or (panel.current_exercise().answer or "") if panel.shown else "")
        panel.check_answer()
        wait_until(app, lambda: not panel.jobs.busy() and "Checking" not in panel.feedback.toPlainText())
        panel.tabs.setCurrentIndex(0)
        grab(app, panel, out / "study-practice.png")
        panel.tabs.setCurrentIndex(1)
        panel.reveal_card()
        grab(app, panel, out / "study-cards.png")
        panel.tabs.setCurrentIndex(2)
        panel.make_quiz()
        # no waiting: the first item is answered while the others are still being written
        wait_until(app, lambda: bool(panel.questions) or panel.generate_button.isEnabled(), timeout=900)
        if panel.questions:
            _answer(panel, right=True)
        settle(app, 300)
        grab(app, panel, out / ("quiz-while-writing.png" if not panel.generate_button.isEnabled() else "study-quiz.png"))
        while panel.q_index < len(panel.questions) - 1 or not panel.generate_button.isEnabled():
            if panel.q_index < len(panel.questions) - 1:
                panel.next_question()
                _answer(panel, right=panel.q_index % 2 == 0)  # some wrong: the score reviews the misses
            else:
                settle(app, 500)
        panel.next_question()
        settle(app, 300)
        grab(app, panel, out / "quiz-score.png")
        panel.tabs.setCurrentIndex(3)
        wait_until(app, lambda: bool(panel.guide_view.toPlainText()))
        grab(app, panel, out / "study-guide.png")
        panel.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
