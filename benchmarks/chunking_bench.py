"""Measure the chunker on the shared OpenStax books: cost ratio, memory, and vector-only retrieval.

    .venv/bin/python -m benchmarks.chunking_bench time psychology-2e
    .venv/bin/python -m benchmarks.chunking_bench eval psychology-2e

``time``: seconds for (a) ``Embedder.encode`` of the final chunks' embed_text, (a') the raw
transformer over exactly those word pieces, and (b) the whole ``chunk_book``; prints b/a, b/a'
(wall and CPU) and peak RSS.  ``paired``: the same, interleaved per group of chapters, for a
machine that other jobs keep busy.  ``eval``: Hit@1/5/10 and MRR@10 by qtype, with
and without the multiple-choice options, for pooled ("late chunking") vs re-embedded chunk vectors.
Reads book.md with ``core.ingest.read.read_book`` (``--parser quick``: the small parser below, used
before the Markdown importer existed).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import re
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from core.index.chunk_plan import ChunkConfig
from core.index.chunker import chunk_book, finish, prepare
from core.index.embedder import Embedder
from core.ingest.tree import finalize_sections
from core.models import Block, BlockKind, Page, ParsedBook, SectionKind, SectionNode, SourceFormat

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_EMPH = re.compile(r"\*\*(.+?)\*\*|(?<!\w)_(.+?)_(?!\w)")


def quick_markdown(path: Path, page_chars: int = 3000) -> ParsedBook:
    """A minimal reader for the bench's book.md (headings, paragraphs, lists, tables, equations)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    title = ""
    sections: list[SectionNode] = []
    blocks: list[Block] = []
    page, chars = 1, 0
    para: list[str] = []

    def flush() -> None:
        nonlocal page, chars
        if not para:
            return
        raw = [ln[2:] if ln.startswith("> ") else ("" if ln == ">" else ln) for ln in para]
        raw = [ln for ln in raw if ln.strip()]
        para.clear()
        if not raw:
            return
        if all(ln.startswith("|") for ln in raw):
            kind = BlockKind.TABLE
        elif all(re.match(r"^\s*(?:[-*]|\d+\.)\s", ln) for ln in raw):
            kind = BlockKind.LIST
            raw = [re.sub(r"^\s*(?:[-*]|\d+\.)\s+", "", ln) for ln in raw]
        elif len(raw) == 1 and "=" in raw[0] and len(raw[0].split()) < 20 and not raw[0].endswith("."):
            kind = BlockKind.EQUATION
        else:
            kind = BlockKind.TEXT
        text = "\n".join(raw) if kind in (BlockKind.TABLE, BlockKind.LIST) else " ".join(raw)
        emphasis = tuple(m.group(1) or m.group(2) for m in _EMPH.finditer(text))
        text = _EMPH.sub(lambda m: m.group(1) or m.group(2), text)
        blocks.append(Block(kind, text, page, len(sections) - 1 if sections else None, emphasis))
        chars += len(text)
        if chars > page_chars:
            page, chars = page + 1, 0

    for ln in lines:
        m = _HEADING.match(ln)
        if m:
            flush()
            level, text = len(m.group(1)), m.group(2).strip()
            if level == 1 and not text.lower().startswith("chapter"):
                title = title or text
                continue
            cm = re.match(r"^Chapter\s+(\d+):\s*(.*)$", text)
            sm = re.match(r"^(\d+\.\d+)\s+(.*)$", text)
            if cm:
                node = SectionNode(1, SectionKind.CHAPTER, cm.group(1), cm.group(2), page)
            elif sm:
                node = SectionNode(level, SectionKind.SECTION, sm.group(1), sm.group(2), page)
            else:
                node = SectionNode(level, SectionKind.SUBSECTION if level > 2 else SectionKind.SECTION, None,
                                   text, page)
            sections.append(node)
        elif ln.strip() == "":
            flush()
        else:
            para.append(ln)
    flush()
    pages = tuple(Page(i, str(i)) for i in range(1, page + 1))
    return ParsedBook(title, SourceFormat.MARKDOWN, pages, finalize_sections(sections, page), tuple(blocks),
                      paginated=False)


