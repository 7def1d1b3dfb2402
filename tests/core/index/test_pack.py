"""Course packs: a round trip gives the same searches and study items without embedding again; the student's
records stay out unless asked for; a damaged, tampered, hostile or newer pack leaves the library as it was."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from core.errors import CoursePackError, ImportCancelled, PackVersionError
from core.index.pack import remap_json_ids
from core.index.pack_format import MANIFEST, PackReader
from core.library import Library
from core.models import ImportStatus, SearchMode
from core.study.models import CardOrigin, Flashcard, QuestionType, QuizQuestion, SourceRef
from core.study.quiz import QuizRun
from core.study.quizgen import save_quiz, saved_quiz
from core.study.schedule import new_schedule
from tests.fakes import HashingEmbedder

CHAPTER = """# Chapter {n}: {topic}

## {n}.1 Basics of {topic}

{sentences}

## {n}.2 More on {topic}

{more}
"""
QUESTIONS = ("genetics fact", "energy of living things", "cells explained with care", "more on energy")


def write_book(folder: Path, name: str = "bio.md", topics=("Cells", "Energy", "Genetics")) -> Path:
    parts = []
    for n, topic in enumerate(topics, start=1):
        sentences = " ".join(f"{topic} fact number {i} concerns the {topic.lower()} of living things." for i in range(12))
        more = " ".join(f"Another {topic.lower()} detail {i} is explained with care here." for i in range(12))
        parts.append(CHAPTER.format(n=n, topic=topic, sentences=sentences, more=more))
    path = folder / name
    path.write_text(f"---\ntitle: Pack {topics[0]}\n---\n\n" + "\n".join(parts), encoding="utf-8")
    return path


def add_study(lib: Library, book_id: str) -> None:
    chunk = lib.study_chunks(book_id)[0]
    card = Flashcard(front="What are cells?", back="Units of life.", quote=chunk.text[:80],
                     origin=CardOrigin.DEFINITION, source=SourceRef.of(chunk))
    schedule, due = new_schedule()
    lib.add_cards(book_id, [card], schedule, due)
    questions = tuple(QuizQuestion(f"Which fact is number {i}?", (f"fact {i}", "energy", "genetics", "rocks"),
                                   f"fact {i}", SourceRef.of(c), c.text, c.text[:60], QuestionType.CLOZE, "test",
                                   verified="answer in the sentence") for i, c in enumerate(lib.study_chunks(book_id)[:3]))
    save_quiz(lib, book_id, "1", QuizRun(questions, 3, generator="a teacher's model"))
    lib.study_cache_put(book_id, "lesson:test", json.dumps({"items": [{"id": f"{chunk.id}:2", "chunk_id": chunk.id,
                                                                       "section_id": chunk.section_id}]}))


def add_student_records(lib: Library, book_id: str) -> None:
    card = lib.cards(book_id)[0]
    lib.save_review(card.id, 3, '{"state": 2}', "2030-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    lib.record_attempt(book_id, "quiz", "What are cells?", None, 1.0)
    lib.create_conversation("my question", book_id)


@pytest.fixture
def teacher(tmp_path: Path):
    with Library(tmp_path / "teacher", embedder=HashingEmbedder()) as lib:
        result = lib.import_book(write_book(tmp_path))
        assert result.status is ImportStatus.IMPORTED
        add_study(lib, result.book.id)
        yield lib


def snapshot(lib: Library) -> dict:
    """What a student sees of a library: books, sections, chunks with vectors, searches, cards, cached study."""
    out = {}
    for book in lib.books():
        chunks = lib.study_chunks(book.id)
        out[book.id] = {
            "book": (book.title, book.page_count, book.chapter_count, book.section_count, book.file_hash),
            "sections": [(s.level, s.number, s.title, s.page_start, s.page_end) for s in lib.sections(book.id)],
            "chunks": [(c.ordinal, c.role, c.text, c.page_start, c.section_title) for c in chunks],
            "cards": [(c.card.front, c.card.back, c.card.quote, c.card.source.section_title, c.card.source.page_start,
                       lib.chunks([c.card.source.chunk_id])[c.card.source.chunk_id].text) for c in lib.cards(book.id)],
            "cache": _cache_texts(lib, book.id),
            "quiz": _quiz(lib, book.id),
            "due": sorted({c.due[:4] for c in lib.cards(book.id)}),
        }
    for q in QUESTIONS:
        for mode in SearchMode:
            out[(q, mode.value)] = [(h.chunk.text, h.chunk.page_start, round(h.score, 5))
                                    for h in lib.search(q, 5, mode=mode)]
        out[(q, "find")] = [(h.chunk.text, h.chunk.page_start) for h in lib.find(q, 5)]
    return out


def _cache_texts(lib: Library, book_id: str):
    """The cached study JSON with its chunk ids read back as the chunks' texts (ids differ between libraries)."""
    cached = lib.study_cache_get(book_id, "lesson:test")
    if cached is None:
        return None
    items = json.loads(cached)["items"]
    return [(lib.chunks([i["chunk_id"]])[i["chunk_id"]].text, i["id"].split(":")[1]) for i in items]


