"""SIGKILL at any moment of a course-pack import leaves the library unchanged or complete: it opens, passes
``doctor``, searches, and importing the pack again then works (or finds the books already there)."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.library import Library
from core.models import ImportStatus, SearchMode
from tests.core.index.test_pack import add_study, write_book
from tests.fakes import HashingEmbedder
from tests.kill_points import run_killed

# The child imports the pack and SIGKILLs itself at one named point (deterministic, and the same as a kill
# from outside at that moment: no cleanup code runs).
CHILD = """
    import core.index.pack as P
    from core.index.pack_format import PackReader
    from core.index.vectors import VectorIndex
    from core.library import Library
    from tests.fakes import HashingEmbedder
    point, root, pack = sys.argv[1:4]

    if point == "verifying":
        def progress(stage, done, total):
            if stage == "checking the pack" and done >= 1:
                die()
    else:
        progress = None
    if point == "copying":  # the first book file copied, the second not
        PackReader.copy_to = after(PackReader.copy_to)
    elif point == "in-transaction":  # the first book's rows written, COMMIT not reached
        P._store_book = after(P._store_book)
    elif point == "after-commit":  # committed; the files still under their .part names
        P.os.replace = die
    elif point == "before-index-save":  # committed and in place; the FAISS file not yet written
        opened = []
        real_save = VectorIndex.save

        def save(self, generation):
            if opened:
                die()
            return real_save(self, generation)
        VectorIndex.save = save
    lib = Library(root, embedder=HashingEmbedder())
    if point == "before-index-save":
        opened.append(1)
    lib.import_pack(pack, progress=progress)
    print("finished without being killed")
"""

POINTS = ["verifying", "copying", "in-transaction", "after-commit", "before-index-save"]
COMPLETE_POINTS = ("after-commit", "before-index-save")  # killed after the COMMIT: the books are there


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("teacher")
    with Library(folder / "lib", embedder=HashingEmbedder()) as lib:
        for name, topics in (("bio.md", ("Cells", "Energy", "Genetics")), ("chem.md", ("Atoms", "Bonds"))):
            book = lib.import_book(write_book(folder, name, topics)).book
            add_study(lib, book.id)
        path = folder / "course.lantern"
        lib.export_pack([b.id for b in lib.books()], path)
        return path, sorted(b.id for b in lib.books())


@pytest.mark.parametrize("point", POINTS)
def test_sigkill_during_a_pack_import(tmp_path: Path, pack, point: str):
    path, book_ids = pack
    root = tmp_path / "student"
    with Library(root, embedder=HashingEmbedder()) as lib:  # the student already has a book of their own
        own = lib.import_book(write_book(tmp_path, "own.md", ("Stars", "Planets"))).book
    run_killed(tmp_path, CHILD, point, root, path)
    with Library(root, embedder=HashingEmbedder()) as lib:
        have = sorted(b.id for b in lib.books() if b.id != own.id)
        assert have == (book_ids if point in COMPLETE_POINTS else [])  # unchanged, or complete
        report = lib.doctor()
        assert report.ok, report.problems
        leftovers = [p.name for p in (root / "books").iterdir() if not p.name.startswith((own.id, *have))]
        assert leftovers == []
        for book_id in have:
            assert not lib.book(book_id).pending and lib.book_file(book_id).is_file()
            assert len(lib.cards(book_id)) == 1
        assert lib.vector_index().ntotal == lib.chunk_count()
        assert lib.search("genetics fact", 3, mode=SearchMode.VECTOR) or not have
        assert lib.search("stars fact", 3, mode=SearchMode.KEYWORD)[0].chunk.book_id == own.id
        again = lib.import_pack(path)
        expected = ImportStatus.DUPLICATE if have else ImportStatus.IMPORTED
        assert {r.status for r in again} == {expected} and len(again) == len(book_ids)
        assert lib.doctor().ok and lib.vector_index().ntotal == lib.chunk_count()
