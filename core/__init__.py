"""Lantern's engine: import books, index them, retrieve and answer — headless, never imports Qt.

One package per pipeline stage, the data walking one way (``docs/architecture.md``; the ``layers``
contract in ``pyproject.toml``): ``ingest`` → ``index`` → ``retrieval`` → ``answer``/``study`` →
``library`` (the facade) → ``evaluation`` → ``cli``, with ``llm`` and the records below them all.
"""
import os as _os

# Lantern never downloads models: make the Hugging Face stack fail fast instead of reaching out.
for _var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
    _os.environ.setdefault(_var, "1")
_os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
_os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
_os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bars on stderr
_os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
# OpenMP threads (llama.cpp's and torch's) must sleep, not spin, while they wait: with spinning, any
# other busy process on a 2-core laptop made llama.cpp 5-15x and the embedder 3-4x slower
# (benchmarks/llm_latency.py).  libgomp reads this once, when the first OpenMP library loads.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"
