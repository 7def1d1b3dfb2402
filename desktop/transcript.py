"""Rendering a conversation: answers as HTML with ``[n]`` markers turned into citation chips, and source cards.

Formulas (LaTeX kept from the book: ``$$ … $$``, ``\\( … \\)``, ``$ … $``) in answers, quotes and
source passages are drawn as images (``math_render``).  Links use private schemes handled by the chat
pane (never navigated):
``cite:<turn>:<n>`` opens the reader at a citation, ``section:<turn>:<i>`` a refused answer's
nearest section.  Colours come from the palette, so light and dark themes both read well.
"""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from core.answer.language import language_name, sentence_labels
from desktop.conversations import CiteRecord, Turn
from desktop.math_render import MathStash, MathStyle, clip, math_html

translate = QCoreApplication.translate  # module functions, not QObjects: lupdate reads translate("Transcript", ...)

MARKER = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` blended towards ``b`` by ``t`` (0 = a, 1 = b)."""
    return QColor(round(a.red() + (b.red() - a.red()) * t), round(a.green() + (b.green() - a.green()) * t),
                  round(a.blue() + (b.blue() - a.blue()) * t))


def muted_color(palette: QPalette) -> str:
    """Secondary text ("From the book:", sentences no source supports): the text colour halfway to the base.
    Not the placeholder role: its colour is the text colour with alpha, and HTML gets no alpha from ``name()``."""
    return mix(palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base), 0.45).name()


def chip_colors(palette: QPalette) -> tuple[str, str]:
    """(background, text) of a citation chip: the highlight colour softened into the base."""
    base = palette.color(QPalette.ColorRole.Base)
    bg = mix(palette.color(QPalette.ColorRole.Highlight), base, 0.72)
    return bg.name(), palette.color(QPalette.ColorRole.Text).name()


def chip(turn_index: int, record: CiteRecord | None, n: int, colors: tuple[str, str], scheme: str = "cite") -> str:
    """One citation chip: ``1 · p. 12`` (a figure's: ``1 · Figure 3.2, p. 57``) linking to ``<scheme>:<turn>:<n>``."""
    bg, fg = colors
    printed = f"p.&nbsp;{html.escape(record.printed_page)}" if record and record.printed_page else ""
    figure = html.escape(record.figure).replace(" ", "&nbsp;") if record and record.figure else ""
    what = ", ".join(x for x in (figure, printed) if x)
    page = f" · {what}" if what else ""
    # The tooltip is the very sentence the chip cites (an evidence sentence), under where it is printed.
    tip = html.escape(f"{record.label}\n\u201c{clip(record.quote, 300)}\u201d" if record and record.quote
                      else record.label if record else
                      translate("Transcript", "Source {n} was not provided").format(n=n))
    return (f'<a href="{scheme}:{turn_index}:{n}" title="{tip}" style="background-color:{bg}; color:{fg};'
            f' text-decoration:none;">&nbsp;{n}{page}&nbsp;</a>')


def math_style(palette: QPalette, color: str | None = None) -> MathStyle:
    """Formulas in the application's font on the primary screen, in ``palette``'s text colour (or ``color``)."""
    screen = QGuiApplication.primaryScreen()
    return MathStyle.for_font(QGuiApplication.font(), color or palette.color(QPalette.ColorRole.Text).name(),
                              screen.devicePixelRatio() if screen else 1.0)


def language_label(code: str) -> str:
    """The name of the answer's language in the interface's language ("Spanish", "español", "espagnol")."""
    names = {"en": translate("Transcript", "English"),
             "es": translate("Transcript", "Spanish"), "fr": translate("Transcript", "French"),
             "de": translate("Transcript", "German"), "pt": translate("Transcript", "Portuguese"),
             "zh": translate("Transcript", "Chinese")}
    return names.get(code, language_name(code))


def answer_html(turn: Turn, turn_index: int, colors: tuple[str, str], muted: str = "#808080",
                style: MathStyle = MathStyle()) -> str:
    """The answer text as HTML: escaped, paragraphs kept, ``**bold**`` honoured, markers as chips, formulas
    drawn, and each sentence no source supports greyed with "(not found in your book)" after it (one about
    the student's own program with ``ABOUT_CODE_LABEL``)."""
    def replace(m: re.Match) -> str:
        ns = [int(x) for x in re.split(r"\s*[,;]\s*", m.group(1))]
        return "".join(chip(turn_index, turn.cite(n), n, colors) for n in ns)

    stash = MathStash()  # formulas out of the way of escaping, "**", "[n]" (as in "\sqrt[3]{x}")
    text = html.escape(stash.hide(turn.answer))
    code = set(turn.about_code)
    not_found, about_code = sentence_labels(turn.language)
    for sentence in dict.fromkeys(turn.unsupported):
        escaped = html.escape(stash.hide(sentence))
        own_code = translate("Transcript", "Your book cannot say what your own program does")
        label, tip = ((about_code, own_code) if sentence in code
                      else (not_found, translate("Transcript", "No source supports this sentence")))
        text = text.replace(escaped, f'<span style="color:{muted}" title="{tip}">'
                                     f'{escaped} <i>({label})</i></span>', 1)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = MARKER.sub(replace, text)
    # A display formula brings its own line breaks: with the blank lines around it there would be three.
    return re.sub(r"(?:<br>){3,}", "<br><br>", stash.reveal("<br>".join(text.split("\n")), style))


def quotes_html(turn: Turn, index: int, muted: str) -> str:
    """For an answer in another language than the book's: a link that translates the quotes its chips show, or,
    once translated, each quote's translation under its number (the chips keep the book's own words)."""
    language = language_label(turn.language)
    cited = turn.cited_quotes()
    if not cited:
        return ""
    if turn.translating_quotes:
        busy = translate("Transcript", "Translating the quotes…")
        return f'<p style="color:{muted}"><i>{html.escape(busy)}</i></p>'
    if not turn.quote_translations:
        link = translate("Transcript", "Show the quotes in {language}").format(language=language)
        return f'<p><a href="quotes:{index}:0">{html.escape(link)}</a></p>'
    head = translate("Transcript", "The quotes in {language} (translated; the book's own words are on the chips):")
    lines = [f"[{s.n}] {html.escape(turn.quote_translations[s.n])}" for s in cited if s.n in turn.quote_translations]
    return (f'<p style="color:{muted}"><i>{html.escape(head.format(language=language))}</i><br>'
            + "<br>".join(lines) + "</p>")


def turn_html(turn: Turn, index: int, palette: QPalette, style: MathStyle | None = None) -> str:
    """A question and its answer (with state notes: declined, stopped, error, extractive)."""
    colors = chip_colors(palette)
    muted = muted_color(palette)
    style = style or math_style(palette)
    you, from_book = translate("Transcript", "You:"), translate("Transcript", "From the book:")
    searching = translate("Transcript", "Searching your books…")
    parts = [f'<p style="margin-top:14px"><b>{you}</b> {html.escape(turn.question)}'
             f' <span style="color:{muted}">· {html.escape(turn.scope)}</span></p>']
    # Once the answer is the book's own words quoting that very sentence, the line would only say it twice.
    repeated = turn.preview is not None and turn.state == "done" and bool(turn.preview.quote) \
        and turn.preview.quote in turn.answer
    if turn.preview is not None and not turn.refused and not repeated:
        p = turn.preview
        parts.append(f'<p style="margin-left:12px"><span style="color:{muted}"><i>{from_book}</i></span> '
                     f'\u201c{math_html(clip(p.quote, 400), style)}\u201d {chip(index, p, p.n, colors, "preview")}</p>')
    body = answer_html(turn, index, colors, muted, style) if turn.answer else (
        f'<span style="color:{muted}">{searching}</span>' if turn.state == "streaming" else "")
    lantern = translate("Transcript", "Lantern:")
    parts.append(f"<p><b>{lantern}</b> {body}</p>")
    if turn.refused and turn.nearest_sections:
        links = " · ".join(f'<a href="section:{index}:{i}">{html.escape(name)}</a>'
                           for i, name in enumerate(turn.nearest_sections))
        nearest = translate("Transcript", "Nearest sections:")
        parts.append(f"<p>{nearest} {links}</p>")
    notes = []
    if turn.state == "stopped":
        notes.append(translate("Transcript", "Stopped."))
    if turn.state == "error":
        failed = translate("Transcript", "The answer failed.")
        notes.append(f"⚠ {html.escape(turn.error or failed)}")
    if turn.notice and turn.state == "done":  # e.g. the model's answer could not be matched to the book
        notes.append(html.escape(turn.notice))
    elif turn.extractive and not turn.refused and turn.state == "done":
        notes.append(translate("Transcript", "Quoted from your book (no chat model is loaded)."))
    if turn.beyond_book:
        notes.append(translate("Transcript", "Includes explanation beyond the book."))
    if turn.original and turn.state == "done":  # the small model's translations slip: the checked answer stays in view
        note = translate("Transcript", "Translated into {language} from the {source} answer checked against your book.")
        source = language_label(turn.original_language)
        notes.append(html.escape(note.format(language=language_label(turn.language), source=source)))
        label = translate("Transcript", "In {language}:").format(language=source)
        parts.append(f'<p style="color:{muted}"><i>{html.escape(label)}</i> {html.escape(turn.original)}</p>')
        parts.append(quotes_html(turn, index, muted))
    if turn.checking and turn.state == "streaming":  # the model reads each sentence's chip: a few seconds
        notes.append(translate("Transcript", "Checking each sentence against your book…"))
    if turn.still_indexing and turn.state != "streaming":
        titles = ", ".join(f"\u201c{html.escape(t)}\u201d" for t in turn.still_indexing)
        note = (translate("Transcript", "Found by keyword search only: {titles} is still being indexed for meaning "
                                        "search.") if len(turn.still_indexing) == 1 else
                translate("Transcript", "Found by keyword search only: {titles} are still being indexed for meaning "
                                        "search."))
        notes.append(note.format(titles=titles))
    if notes:
        parts.append(f'<p style="color:{muted}"><i>{" ".join(notes)}</i></p>')
    return "\n".join(parts)


def conversation_html(turns: list[Turn], palette: QPalette, style: MathStyle | None = None) -> str:
    """The whole conversation; ``style`` draws formulas in the transcript's own font (default: the app's)."""
    if not turns:
        intro = translate("Transcript", "Ask a question about your books. Answers cite the chapter, section and page; "
                                        "click a citation to open the page.")
        return f"<p>{html.escape(intro)}</p>"
    style = style or math_style(palette)
    return "\n".join(turn_html(t, i, palette, style) for i, t in enumerate(turns))


class SourceCard(QFrame):
    """``[n] Book › Chapter › Section, p. 9`` and a snippet; clicking opens the passage."""

    clicked = Signal(object)  # CiteRecord

    def __init__(self, record: CiteRecord, parent: QWidget | None = None):
        super().__init__(parent)
        self.record = record
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Open this passage in the reader")
        head = QLabel(f"<b>[{record.n}]</b> {html.escape(record.label)}")
        head.setWordWrap(True)
        body = QLabel()
        body.setWordWrap(True)
        body.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        body.setTextFormat(Qt.TextFormat.RichText)  # escaped text with formula images
        body.setText(math_html(clip(record.snippet, 237), MathStyle.for_widget(body, muted_color(self.palette()))))
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.setSpacing(2)
        box.addWidget(head)
        box.addWidget(body)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.record)
        super().mouseReleaseEvent(event)


class SourceCards(QScrollArea):
    """The sources of the shown answer, as soon as retrieval returns them."""

    cardClicked = Signal(object)  # CiteRecord

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        self.box = QVBoxLayout(inner)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("<b>" + self.tr("Sources") + "</b>")
        self.box.addWidget(self.title)
        self.box.addStretch(1)
        self.setWidget(inner)
        self.cards: list[SourceCard] = []

    def set_sources(self, records: list[CiteRecord]) -> None:
        for card in self.cards:
            self.box.removeWidget(card)
            card.hide()
            card.deleteLater()
        self.cards = []
        sources, none_yet = self.tr("Sources"), self.tr("Sources — none yet")
        self.title.setText(f"<b>{sources if records else none_yet}</b>")
        for r in records:
            card = SourceCard(r)
            card.clicked.connect(self.cardClicked)
            self.box.insertWidget(self.box.count() - 1, card)
            self.cards.append(card)