def _quiz(lib: Library, book_id: str):
    """The saved quiz of chapter 1, each question with the text of the chunk it cites."""
    run = saved_quiz(lib, book_id, "1")
    if run is None:
        return None
    return [(q.question, q.answer, q.choices, q.evidence, q.source.page_start,
             lib.chunks([q.source.chunk_id])[q.source.chunk_id].text) for q in run.questions]


def files_in(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "books").iterdir())


def test_a_round_trip_gives_the_same_searches_and_study_items_without_embedding_again(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    summary = teacher.export_pack([b.id for b in teacher.books()], pack)
    assert summary.size == pack.stat().st_size > 0
    student_embedder = HashingEmbedder()
    with Library(tmp_path / "student", embedder=student_embedder) as student:
        results = student.import_pack(pack)
        assert [r.status for r in results] == [ImportStatus.IMPORTED]
        assert student_embedder.windows_seen == []  # the vectors came from the pack
        assert snapshot(student) == snapshot(teacher)
        [book] = student.books()
        assert student.book_file(book.id).read_bytes() == teacher.book_file(book.id).read_bytes()
        assert student.vector_index().ntotal == student.chunk_count() and len(snapshot(student)[book.id]["quiz"]) == 3
        cached = json.loads(student.study_cache_get(book.id, "lesson:test"))["items"][0]
        chunk = student.chunks([cached["chunk_id"]])[cached["chunk_id"]]
        assert chunk.text == student.study_chunks(book.id)[0].text and cached["id"] == f"{chunk.id}:2"
        assert student.doctor().ok


def test_the_students_own_records_stay_out_unless_asked_for(teacher, tmp_path):
    book_id = teacher.books()[0].id
    add_student_records(teacher, book_id)
    plain, full = tmp_path / "plain.lantern", tmp_path / "full.lantern"
    teacher.export_pack([book_id], plain)
    teacher.export_pack([book_id], full, with_progress=True)
    with PackReader(plain) as reader:
        names = {m.name.rsplit("/", 1)[-1] for m in reader.manifest.members}
        cards = list(reader.lines(f"books/{book_id}/study_cards.jsonl"))
    assert not names & {"study_reviews.jsonl", "study_attempts.jsonl", "conversations.jsonl", "turns.jsonl"}
    assert all('"state": 2' not in json.dumps(row) for row in cards)
    with Library(tmp_path / "a", embedder=HashingEmbedder()) as lib:
        lib.import_pack(plain)
        [card] = lib.cards(book_id)
        assert lib.attempts(book_id) == [] and lib.conversations() == []
        assert card.reviews == 0 and json.loads(card.schedule)["last_review"] is None
    with Library(tmp_path / "b", embedder=HashingEmbedder()) as lib:
        lib.import_pack(full)
        assert len(lib.attempts(book_id)) == 1 and len(lib.conversations(book_id)) == 1
        [card] = lib.cards(book_id)
        assert card.reviews == 1 and card.due.startswith("2030")


def test_a_book_already_here_is_a_duplicate_and_the_students_records_are_kept(teacher, tmp_path):
    book_id = teacher.books()[0].id
    pack = tmp_path / "course.lantern"
    teacher.export_pack([book_id], pack)
    add_student_records(teacher, book_id)
    before = (snapshot(teacher), teacher.attempts(book_id), files_in(teacher.root))
    [result] = teacher.import_pack(pack)
    assert result.status is ImportStatus.DUPLICATE and "already in your library" in result.error
    assert (snapshot(teacher), teacher.attempts(book_id), files_in(teacher.root)) == before


def test_a_pack_of_another_embedding_model_is_embedded_again_here(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    teacher.export_pack([b.id for b in teacher.books()], pack)
    other = HashingEmbedder(dimension=32, model_name="another-model")
    seen = []
    with Library(tmp_path / "student", embedder=other) as student:
        [result] = student.import_pack(pack, on_searchable=lambda book: seen.append(
            (book.pending, bool(student.search("genetics fact", 3, mode=SearchMode.KEYWORD)))))
        assert seen == [(True, True)]  # askable by keyword before its vectors were made
        assert result.status is ImportStatus.IMPORTED and not result.book.pending
        assert other.windows_seen and student.vector_index().ntotal == student.chunk_count() > 0
        assert student.search("genetics fact", 3, mode=SearchMode.VECTOR) and student.doctor().ok
        [card] = student.cards(result.book.id)  # the teacher's card stays (its chunk was cut again)
        assert card.card.front == "What are cells?" and saved_quiz(student, result.book.id, "1") is not None


def test_several_books_in_one_pack(teacher, tmp_path):
    second = teacher.import_book(write_book(tmp_path, "chem.md", ("Atoms", "Bonds"))).book
    pack = tmp_path / "course.lantern"
    teacher.export_pack([b.id for b in teacher.books()], pack)
    with Library(tmp_path / "student", embedder=HashingEmbedder()) as student:
        results = student.import_pack(pack)
        assert {r.book.id for r in results} == {b.id for b in teacher.books()} == {b.id for b in student.books()}
        assert second.id in {b.id for b in student.books()}
        assert snapshot(student) == snapshot(teacher)


def test_a_cancelled_export_leaves_no_file_and_a_pending_book_is_not_exported(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    with pytest.raises(ImportCancelled):
        teacher.export_pack([teacher.books()[0].id], pack, cancel=lambda: True)
    assert list(tmp_path.glob("course.lantern*")) == []
    searchable = []
    pending = teacher.import_book(write_book(tmp_path, "half.md", ("Rocks",)), cancel=lambda: bool(searchable),
                                  on_searchable=searchable.append).book
    assert pending.pending
    with pytest.raises(CoursePackError, match="still being indexed"):
        teacher.export_pack([pending.id], pack)
    assert not pack.exists()


def test_a_cancelled_import_changes_nothing(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    teacher.export_pack([teacher.books()[0].id], pack)
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 3
    with Library(tmp_path / "student", embedder=HashingEmbedder()) as student:
        with pytest.raises(ImportCancelled):
            student.import_pack(pack, cancel=cancel)
        assert student.books() == [] and files_in(student.root) == [] and student.doctor().ok


# -- hostile and damaged packs ---------------------------------------------------------------------------
def rewrite(src: Path, dst: Path, change) -> Path:
    """Copy a pack member by member; ``change(name, data)`` returns [(name, data), ...] to write instead."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            for name, data in change(info.filename, zin.read(info)):
                zout.writestr(name, data)
    return dst


def manifest_change(edit):
    def change(name, data):
        if name == MANIFEST:
            doc = json.loads(data)
            edit(doc)
            data = json.dumps(doc).encode()
        return [(name, data)]
    return change


def hostile_packs(pack: Path, tmp: Path) -> dict[str, Path]:
    rows = next(n for n in zipfile.ZipFile(pack).namelist() if n.endswith("chunks.jsonl"))
    bomb = b"\0" * (64 << 20)
    return {
        "zip-slip": rewrite(pack, tmp / "slip.lantern", lambda n, d: [(n, d)] + ([("../../evil.txt", b"x")]
                                                                                if n == MANIFEST else [])),
        "absolute": rewrite(pack, tmp / "abs.lantern", lambda n, d: [(n, d)] + ([("/tmp/evil.txt", b"x")]
                                                                               if n == MANIFEST else [])),
        "wrong hash": rewrite(pack, tmp / "hash.lantern", lambda n, d: [(n, d.replace(b"Genetics", b"Genetixx")
                                                                         if n == rows else d)]),
        "huge member": rewrite(pack, tmp / "bomb.lantern", lambda n, d: [(n, bomb if n == rows else d)]),
        "truncated": _truncated(pack, tmp / "cut.lantern"),
        "newer version": rewrite(pack, tmp / "new.lantern", manifest_change(lambda m: m.update(format_version=99))),
        "newer schema": rewrite(pack, tmp / "schema.lantern", manifest_change(lambda m: m.update(schema_version=999))),
        "unknown member": rewrite(pack, tmp / "extra.lantern", lambda n, d: [(n, d)] + (
            [(rows.replace("chunks", "extra"), b"[]\n")] if n == MANIFEST else [])),
        "not a pack": _text(tmp / "notes.lantern"),
        "no manifest": rewrite(pack, tmp / "bare.lantern", lambda n, d: [] if n == MANIFEST else [(n, d)]),
    }


def _truncated(pack: Path, dst: Path) -> Path:
    data = pack.read_bytes()
    dst.write_bytes(data[: len(data) // 2])
    return dst


def _text(dst: Path) -> Path:
    dst.write_text("my notes, not a course pack", encoding="utf-8")
    return dst


def test_a_hostile_or_damaged_pack_gets_one_clear_message_and_leaves_the_library_as_it_was(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    teacher.export_pack([teacher.books()[0].id], pack)
    other = write_book(tmp_path, "other.md", ("Stars", "Planets"))
    messages = {}
    with Library(tmp_path / "student", embedder=HashingEmbedder()) as student:
        student.import_book(other)
        before = (snapshot(student), files_in(student.root))
        for case, bad in hostile_packs(pack, tmp_path).items():
            with pytest.raises(CoursePackError) as caught:
                student.import_pack(bad)
            messages[case] = caught.value.message
            assert (snapshot(student), files_in(student.root)) == before, case
        assert student.doctor().ok
    assert not (tmp_path / "evil.txt").exists() and not Path("/tmp/evil.txt").exists()
    assert "newer Lantern" in messages["newer version"] and "newer Lantern" in messages["newer schema"]
    assert "SHA-256" in messages["wrong hash"] and "safe" in messages["zip-slip"] and "safe" in messages["absolute"]
    assert "truncated" in messages["truncated"] or "damaged" in messages["truncated"]
    assert "bytes" in messages["huge member"] and "not in its manifest" in messages["unknown member"]
    assert "not a Lantern course pack (it is not a zip file)" in messages["not a pack"]
    assert "not a Lantern course pack" in messages["no manifest"] and messages["newer version"].startswith("new.lantern: ")
    for message in messages.values():  # one sentence or two a student can read, never a traceback
        assert "\n" not in message and len(message) < 300


def test_a_newer_pack_raises_the_version_error(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    teacher.export_pack([teacher.books()[0].id], pack)
    newer = rewrite(pack, tmp_path / "newer.lantern", manifest_change(lambda m: m.update(format_version=2)))
    with Library(tmp_path / "student", embedder=HashingEmbedder()) as student:
        with pytest.raises(PackVersionError, match="format 2"):
            student.import_pack(newer)


def test_cached_study_json_has_its_row_ids_mapped():
    text = json.dumps({"a": [{"chunk_id": 5, "section_id": 2, "id": "5:3"}, {"chunk_id": 9, "id": "x"}], "n": 5})
    out = json.loads(remap_json_ids(text, {5: 105}, {2: 42}))
    assert out == {"a": [{"chunk_id": 105, "section_id": 42, "id": "105:3"}, {"chunk_id": None, "id": "x"}], "n": 5}
    assert remap_json_ids("not json", {}, {}) == "not json"


def test_vectors_survive_bit_for_bit(teacher, tmp_path):
    pack = tmp_path / "course.lantern"
    teacher.export_pack([teacher.books()[0].id], pack)
    with Library(tmp_path / "student", embedder=HashingEmbedder()) as student:
        student.import_pack(pack)

        def vectors(lib: Library) -> dict[str, bytes]:
            texts = {c.id: c.text for c in lib.study_chunks(lib.books()[0].id)}
            return {texts[cid]: blob for cid, blob in lib.reader.execute("SELECT chunk_id, vector FROM vectors")}
        assert vectors(student) == vectors(teacher) and len(vectors(student)) == student.chunk_count()
