"""``lantern pack export`` / ``pack import``: JSON contracts, exit codes, a bad pack's one message."""
from __future__ import annotations

import json
from pathlib import Path

from core.cli import main as cli
from tests.core.test_library import BOOK_MD


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_then_import_into_another_library(capsys, tmp_path: Path):
    book = tmp_path / "tiny.md"
    book.write_text(BOOK_MD, encoding="utf-8")
    teacher, student = str(tmp_path / "teacher"), str(tmp_path / "student")
    code, out, _ = run(capsys, "--library", teacher, "import", str(book), "--json")
    book_id = json.loads(out)[0]["book_id"]

    code, out, _ = run(capsys, "--library", teacher, "pack", "export", book_id, "-o", str(tmp_path / "course"),
                       "--json")
    exported = json.loads(out)
    assert code == 0 and exported["path"].endswith("course.lantern") and exported["size"] > 0
    assert exported["with_study"] is True and exported["with_progress"] is False
    assert [b["book_id"] for b in exported["books"]] == [book_id]

    code, out, _ = run(capsys, "--library", student, "pack", "import", exported["path"])
    assert code == 0 and out.startswith(f"imported  {book_id}  Tiny Biology")
    code, out, _ = run(capsys, "--library", student, "search", "cell membrane", "--json")
    assert code == 0 and json.loads(out)
    code, out, _ = run(capsys, "--library", student, "pack", "import", exported["path"], "--json")
    assert code == 0 and [r["status"] for r in json.loads(out)] == ["duplicate"]


def test_a_bad_pack_exits_2_with_one_message_and_changes_nothing(capsys, tmp_path: Path):
    bad = tmp_path / "notes.lantern"
    bad.write_text("not a pack", encoding="utf-8")
    lib = str(tmp_path / "lib")
    code, out, err = run(capsys, "--library", lib, "pack", "import", str(bad), "--json")
    assert code == 2 and json.loads(out)["code"] == "bad_pack"
    assert err == "lantern: notes.lantern is not a Lantern course pack (it is not a zip file).\n"
    code, out, _ = run(capsys, "--library", lib, "books", "--json")
    assert json.loads(out) == []
    code, _, err = run(capsys, "--library", lib, "pack", "export", "0123456789abcdef", "-o", str(tmp_path / "x"))
    assert code == 2 and "No book" in err and not (tmp_path / "x.lantern").exists()
