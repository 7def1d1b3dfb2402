"""``lantern models``: the chat models installed, how fast each runs here, and which one answers and why.

Each speed says how it was measured: with the computer idle (fair), or provisional (other programs kept the
CPU busy, or two runs disagreed).  A provisional speed never makes Lantern pass over a more correct model;
``--measure`` (or a later run on an idle computer) measures it again."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from core.cli.output import emit, json_flag
from core.library import Library
from core.llm.catalog import CATALOG
from core.llm import machine
from core.llm.choice import (QUALITY_ORDER, Budget, Quality, choose, installed_models, is_fair, load_speeds, measure,
                             predict, save_speed)
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings


def add_parsers(sub: Any) -> None:
    """Add ``models`` to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("models", help="the chat models installed, their speed on this computer, and the choice")
    p.add_argument("--measure", action="store_true",
                   help="measure every installed model again (~20-60 s each; best on an idle computer)")
    p.add_argument("--quality", choices=[q.value for q in Quality], default=None,
                   help="answer quality preference (default: $LANTERN_ANSWER_QUALITY or balanced)")
    json_flag(p)


def cmd_models(lib: Library, args: argparse.Namespace) -> int:
    settings = LLMSettings.from_env()
    threads, gpu = settings.threads, settings.n_gpu_layers
    installed = installed_models()
    speeds = load_speeds(threads, gpu)
    for key in installed:
        if is_fair(speeds.get(key)) and not args.measure:
            continue
        share = machine.others_share_now()
        if key in speeds and not args.measure and not machine.is_idle(share):
            sys.stderr.write(f"{CATALOG[key].display_name}: keeping its provisional speed; the computer is busy "
                             f"({machine.describe_share(share)}), run again when it is idle or use --measure\n")
            continue
        sys.stderr.write(f"measuring {CATALOG[key].display_name} on this computer "
                         f"({machine.describe_share(share)} just now)…\n")
        model = LocalModel(LLMSettings.from_env(model=key))
        try:
            speeds[key] = measure(model, key=key, threads=threads, gpu_layers=gpu)
            save_speed(speeds[key])
        finally:
            model.close()
    rows, lines = [], [f"{'model':40} {'installed':9} {'prompt tok/s':>12} {'gen tok/s':>9} "
                       f"{'first token':>11} {'whole answer':>12}  measured"]
    for key in QUALITY_ORDER:
        s = speeds.get(key)
        first, whole = predict(s) if s else (None, None)
        rows.append({"model": key, "installed": key in installed, "prompt_tps": s.prompt_tps if s else None,
                     "generate_tps": s.generate_tps if s else None, "first_token_s": first, "whole_answer_s": whole,
                     "fair": bool(s and s.fair), "others_share": s.others_share if s else None,
                     "measured": s.condition if s else "not measured"})
        how = "-" if not s else "idle" if s.fair else "provisional"
        lines.append(f"{CATALOG[key].display_name:40} {'yes' if key in installed else 'no':9} "
                     f"{s.prompt_tps if s else 0:12.0f} {s.generate_tps if s else 0:9.1f} "
                     f"{first or 0:10.1f}s {whole or 0:11.1f}s  {how}")
    quality = Quality(args.quality) if args.quality else Quality.from_env()
    choice = choose(speeds, quality, Budget(), installed) if any(k in speeds for k in installed) else None
    if choice is not None:
        lines += ["", f"Answer quality: {quality.value} -> {CATALOG[choice.model].display_name}", choice.reason]
    emit(args, {"models": rows, "threads": threads, "gpu_layers": gpu,
                "choice": None if choice is None else {"model": choice.model, "quality": quality.value,
                                                        "reason": choice.reason, "provisional": choice.provisional}},
         "\n".join(lines))
    return 0


COMMANDS = {"models": cmd_models}
