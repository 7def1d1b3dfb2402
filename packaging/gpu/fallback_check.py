"""Does this llama.cpp build answer, and on which device?  The check for a GPU build's CPU fallback.

    python packaging/gpu/fallback_check.py [--model qwen2.5-coder-0.5b] [--gpu-layers -1]

Run with the Python (or from the frozen app's folder) whose ``llama_cpp`` you want to check.  Prints:
whether the build carries a GPU backend (``libggml-vulkan``/``-cuda``/``-metal`` beside it), whether a
Vulkan loader is bundled, what ``llama_supports_gpu_offload()`` says on this machine, and then loads a
chat model through Lantern's own runtime (``core.llm``) with GPU offload asked for, answers one
question and reports the layers that ran on a GPU and the speed.  Exit 0 when the answer came.
On a machine without a GPU or driver the expected result is: offload False, 0 GPU layers, an answer.
"""
from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def describe_build() -> tuple[Path, list[str], bool]:
    import llama_cpp
    lib = Path(llama_cpp.__file__).parent / "lib"
    backends = sorted({p.name.split(".")[0].removeprefix("libggml-") for p in lib.glob("libggml-*")} - {"base"})
    return lib, backends, (lib / "libvulkan.so.1").exists()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-coder-0.5b")
    ap.add_argument("--gpu-layers", type=int, default=-1)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        lib, backends, loader = describe_build()
    except (ImportError, OSError, RuntimeError) as exc:  # e.g. a Vulkan build without libvulkan.so.1
        print(f"FAIL import llama_cpp: {exc}")
        return 1
    import llama_cpp
    from core.llm.model import LocalModel
    from core.llm.settings import LLMSettings
    print(f"llama_cpp {llama_cpp.__version__} from {lib.parent}")
    print(f"backends beside it: {', '.join(backends) or 'none'}; Vulkan loader bundled: {loader}")
    print(f"llama_supports_gpu_offload(): {llama_cpp.llama_supports_gpu_offload()}")
    model = LocalModel(LLMSettings.from_env(model=args.model, n_gpu_layers=args.gpu_layers))
    t = time.perf_counter()
    pieces = list(model.stream_chat([{"role": "user", "content": "Name the capital of France in one word."}],
                                    max_tokens=16, temperature=0.0))
    seconds = time.perf_counter() - t
    used = model._backend.n_gpu_layers if model._backend is not None else None
    text = "".join(pieces).strip()
    print(f"answer: {text!r} in {seconds:.1f} s (load included); GPU layers used: {used}")
    model.close()
    return 0 if text else 1


if __name__ == "__main__":
    sys.exit(main())
