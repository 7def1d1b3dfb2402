"""HTML importer: headings, typed blocks, boilerplate removal, charsets and titles."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import EmptyDocumentError, ImportCancelled
from core.ingest.read import read_book
from core.ingest.flow import BlockEvent, HeadingEvent
from core.ingest.html.parser import BookHTMLParser
from core.ingest.html.reader import decode_html
from core.models import BlockKind, SectionKind, SourceFormat

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Chemistry Notes</title>
<meta name="author" content="Ada Writer"><meta name="description" content="Short notes">
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body>
<header><h1>Site Name</h1><nav><ul><li><a href="/">Home</a></li></ul></nav></header>
<main>
<h1>Chapter 1: Matter</h1>
<p>Matter is <dfn>anything that occupies space</dfn> and has <b>mass</b>.<p>Unclosed paragraph
spans lines.
<h2>1.1 Atoms</h2>
<div>An <strong>atom</strong> is small. <span>Inline</span> text &amp; entities.</div>
<ul><li>proton <em>charge</em></li><li>neutron<ol><li>quarks</li></ol></li></ul>
<dl><dt>Isotope</dt><dd>same element, different mass</dd></dl>
<pre><code>mass = 12.0  # &lt;b&gt; stays literal
print(mass)</code></pre>
<table><tr><th>Element</th><th>Symbol</th></tr><tr><td>Oxygen</td><td><b>O</b></td></tr></table>
<math display="block"><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>
<annotation encoding="application/x-tex">E = mc^2</annotation></math>
<p>Inline <math><mi>x</mi></math> stays in the sentence.
<span class="katex-display"><span class="katex"><span class="katex-mathml"><math><mi>y</mi>
<annotation encoding="application/x-tex">y = 2x</annotation></math></span>
<span class="katex-html" aria-hidden="true">y=2x</span></span></span></p>
<aside>Advertisement</aside>
<h1>Chapter 2: Reactions</h1>
<article><header><h2>2.1 Rates</h2></header><p>Rates text.</p></article>
<div hidden>hidden text</div><div style="display: none">invisible</div>
</main>
<footer>Copyright site</footer>
</body></html>
"""


@pytest.fixture
def book(tmp_path: Path):
    path = tmp_path / "notes.html"
    path.write_text(PAGE, encoding="utf-8")
    return read_book(path)


def test_structure(book) -> None:
    assert book.source_format is SourceFormat.HTML and book.paginated is False
    assert book.title == "Chemistry Notes"
    assert book.authors == ("Ada Writer",)
    assert ("description", "Short notes") in book.metadata
    heads = [(s.kind, s.number, s.title, s.level) for s in book.sections]
    assert heads == [
        (SectionKind.CHAPTER, "1", "Matter", 1),
        (SectionKind.SECTION, "1.1", "Atoms", 2),
        (SectionKind.CHAPTER, "2", "Reactions", 1),
        (SectionKind.SECTION, "2.1", "Rates", 2),
    ]


def test_boilerplate_is_dropped(book) -> None:
    text = "\n".join(b.text for b in book.blocks)
    for junk in ("Site Name", "Home", "not text", "Advertisement", "Copyright", "hidden text", "invisible",
                 "color: red"):
        assert junk not in text, junk


def test_block_kinds_and_emphasis(book) -> None:
    by_kind: dict[BlockKind, list[str]] = {}
    for b in book.blocks:
        by_kind.setdefault(b.kind, []).append(b.text)
    assert by_kind[BlockKind.CODE] == ["mass = 12.0  # <b> stays literal\nprint(mass)"]
    assert by_kind[BlockKind.TABLE] == ["| Element | Symbol |\n| Oxygen | O |"]
    assert by_kind[BlockKind.EQUATION] == ["$$ E = mc^2 $$", "$$ y = 2x $$"]
    assert by_kind[BlockKind.LIST] == ["- proton charge\n- neutron\n  1. quarks",
                                      "- Isotope: same element, different mass"]
    first = book.blocks[0]
    assert first.text == "Matter is anything that occupies space and has mass."
    assert first.emphasis == ("anything that occupies space", "mass")
    assert book.blocks[1].text == "Unclosed paragraph spans lines."
    atom = next(b for b in book.blocks if b.text.startswith("An atom"))
    assert atom.text == "An atom is small. Inline text & entities." and atom.emphasis == ("atom",)
    inline = next(b for b in book.blocks if b.text.startswith("Inline"))
    assert inline.text == "Inline \\( x \\) stays in the sentence."
    lists = [b for b in book.blocks if b.kind is BlockKind.LIST]
    assert lists[0].emphasis == ("charge",) and lists[1].emphasis == ("Isotope",)


