"""SIGKILL at any moment of an import (or a removal) leaves a library that opens, passes ``doctor`` and
searches, with the book absent, keyword-searchable (its vectors still being made) or complete; importing
again then works, and a book killed while its vectors were being made is finished without embedding any
chunk twice."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.library import Library
from core.models import ImportStatus, SearchMode
from tests.core.ingest.pdf.fixtures import sample_book
from tests.fakes import HashingEmbedder
from tests.kill_points import run_killed

# The child imports (or removes) a book and SIGKILLs itself at one named point: deterministic, and the
# same as a kill from outside at that moment (no cleanup code runs).
CHILD = """
    import shutil
    import core.library as L
    import core.index.staged_import as S
    from core.index.vectors import VectorIndex
    from tests.fakes import HashingEmbedder
    point, root, pdf = sys.argv[1:4]

    def progress(stage, done, total):
        if stage == point and done >= 1:
            die()

    if point == "between-chapters":  # the first chapter's vectors committed, the rest not begun
        S.GROUP_TOKENS = 1  # one group per segment
        real_mark, marks = VectorIndex.mark, []

        def mark(self, generation):  # 1st: the keyword-only commit; 2nd: the first chapter's vectors
            real_mark(self, generation)
            marks.append(generation)
            if len(marks) == 2:
                with open(os.path.join(root, "windows-embedded.txt"), "w") as fh:
                    fh.write(str(len(lib.embedder.windows_seen)))
                die()
        VectorIndex.mark = mark

    if point == "copying":  # half the file copied
        def half_copy(src, dst):
            data = open(src, "rb").read()
            open(dst, "wb").write(data[: len(data) // 2])
            die()
        S.shutil.copyfile = half_copy
    elif point == "in-transaction":  # rows written, COMMIT not reached
        L.rows.insert_chunks = after(L.rows.insert_chunks)
    elif point in ("before-index-save", "mid-index-save"):
        # Opening an empty library saves an empty index (generation 0) first; the import's is later.
        import core.index.vectors as V
        real_save = VectorIndex.save

        done = []
        L.rows.mark_complete = lambda *a, real=L.rows.mark_complete: (real(*a), done.append(1))

        def save(self, generation):
            if done:  # the book's last vectors committed
                if point == "before-index-save":  # committed; FAISS file not yet written
                    die()
                V._fsync_replace = die  # the FAISS temp file is written, never renamed
            return real_save(self, generation)
        VectorIndex.save = save
    lib = L.Library(root, embedder=HashingEmbedder())
    if point.startswith("remove-"):
        if point == "remove-before-commit":
            L.store.bump_generation = after(L.store.bump_generation)
        else:
            VectorIndex.save = die
        lib.remove(lib.books()[0].id)
    else:
        lib.import_book(pdf, progress=progress)
    print("finished without being killed")
"""

IMPORT_POINTS = ["reading pages", "chunking", "copying", "in-transaction", "embedding", "between-chapters",
                 "before-index-save", "mid-index-save"]
SEARCHABLE_POINTS = ("embedding", "between-chapters")  # killed after the keyword-searchable commit


def run_child(tmp_path: Path, point: str, root: Path, pdf: Path) -> None:
    run_killed(tmp_path, CHILD, point, root, pdf)


def check_library(root: Path, pdf: Path, *, expect_book: bool | None, pending: bool = False) -> None:
    with Library(root, embedder=HashingEmbedder()) as lib:
        books = lib.books()
        if expect_book is not None:
            assert bool(books) == expect_book
        report = lib.doctor()
        assert report.ok, report.problems
        leftovers = [p.name for p in (root / "books").iterdir() if not p.name.startswith(tuple(b.id for b in books))]
        assert leftovers == [], leftovers
        assert [b.pending for b in books] == [pending] * len(books)
        if pending:  # keyword search works now; importing the file again finishes it
            assert lib.search("scientific study of the mind", 3, mode=SearchMode.KEYWORD)
            assert lib.import_book(pdf).status is ImportStatus.IMPORTED
            books = lib.books()
            assert not books[0].pending and lib.doctor().ok
        for book in books:  # complete: every page, chunks, vectors in FAISS, its file
            assert book.page_count == 8 and lib.chunk_count(book.id) > 0
            assert lib.book_file(book.id).is_file()
            assert lib.vector_index().ntotal == lib.chunk_count()
        hits = lib.search("scientific study of the mind", 3)
        assert bool(hits) == bool(books)
        again = lib.import_book(pdf)
        assert again.status is (ImportStatus.DUPLICATE if books else ImportStatus.IMPORTED)
        assert lib.search("scientific study of the mind", 3) and lib.doctor().ok


@pytest.mark.parametrize("point", IMPORT_POINTS)
def test_sigkill_during_an_import(tmp_path: Path, point: str):
    pdf = sample_book(tmp_path / "book.pdf")
    root = tmp_path / "lib"
    run_child(tmp_path, point, root, pdf)
    committed = point in ("before-index-save", "mid-index-save") + SEARCHABLE_POINTS
    check_library(root, pdf, expect_book=committed, pending=point in SEARCHABLE_POINTS)


@pytest.mark.parametrize("point", ["remove-before-commit", "remove-after-commit"])
def test_sigkill_during_a_removal(tmp_path: Path, point: str):
    pdf = sample_book(tmp_path / "book.pdf")
    root = tmp_path / "lib"
    with Library(root, embedder=HashingEmbedder()) as lib:
        assert lib.import_book(pdf).status is ImportStatus.IMPORTED
    run_child(tmp_path, point, root, pdf)
    check_library(root, pdf, expect_book=point == "remove-before-commit")


def test_a_book_killed_between_chapters_is_finished_without_embedding_a_chunk_twice(tmp_path: Path):
    pdf = sample_book(tmp_path / "book.pdf")
    root = tmp_path / "lib"
    run_child(tmp_path, "between-chapters", root, pdf)
    before_kill = int((root / "windows-embedded.txt").read_text())
    fresh = HashingEmbedder()
    with Library(tmp_path / "fresh", embedder=fresh) as lib:
        lib.import_book(pdf)
        all_windows = len(fresh.windows_seen)
        expected = {(c.text, c.page_start) for c in lib.study_chunks(lib.books()[0].id)}
    resumed = HashingEmbedder()
    with Library(root, embedder=resumed) as lib:
        book = lib.books()[0]
        assert book.pending and 0 < lib.embedding_share(book.id) < 1
        kept = [r[0] for r in lib.db.execute("SELECT id FROM chunks WHERE pending = 0")]
        assert lib.import_book(pdf).status is ImportStatus.IMPORTED
        # the windows embedded before the kill plus after it are exactly one import's worth
        assert 0 < before_kill < all_windows and before_kill + len(resumed.windows_seen) == all_windows
        assert set(kept) <= {r[0] for r in lib.db.execute("SELECT id FROM chunks")}  # committed rows kept
        assert {(c.text, c.page_start) for c in lib.study_chunks(book.id)} == expected
        ordinals = [c.ordinal for c in lib.study_chunks(book.id)]
        assert ordinals == list(range(len(ordinals))) and lib.doctor().ok
