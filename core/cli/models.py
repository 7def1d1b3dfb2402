"""``lantern models``: the chat models installed, how fast each runs here, and which one answers and why."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from core.cli.output import emit, json_flag
from core.library import Library
from core.llm.catalog import CATALOG
from core.llm.choice import (QUALITY_ORDER, Budget, Quality, choose, installed_models, load_speeds, measure, predict,
                             save_speed)
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings


def add_parsers(sub: Any) -> None:
    """Add ``models`` to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("models", help="the chat models installed, their speed on this computer, and the choice")
    p.add_argument("--measure", action="store_true", help="measure every installed model again (~20 s each)")
    p.add_argument("--quality", choices=[q.value for q in Quality], default=None,
                   help="answer quality preference (default: $LANTERN_ANSWER_QUALITY or balanced)")
    json_flag(p)


def cmd_models(lib: Library, args: argparse.Namespace) -> int:
    settings = LLMSettings.from_env()
    threads, gpu = settings.threads, settings.n_gpu_layers
    installed = installed_models()
    speeds = load_speeds(threads, gpu)
    for key in installed:
        if args.measure or key not in speeds:
            sys.stderr.write(f"measuring {CATALOG[key].display_name} on this computer…\n")
            model = LocalModel(LLMSettings.from_env(model=key))
            try:
                speeds[key] = measure(model, key=key, threads=threads, gpu_layers=gpu)
                save_speed(speeds[key])
            finally:
                model.close()
    rows, lines = [], [f"{'model':40} {'installed':9} {'prompt tok/s':>12} {'gen tok/s':>9} "
                       f"{'first token':>11} {'whole answer':>12}"]
    for key in QUALITY_ORDER:
        s = speeds.get(key)
        first, whole = predict(s) if s else (None, None)
        rows.append({"model": key, "installed": key in installed, "prompt_tps": s.prompt_tps if s else None,
                     "generate_tps": s.generate_tps if s else None, "first_token_s": first, "whole_answer_s": whole})
        lines.append(f"{CATALOG[key].display_name:40} {'yes' if key in installed else 'no':9} "
                     f"{s.prompt_tps if s else 0:12.0f} {s.generate_tps if s else 0:9.1f} "
                     f"{first or 0:10.1f}s {whole or 0:11.1f}s")
    quality = Quality(args.quality) if args.quality else Quality.from_env()
    choice = choose(speeds, quality, Budget(), installed) if any(k in speeds for k in installed) else None
    if choice is not None:
        lines += ["", f"Answer quality: {quality.value} -> {CATALOG[choice.model].display_name}", choice.reason]
    emit(args, {"models": rows, "threads": threads, "gpu_layers": gpu,
                "choice": None if choice is None else {"model": choice.model, "quality": quality.value,
                                                        "reason": choice.reason}}, "\n".join(lines))
    return 0


COMMANDS = {"models": cmd_models}
