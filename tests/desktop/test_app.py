"""The main window end to end (offscreen): drop → sidebar, ask → stream, citation → reader page."""
from __future__ import annotations

import dataclasses

import threading
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor

from core.models import AnswerEventKind
from desktop.library_view import NODE_ROLE
from tests.core.test_library import BOOK_MD
from tests.desktop.conftest import drop_files, make_pdf, wait_imports
from tests.waiting import wait_for


def sidebar_rows(window, row: int = 0) -> list[tuple[str, str]]:
    model = window.sidebar.model
    book = model.item(row, 0)
    return [(book.child(i, 0).text(), book.child(i, 1).text()) for i in range(book.rowCount())]


def import_now(window, path: Path):
    """Import synchronously (tests that are about the chat, not the queue) and refresh the window."""
    result = window.library.import_book(path)
    assert result.book is not None, result.error
    window.refresh_library()
    return result.book


def ask_and_wait(qtbot, window, question: str):
    window.chat.question.setText(question)
    window.chat.ask()
    wait_for(qtbot, lambda: not window.chat.is_streaming(), "the answer to finish")
    return window.chat.current.turns[-1]


def click_anchor(qtbot, browser, href: str) -> None:
    """Click the link ``href`` in a QTextBrowser where it is drawn (as a user would)."""
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().anchorHref() == href:
                cursor = QTextCursor(browser.document())
                cursor.setPosition(frag.position() + 1)
                rect = browser.cursorRect(cursor)
                browser.ensureCursorVisible()
                qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.x(), rect.center().y()))
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href!r} in the transcript")


def test_window_lists_markdown_books_and_chapters(window, tmp_path: Path):
    book = tmp_path / "tiny.md"
    book.write_text(BOOK_MD, encoding="utf-8")
    import_now(window, book)
    assert window.sidebar.model.item(0, 0).text() == "Tiny Biology"
    assert [t for t, _ in sidebar_rows(window)] == ["Chapter 1 Cells", "Chapter 2 Energy"]


def test_dropped_pdf_appears_in_sidebar_with_chapters_and_printed_pages(qtbot, window, tiny_pdf: Path):
    assert window.sidebar.stack.currentIndex() == 0  # empty library: the welcome with the sample button
    drop_files(window, [tiny_pdf])
    wait_imports(qtbot, window)
    assert window.sidebar.stack.currentIndex() == 1
    assert sidebar_rows(window) == [("Chapter 1 Cells", "pp. 1–2"), ("Chapter 2 Energy", "pp. 3–4")]
    node = window.sidebar.model.item(0, 0).child(1, 0).data(NODE_ROLE)
    window.open_node(node)
    assert window.reader.current_page == 4  # physical page of printed page 3
    assert window.reader.page_box.text() == "3"


def test_drop_on_a_child_widget_imports_too(qtbot, window, tmp_path: Path):
    targets = [window.chat.question, window.chat.transcript.viewport(), window.reader.placeholder,
               window.sidebar.sample_btn]
    books = [make_pdf(tmp_path / f"book{i}.pdf", pages_per_chapter=i + 1) for i in range(len(targets))]
    for target, book in zip(targets, books):
        assert drop_files(target, [book]), f"drop over {type(target).__name__} was refused"
    wait_imports(qtbot, window)
    assert len(window.library.books()) == len(targets)
    assert window.chat.question.text() == ""  # the text box did not swallow the file's URL


