"""The widgets of the Study tab's four tabs, built onto the ``StudyPanel`` that owns their behaviour.

Each builder creates one tab's widgets as attributes of the panel (``panel.exercise_list``,
``panel.card_front``, ...) and connects them to the panel's slots, so ``desktop.study`` holds only what
the tabs do.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (QButtonGroup, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPlainTextEdit,
                               QProgressBar, QPushButton, QRadioButton, QSpinBox, QTextBrowser, QVBoxLayout, QWidget)

translate = QCoreApplication.translate  # module functions: lupdate reads translate("Study", ...)


def _status() -> QLabel:
    label = QLabel("")
    label.setWordWrap(True)
    label.setStyleSheet("color:#444")
    return label


def _browser() -> QTextBrowser:
    view = QTextBrowser()
    view.setOpenLinks(False)
    return view


def practice_tab(panel) -> QWidget:
    """The Practice tab: the chapter's items, the student's answer, feedback citing the page."""
    w = QWidget()
    panel.practice_status = _status()
    panel.exercise_list = QListWidget()
    panel.exercise_text = _browser()
    panel.answer = QPlainTextEdit()
    panel.answer.setPlaceholderText(translate("Study", "Your answer"))
    panel.answer.setMaximumHeight(70)
    panel.check_button = QPushButton(translate("Study", "Check my answer"))
    panel.like_button = QPushButton(translate("Study", "More like this"))
    panel.next_chapter_button = QPushButton(translate("Study", "Go to the next chapter"))
    panel.next_chapter_button.hide()
    panel.feedback = _browser()
    buttons = QHBoxLayout()
    for b in (panel.check_button, panel.like_button, panel.next_chapter_button):
        buttons.addWidget(b)
    layout = QVBoxLayout(w)
    layout.addWidget(panel.practice_status)
    for widget, stretch in ((panel.exercise_list, 2), (panel.exercise_text, 2), (panel.answer, 0)):
        layout.addWidget(widget, stretch)
    layout.addLayout(buttons)
    layout.addWidget(panel.feedback, 2)
    panel.exercise_list.currentRowChanged.connect(panel._exercise_selected)
    panel.check_button.clicked.connect(panel.check_answer)
    panel.like_button.clicked.connect(panel.show_like)
    panel.next_chapter_button.clicked.connect(panel.next_chapter)
    panel.feedback.anchorClicked.connect(lambda url: panel._open_link(url, panel.feedback_refs))
    return w


def cards_tab(panel) -> QWidget:
    """The Cards tab: the due card's front, its back from the book, ratings, Anki export."""
    w = QWidget()
    panel.cards_info = _status()
    panel.card_front = QLabel("")
    panel.card_front.setWordWrap(True)
    panel.card_front.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    panel.card_front.setStyleSheet("font-size: 14pt; font-weight: 600")
    panel.card_back = QLabel("")
    panel.card_back.setWordWrap(True)
    panel.card_back.setTextFormat(Qt.TextFormat.RichText)
    panel.show_button = QPushButton(translate("Study", "Show answer"))
    panel.page_button = QPushButton(translate("Study", "Open its page"))
    panel.page_button.setEnabled(False)
    panel.review_all_button = QPushButton(translate("Study", "Review all of this chapter's cards"))
    panel.review_all_button.hide()
    rates_text = {"again": translate("Study", "Again"), "hard": translate("Study", "Hard"),
                  "good": translate("Study", "Good"), "easy": translate("Study", "Easy")}
    panel.rate_buttons = {name: QPushButton(text) for name, text in rates_text.items()}
    panel.export_button = QPushButton(translate("Study", "Export to Anki…"))
    rates = QHBoxLayout()
    for b in panel.rate_buttons.values():
        rates.addWidget(b)
        b.setEnabled(False)
    row = QHBoxLayout()
    for b in (panel.show_button, panel.page_button, panel.review_all_button):
        row.addWidget(b)
    layout = QVBoxLayout(w)
    layout.addWidget(panel.cards_info)
    layout.addWidget(panel.card_front, 1)
    layout.addLayout(row)
    layout.addWidget(panel.card_back, 1)
    layout.addLayout(rates)
    layout.addWidget(panel.export_button)
    panel.show_button.clicked.connect(panel.reveal_card)
    panel.page_button.clicked.connect(panel.open_card_page)
    panel.review_all_button.clicked.connect(lambda: panel.load_cards(all_cards=True))
    for name, b in panel.rate_buttons.items():
        b.clicked.connect(lambda _=False, n=name: panel.rate_card(n))
    panel.export_button.clicked.connect(panel._choose_export)
    return w


