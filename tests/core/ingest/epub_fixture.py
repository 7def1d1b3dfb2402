"""Write tiny but valid EPUB 3 files (with an EPUB 2 toc.ncx too) for importer tests."""
from __future__ import annotations

import zipfile
from html import escape
from pathlib import Path

Chapter = tuple[str, str, list[tuple[str, str]]]  # (h1 title, intro html, [(h2 title, body html)])

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def write_epub(path: Path, chapters: list[Chapter], *, title: str = "Tiny Book", author: str = "Ada Writer",
               nav: bool = True, ncx: bool = True, container: bool = True,
               extra: dict[str, bytes] | None = None) -> Path:
    """Write an EPUB with one XHTML file per chapter; h2 sections get ids the TOC links to."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        # The mimetype entry must come first and be stored uncompressed.
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        if container:
            z.writestr("META-INF/container.xml", CONTAINER)
        items = "".join(f'<item id="c{i}" href="ch{i}.xhtml" media-type="application/xhtml+xml"/>'
                        for i in range(len(chapters)))
        if nav:
            items += '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        if ncx:
            items += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
        spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
        z.writestr("OEBPS/content.opf", f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:test:1</dc:identifier>
<dc:title>{escape(title)}</dc:title><dc:creator>{escape(author)}</dc:creator><dc:language>en</dc:language></metadata>
<manifest>{items}</manifest><spine{' toc="ncx"' if ncx else ''}>{spine}</spine></package>""")
        if nav:
            lis = "".join(
                f'<li><a href="ch{i}.xhtml">{escape(t)}</a><ol>'
                + "".join(f'<li><a href="ch{i}.xhtml#s{j}">{escape(s)}</a></li>' for j, (s, _) in enumerate(secs))
                + "</ol></li>" for i, (t, _, secs) in enumerate(chapters))
            z.writestr("OEBPS/nav.xhtml", '<?xml version="1.0" encoding="UTF-8"?><html '
                       'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
                       f'<head><title>Contents</title></head><body><nav epub:type="toc"><ol>{lis}</ol></nav>'
                       "</body></html>")
        if ncx:
            points, n = "", 0
            for i, (t, _, secs) in enumerate(chapters):
                n += 1
                sub = ""
                for j, (s, _) in enumerate(secs):
                    n += 1
                    sub += (f'<navPoint id="p{n}" playOrder="{n}"><navLabel><text>{escape(s)}</text></navLabel>'
                            f'<content src="ch{i}.xhtml#s{j}"/></navPoint>')
                points += (f'<navPoint id="c{i}" playOrder="{n}"><navLabel><text>{escape(t)}</text></navLabel>'
                           f'<content src="ch{i}.xhtml"/>{sub}</navPoint>')
            z.writestr("OEBPS/toc.ncx", '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" '
                       f'version="2005-1"><head/><docTitle><text>{escape(title)}</text></docTitle>'
                       f"<navMap>{points}</navMap></ncx>")
        for i, (t, intro, secs) in enumerate(chapters):
            body = f"<h1>{escape(t)}</h1>{intro}" + "".join(
                f'<h2 id="s{j}">{escape(s)}</h2>{b}' for j, (s, b) in enumerate(secs))
            z.writestr(f"OEBPS/ch{i}.xhtml", '<?xml version="1.0" encoding="UTF-8"?><html '
                       f'xmlns="http://www.w3.org/1999/xhtml"><head><title>{escape(t)}</title></head>'
                       f"<body>{body}</body></html>")
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


def sample_chapters() -> list[Chapter]:
    """Two chapters with numbered sections, bold/italic terms and a code listing."""
    filler = "<p>" + "Plain words fill the page so that the layout needs more than one page. " * 40 + "</p>"
    return [
        ("Chapter 1: Basics", "<p>An atom is the <b>smallest unit</b> of matter.</p>", [
            ("1.1 First Things", f"<p>Some <i>key idea</i> here.</p>{filler}<p>Closing words of one point one.</p>"),
            ("1.2 Second Things", "<p>Text of section one point two.</p>"),
        ]),
        ("Chapter 2: Next Steps", "<p>Chapter two opens here.</p>", [
            ("2.1 Code", "<pre>def f():\n    return 1</pre><p>After the code.</p>"),
        ]),
    ]