PARSER = "importer"  # "importer" (core.ingest.read.read_book) or "quick" (the parser above)


def load_book(name: str) -> ParsedBook:
    path = BENCH / name / "book.md"
    if PARSER == "importer" and importlib.util.find_spec("core.ingest.markdown") is not None:
        from core.ingest.read import read_book
        return read_book(path)
    return quick_markdown(path)


def section_numbers(parsed: ParsedBook) -> list[str | None]:
    """Each section's gold-comparable number: its own or nearest numbered ancestor's ("1.2")."""
    out: list[str | None] = []
    for i, s in enumerate(parsed.sections):
        node, num = i, None
        while node is not None:
            n = parsed.sections[node]
            if n.number and re.fullmatch(r"\d+\.\d+", n.number):
                num = n.number
                break
            if n.kind is SectionKind.CHAPTER and n.number:
                num = f"{n.number}.0"
                break
            node = n.parent
        out.append(num)
    return out


def evaluate(parsed, drafts, vectors, queries, golds, qtypes) -> dict:
    nums = section_numbers(parsed)
    chunk_sec = [nums[d.section] if d.section is not None else None for d in drafts]
    scores = queries @ vectors.T
    top = np.argsort(-scores, axis=1)[:, :10]
    res: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for qi, row in enumerate(top):
        rank = next((r for r, c in enumerate(row) if chunk_sec[c] == golds[qi]), None)
        for key in ("all", qtypes[qi]):
            res[key]["h1"].append(rank is not None and rank < 1)
            res[key]["h5"].append(rank is not None and rank < 5)
            res[key]["h10"].append(rank is not None)
            res[key]["mrr"].append(0.0 if rank is None else 1.0 / (rank + 1))
    return {k: {m: round(float(np.mean(v)), 3) for m, v in d.items()} | {"n": len(d["h1"])}
            for k, d in res.items()}


def cmd_time(name: str, config: ChunkConfig) -> None:
    t0 = time.perf_counter()
    parsed = load_book(name)
    t_parse = time.perf_counter() - t0
    emb = Embedder()
    emb.load()
    emb.encode(["warm up"])
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0, c0 = time.perf_counter(), time.process_time()
    drafts, vectors = chunk_book(parsed, emb, config=config)
    t_chunk, c_chunk = time.perf_counter() - t0, time.process_time() - c0
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    texts = [d.embed_text for d in drafts]
    t0, c0 = time.perf_counter(), time.process_time()
    emb.encode(texts)
    t_encode, c_encode = time.perf_counter() - t0, time.process_time() - c0
    # (a') the model alone over exactly the final chunks' word pieces, through the same raw path.
    chunk_ids = emb.token_ids(texts)
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in emb.embed_windows(chunk_ids):
        pass
    t_raw, c_raw = time.perf_counter() - t0, time.process_time() - c0
    toks = sum(len(i) for i in chunk_ids)
    body = sum(len(ids) for ids in emb.token_ids([b.text for b in parsed.blocks]))
    print(json.dumps({"book": name, "chunks": len(drafts), "parse_s": round(t_parse, 2),
                      "chunk_book_s": round(t_chunk, 2), "encode_final_chunks_s": round(t_encode, 2),
                      "ratio": round(t_chunk / t_encode, 3), "cpu_chunk_book_s": round(c_chunk, 1),
                      "cpu_encode_s": round(c_encode, 1), "cpu_ratio": round(c_chunk / c_encode, 3),
                      "raw_model_final_chunks_s": round(t_raw, 2), "ratio_vs_raw": round(t_chunk / t_raw, 3),
                      "cpu_raw_s": round(c_raw, 1), "cpu_ratio_vs_raw": round(c_chunk / c_raw, 3), "chunk_tokens": toks, "book_tokens": body,
                      "mean_chunk_tokens": round(float(np.mean([d.token_count for d in drafts])), 1),
                      "max_embed_tokens": max(emb.count_tokens_batch(texts)),
                      "rss_before_mb": round(rss0), "peak_rss_mb": round(rss1)}, indent=1))


