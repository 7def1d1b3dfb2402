"""Search through the Library facade: both indexes kept in step with imports and removals."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.library import Library
from core.models import SearchMode
from tests.core.test_library import BOOK_MD
from tests.fakes import HashingEmbedder

OTHER_MD = """# Chapter 1: Rivers

## 1.1 Erosion

Rivers carve valleys by erosion over thousands of years; sediment moves downstream.
"""


@pytest.fixture
def lib(tmp_path: Path):
    a = tmp_path / "bio.md"
    a.write_text(BOOK_MD, encoding="utf-8")
    b = tmp_path / "geo.md"
    b.write_text(OTHER_MD, encoding="utf-8")
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as library:
        library.bio = library.import_book(a).book
        library.geo = library.import_book(b).book
        yield library


def test_every_chunk_is_indexed_in_fts_and_faiss(lib: Library):
    n = lib.chunk_count()
    assert n >= 4
    assert lib.db.execute("SELECT COUNT(*) FROM chunks_fts").fetchone()[0] == n
    assert lib.vector_index().ntotal == n
    assert lib.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == n


@pytest.mark.parametrize("mode", list(SearchMode))
def test_each_mode_finds_the_right_section(lib: Library, mode: SearchMode):
    hits = lib.search("photosynthesis light energy", 3, mode=mode)
    assert hits[0].chunk.section_number == "2.1"
    assert hits[0].chunk.chapter_title == "Energy"
    assert hits[0].chunk.book_id == lib.bio.id
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))


def test_filters_never_leak(lib: Library):
    for mode in SearchMode:
        hits = lib.search("erosion valleys cell", 10, book_id=lib.geo.id, mode=mode)
        assert hits and all(h.chunk.book_id == lib.geo.id for h in hits)
        hits = lib.search("cell membrane energy", 10, book_id=lib.bio.id, chapters=("2",), mode=mode)
        assert all(h.chunk.chapter_number == "2" for h in hits)


def test_mentions_in_one_book_reads_the_keyword_index_first(lib: Library):
    assert lib.mentions("carve valleys", book_id=lib.geo.id) and not lib.mentions("carve valleys", book_id=lib.bio.id)
    assert lib.mentions("Rivers", book_id=lib.geo.id, exact_case=True)
    assert not lib.mentions("rivers carve", book_id=lib.geo.id, exact_case=True)  # written "Rivers carve"
    assert lib.mentions_loosely("valeys", book_id=lib.geo.id) and not lib.mentions_loosely("valeys", book_id=lib.bio.id)
    # walking the book's chunks and matching each one took up to a second per phrase on a real textbook
    from core.retrieval.retriever import _match_scope
    scope, params = _match_scope('"carve valleys"', lib.geo.id)
    plan = lib.db.execute(f"EXPLAIN QUERY PLAN SELECT 1 FROM chunks_fts {scope} LIMIT 1", params).fetchall()
    assert "chunks_fts" in plan[0][-1]


def test_remove_takes_chunks_out_of_both_indexes(lib: Library):
    before = lib.chunk_count()
    geo_chunks = lib.chunk_count(lib.geo.id)
    lib.remove(lib.geo.id)
    assert lib.chunk_count() == before - geo_chunks
    assert lib.db.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'erosion'").fetchone()[0] == 0
    assert lib.vector_index().ntotal == before - geo_chunks
    assert all(h.chunk.book_id == lib.bio.id for h in lib.search("erosion rivers", 5))


def test_missing_faiss_file_is_rebuilt_from_sqlite(lib: Library, tmp_path: Path):
    root = lib.root
    n = lib.chunk_count()
    lib.close()
    (root / "index" / "vectors.faiss").unlink()
    with Library(root, embedder=HashingEmbedder()) as again:
        assert again.vector_index().ntotal == n
        assert again.search("erosion", 1, mode=SearchMode.VECTOR)[0].chunk.section_number == "1.1"


def test_second_process_sees_new_books(lib: Library, tmp_path: Path):
    other = Library(lib.root, embedder=HashingEmbedder())
    assert other.vector_index().ntotal == lib.chunk_count()
    extra = tmp_path / "extra.md"
    extra.write_text("# Chapter 1: Stars\n\n## 1.1 Fusion\n\nStars shine by nuclear fusion of hydrogen.\n")
    lib.import_book(extra)
    assert other.search("nuclear fusion hydrogen", 1, mode=SearchMode.VECTOR)[0].chunk.section_title == "Fusion"
    other.close()


def test_find_respects_scope_named_in_the_question(lib: Library):
    hits = lib.find("in chapter 2: what is photosynthesis?", 5, book_id=lib.bio.id)
    assert hits and all(h.chunk.chapter_number == "2" for h in hits)
    hits = lib.find("what is a cell", 5, book_id=lib.bio.id)
    assert hits[0].chunk.section_number == "1.1"


def test_role_filter_never_leaks(lib: Library):
    roles = {h.chunk.role.value for h in lib.search("cell energy", 10)}
    some = sorted(roles)[0]
    assert all(h.chunk.role.value == some for h in lib.search("cell energy", 10, roles=(some,)))


def test_term_frequencies_fold_like_the_keyword_index_and_common_terms_are_pruned_only_at_scale(lib, monkeypatch):
    from core.index import fts, rows
    df = rows.term_doc_frequencies(lib.reader, ["cells", "cell", "zebra"])
    assert df["cells"] == df["cell"] > 0 and df["zebra"] == 0  # stemmed as FTS5 stems them
    question = "cell membrane energy light plants"
    assert lib.search(question, 5, mode=SearchMode.KEYWORD)  # a small library: every term is searched
    monkeypatch.setattr(fts, "POSTINGS_CAP", 0)  # as if the library were huge
    counts = rows.term_doc_frequencies(lib.reader, fts.match_terms(question))
    rarest = sorted(counts, key=counts.get)[:3]
    hits = lib.search(question, 5, mode=SearchMode.KEYWORD)
    assert hits
    for hit in hits:  # only the 3 rarest terms were searched
        assert any(p.search(hit.chunk.text + " " + hit.chunk.section_title) for p in fts.term_patterns(rarest))


def test_a_chunk_replaced_between_ranking_and_loading_is_skipped(lib, monkeypatch):
    real, gone = lib.retriever.candidates, []

    def racing(*args, **kwargs):  # another writer commits between the ranking and the loading of chunks
        out = real(*args, **kwargs)
        gone.append(out.keyword[0][0])
        with lib._writing():  # as a staged import replacing a chapter's keyword-only chunks does
            lib.db.execute("DELETE FROM chunks WHERE id = ?", [gone[0]])
        return out
    monkeypatch.setattr(lib.retriever, "candidates", racing)
    hits = lib.search("cell membrane", 5, mode=SearchMode.KEYWORD)
    assert hits and gone[0] not in {h.chunk.id for h in hits}
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))


FRENCH_MD = """# Chapitre 1 : La société

