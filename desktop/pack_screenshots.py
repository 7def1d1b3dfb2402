"""Screenshots of course packs (``python -m desktop.screenshots --pack PACK``): ``pack-opening.png``, the pack
dropped on an empty window while its hashes are checked; ``pack-opened.png``, its books in the library, ready,
and ``--question`` answered from them; ``pack-export.png``, File → Export course pack… with those books."""
from __future__ import annotations

from pathlib import Path

from desktop.capture import WAIT_S, ask, fresh_window, grab, log, settle, wait_until


def course_pack(out: Path, pack: Path, question: str, *, asker_factory=None,
                size: tuple[int, int] = (1420, 860)) -> list[Path]:
    """Drop ``pack`` into an empty library, grab it mid-check and opened, ask ``question``, show the export."""
    from desktop.course_pack import ExportPackDialog
    out.mkdir(parents=True, exist_ok=True)
    with fresh_window(size, asker_factory=asker_factory) as (app, window, _root):
        shots: dict[str, object] = {}

        def midway(_job: int, stage: str, done: int, total: int) -> None:
            if stage == "checking the pack" and total and done >= total // 3 and "opening" not in shots:
                shots["opening"] = window.grab()
        window.imports.progressed.connect(midway)
        window.import_files([pack])
        wait_until(app, lambda: window.imports.pending() == 0, WAIT_S)
        paths = []
        if "opening" in shots:
            paths.append(out / "pack-opening.png")
            shots["opening"].save(str(paths[-1]))
            log.info("wrote %s", paths[-1])
        ask(app, window, question)
        paths.append(grab(app, window, out / "pack-opened.png"))
        dialog = ExportPackDialog(window.library.books(), None, window)
        dialog.show()
        settle(app, 300)
        paths.append(grab(app, dialog, out / "pack-export.png"))
        dialog.close()
        return paths
