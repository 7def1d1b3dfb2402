"""Render Lantern's main views to PNG (offscreen is fine): ``python -m desktop.screenshots [--out docs]``.

Uses a throw-away library and settings folder, the bundled sample book and the built-in
search-only answers, so the pictures show exactly what a first run shows.  Views:

* ``welcome.png``       the empty library with "Try the sample book"
* ``library.png``       the sample book's chapter tree with printed page ranges
* ``answer.png``        a streamed answer with citation chips and source cards
* ``reader.png``        the reader at a cited page with the passage highlighted
* ``import-queue.png``  the import queue: done, failed (readable error), in progress, waiting
* ``settings.png``      Settings: answer quality, the model that runs and why

``--indexing PDF`` instead renders ``ask-while-indexing.png``: PDF dropped into an empty library and a
question asked (``--question``) the moment it is searchable, answered while its meaning index fills in.
``--scanned PDF`` renders ``scanned-import.png`` (the queue while OCR reads a picture-only copy of PDF)
and ``scanned-reader.png`` (the answer, its cited passage highlighted on the scanned page).
``--equations`` renders ``equation-chat.png``: a small EPUB with MathML equations imported and a question
about one of them answered, the formulas drawn in the answer, the quote and the sources.
``--evidence BOOK`` renders ``evidence-answer.png``: BOOK imported and ``--question`` answered from its evidence
sentences, each answer sentence's chip and evidence card showing the very sentence it rests on, and
``evidence-reader.png``: the second cited sentence highlighted on its page.  ``--pack PACK``: a course pack
opened (``desktop.pack_screenshots``).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from desktop.capture import ask, fresh_window, grab, import_books, log, open_citation, settle, wait_until


QUESTION = "What is kinetic energy?"
EQUATION_QUESTION = "How do I calculate the kinetic energy of a moving object?"
_MATHML = 'xmlns="http://www.w3.org/1998/Math/MathML"'
# A short physics and chemistry text whose formulas are MathML, as EPUB textbooks write them.
EQUATION_CHAPTER = f"""<h1>Chapter 4: Energy and Gases</h1>
<h2>4.1 Kinetic Energy</h2>
<p>An object of mass <math {_MATHML}><mi>m</mi></math> moving at speed <math {_MATHML}><mi>v</mi></math> has
kinetic energy <math {_MATHML}><msub><mi>E</mi><mi>k</mi></msub><mo>=</mo><mfrac><mn>1</mn><mn>2</mn></mfrac>
<mi>m</mi><msup><mi>v</mi><mn>2</mn></msup></math>, measured in joules.</p>
<p>Doubling the speed multiplies the kinetic energy by four, because the speed is squared.</p>
<math {_MATHML} display="block"><msub><mi>E</mi><mi>k</mi></msub><mo>=</mo><mfrac><mrow><mi>m</mi>
<msup><mi>v</mi><mn>2</mn></msup></mrow><mn>2</mn></mfrac><mo>=</mo><mfrac><msup><mi>p</mi><mn>2</mn></msup>
<mrow><mn>2</mn><mi>m</mi></mrow></mfrac></math>
<h2>4.2 The Ideal Gas Law</h2>
<p>For an ideal gas, pressure, volume and temperature are linked by the ideal gas law
<math {_MATHML}><mi>P</mi><mi>V</mi><mo>=</mo><mi>n</mi><mi>R</mi><mi>T</mi></math>, where
<math {_MATHML}><mi>R</mi><mo>&#x2248;</mo><mn>8.314</mn><mtext>&#xA0;J/(mol&#xB7;K)</mtext></math> is the gas
constant and the temperature <math {_MATHML}><mi>T</mi></math> is in kelvin.</p>
<h2>4.3 Equilibrium</h2>
<p>Ammonia is made from nitrogen and hydrogen in a reversible reaction,
<math {_MATHML}><msub><mi mathvariant="normal">N</mi><mn>2</mn></msub><mo>+</mo><mn>3</mn><msub>
<mi mathvariant="normal">H</mi><mn>2</mn></msub><mo>&#x21CC;</mo><mn>2</mn><mi mathvariant="normal">N</mi>
<msub><mi mathvariant="normal">H</mi><mn>3</mn></msub></math>, which releases
<math {_MATHML}><mi>&#x394;</mi><mi>H</mi><mo>=</mo><mo>&#x2212;</mo><mn>92</mn><mtext>&#xA0;kJ/mol</mtext></math>
of heat.</p>"""


def demo_book(path: Path, pages: int = 300) -> Path:
    """A long generated PDF so the import queue has something to show progress on."""
    import pymupdf
    doc = pymupdf.open()
    text = "\n".join(["Heat flows from a hot body to a cold one until both reach the same temperature."] * 30)
    toc = []
    for i in range(pages):
        page = doc.new_page()
        if i % 30 == 0:
            page.insert_text((72, 80), f"Chapter {i // 30 + 1} Thermal Physics", fontsize=18)
            toc.append([1, f"Chapter {i // 30 + 1} Thermal Physics", i + 1])
        page.insert_text((72, 130), text, fontsize=10, lineheight=1.5)
    doc.set_toc(toc)
    doc.set_metadata({"title": "Thermal Physics (long demo)"})
    doc.save(str(path))
    return path


def make_screenshots(out: Path, *, embedder=None, size: tuple[int, int] = (1420, 860),
                     long_book_pages: int = 300, asker_factory=None) -> list[Path]:
    """Write the PNGs into ``out`` and return their paths (tests pass a fake ``embedder``, a shorter book).

    ``asker_factory(library)`` builds the answer engine (default: the model-free ``SearchOnlyAsker``).
    """
    from core.paths import sample_books

    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, embedder=embedder, asker_factory=asker_factory) as (app, window, root):
        if asker_factory is not None:
            window.runner.prewarm()  # the model loads while the sample book imports
        shots = [grab(app, window, out / "welcome.png")]
        shots += _library_and_answer(app, window, out, sample_books()[0])
        shots.append(_settings(app, window, out))
        shots.append(_import_queue(app, window, out, root, long_book_pages))
    return shots


def _library_and_answer(app: QApplication, window, out: Path, sample: Path) -> list[Path]:
    from desktop.library_view import NODE_ROLE
    import_books(app, window, [sample])
    book = window.sidebar.model.item(0, 0)
    for row in range(book.rowCount()):
        window.sidebar.tree.expand(book.child(row, 0).index())
    chapter = next(book.child(r, 0) for r in range(book.rowCount()) if book.child(r, 0).text().startswith("Chapter 3"))
    window.sidebar.tree.setCurrentIndex(chapter.index())
    window.open_node(chapter.data(NODE_ROLE))
    shots = [grab(app, window, out / "library.png")]
    ask(app, window, QUESTION)
    shots.append(grab(app, window, out / "answer.png"))
    open_citation(window)
    shots.append(grab(app, window, out / "reader.png"))
    return shots


def _settings(app: QApplication, window, out: Path) -> Path:
    """The Settings dialog as the window opens it (answer quality, the model that runs and why)."""
    from desktop.model_choice import choice_text
    from desktop.settings import SettingsDialog
    asker = window.runner.asker
    note = choice_text(getattr(asker, "choice", None), getattr(asker, "model_name", "") or "no model")
    dialog = SettingsDialog(window.settings, window, model_note=note)
    dialog.resize(760, 420)
    dialog.show()
    path = grab(app, dialog, out / "settings.png")
    dialog.close()
    return path


def _import_queue(app: QApplication, window, out: Path, root: Path, pages: int) -> Path:
    """Queue: the sample as Markdown (done), a damaged PDF (error), a long book (in progress), a duplicate."""
    from core.paths import resources_dir
    broken = root / "chapter-scan (damaged).pdf"
    broken.write_bytes(b"%PDF-1.4\n" + os.urandom(4096))
    long_book = demo_book(root / "thermal-physics.pdf", pages)
    markdown = resources_dir() / "sample" / "energy-and-motion.md"
    window.splitter.widget(0).setSizes([330, 530])
    target = {}

    def midway(job: int, stage: str, done: int, total: int) -> None:
        if job == target.get("job") and stage == "embedding" and total and 0.3 <= done / total <= 0.8 \
                and "shot" not in target:
            target["shot"] = window.grab()
    window.imports.progressed.connect(midway)
    jobs = window.import_files([markdown, broken, long_book, markdown])
    target["job"] = jobs[2]
    wait_until(app, lambda: "shot" in target or window.imports.pending() == 0)
    path = out / "import-queue.png"
    if "shot" not in target:  # the long book finished before a progress report reached 40%
        target["shot"] = window.grab()
    target["shot"].save(str(path))
    log.info("wrote %s", path)
    window.imports.cancel_all()
    wait_until(app, lambda: window.imports.pending() == 0)
    return path


def ask_while_indexing(out: Path, pdf: Path, question: str, *, asker_factory=None,
                       size: tuple[int, int] = (1420, 860)) -> Path:
    """Drop ``pdf`` into an empty library, ask ``question`` as soon as it is searchable, and grab the window
    when the answer is done (the book still being indexed)."""
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, _root):
        asked: list[bool] = []

        def ask(_job: int, _book) -> None:
            window.chat.question.setText(question)
            window.chat.ask()
            asked.append(True)
        window.imports.searchable.connect(ask)
        window.import_files([pdf])
        wait_until(app, lambda: bool(asked) and not window.chat.is_streaming(), timeout=600)
        settle(app, 500)
        return grab(app, window, out / "ask-while-indexing.png")


def scanned_book(out: Path, pdf: Path, question: str, *, asker_factory=None,
                 size: tuple[int, int] = (1420, 860)) -> list[Path]:
    """Import a scan of ``pdf`` (page pictures only, 150 dpi): ``scanned-import.png`` while OCR reads it,
    then ``scanned-reader.png``, the answer to ``question`` with its cited passage highlighted on the scan."""
    from core.ingest.pdf.ocr import picture_copy
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, root):
        scan = picture_copy(pdf, root / f"{pdf.stem} (scanned).pdf")
        shots: dict[str, object] = {}

        def midway(_job: int, stage: str, done: int, total: int) -> None:
            if stage == "reading scanned pages" and total and done >= total // 3 and "queue" not in shots:
                shots["queue"] = window.grab()
        window.imports.progressed.connect(midway)
        import_books(app, window, [scan], timeout=1800)
        paths = []
        if "queue" in shots:  # grabbed while OCR read the scan
            paths.append(out / "scanned-import.png")
            shots["queue"].save(str(paths[-1]))
        ask(app, window, question, timeout=600)
        open_citation(window)
        paths.append(grab(app, window, out / "scanned-reader.png"))
        return paths


def figure_reader(out: Path, pdf: Path, question: str, *, asker_factory=None,
                  size: tuple[int, int] = (1420, 860)) -> Path:
    """Import ``pdf``, ask ``question`` and open the first cited figure or table: ``figure-reader.png`` shows
    the citation "… › Figure 15.1, p. 332" and the reader with the figure outlined."""
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, _root):
        import_books(app, window, [pdf], timeout=900)
        ask(app, window, question, timeout=600)
        turn = window.chat.current.turns[-1]
        framed = next((s for s in turn.sources if s.frame is not None), None)
        if framed is None:
            open_citation(window)
        else:
            window.open_citation(framed)
        settle(app, 300)
        return grab(app, window, out / "figure-reader.png")


def evidence_answer(out: Path, book: Path, question: str, *, asker_factory=None,
                    size: tuple[int, int] = (1420, 860)) -> list[Path]:
    """Import ``book``, ask ``question`` and grab the answer (chips and evidence cards), then open the second
    citation (else the first) in the reader with its sentence highlighted.  An answer translated from the book's
    language also gets ``evidence-quotes.png``: its quotes translated on request."""
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, _root):
        import_books(app, window, [book], timeout=1800)
        ask(app, window, question, timeout=600)
        paths = [grab(app, window, out / "evidence-answer.png")]
        turn = window.chat.current.turns[-1]
        if turn.original:
            window.chat.translate_quotes(turn)
            wait_until(app, lambda: not turn.translating_quotes, 600)
            settle(app, 300)
            paths.append(grab(app, window, out / "evidence-quotes.png"))
        open_citation(window, nth=1)
        settle(app, 300)
        paths.append(grab(app, window, out / "evidence-reader.png"))
        return paths


def equation_book(path: Path, chapter: str = EQUATION_CHAPTER) -> Path:
    """A one-chapter EPUB 3 (nav document included) whose body is ``chapter``."""
    import zipfile
    opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
           'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">'
           "urn:lantern:equations</dc:identifier><dc:title>Energy and Gases</dc:title><dc:creator>Lantern</dc:creator>"
           '<dc:language>en</dc:language></metadata><manifest><item id="c" href="ch.xhtml" '
           'media-type="application/xhtml+xml" properties="mathml"/><item id="nav" href="nav.xhtml" '
           'media-type="application/xhtml+xml" properties="nav"/></manifest><spine><itemref idref="c"/></spine>'
           "</package>")
    xhtml = ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>'
             "Energy and Gases</title></head><body>{}</body></html>")
    nav = ('<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc"><ol><li><a href="ch.xhtml">'
           "Chapter 4: Energy and Gases</a></li></ol></nav>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:'
                   'names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
                   'media-type="application/oebps-package+xml"/></rootfiles></container>')
        z.writestr("OEBPS/content.opf", opf)
        z.writestr("OEBPS/nav.xhtml", xhtml.format(nav))
        z.writestr("OEBPS/ch.xhtml", xhtml.format(chapter))
    return path


def equation_chat(out: Path, question: str = EQUATION_QUESTION, *, asker_factory=None,
                  size: tuple[int, int] = (1420, 860)) -> Path:
    """Import ``equation_book`` and ask ``question``: ``equation-chat.png`` shows the formulas drawn in the
    answer, the "From the book" quote and the source cards."""
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, root):
        import_books(app, window, [equation_book(root / "energy-and-gases.epub")], timeout=600)
        ask(app, window, question, timeout=600)
        return grab(app, window, out / "equation-chat.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m desktop.screenshots", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs"), metavar="DIR")
    parser.add_argument("--search-only", action="store_true", help="answer without the chat model")
    parser.add_argument("--indexing", metavar="PDF", help="only ask-while-indexing.png, with this book")
    parser.add_argument("--scanned", metavar="PDF", help="only scanned-import.png and scanned-reader.png: a "
                        "picture-only copy of this PDF read by OCR")
    parser.add_argument("--equations", action="store_true", help="only equation-chat.png: an EPUB with MathML "
                        "equations imported and a question about one answered")
    parser.add_argument("--figure", metavar="PDF", help="only figure-reader.png: this PDF imported, --question "
                        "asked and the first cited figure or table opened, outlined")
    parser.add_argument("--evidence", metavar="BOOK", help="only evidence-answer.png and evidence-reader.png: "
                        "BOOK imported and --question answered from its evidence sentences")
    parser.add_argument("--pack", metavar="PACK", help="only pack-opening.png, pack-opened.png and pack-export.png: "
                        "a course pack dropped on an empty window, --question asked, the export dialog")
    parser.add_argument("--question", default=None,
                        help="the question asked with --indexing/--scanned/--equations/--figure/--evidence/--pack")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    factory = None
    if not args.search_only:
        from desktop.app import build_asker
        from desktop.settings import AppSettings
        factory = lambda library: build_asker(library, AppSettings())  # noqa: E731 - the bundled default model
    if args.equations:
        path = equation_chat(Path(args.out), args.question or EQUATION_QUESTION, asker_factory=factory)
        sys.stdout.write(f"{path}\n")
        return 0
    args.question = args.question or QUESTION
    if args.scanned:
        for path in scanned_book(Path(args.out), Path(args.scanned), args.question, asker_factory=factory):
            sys.stdout.write(f"{path}\n")
        return 0
    if args.pack:
        from desktop.pack_screenshots import course_pack
        for path in course_pack(Path(args.out), Path(args.pack), args.question, asker_factory=factory):
            sys.stdout.write(f"{path}\n")
        return 0
    if args.evidence:
        for path in evidence_answer(Path(args.out), Path(args.evidence), args.question, asker_factory=factory):
            sys.stdout.write(f"{path}\n")
        return 0
    if args.figure:
        path = figure_reader(Path(args.out), Path(args.figure), args.question, asker_factory=factory)
        sys.stdout.write(f"{path}\n")
        return 0
    if args.indexing:
        path = ask_while_indexing(Path(args.out), Path(args.indexing), args.question, asker_factory=factory)
        sys.stdout.write(f"{path}\n")
        return 0
    for path in make_screenshots(Path(args.out), asker_factory=factory):
        sys.stdout.write(f"{path}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
