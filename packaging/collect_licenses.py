"""Copy the licence files of the bundled Python distributions into ``<dist>/licenses/<name>/``.

    python packaging/collect_licenses.py dist/lantern

Every distribution installed in this environment is covered except those the spec keeps out of the
bundle (torch and friends, build and test tools); an extra licence text is harmless, a missing one
is not.  THIRD-PARTY-NOTICES.md (copied by the spec) says which licence governs what, including the
AGPL source offer for PyMuPDF and Lantern itself.
"""
from __future__ import annotations

import re
import shutil
import sys
from importlib import metadata
from pathlib import Path

NOT_BUNDLED = re.compile(r"^(torch|torchvision|torchaudio|sentence[-_]transformers|transformers|scipy|scikit[-_]learn|"
                         r"sympy|networkx|huggingface[-_]hub|hf[-_]xet|onnx|onnxscript|pyinstaller.*|altgraph|"
                         r"pytest.*|import[-_]linter|grimp|pip|setuptools|wheel|iniconfig|pluggy|nvidia.*|triton)$", re.I)
LICENCE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$", re.I)


def collect(dist_dir: Path) -> int:
    out = dist_dir / "licenses"
    count = 0
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if not name or NOT_BUNDLED.match(name):
            continue
        files = [f for f in (dist.files or []) if LICENCE_FILE.search(str(f)) and ".dist-info" in str(f)]
        for f in files:
            src = Path(dist.locate_file(f))
            if src.is_file():
                target = out / name / src.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target)
                count += 1
        if not files and dist.metadata.get("License"):
            target = out / name / "LICENSE-FIELD.txt"  # only the metadata's licence field is available
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"{name} {dist.version}: {dist.metadata['License']}\n", encoding="utf-8")
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    dist_dir = Path((argv or sys.argv[1:])[0])
    n = collect(dist_dir)
    print(f"collected {n} licence files into {dist_dir / 'licenses'}", file=sys.stderr)
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
