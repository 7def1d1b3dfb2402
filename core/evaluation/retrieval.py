"""Retrieval evaluation on gold questions (the shared benchmark's ``questions.jsonl`` format).

A question is a hit at k when one of the top-k chunks lies in the gold section (same section
number within the book), or — for chunks without a section number — when its pages overlap the
gold pages.  Metrics are split by question type and by retrieval mode, measured in one run.
"""
from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.models import Chunk, Hit

CUTOFFS = (1, 5, 10)


@dataclass(frozen=True)
class GoldQuestion:
    qid: str
    question: str
    qtype: str
    section: str
    gold_pages: tuple[int, int] | None
    choices: tuple[str, ...] = ()
    chapter: str | None = None
    answer_letter: str | None = None  # the keyed option of a multiple-choice question ("A", "B", ...)
    program: str = ""  # the code a "what does this program print?" question is about

    def text(self, with_choices: bool = False) -> str:
        """The question as a student would ask it: with its program, and (``with_choices``) its options."""
        text = self.question
        if self.program:
            text = (text.strip() or "Does this program compile? If it does, what does it print?") + \
                f"\n\n```\n{self.program.rstrip()}\n```"
        if with_choices and self.choices:
            return text + " " + " ".join(self.choices)
        return text


def load_questions(path: str | Path, limit: int | None = None) -> list[GoldQuestion]:
    """Read questions.jsonl records (fields: question, qtype, section, gold_pages, choices...)."""
    out: list[GoldQuestion] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            r = json.loads(line)
            pages = r.get("gold_pages")
            out.append(GoldQuestion(
                qid=str(r.get("qid") or r.get("exercise_id") or len(out)),
                question=r["question"], qtype=r.get("qtype") or "question", section=str(r.get("section") or ""),
                gold_pages=(int(pages[0]), int(pages[1])) if pages else None,
                choices=tuple(r.get("choices") or ()),
                chapter=str(r["chapter"]) if r.get("chapter") is not None else None,
                answer_letter=str(r["answer_letter"]).strip().upper() if r.get("answer_letter") else None,
                program=r.get("program") or ""))
            if limit and len(out) >= limit:
                break
    return out


def is_gold(chunk: Chunk, q: GoldQuestion) -> bool:
    """Does this chunk lie in the question's gold section (or, for chapter-level gold, its pages)?"""
    if q.section and chunk.section_number:
        return chunk.section_number == q.section
    return on_gold_pages(chunk.page_start, chunk.page_end, q)


def on_gold_pages(first: int, last: int, q: GoldQuestion) -> bool:
    """Do physical pages ``first``..``last`` overlap the question's gold pages?"""
    return bool(q.gold_pages) and last >= q.gold_pages[0] and first <= q.gold_pages[1]


def first_gold_rank(hits: Sequence[Hit], q: GoldQuestion) -> int | None:
    for h in hits:
        if is_gold(h.chunk, q):
            return h.rank
    return None


@dataclass
class ModeStats:
    """Accumulates per-question results for one retrieval mode."""

    ranks: dict[str, list[int | None]] = field(default_factory=lambda: defaultdict(list))
    recalls: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, qtype: str, rank: int | None, recall: float, ms: float) -> None:
        for key in (qtype, "all"):
            self.ranks[key].append(rank)
            self.recalls[key].append(recall)
        self.latencies_ms.append(ms)

    def summary(self) -> dict:
        out: dict = {}
        for qtype, ranks in sorted(self.ranks.items()):
            n = len(ranks)
            row = {"n": n}
            for k in CUTOFFS:
                row[f"hit@{k}"] = round(sum(1 for r in ranks if r is not None and r <= k) / n, 4)
            row["mrr@10"] = round(sum(1 / r for r in ranks if r is not None and r <= 10) / n, 4)
            row["recall@10"] = round(statistics.fmean(self.recalls[qtype]), 4)
            out[qtype] = row
        lat = sorted(self.latencies_ms)
        out["latency_ms"] = {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2)}
        return out


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of an already sorted list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    idx = max(0, min(len(sorted_values) - 1, int(round(pct / 100 * len(sorted_values) + 0.5)) - 1))
    return float(sorted_values[idx])


SearchFn = Callable[[str], list[Hit]]


def evaluate(questions: Iterable[GoldQuestion], searchers: dict[str, SearchFn], *,
             gold_sizes: dict[str, int] | None = None, with_choices: bool = False,
             progress: Callable[[int], None] | None = None) -> dict:
    """Run every searcher on every question; return {mode: {qtype: metrics, "latency_ms": …}}."""
    stats = {name: ModeStats() for name in searchers}
    for i, q in enumerate(questions):
        text = q.text(with_choices)
        for name, search in searchers.items():
            t = time.perf_counter()
            hits = search(text)
            ms = (time.perf_counter() - t) * 1000
            gold_in_top = {h.chunk.id for h in hits[:10] if is_gold(h.chunk, q)}
            size = (gold_sizes or {}).get(q.section, 10) or 10
            stats[name].add(q.qtype, first_gold_rank(hits, q), len(gold_in_top) / min(10, size), ms)
        if progress:
            progress(i + 1)
    return {name: s.summary() for name, s in stats.items()}


def format_table(results: dict, title: str = "") -> str:
    """A plain-text table: one row per (mode, question type)."""
    lines = [title] if title else []
    lines.append(f"{'mode':18} {'qtype':22} {'n':>5} {'hit@1':>6} {'hit@5':>6} {'hit@10':>6} {'mrr@10':>6} "
                 f"{'rec@10':>6} {'p50ms':>7} {'p95ms':>7}")
    for mode, per in results.items():
        lat = per.get("latency_ms", {})
        for qtype, row in per.items():
            if qtype == "latency_ms":
                continue
            lines.append(f"{mode:18} {qtype:22} {row['n']:5d} {row['hit@1']:6.3f} {row['hit@5']:6.3f} "
                         f"{row['hit@10']:6.3f} {row['mrr@10']:6.3f} {row['recall@10']:6.3f} "
                         f"{lat.get('p50', 0):7.1f} {lat.get('p95', 0):7.1f}")
    return "\n".join(lines)


def coverage_rates(question_sets: dict[str, Sequence[str]], find: Callable[[str], list[Hit]],
                   assess: Callable[[str, list[Hit]], object]) -> dict:
    """How often the coverage signal flags each set of questions as not answered by the library.

    ``question_sets``: name -> question texts (e.g. "in-book", "off-book: other book", "off-book:
    generic"); ``assess`` returns a ``core.retrieval.coverage.Coverage``.  Returns {name: {n, flagged,
    mean_score}}: for in-book questions ``flagged`` should be small, for off-book ones close to 1.
    """
    out: dict = {}
    for name, questions in question_sets.items():
        verdicts = [assess(q, find(q)) for q in questions]
        n = len(verdicts)
        out[name] = {"n": n,
                     "flagged": round(sum(1 for v in verdicts if not v.covered) / n, 4) if n else 0.0,
                     "mean_score": round(statistics.fmean(v.score for v in verdicts), 4) if n else 0.0}
    return out


def format_coverage(rates: dict, threshold: float) -> str:
    """A plain-text table of ``coverage_rates`` output."""
    lines = [f"== coverage (flagged = score < {threshold:.2f}) ==",
             f"{'questions':48} {'n':>5} {'flagged':>8} {'mean score':>10}"]
    for name, row in rates.items():
        lines.append(f"{name[:48]:48} {row['n']:5d} {row['flagged']:8.3f} {row['mean_score']:10.3f}")
    return "\n".join(lines)
