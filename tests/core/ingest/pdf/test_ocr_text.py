"""From OCR output to importer lines: spaces from image gaps, run-together words, sizes, bold, blocks."""
from __future__ import annotations

from collections import Counter

from core.ingest.pdf.ocr_text import (GlueSplitter, OcrLine, gap_spaces, layout_lines, merge_baselines, page_lines,
                                      restore_spaces, type_size)


def _inked(pattern: str) -> list[bool]:
    """'#' is an inked pixel column, '.' a blank one."""
    return [c == "#" for c in pattern]


def test_gap_spaces_puts_a_space_only_where_the_image_has_a_word_gap() -> None:
    #          c   a   t       s   a   t
    columns = "###.###.###.......###.###.###"
    centres = [1, 5, 9, 19, 23, 27]
    assert gap_spaces("catsat", centres, _inked(columns), xheight=8) == "cat sat"
    # one-pixel letter gaps are not spaces, nor is a gap narrower than 0.6 x-heights
    assert gap_spaces("catsat", centres, _inked(columns), xheight=20) == "catsat"


def test_gap_spaces_keeps_spaces_it_was_given_and_punctuation_tight() -> None:
    columns = "###......###......###"
    assert gap_spaces("a b", [1, 6, 11], _inked("###..##..###"), xheight=4) == "a b"
    # no space before a comma or after an opening bracket, however wide the gap
    assert gap_spaces("(a,", [1, 10, 19], _inked(columns), xheight=4) == "(a,"
    assert gap_spaces("a,b", [1, 10, 19], _inked(columns), xheight=4) == "a, b"
    # figures need twice the gap: "25" set loosely stays a number
    assert gap_spaces("25", [1, 10], _inked("###....###"), xheight=6) == "25"
    # a length mismatch (the recogniser's columns do not match the text) leaves the text alone
    assert gap_spaces("abc", [1, 2], _inked(columns), xheight=4) == "abc"


def test_restore_spaces_after_punctuation_but_not_inside_abbreviations_or_numbers() -> None:
    assert restore_spaces("Therefore,we know.In fact") == "Therefore, we know. In fact"
    assert restore_spaces("e.g. U.S.Congress 3.14 std::io x.len()") == "e.g. U.S.Congress 3.14 std::io x.len()"
    assert restore_spaces("Chapter 1o: Emotion, Chapter 1l: Personality") == "Chapter 10: Emotion, Chapter 11: Personality"
    assert restore_spaces("2nd 3D 1st Io lo") == "2nd 3D 1st Io lo"


def _splitter(text: str, **kw) -> GlueSplitter:
    return GlueSplitter(Counter(text.split()), **kw)


BOOK_WORDS = " ".join(["feel", "bodily", "changes", "accompany", "emotional", "objective", "introduction"] * 4
                      + ["photoreceptors"] * 2)


def test_glue_splitter_splits_rare_runs_into_words_the_book_uses() -> None:
    s = _splitter(BOOK_WORDS)
    assert s.split_text("unable tofeelthebodilychanges that accompanyemotional") == \
        "unable to feel the bodily changes that accompany emotional"


def test_glue_splitter_leaves_known_words_names_and_unknown_runs_alone() -> None:
    s = _splitter(BOOK_WORDS)
    assert s.split_word("photoreceptors") == "photoreceptors"  # the book uses it twice
    assert s.split_word("HashMap") == "HashMap"  # CamelCase: a name or code
    assert s.split_word("zzqxfeel") == "zzqxfeel"  # no split into known words exists
    assert s.split_word("thefeel") == "the feel"
    assert _splitter(BOOK_WORDS, min_length=8).split_word("thefeel") == "thefeel"  # shorter than min_length


def test_glue_splitter_rejoins_a_word_a_gap_split_wrongly() -> None:
    s = _splitter(BOOK_WORDS)
    assert s.split_text("an obj ective I ntroduction") == "an objective Introduction"
    assert s.split_text("the feel") == "the feel"  # both halves are words: left as read


def test_type_size_snaps_body_text_and_scales_headings() -> None:
    assert type_size(5.5, 5.3) == 10.0  # within measuring error of the body
    assert type_size(10.6, 5.3) == 20.0
    assert type_size(5.3, 0.0) == type_size(0.0, 5.3) == 10.0  # nothing measured: body text
    # 10 % bigger: plain text stays a little bigger, bold is display type (a heading)
    assert type_size(5.83, 5.3) == 11.0 and type_size(5.83, 5.3, bold=True) == 11.5


def _ocr(text: str, x0: float, y0: float, x1: float, *, h: float = 12, xh: float = 3.3, ink: float = 0.35) -> OcrLine:
    return OcrLine(text, x0, y0, x1, y0 + h, xh, ink)


def test_merge_baselines_joins_boxes_on_one_line_but_not_columns() -> None:
    rows = merge_baselines([_ocr("Key", 72, 100, 95), _ocr("Terms", 100, 101, 140),
                            _ocr("left column", 72, 200, 250), _ocr("right column", 320, 200, 500)])
    assert [[b.text for b in r] for r in rows] == [["Key", "Terms"], ["left column"], ["right column"]]


def test_layout_lines_sets_sizes_bold_and_paragraph_blocks() -> None:
    lines = layout_lines([
        _ocr("2.2 Approaches to Research", 72, 80, 300, h=22, xh=6.2, ink=0.5),
        _ocr("There are many research methods", 72, 110, 500),
        _ocr("available to psychologists.", 72, 124, 300),
        _ocr("A new paragraph after a gap.", 72, 160, 500),
        _ocr("(Smith, 1986).", 72, 174, 150, xh=6.2),  # measured on digits and brackets: not trusted
    ], body_xheight=3.3, body_ink=0.35)
    heading, first, second, third = lines[:4]
    assert heading.size > 15 and heading.bold and heading.spans[0][1] != 0
    assert first.size == second.size == third.size == 10.0 and not first.bold
    assert first.block == second.block != third.block != heading.block
    assert lines[4].size == 10.0


def test_page_lines_uses_the_whole_books_words_and_the_text_layers_body_size() -> None:
    body = [_ocr("feel bodily changes accompany emotional", 72, 100 + 14 * i, 500) for i in range(4)]
    glued = _ocr("tofeelthebodilychanges", 72, 300, 400)
    out = page_lines({0: body, 3: [glued]}, printed_texts=["introduction"], body_size=11.0)
    assert set(out) == {0, 3}
    assert out[3][0].text == "to feel the bodily changes"
    assert out[0][0].size == 11.0
