"""Chat-model latency on this machine: load time, prompt speed, generation speed, prefix caching, RSS.

    .venv/bin/python -m benchmarks.llm_latency                  # every installed catalogue model
    .venv/bin/python -m benchmarks.llm_latency --models smollm2-135m --threads 2 --repeat 3
    .venv/bin/python -m benchmarks.llm_latency --budget 6       # prompt tokens that fit in 6 s

Each model runs in its own subprocess (clean RSS).  Prompts are tutor-shaped: a fixed system
instruction, numbered sources cut from the bundled sample book, and a question, sized to about
600 and 900 tokens of the model's own tokenizer.  "cold" = empty KV cache; "prefix cached" = the
system instruction was evaluated beforehand with ``LocalModel.prewarm``; "follow-up" = the same
sources with a different question (everything but the question is cached).  The machine's load
average is printed: other processes on a 2-core box slow llama.cpp a lot, so compare runs made
under the same load.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "resources" / "sample" / "energy-and-motion.md"

SYSTEM = (
    "You are Lantern, a patient tutor. Answer the student's question using ONLY the numbered "
    "sources from their textbook given in the user message. Cite every fact with the source "
    "number in square brackets, like [1] or [2]. If the sources do not contain the answer, say "
    "\"The book does not cover this\" and name the closest section instead of answering from "
    "memory. Keep answers short: two to five sentences, in plain language a first-year student "
    "understands. Use the book's own terms and notation. Do not invent page numbers, formulas or "
    "examples that are not in the sources. If the question is ambiguous, answer the most likely "
    "reading and say which one you chose."
)
QUESTIONS = [
    "What is the difference between speed and velocity?",
    "Why does a seatbelt reduce injuries in a collision?",
    "How is work related to kinetic energy?",
    "What does Newton's third law say?",
    "How do you compute the efficiency of an engine?",
    "What is momentum and when is it conserved?",
]


def _paragraphs() -> list[str]:
    text = SAMPLE.read_text(encoding="utf-8")
    text = text.split("---", 2)[-1]
    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text)]
    return [p for p in paras if len(p) > 200 and not p.startswith("#")]


def build_messages(model, target_tokens: int, offset: int, question: str) -> list[dict]:
    """System + user(sources + question) with about ``target_tokens`` prompt tokens in total."""
    paras = _paragraphs()
    sources: list[str] = []
    i = offset
    while True:
        p = paras[i % len(paras)]
        i += 1
        n = len(sources) + 1
        candidate = sources + [f"[{n}] Energy and Motion › Chapter {1 + i % 4}, p. {10 + i}\n{p}"]
        msgs = _messages(candidate, question)
        total = model.count_chat_tokens(msgs)
        if total > target_tokens:
            # fill the rest with the start of this paragraph, word by word (binary search)
            words = p.split()
            lo, hi = 0, len(words)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                part = sources + [candidate[-1].split("\n")[0] + "\n" + " ".join(words[:mid])]
                if model.count_chat_tokens(_messages(part, question)) <= target_tokens:
                    lo = mid
                else:
                    hi = mid - 1
            if lo:
                sources.append(candidate[-1].split("\n")[0] + "\n" + " ".join(words[:lo]))
            return _messages(sources, question)
        sources = candidate


def _messages(sources: list[str], question: str) -> list[dict]:
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": "Sources:\n\n" + "\n\n".join(sources) + f"\n\nQuestion: {question}"}]


def _rss_mb() -> float:
    import psutil
    return psutil.Process().memory_info().rss / 2**20


def _uss_mb() -> float:
    import psutil
    return psutil.Process().memory_full_info().uss / 2**20


def _first_token(model, msgs, max_tokens: int = 1):
    """Run a prompt to its first token; the stats get ``cpu_s``: CPU-seconds the process spent.

    The caller threads only wait, so this is llama.cpp's own work: unlike wall time it barely
    changes when other processes compete for the cores (with OMP_WAIT_POLICY=PASSIVE).
    """
    c0 = time.process_time()
    s = model.stream_chat(msgs, max_tokens=max_tokens, temperature=0.0)
    s.text()
    s.stats.cpu_s = time.process_time() - c0
    return s.stats


def run_one(key: str, threads: int | None, repeat: int, budget: float, n_ctx: int) -> dict:
    from core.llm.settings import LLMSettings
    from core.llm.model import LocalModel
    from core.llm.catalog import get_entry, locate

    out: dict = {"model": key, "loadavg_start": os.getloadavg()[0],
                 "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "")}
    entry = get_entry(key)
    t = time.perf_counter()
    path = locate(entry)
    out["locate_s"] = time.perf_counter() - t
    out["file_mb"] = path.stat().st_size / 2**20
    out["rss_before_mb"] = _rss_mb()
    model = LocalModel(LLMSettings(model=key, n_threads=threads, n_ctx=n_ctx))
    t = time.perf_counter()
    model.load()
    out["load_s"] = time.perf_counter() - t
    out["threads"] = model.settings.threads
    out["rss_loaded_mb"] = _rss_mb()

    # The very first evaluation after loading pays for paging the weights in (mmap): report it.
    first = _first_token(model, build_messages(model, 600, 0, QUESTIONS[0]))
    out["very_first_600_s"] = first.first_token_s

    offset = 1
    for size in (300, 600, 900):
        ft, pp, cpu = [], [], []
        for r in range(repeat):
            model.clear_cache().result()
            msgs = build_messages(model, size, offset, QUESTIONS[r % len(QUESTIONS)])
            offset += 3
            st = _first_token(model, msgs)
            ft.append(st.first_token_s)
            pp.append(st.evaluated_tokens / st.prompt_s)
            cpu.append(st.cpu_s)
        out[f"cold_{size}_first_token_s"] = statistics.median(ft)
        out[f"cold_{size}_cpu_s"] = min(cpu)
        out[f"cold_{size}_idle_est_s"] = min(cpu) / out["threads"]
        out[f"cold_{size}_pp_tps"] = statistics.median(pp)
        out[f"cold_{size}_prompt_tokens"] = st.prompt_tokens

    # generation speed: 64 tokens greedy after a 600-token prompt
    gen = []
    for r in range(repeat):
        model.clear_cache().result()
        s = model.stream_chat(build_messages(model, 600, offset, QUESTIONS[r % len(QUESTIONS)]),
                              max_tokens=64, temperature=0.0, repeat_penalty=1.1)
        offset += 3
        s.text()
        gen.append(s.stats.tokens_per_second)
        out["gen_tokens"] = s.stats.completion_tokens
    out["gen_tps"] = statistics.median(gen)

    # instruction prefix cached (prewarm), then a fresh 900-token prompt
    ft, pre_s, cached, cpu = [], [], 0, []
    for r in range(repeat):
        model.clear_cache().result()
        t = time.perf_counter()
        n_prefix = model.prewarm([{"role": "system", "content": SYSTEM}]).result()
        pre_s.append(time.perf_counter() - t)
        st = _first_token(model, build_messages(model, 900, offset, QUESTIONS[r % len(QUESTIONS)]))
        offset += 3
        ft.append(st.first_token_s)
        cpu.append(st.cpu_s)
        cached = st.cached_tokens
    out["prefix_900_idle_est_s"] = min(cpu) / out["threads"]
    out["prefix_tokens"] = n_prefix
    out["prefix_cached_tokens_used"] = cached
    out["prewarm_s"] = statistics.median(pre_s)
    out["prefix_900_first_token_s"] = statistics.median(ft)

    # follow-up: same system + sources, new question (only the question's tokens are new)
    msgs = build_messages(model, 900, offset, QUESTIONS[0])
    _first_token(model, msgs)
    ft, cpu = [], []
    for r in range(repeat):
        q = QUESTIONS[1 + r % (len(QUESTIONS) - 1)]
        follow = [msgs[0], {"role": "user", "content": msgs[1]["content"].rsplit("Question:", 1)[0] + f"Question: {q}"}]
        st = _first_token(model, follow)
        ft.append(st.first_token_s)
        cpu.append(st.cpu_s)
        out["followup_cached_tokens"] = st.cached_tokens
    out["followup_idle_est_s"] = min(cpu) / out["threads"]
    out["followup_900_first_token_s"] = statistics.median(ft)

    # prompt budget for a first token within `budget` seconds: fit t = a + b*n on the cold runs,
    # then check the prediction with one cold and one prefix-cached run at that size.
    xs = [out[f"cold_{n}_prompt_tokens"] for n in (300, 600, 900)]
    ys = [out[f"cold_{n}_first_token_s"] for n in (300, 600, 900)]
    b, a = _linfit(xs, ys)
    # the same on an idle machine, estimated from CPU-seconds / threads
    bi, ai = _linfit(xs, [out[f"cold_{n}_idle_est_s"] for n in (300, 600, 900)])
    out["budget_idle_est_tokens"] = int((budget - ai) / bi) if bi > 0 else 0
    out["budget_idle_est_prefix_tokens"] = out["budget_idle_est_tokens"] + n_prefix_guess(model)
    n_cold = int((budget - a) / b) if b > 0 else 0
    n_cold = max(64, min(n_cold, n_ctx - 64))
    out["budget_cold_predicted_tokens"] = n_cold
    model.clear_cache().result()
    st = _first_token(model, build_messages(model, n_cold, offset, QUESTIONS[2]))
    offset += 3
    out["budget_cold_check_s"] = st.first_token_s
    n_warm = max(64, min(int(n_cold + n_prefix * 0.95), n_ctx - 64))
    model.clear_cache().result()
    model.prewarm([{"role": "system", "content": SYSTEM}]).result()
    st = _first_token(model, build_messages(model, n_warm, offset, QUESTIONS[3]))
    out["budget_prefix_tokens"] = n_warm
    out["budget_prefix_check_s"] = st.first_token_s

    out["rss_end_mb"] = _rss_mb()
    out["uss_end_mb"] = _uss_mb()
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["loadavg_end"] = os.getloadavg()[0]
    model.close()
    return out


def n_prefix_guess(model) -> int:
    return model.count_chat_tokens([{"role": "system", "content": SYSTEM}, {"role": "user", "content": ""}])


def _linfit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return b, my - b * mx


ROWS = [
    ("file size (MB)", "file_mb", "{:.0f}"),
    ("threads / OMP_WAIT_POLICY", "threads_policy", "{}"),
    ("locate + verify (s)", "locate_s", "{:.2f}"),
    ("load (s)", "load_s", "{:.2f}"),
    ("RSS after load (MB)", "rss_loaded_mb", "{:.0f}"),
    ("RSS after runs (MB)", "rss_end_mb", "{:.0f}"),
    ("peak RSS (MB)", "peak_rss_mb", "{:.0f}"),
    ("private memory, USS (MB)", "uss_end_mb", "{:.0f}"),
    ("very first 600-tok prompt -> 1st token (s)", "very_first_600_s", "{:.2f}"),
    ("cold ~300 tok -> 1st token (s)", "cold_300_first_token_s", "{:.2f}"),
    ("cold ~600 tok -> 1st token (s)", "cold_600_first_token_s", "{:.2f}"),
    ("cold ~900 tok -> 1st token (s)", "cold_900_first_token_s", "{:.2f}"),
    ("  CPU-seconds for it", "cold_900_cpu_s", "{:.1f}"),
    ("  idle-machine estimate = CPU-s / threads", "cold_900_idle_est_s", "{:.2f}"),
    ("cold ~600 tok, idle estimate (s)", "cold_600_idle_est_s", "{:.2f}"),
    ("prompt speed @600 (tok/s)", "cold_600_pp_tps", "{:.0f}"),
    ("prompt speed @900 (tok/s)", "cold_900_pp_tps", "{:.0f}"),
    ("generation (tok/s)", "gen_tps", "{:.1f}"),
    ("instruction prefix (tokens)", "prefix_tokens", "{}"),
    ("prewarm prefix (s)", "prewarm_s", "{:.2f}"),
    ("900 tok, prefix cached -> 1st token (s)", "prefix_900_first_token_s", "{:.2f}"),
    ("  idle estimate (s)", "prefix_900_idle_est_s", "{:.2f}"),
    ("follow-up, sources cached -> 1st token (s)", "followup_900_first_token_s", "{:.2f}"),
    ("  idle estimate (s)", "followup_idle_est_s", "{:.2f}"),
    ("prompt tokens in budget, cold (fit)", "budget_cold_predicted_tokens", "{}"),
    ("  check: cold 1st token (s)", "budget_cold_check_s", "{:.2f}"),
    ("prompt tokens in budget, prefix cached", "budget_prefix_tokens", "{}"),
    ("  check: prefix-cached 1st token (s)", "budget_prefix_check_s", "{:.2f}"),
    ("idle estimate: prompt tokens in budget, cold", "budget_idle_est_tokens", "{}"),
    ("idle estimate: ... with prefix cached", "budget_idle_est_prefix_tokens", "{}"),
    ("load average start/end", "loadavg", "{}"),
]


def print_table(results: list[dict], budget: float) -> None:
    for r in results:
        r["loadavg"] = f"{r.get('loadavg_start', 0):.1f}/{r.get('loadavg_end', 0):.1f}"
        r["threads_policy"] = f"{r.get('threads')} / {r.get('omp_wait_policy') or 'unset'}"
    width = max(len(label) for label, _, _ in ROWS)
    print(f"\nbudget = {budget:g} s to first token")
    print(" " * width + " | " + " | ".join(f"{r['model']:>20}" for r in results))
    for label, key, fmt in ROWS:
        cells = []
        for r in results:
            v = r.get(key)
            cells.append(f"{(fmt.format(v) if v is not None else '-'):>20}")
        print(f"{label:<{width}} | " + " | ".join(cells))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", nargs="*", help="catalogue keys (default: every installed one)")
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: physical cores)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per measurement (median)")
    ap.add_argument("--budget", type=float, default=6.0, help="seconds to first token for the budget search")
    ap.add_argument("--n-ctx", type=int, default=4096, help="context for the benchmark (room for the budget search)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--omp-wait-policy", choices=["PASSIVE", "ACTIVE"],
                    help="override OMP_WAIT_POLICY for the runs (Lantern sets PASSIVE; ACTIVE = spin)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one model, print JSON
    args = ap.parse_args(argv)

    if args.one:
        print(json.dumps(run_one(args.one, args.threads, args.repeat, args.budget, args.n_ctx)))
        return 0

    from core.llm.catalog import CATALOG, is_installed

    keys = args.models or [k for k, e in CATALOG.items() if is_installed(e)]
    sizes = {k: CATALOG[k].size for k in keys}
    results = []
    for key in sorted(keys, key=sizes.get):
        cmd = [sys.executable, "-m", "benchmarks.llm_latency", "--one", key, "--repeat", str(args.repeat),
               "--budget", str(args.budget), "--n-ctx", str(args.n_ctx)]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        print(f"[{key}] running…", file=sys.stderr, flush=True)
        env = dict(os.environ)
        if args.omp_wait_policy:
            env["OMP_WAIT_POLICY"] = args.omp_wait_policy
        proc = subprocess.run(cmd, check=False, cwd=REPO, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            print(f"[{key}] failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
            continue
        res = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"[{key}] {json.dumps(res)}", file=sys.stderr, flush=True)
        results.append(res)
    print_table(results, args.budget)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
