"""SIGKILL at a named point, for the crash-safety tests: a child process runs the test's script, which patches
the step it wants to die at with ``die``/``after`` (deterministic, and the same as a kill from outside at that
moment: no cleanup code runs)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.waiting import HANG_GUARD_S

REPO = Path(__file__).resolve().parents[1]

PRELUDE = textwrap.dedent(f"""
    import os, signal, sys
    sys.path.insert(0, {str(REPO)!r})

    def die(*_a, **_k):
        os.kill(os.getpid(), signal.SIGKILL)

    def after(fn):
        def wrapped(*a, **k):
            out = fn(*a, **k)
            die()
            return out
        return wrapped
""")
"""What every child script starts with: the repository on its path, ``die()`` and ``after(fn)``."""


def run_killed(tmp_path: Path, body: str, *args: object) -> None:
    """Run ``PRELUDE + body`` with ``args`` in a child process and check that it was SIGKILLed."""
    script = tmp_path / "child.py"
    script.write_text(PRELUDE + textwrap.dedent(body), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True,
                          timeout=HANG_GUARD_S, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == -signal.SIGKILL, (args, proc.returncode, proc.stdout, proc.stderr[-2000:])