def quiz_tab(panel) -> QWidget:
    """The Quiz tab: how many questions, generation with progress and cancel, one question at a time."""
    w = QWidget()
    panel.quiz_count = QSpinBox()
    panel.quiz_count.setRange(1, 30)
    panel.quiz_count.setValue(5)
    panel.generate_button = QPushButton(translate("Study", "Make a quiz"))
    panel.cancel_button = QPushButton(translate("Study", "Cancel"))
    panel.cancel_button.setEnabled(False)
    panel.saved_button = QPushButton(translate("Study", "Take the saved quiz"))
    panel.saved_button.setToolTip(
        translate("Study", "The quiz last made for this chapter, here or by a teacher (a course pack)"))
    panel.saved_button.hide()
    panel.quiz_status = _status()
    panel.quiz_progress = QProgressBar()
    panel.quiz_progress.hide()
    panel.question = QLabel(
        translate("Study", "Make a quiz on this chapter: every answer is checked against the book."))
    panel.question.setWordWrap(True)
    panel.question.setTextFormat(Qt.TextFormat.RichText)
    panel.choice_group = QButtonGroup(panel)
    panel.choice_buttons = [QRadioButton("") for _ in range(4)]
    panel.typed_answer = QLineEdit()  # a term to type: an item with no options to offer
    panel.typed_answer.setPlaceholderText(translate("Study", "Type the missing term, then press Enter"))
    panel.typed_answer.hide()
    panel.submit_button = QPushButton(translate("Study", "Check"))
    panel.next_button = QPushButton(translate("Study", "Next question"))
    panel.quiz_result = QLabel("")
    panel.quiz_result.setWordWrap(True)
    panel.quiz_result.setTextFormat(Qt.TextFormat.RichText)
    panel.quiz_result.linkActivated.connect(lambda _link: panel._open_ref(panel._current_question_ref()))
    row = QHBoxLayout()
    row.addWidget(QLabel(translate("Study", "Questions")))
    row.addWidget(panel.quiz_count)
    row.addWidget(panel.generate_button)
    row.addWidget(panel.cancel_button)
    row.addWidget(panel.saved_button)
    layout = QVBoxLayout(w)
    layout.addLayout(row)
    layout.addWidget(panel.quiz_status)
    layout.addWidget(panel.quiz_progress)
    layout.addWidget(panel.question)
    for i, b in enumerate(panel.choice_buttons):
        panel.choice_group.addButton(b, i)
        layout.addWidget(b)
        b.hide()
    layout.addWidget(panel.typed_answer)
    panel.typed_answer.returnPressed.connect(panel.submit_choice)
    nav = QHBoxLayout()
    nav.addWidget(panel.submit_button)
    nav.addWidget(panel.next_button)
    layout.addLayout(nav)
    layout.addWidget(panel.quiz_result, 1)
    panel.generate_button.clicked.connect(panel.make_quiz)
    panel.cancel_button.clicked.connect(panel.cancel_event.set)
    panel.saved_button.clicked.connect(panel.take_saved_quiz)
    panel.submit_button.clicked.connect(panel.submit_choice)
    panel.next_button.clicked.connect(panel.next_question)
    return w


def guide_tab(panel) -> QWidget:
    """The Guide tab: the chapter's guide with its page links and 'try this' links."""
    w = QWidget()
    panel.guide_status = _status()
    panel.guide_view = _browser()
    panel.guide_view.anchorClicked.connect(lambda url: panel._open_link(url, panel.guide_refs))
    layout = QVBoxLayout(w)
    layout.addWidget(panel.guide_status)
    layout.addWidget(panel.guide_view)
    return w
