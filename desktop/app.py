"""``lantern-desktop``: start the Qt app on a library folder.

``--library DIR`` > ``LANTERN_LIBRARY`` > the folder chosen in Settings > the platform default.
``--import-sample`` imports the bundled sample book when the library is empty (used by the demo);
``--self-test`` also asks one question and prints timings (``desktop.self_test``).
When Qt's platform plugin could not load for lack of system libraries, it prints the one
``sudo apt-get install …`` line that fixes it and exits with status 3 (``desktop.qt_libs``).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from desktop import qt_libs

try:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QMessageBox
except ImportError as _exc:  # QtGui itself links libEGL, libGL, libxkbcommon, libfontconfig …
    _advice = qt_libs.import_error_advice(_exc)
    if _advice is None:
        raise
    raise SystemExit(_advice) from None

from core.errors import LanternError
from core.library import Library
from core.paths import resolve_library_dir, resources_dir
from desktop.errors import error_text
from desktop.i18n import install_translators
from desktop.main_window import MainWindow
from desktop.protocols import Asker
from desktop.qt_guard import guard_singleton_refcounts
from desktop.search_asker import SearchOnlyAsker
from desktop.self_test import DEFAULT_QUESTION as SELF_TEST_QUESTION
from desktop.self_test import SelfTest
from desktop.settings import APPLICATION, ORGANIZATION, AppSettings, check_model_file

log = logging.getLogger("lantern.desktop")

__all__ = ["MainWindow", "build_asker", "library_dir", "main"]


def build_asker(library: Library, settings: AppSettings) -> Asker:
    """The tutor (``core.answer.tutor.Tutor``) with the chosen model, or the bundled default when none is chosen.

    A chosen .gguf file that is plainly unusable raises ``ModelUnavailableError`` here, so Settings can
    explain it.  Nothing loads yet: the window prewarms the model on its own thread, and a default model
    that turns out to be missing makes the tutor answer with quotes from the book and a notice.
    """
    from core.answer.preparation import AnswerSettings
    from core.answer.tutor import Tutor
    from core.llm.choice import Quality, resolve_model
    from core.llm.model import LocalModel

    if settings.model_path:
        check_model_file(settings.model_path)
    # Without a chosen file: the model this computer was measured to answer best in time (the default
    # until ``desktop.model_choice`` has measured it once).
    llm, choice = resolve_model(settings.model_path or None, quality=Quality(settings.quality),
                                measure_missing=False, n_threads=settings.threads or None,
                                n_gpu_layers=settings.gpu_layers or None)
    tutor = Tutor(library, LocalModel(llm), settings=AnswerSettings(beyond_book=settings.beyond_book))
    tutor.choice = choice
    return tutor


def library_dir(cli_value: str | None, settings: AppSettings) -> Path:
    """Where the library lives (see the module docstring for the order)."""
    if not cli_value and not os.environ.get("LANTERN_LIBRARY") and settings.library_dir:
        return Path(settings.library_dir).expanduser()
    return resolve_library_dir(cli_value)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lantern-desktop", description="Lantern's desktop window.")
    parser.add_argument("--library", metavar="DIR", help="library folder (default: $LANTERN_LIBRARY or Settings)")
    parser.add_argument("--import-sample", action="store_true",
                        help="import the bundled sample book on start if the library is empty")
    parser.add_argument("--self-test", nargs="?", const=SELF_TEST_QUESTION, metavar="QUESTION",
                        help="import the sample book if needed, ask QUESTION, print timings as JSON, quit "
                             "(exit 0 when a cited answer came back)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr")
    return parser


def create_app(qt_args: list[str]) -> QApplication:
    """The ``QApplication`` with Lantern's names and icon (reuses an existing one)."""
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    guard_singleton_refcounts()  # PySide6 6.12.0 + Python 3.11 would otherwise crash long sessions
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Lantern")
    install_translators(app)  # the interface in the system's language where a translation exists
    icon = resources_dir() / "lantern.png"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``lantern-desktop``."""
    args, qt_args = build_parser().parse_known_args(argv if argv is not None else sys.argv[1:])
    logging.basicConfig(level=logging.WARNING - 10 * min(args.verbose, 2), stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    if QApplication.instance() is None:
        # Qt aborts the process when its platform plugin cannot load ("Could not load the Qt platform
        # plugin "xcb" … even though it was found"); say which packages are missing instead.
        problem = qt_libs.startup_problem()
        if problem:
            print(problem, file=sys.stderr)
            return 3
    app = create_app(qt_args)
    settings = AppSettings.load()
    try:
        library = Library(library_dir(args.library, settings))
    except LanternError as exc:
        QMessageBox.critical(None, "Lantern", error_text(exc))
        return 2
    model_error: LanternError | None = None
    try:
        asker = build_asker(library, settings)
    except LanternError as exc:
        model_error, asker = exc, SearchOnlyAsker(library)
    with library:
        window = MainWindow(library, asker=asker, settings=settings, asker_factory=build_asker)
        window.show()
        if model_error is not None:
            from desktop.errors import show_error
            show_error(window, model_error)
        if args.import_sample and not library.books():
            window.import_sample()
        test = None
        if args.self_test:
            test = SelfTest(app, window, args.self_test)
            test.start()
        status = app.exec()
        window.shutdown()  # also when the app quits without the window being closed
        return test.status if test is not None else status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
