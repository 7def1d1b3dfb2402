"""The lantern CLI: JSON contracts, exit codes, library selection."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main as cli
from tests.core.test_library import BOOK_MD


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "tiny.md"
    good.write_text(BOOK_MD, encoding="utf-8")
    bad = tmp_path / "scan.pdf"
    bad.write_bytes(b"%PDF-1.4\n%%EOF\n")
    return {"good": good, "bad": bad}


def test_import_books_toc_remove_json(capsys, tmp_path, files):
    lib = str(tmp_path / "lib")
    code, out, _ = run(capsys, "--library", lib, "import", str(files["good"]), "--json")
    assert code == 0
    [rec] = json.loads(out)
    assert rec["status"] == "imported" and rec["error"] is None
    assert set(rec) == {"book_id", "title", "path", "pages", "chapters", "sections", "status", "error"}
    assert (rec["chapters"], rec["sections"]) == (2, 3)

    code, out, _ = run(capsys, "--library", lib, "books", "--json")
    assert code == 0
    assert json.loads(out) == [{"book_id": rec["book_id"], "title": "Tiny Biology", "pages": rec["pages"],
                                "chapters": 2, "sections": 3, "pending": False}]

    code, out, _ = run(capsys, "--library", lib, "toc", rec["book_id"], "--json")
    toc = json.loads(out)
    assert [(e["level"], e["number"], e["title"]) for e in toc] == [
        (1, "1", "Cells"), (2, "1.1", "What Is a Cell?"), (2, "1.2", "Membranes"),
        (1, "2", "Energy"), (2, "2.1", "Photosynthesis")]
    assert all({"page_start", "page_end", "printed_page_start"} <= set(e) for e in toc)

    code, out, _ = run(capsys, "--library", lib, "remove", rec["book_id"])
    assert code == 0 and "removed" in out
    code, out, _ = run(capsys, "--library", lib, "books", "--json")
    assert json.loads(out) == []


def test_duplicate_and_error_statuses_and_exit_code(capsys, tmp_path, files):
    lib = str(tmp_path / "lib")
    run(capsys, "--library", lib, "import", str(files["good"]))
    code, out, _ = run(capsys, "--library", lib, "import", str(files["good"]), str(files["bad"]), "--json")
    recs = json.loads(out)
    assert [r["status"] for r in recs] == ["duplicate", "error"]
    assert recs[1]["error"]
    assert code != 0


def test_an_import_interrupted_while_indexing_is_finished_by_importing_again(capsys, tmp_path, files,
                                                                             monkeypatch):
    from core.index import staged_import
    lib = str(tmp_path / "lib")

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt
    with monkeypatch.context() as m:
        m.setattr(staged_import.chunker, "embedded_drafts", interrupted)  # Ctrl-C during the first chapter
        code, _, err = run(capsys, "--library", lib, "import", str(files["good"]))
    assert code == 130 and "interrupted" in err
    code, out, _ = run(capsys, "--library", lib, "books")
    assert "Tiny Biology" in out and "keyword search only: 0% indexed; `lantern import tiny.md` finishes it" in out
    code, out, _ = run(capsys, "--library", lib, "search", "smallest unit of life", "--mode", "keyword")
    assert code == 0 and "cell" in out.lower()
    code, out, _ = run(capsys, "--library", lib, "import", str(files["good"]))
    assert code == 0 and out.startswith("imported")
    code, out, _ = run(capsys, "--library", lib, "books", "--json")
    assert json.loads(out)[0]["pending"] is False


def test_stdout_is_plain_text_without_json_flag(capsys, tmp_path, files):
    code, out, _ = run(capsys, "--library", str(tmp_path / "lib"), "import", str(files["good"]))
    assert code == 0
    assert out.startswith("imported")
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_library_from_environment(capsys, tmp_path, files, monkeypatch):
    monkeypatch.setenv("LANTERN_LIBRARY", str(tmp_path / "envlib"))
    run(capsys, "import", str(files["good"]))
    assert (tmp_path / "envlib" / "lantern.db").exists()


def test_unknown_book_is_an_error(capsys, tmp_path):
    code, _, err = run(capsys, "--library", str(tmp_path / "lib"), "toc", "nope")
    assert code == 2
    assert "No book" in err


def test_demo_imports_sample_book(capsys, tmp_path):
    code, out, _ = run(capsys, "--library", str(tmp_path / "lib"), "demo")
    assert code == 0, out
    assert "Chapter" in out


def test_search_json_fields_roles_pages_and_explain(capsys, tmp_path, files):
    lib = str(tmp_path / "lib")
    run(capsys, "--library", lib, "import", str(files["good"]))
    code, out, _ = run(capsys, "--library", lib, "search", "what is a cell", "-k", "3", "--explain", "--json")
    assert code == 0
    hits = json.loads(out)
    assert hits and hits[0]["section"] == "1.1"
    assert {"rank", "chunk_id", "book_id", "chapter", "chapter_title", "section", "section_title", "page_start",
            "page_end", "printed_pages", "role", "score", "text", "stages"} <= set(hits[0])
    code, out, _ = run(capsys, "--library", lib, "search", "cell", "--pages", "99-100", "--json")
    assert json.loads(out) == []
    code, _, err = run(capsys, "--library", lib, "search", "cell", "--pages", "x-y")
    assert code == 2 and "--pages" in err