def test_sources_arrive_before_the_streamed_answer(qtbot, window, fake_asker, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    gate = threading.Event()
    fake_asker.gate = gate
    kinds = []
    window.runner.event.connect(lambda rid, ev: kinds.append(ev.kind))
    window.chat.question.setText("What is kinetic energy?")
    window.chat.ask()
    wait_for(qtbot, lambda: len(window.chat.sources.cards) > 0, "len(window.chat.sources.cards) > 0")
    turn = window.chat.current.turns[-1]
    assert turn.answer == "" and "According" not in window.chat.transcript.toPlainText()
    assert window.chat.stop_btn.isEnabled() and window.stop_action.isEnabled()
    gate.set()
    wait_for(qtbot, lambda: not window.chat.is_streaming(), "the answer to finish")
    assert kinds[0] is AnswerEventKind.SOURCES and kinds[-1] is AnswerEventKind.DONE
    assert set(kinds[1:-1]) == {AnswerEventKind.TOKEN} and len(kinds) > 4
    assert turn.state == "done" and "[1]" in turn.answer
    html = window.chat.transcript.toHtml()
    assert "cite:0:1" in html and "According to your book" in window.chat.transcript.toPlainText()
    assert not window.stop_action.isEnabled()


def test_every_answer_runs_on_one_model_thread(qtbot, window, fake_asker, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    ask_and_wait(qtbot, window, "What is a cell?")
    ask_and_wait(qtbot, window, "What is photosynthesis?")
    assert len(set(fake_asker.threads)) == 1
    assert fake_asker.threads[0] != threading.get_ident()
    assert window.runner.pool is not window.imports.pool and window.runner.pool.maxThreadCount() == 1


def test_clicking_a_citation_opens_the_page_with_the_quote_highlighted(qtbot, window, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    turn = ask_and_wait(qtbot, window, "What is kinetic energy?")
    cited = turn.cite(1)
    assert cited is not None and cited.quote
    click_anchor(qtbot, window.chat.transcript, "cite:0:1")
    wait_for(qtbot, lambda: window.reader.current_page == cited.page_start,
             "window.reader.current_page == cited.page_start")
    assert window.reader.highlight_rects, "the quoted passage is highlighted"
    page_text = window.reader.paged.fitz_page(cited.page_start).get_text()
    assert " ".join(cited.quote.split()[:4]).lower() in " ".join(page_text.split()).lower()
    assert window.reader.page_box.text() == window.reader.labels[cited.page_start]


def test_source_card_click_opens_reader(qtbot, window, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    turn = ask_and_wait(qtbot, window, "What do plants do with light?")
    card = window.chat.sources.cards[0]
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert window.reader.current_page == turn.sources[0].page_start


def test_stop_with_escape_cancels_the_answer(qtbot, window, fake_asker, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    fake_asker.pause = threading.Event()  # the answer holds after its first token until Escape was pressed
    window.chat.question.setText("What is a cell?")
    window.chat.ask()
    wait_for(qtbot, lambda: window.chat.current.turns[-1].answer != "", "the first words of the answer")
    window.activateWindow()  # a window shortcut needs the active window (a full run leaves others behind)
    wait_for(qtbot, window.isActiveWindow, "the window to be active")
    assert window.stop_action.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    fake_asker.pause.set()
    wait_for(qtbot, lambda: not window.chat.is_streaming(), "the answer to finish")
    turn = window.chat.current.turns[-1]
    assert turn.state == "stopped" and "Stopped." in window.chat.transcript.toPlainText()


def test_refused_answer_links_to_nearest_sections(qtbot, window, fake_asker, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    fake_asker.refuse = True
    turn = ask_and_wait(qtbot, window, "Who won the 1998 world cup?")
    assert turn.refused and turn.nearest_sections == ["Chapter 2 Energy"]
    click_anchor(qtbot, window.chat.transcript, "section:0:0")
    assert window.reader.current_page == 4


def test_conversations_are_saved_and_reopened(qtbot, window, library, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    ask_and_wait(qtbot, window, "What is a cell?")
    ask_and_wait(qtbot, window, "And the membrane?")
    window.chat.new_conversation()
    ask_and_wait(qtbot, window, "What is photosynthesis?")
    assert (library.root / "conversations.json").exists()
    from desktop.conversations import ConversationStore
    store = ConversationStore(library.root)
    assert [len(c.turns) for c in store.conversations] == [1, 2]
    assert store.conversations[1].turns[0].sources[0].label
    window.chat.open_conversation(store.conversations[1].id)
    assert "And the membrane?" in window.chat.transcript.toPlainText()
    assert window.chat.conv_list.count() == 2


def test_copy_answer_includes_cited_sources(qtbot, window, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    ask_and_wait(qtbot, window, "What is kinetic energy?")
    text = window.chat.copy_answer()
    assert "[1]" in text and "Sources:" in text and "p. " in text


def test_scope_restricts_questions_to_chapters(qtbot, window, fake_asker, tiny_pdf: Path):
    book = import_now(window, tiny_pdf)
    bar = window.chat.scope_bar
    bar.select_book(book.id)
    chapter2 = [a for a in bar.chapters_menu.actions() if a.data() == "2"][0]
    chapter2.trigger()
    turn = ask_and_wait(qtbot, window, "What is a cell?")
    assert all(s.page_start >= 4 for s in turn.sources), "only chapter 2 (pages 4-5) is searched"
    assert "ch. 2" in turn.scope
    bar.pages_box.setChecked(True)
    bar.page_from.setValue(4)
    bar.page_to.setValue(4)
    assert bar.scope().pages == (4, 4) and "pp. 3–3" in bar.describe()


def test_window_geometry_is_remembered(qtbot, library, fake_asker):
    from desktop.main_window import MainWindow
    first = MainWindow(library, asker=fake_asker)
    qtbot.addWidget(first)
    first.show()
    first.resize(780, 560)  # the offscreen screen is 800x600 and restoreGeometry keeps windows on it
    first.splitter.setSizes([200, 300, 280])
    sizes = first.splitter.sizes()
    first.close()
    second = MainWindow(library, asker=fake_asker)
    qtbot.addWidget(second)
    second.show()
    assert (second.width(), second.height()) == (780, 560)
    assert second.splitter.sizes() == sizes
    second.shutdown()


def test_generated_pdf_helper_has_labels(tmp_path: Path):
    import pymupdf
    doc = pymupdf.open(str(make_pdf(tmp_path / "x.pdf")))
    assert [doc[i].get_label() for i in range(3)] == ["i", "1", "2"]
    assert [t[1] for t in doc.get_toc()] == ["Chapter 1 Cells", "Chapter 2 Energy"]


def test_epub_citations_open_rendered_pages(qtbot, window, tmp_path: Path):
    from tests.core.ingest.epub_fixture import sample_chapters, write_epub
    book = import_now(window, write_epub(tmp_path / "tiny.epub", sample_chapters()))
    assert window.sidebar.model.item(0, 0).rowCount() > 0
    hits = window.library.search("atom smallest unit of matter", 1, book_id=book.id)
    from desktop.conversations import CiteRecord
    chunk = hits[0].chunk
    record = CiteRecord(n=1, book_id=book.id, page_start=chunk.page_start, page_end=chunk.page_end,
                        printed_page=chunk.printed_page_start, quote=" ".join(chunk.text.split()[:10]))
    window.open_citation(record)
    assert window.reader.is_paged and window.reader.current_page == chunk.page_start
    assert window.reader.highlight_rects


def test_a_cited_figure_opens_framed_on_its_page(qtbot, window, tmp_path: Path):
    from desktop.conversations import CiteRecord
    from tests.core.ingest.pdf.test_figures import _figure_and_table_pdf
    book = import_now(window, _figure_and_table_pdf(tmp_path / "measure.pdf"))
    hits = window.library.search("red square drawn to scale", 5, book_id=book.id)
    figure = next(h.chunk for h in hits if h.chunk.label == "Figure 2.1")
    source = window.library.chunks([figure.id])[figure.id]
    from core.models import Source
    record = CiteRecord.from_source(Source(n=1, chunk=source, text=source.text, label="Figure 2.1, p. 12"))
    window.open_citation(record)
    frame = window.reader.paged.canvas.frame_rect
    assert window.reader.current_page == 1 and frame is not None
    assert tuple(round(v, 1) for v in frame) == figure.frame  # the square and its caption, outlined
    window.open_citation(dataclasses.replace(record, frame=None))
    assert window.reader.paged.canvas.frame_rect is None  # a prose citation clears it


def test_keyboard_shortcuts(qtbot, window, tiny_pdf: Path):
    import_now(window, tiny_pdf)
    window.activateWindow()
    wait_for(qtbot, window.isActiveWindow, "the window to be active")
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.chat.question.hasFocus()
    window.open_node(window.sidebar.model.item(0, 0).data(NODE_ROLE))
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.reader.find_bar.isVisible() and window.reader.find_bar.edit.hasFocus()
    shortcuts = {a.text().replace("&", ""): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["Import books…"] == "Ctrl+O" and shortcuts["Stop answer"] == "Esc"


def test_removing_a_book_closes_it_and_updates_the_sidebar(qtbot, window, library, tiny_pdf: Path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox
    book = import_now(window, tiny_pdf)
    window.open_node(window.sidebar.model.item(0, 0).data(NODE_ROLE))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.remove_book(book.id)
    wait_for(qtbot, lambda: window.sidebar.model.rowCount() == 0, "the removal to reach the sidebar")
    assert library.books() == [] and window.reader.book is None
    assert window.sidebar.stack.currentIndex() == 0 and window.chat.scope_bar.books.count() == 1


def test_scope_survives_another_import(qtbot, window, tiny_pdf: Path, tmp_path: Path):
    book = import_now(window, tiny_pdf)
    bar = window.chat.scope_bar
    bar.select_book(book.id)
    [a for a in bar.chapters_menu.actions() if a.data() == "2"][0].trigger()
    import_now(window, make_pdf(tmp_path / "second.pdf", pages_per_chapter=3))
    assert bar.scope().book_id == book.id and bar.scope().chapters == ("2",)


def test_a_dropped_book_opens_in_the_empty_reader_and_reopens_next_time(qtbot, library, fake_asker, tiny_pdf: Path):
    from desktop.main_window import MainWindow
    first = MainWindow(library, asker=fake_asker, warm_up=False)
    qtbot.addWidget(first)
    first.show()
    assert first.reader.book is None
    assert drop_files(first, [tiny_pdf])
    wait_imports(qtbot, first)
    wait_for(qtbot, lambda: first.reader.book is not None, "first.reader.book is not None")
    opened = first.reader.book.id
    first.reader.show_page(3)
    first.close()  # saves the window state, the open book and its page
    second = MainWindow(library, asker=fake_asker, warm_up=False)
    qtbot.addWidget(second)
    try:
        assert second.reader.book is not None and second.reader.book.id == opened
        assert second.reader.current_page == 3
    finally:
        second.shutdown()
