"""What llama.cpp's decoding options cost or save on the tutor's own prompts: the citation grammar and
prompt-lookup decoding (the answer copies the book's words, so n-grams of the prompt are good drafts).

    .venv/bin/python benchmarks/decoding.py --libs /work/libs [--model qwen2.5-coder-1.5b] [--n 8]
                                            [--modes plain,grammar,pld4,pld10,grammar+pld10]

For each dev book, ``--n`` keyed questions are prepared exactly as ``Tutor.ask`` prepares them (evidence
reader: system instruction, numbered evidence sentences, question) and answered by ``llama_cpp.Llama``
built as the app builds it, once per mode, each mode in its own process (``--mode`` runs one), with the
system instruction evaluated beforehand (as the app's prewarm does).  Printed per mode: first-token p50,
generation tokens/s (whole answers), whole answer p50, peak RSS, and whether the text differs from plain
decoding (temperature 0 here, so any difference is the option's).  Load average beside every figure.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, book_library  # noqa: E402

KEYED = ("psychology-2e", "chemistry-2e", "american-government-4e", "rust-book")


def prompts(libs: Path, n: int, model_key: str) -> list[dict]:
    """The tutor's real chat prompts (and their citation grammars) for ``n`` keyed questions per book."""
    from benchmarks.answers import keyed_questions
    from core.answer.preparation import prepare
    from core.answer.tutor import Tutor
    from core.llm.model import LocalModel
    from core.llm.settings import LLMSettings
    model = LocalModel(LLMSettings.from_env(model=model_key))
    out = []
    for book in KEYED:
        lib = book_library(libs, book)
        tutor = Tutor(lib, model)
        for q in keyed_questions(book, n)[0]:
            hits, _, gathered = tutor._retrieve(q.text(), None, (), None)
            prep = prepare(tutor, q.text(), hits, beyond_note=False, use_model=True, gathered=gathered)
            out.append({"book": book, "prompt": model.format_prompt(prep.messages), "grammar": prep.grammar,
                        "system": model.format_prompt(prep.messages[:1])})
        lib.close()
    return out


def run_mode(mode: str, items: list[dict], model_key: str, max_tokens: int) -> dict:
    import llama_cpp
    from llama_cpp import Llama, LlamaGrammar
    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

    from core.llm.model import LocalModel
    from core.llm.settings import LLMSettings
    settings = LLMSettings.from_env(model=model_key)
    path = str(LocalModel(settings).model_path())
    kw = dict(model_path=path, n_ctx=settings.n_ctx, n_batch=settings.n_batch, n_ubatch=settings.n_batch,
              n_threads=settings.threads, n_threads_batch=settings.threads, verbose=False, seed=1)
    if "pld" in mode:
        kw["draft_model"] = LlamaPromptLookupDecoding(num_pred_tokens=int(mode.split("pld")[1]))
        kw["logits_all"] = True  # llama-cpp-python checks drafts against every position's logits (n_ctx × vocab)
    llm = Llama(**kw)
    firsts, rates, wholes, texts = [], [], [], []
    for it in items:
        grammar = LlamaGrammar.from_string(it["grammar"], verbose=False) if "grammar" in mode and it["grammar"] \
            else None
        llm.reset()
        system = llm.tokenize(it["system"].encode(), add_bos=False, special=True)
        llm.eval(system)  # the app evaluates the fixed instruction at start-up
        tokens = llm.tokenize(it["prompt"].encode(), add_bos=False, special=True)
        t0 = time.perf_counter()
        first, out = None, []
        for tok in llm.generate(tokens, temp=0.0, top_k=1, repeat_penalty=1.1, grammar=grammar):
            first = first or time.perf_counter()
            if llama_cpp.llama_vocab_is_eog(llm._model.vocab, tok) or len(out) >= max_tokens:
                break
            out.append(tok)
        t1 = time.perf_counter()
        firsts.append(first - t0)
        wholes.append(t1 - t0)
        if len(out) > 1:
            rates.append(len(out) / (t1 - first))
        texts.append(llm.detokenize(out).decode("utf-8", "replace"))
    return {"mode": mode, "first_p50_s": round(statistics.median(firsts), 2),
            "gen_tok_s": round(statistics.median(rates), 1) if rates else None,
            "whole_p50_s": round(statistics.median(wholes), 2),
            "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "load": round(os.getloadavg()[0], 2), "texts": texts}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--n", type=int, default=8, help="keyed questions per book")
    ap.add_argument("--modes", default="plain,grammar,pld4,pld10,grammar+pld10")
    ap.add_argument("--max-tokens", type=int, default=180)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    ap.add_argument("--items", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mode:  # the child: one mode, its own process and RSS
        items = json.loads(args.items.read_text())
        print(json.dumps(run_mode(args.mode, items, args.model, args.max_tokens)))
        return 0
    items = prompts(args.libs, args.n, args.model)
    path = Path("/tmp/lantern-decoding-items.json")
    path.write_text(json.dumps(items))
    print(f"benchmarks.decoding  {len(items)} prompts  load {os.getloadavg()[0]:.2f}  {time.strftime('%H:%M')}")
    results = []
    for mode in args.modes.split(","):
        out = subprocess.run([sys.executable, __file__, "--libs", str(args.libs), "--model", args.model,
                              "--mode", mode, "--items", str(path), "--max-tokens", str(args.max_tokens)],
                             capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
        r = results[-1]
        print(f"{mode:14} first {r['first_p50_s']:5.2f} s  gen {r['gen_tok_s']} tok/s  whole {r['whole_p50_s']:5.2f} s"
              f"  RSS {r['rss_mb']} MB  load {r['load']}", flush=True)
    plain = next((r for r in results if r["mode"] == "plain"), None)
    print("\n| decoding | first token p50 | generation tok/s | whole answer p50 | peak RSS | same text as plain |")
    print("|---|---|---|---|---|---|")
    for r in results:
        same = sum(a == b for a, b in zip(r["texts"], plain["texts"])) if plain else 0
        print(f"| {r['mode']} | {r['first_p50_s']:.2f} s | {r['gen_tok_s']} | {r['whole_p50_s']:.2f} s | "
              f"{r['rss_mb']} MB | {same}/{len(r['texts'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