## 1.1 Les groupes sociaux

Les groupes sociaux rassemblent des individus qui partagent une identité et interagissent régulièrement entre eux.
Un groupe primaire est petit, durable et fondé sur des liens affectifs ; la famille en est l'exemple le plus courant.
Un groupe secondaire est plus grand et plus impersonnel : ses membres se retrouvent pour atteindre un but précis,
comme les collègues d'une entreprise ou les membres d'une association sportive. On peut passer d'un groupe à l'autre
au cours de la vie, et un même individu appartient à plusieurs groupes à la fois, chacun avec ses règles propres.
Les sociologues étudient comment ces appartenances façonnent les opinions, les goûts et les comportements.

## 1.2 L'économie

Les activités économiques produisent, échangent et consomment des biens et des services dans une société donnée.
Le marché met en relation des vendeurs et des acheteurs ; les prix y résultent de la rencontre de l'offre et de la
demande. L'État intervient aussi, par les impôts, les dépenses publiques et les règles qu'il fixe aux entreprises.
La monnaie facilite les échanges, car elle sert d'unité de compte, d'intermédiaire et de réserve de valeur.
"""


def test_a_book_in_french_is_stored_with_its_language_and_found_by_its_french_stems(tmp_path: Path):
    path = tmp_path / "societe.md"
    path.write_text(FRENCH_MD, encoding="utf-8")
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as library:
        book = library.import_book(path).book
        assert book.language == "fr" and library.book(book.id).language == "fr"
        # porter leaves "social" and "sociaux", "économie" and "économiques" apart; the Snowball stems join them
        hits = library.search("groupe social", 3, mode=SearchMode.KEYWORD, book_id=book.id)
        assert hits and hits[0].chunk.section_title == "Les groupes sociaux"
        hits = library.search("Qu'est-ce que l'économie ?", 3, mode=SearchMode.KEYWORD)
        assert hits and hits[0].chunk.section_title == "L'économie"
        assert library.mentions("sociale", book_id=book.id) and not library.mentions("mobilité", book_id=book.id)


def test_an_english_book_keeps_an_empty_stems_column(lib: Library):
    assert lib.bio.language == "en"
    assert lib.db.execute("SELECT COUNT(*) FROM chunks WHERE stems != ''").fetchone()[0] == 0