def cmd_paired(name: str, config: ChunkConfig, pieces: int = 4) -> None:
    """Like ``time`` but interleaved per group of chapters, so a busy machine hits both sides alike."""
    parsed = load_book(name)
    emb = Embedder()
    emb.load()
    emb.encode(["warm up"])
    chapter_of = [None] * len(parsed.sections)
    for i, s in enumerate(parsed.sections):
        chapter_of[i] = chapter_of[s.parent] if s.parent is not None else i
    chapters = sorted({c for c in chapter_of if c is not None})
    groups = [set(chapters[g::pieces]) for g in range(pieces)]
    tot = defaultdict(float)
    for g in groups:
        sub = dataclasses.replace(parsed, blocks=tuple(
            b for b in parsed.blocks if b.section is not None and chapter_of[b.section] in g))
        t0, c0 = time.perf_counter(), time.process_time()
        drafts, _ = chunk_book(sub, emb, config=config)
        tot["chunk_book_s"] += time.perf_counter() - t0
        tot["cpu_chunk_book_s"] += time.process_time() - c0
        texts = [d.embed_text for d in drafts]
        t0, c0 = time.perf_counter(), time.process_time()
        emb.encode(texts)
        tot["encode_s"] += time.perf_counter() - t0
        tot["cpu_encode_s"] += time.process_time() - c0
        ids = emb.token_ids(texts)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in emb.embed_windows(ids):
            pass
        tot["raw_s"] += time.perf_counter() - t0
        tot["cpu_raw_s"] += time.process_time() - c0
    out = {k: round(v, 1) for k, v in tot.items()}
    out |= {"ratio_vs_encode": round(tot["chunk_book_s"] / tot["encode_s"], 3),
            "ratio_vs_raw": round(tot["chunk_book_s"] / tot["raw_s"], 3),
            "cpu_ratio_vs_encode": round(tot["cpu_chunk_book_s"] / tot["cpu_encode_s"], 3),
            "cpu_ratio_vs_raw": round(tot["cpu_chunk_book_s"] / tot["cpu_raw_s"], 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    print(json.dumps({"book": name, "pieces": pieces} | out, indent=1))


def _questions(name: str):
    rows = [json.loads(ln) for ln in (BENCH / name / "questions.jsonl").read_text().splitlines() if ln.strip()]
    return rows


def cmd_eval(name: str, variants: list[str], config: ChunkConfig) -> None:
    parsed = load_book(name)
    emb = Embedder()
    rows = _questions(name)
    golds = [r["section"] for r in rows]
    qtypes = [r["qtype"] for r in rows]
    plain = emb.encode([r["question"] for r in rows])
    with_choices = emb.encode([r["question"] + " " + " ".join(r.get("choices") or []) for r in rows])
    preps = {}
    for variant in variants:
        # variant syntax: "pooled" / "reembed" plus ",key=value" overrides of ChunkConfig
        kind, *overrides = variant.split(",")
        cfg = dataclasses.replace(config, pooled=(kind == "pooled"), **{
            k: type(getattr(config, k))(v) if not isinstance(getattr(config, k), bool) else v == "1"
            for k, v in (o.split("=") for o in overrides)})
        key = (cfg.title_prefix, cfg.prefix_max_tokens, cfg.punkt_sample_chars)
        if key not in preps:
            t0 = time.perf_counter()
            preps[key] = prepare(parsed, emb, cfg)
            print(f"# prepared {key} in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        drafts, vectors = finish(preps[key], emb, cfg)
        sizes = [d.token_count for d in drafts]
        out = {"variant": variant, "chunks": len(drafts), "mean_tokens": round(float(np.mean(sizes)), 1),
               "plain": evaluate(parsed, drafts, vectors, plain, golds, qtypes),
               "with_choices": evaluate(parsed, drafts, vectors, with_choices, golds, qtypes)}
        print(json.dumps(out), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["time", "paired", "eval"])
    ap.add_argument("book")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--parser", choices=["importer", "quick"], default="importer")
    args = ap.parse_args()
    global PARSER
    PARSER = args.parser
    config = ChunkConfig()
    if args.command == "time":
        cmd_time(args.book, config)
    elif args.command == "paired":
        cmd_paired(args.book, config)
    else:
        cmd_eval(args.book, args.variant or ["pooled", "reembed"], config)


if __name__ == "__main__":
    main()