def test_single_h1_is_the_title_and_h2_the_top(tmp_path: Path) -> None:
    path = tmp_path / "page.htm"
    path.write_text("<html><body><h1>Learning Rust</h1><p>Intro.</p><h2>Ownership</h2><p>Text.</p>"
                    "<h3>Borrowing</h3><p>More.</p><h2>Traits</h2><p>Text.</p></body></html>")
    book = read_book(path)
    assert book.title == "Learning Rust"
    assert [(s.level, s.title) for s in book.sections] == [(1, "Ownership"), (2, "Borrowing"), (1, "Traits")]
    assert book.blocks[0].section is None


def test_charset_from_meta_and_replacement(tmp_path: Path) -> None:
    latin = tmp_path / "latin.html"
    latin.write_bytes('<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
                      '</head><body><p>Caf\u00e9 \u201cquoted\u201d</p></body></html>'.encode("cp1252"))
    assert read_book(latin).blocks[0].text == "Caf\u00e9 \u201cquoted\u201d"
    broken = tmp_path / "broken.html"
    broken.write_bytes(b"<html><body><p>ok \xff\xfe bytes</p></body></html>")
    assert read_book(broken).blocks[0].text.startswith("ok \ufffd")
    assert decode_html(b'<meta charset="no-such-codec"><p>x') == '<meta charset="no-such-codec"><p>x'


def test_layout_table_is_not_a_data_table() -> None:
    parser = BookHTMLParser()
    parser.feed("<table><tr><td>menu</td><td><h2>2.1 Real Heading</h2><p>Body text.</p></td></tr></table>")
    parser.close()
    assert parser.events == [
        BlockEvent(BlockKind.TEXT, "menu"),
        HeadingEvent(2, "2.1 Real Heading"),
        BlockEvent(BlockKind.TEXT, "Body text."),
    ]


def test_title_falls_back_to_first_h1(tmp_path: Path) -> None:
    path = tmp_path / "x.html"
    path.write_text("<html><body><h1>Chapter 1: One</h1><p>a</p><h1>Chapter 2: Two</h1><p>b</p></body></html>")
    book = read_book(path)
    assert book.title == "Chapter 1: One"
    assert len(book.sections) == 2


def test_empty_html(tmp_path: Path) -> None:
    path = tmp_path / "empty.html"
    path.write_text("<html><head><title>Nothing</title><script>x()</script></head><body><nav>menu</nav></body></html>")
    with pytest.raises(EmptyDocumentError):
        read_book(path)


def test_cancel(tmp_path: Path) -> None:
    path = tmp_path / "c.html"
    path.write_text(PAGE)
    with pytest.raises(ImportCancelled):
        read_book(path, cancel=lambda: True)


def test_boilerplate_is_dropped_without_main_too(tmp_path: Path) -> None:
    path = tmp_path / "nomain.html"
    path.write_text(PAGE.replace("<main>", "").replace("</main>", ""))
    book = read_book(path)
    text = "\n".join(b.text for b in book.blocks)
    assert "Site Name" not in text and "Home" not in text and "Copyright" not in text
    assert [s.number for s in book.sections] == ["1", "1.1", "2", "2.1"]  # the article's <header> stays


def test_chrome_outside_main_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "mdbook.html"
    path.write_text("<html><head><title>Ownership - The Book</title></head><body>"
                    '<div id="help"><h2>Keyboard shortcuts</h2><p>Press ? for help</p></div>'
                    '<div class="menu-bar"><h1 class="menu-title">The Book</h1></div>'
                    "<main><h1>Ownership</h1><p>Rules.</p><h2>Scope</h2><p>Text.</p></main>"
                    '<div class="nav-wrapper"><a href="next.html">Next</a></div></body></html>')
    book = read_book(path)
    assert book.title == "Ownership - The Book"
    assert [s.title for s in book.sections] == ["Scope"]
    assert [b.text for b in book.blocks] == ["Rules.", "Text."]


def test_hidden_paragraph_without_end_tag_does_not_swallow_the_page() -> None:
    parser = BookHTMLParser()
    parser.feed('<div hidden>gone</div><p style="display:none">kept, p has no end tag<p>next paragraph')
    parser.close()
    assert [e.text for e in parser.events] == ["kept, p has no end tag", "next paragraph"]
