#!/usr/bin/env python3
"""Check the held-out evaluation sets against their PDFs.

Usage:  python benchmarks/data/heldout/check.py [PDF_DIR]
PDF_DIR defaults to $LANTERN_HELDOUT_PDFS, else /work/heldout-pdfs. It is the folder where the Debian packages
were unpacked with `dpkg -x` (see README.md); the two PDFs may also lie directly in it.

For every set it asserts:
  * questions.jsonl: 30 records with the required fields; gold pages exist and span at most 2 pages;
    printed_pages are the printed labels of those pages; the section title is a bookmark whose page span covers
    the gold pages and which lies in the stated chapter; the evidence (<= 300 characters; fragments separated by
    " … ") occurs on the gold page(s) after normalising whitespace, quotes and line-end hyphenation;
  * keys.jsonl: one record per qid, 1-3 key terms, every alternative lower case, at most 3 words, and present in
    the manual's extracted text as a whole word or phrase (case-insensitive);
  * near_domain.jsonl: 15 records; absent-term questions name terms that occur in the question but nowhere in the
    manual (with plural/-ing/-ed, hyphen/space/joined variants); topic questions have no terms and a `checked` note.
It also checks `mentions_key_term` (does the question itself contain one of its key-term alternatives, matched as
in the key check) and reports how many questions mention their key term and how many avoid it.
Exit status 0 when everything holds, 1 otherwise. Needs PyMuPDF (`import fitz`).
"""
import json
import os
import re
import sys
import unicodedata
from pathlib import Path

import fitz  # PyMuPDF

HERE = Path(__file__).resolve().parent
ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5", "VI": "6"}
SETS = {
    # set name -> (path inside the unpacked Debian package, file name, whether the PDF has page labels)
    "r-intro": ("usr/share/R/doc/manual/R-intro.pdf", "R-intro.pdf", True),
    "gnuplot": ("usr/share/doc/gnuplot/gnuplot.pdf", "gnuplot.pdf", False),
}
Q_FIELDS = ["qid", "question", "qtype", "gold_pages", "printed_pages", "chapter", "section", "section_title",
            "gold_level", "answer_text", "evidence", "mentions_key_term"]
N_QUESTIONS, N_NEAR = 30, 15
ELLIPSIS = " … "


def norm(s: str, dehyphen: bool) -> str:
    """Lower-case comparable form: NFKC, straight quotes, joined line-end hyphens, single spaces."""
    s = unicodedata.normalize("NFKC", s)
    for a, b in (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("\u2013", "-"), ("\u2014", "-"),
                 ("\u2212", "-"), ("\u00a0", " ")):
        s = s.replace(a, b)
    s = re.sub(r"-\n", "" if dehyphen else "-", s)
    return re.sub(r"\s+", " ", s).strip().lower()


def in_text(needle: str, text: str) -> bool:
    return any(norm(needle, True) in norm(text, d) for d in (True, False))


def find_pdf(root: Path, rel: str, name: str) -> Path:
    for p in (root / rel, root / name):
        if p.is_file():
            return p
    raise SystemExit(f"PDF not found: {root / rel} (or {root / name}); pass the folder as argument "
                     "or set LANTERN_HELDOUT_PDFS")


def load_jsonl(path: Path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def word_re(alt: str) -> re.Pattern:
    pre = r"(?<![a-z0-9])" if alt[0].isalnum() else ""
    post = r"(?![a-z0-9])" if alt[-1].isalnum() else ""
    return re.compile(pre + re.escape(alt) + post)


def variants(term: str):
    t = norm(term, True)
    return {v for v in {t, t.replace("-", " "), t.replace("-", ""), t.replace(" ", "-"), t.replace(" ", "")}
            if v.strip()}


def absent_hits(term: str, text: str) -> int:
    # prefix match at a word start, so plural/-ing/-ed forms count as hits too
    return max(len(re.findall(r"(?<![a-z0-9])" + re.escape(v), text)) for v in variants(term))


def toc_spans(doc):
    """Bookmarks as (title, first_page, last_page, top-level title); last_page = next bookmark's first page."""
    toc = doc.get_toc()
    out, top = [], ""
    for i, (lvl, title, page) in enumerate(toc):
        if lvl == 1:
            top = title
        nxt = next((p for (l, _t, p) in toc[i + 1:] if l <= lvl), doc.page_count)
        out.append((title.strip(), page, max(page, nxt), top))
    return out


def chapter_of(top: str) -> str:
    head = top.split()[0]
    return ROMAN.get(head, head)


def check_set(name: str, pdf_root: Path, errors: list, report: list):
    rel, fname, has_labels = SETS[name]
    pdf = find_pdf(pdf_root, rel, fname)
    doc = fitz.open(pdf)
    pages = [doc[i].get_text() for i in range(doc.page_count)]
    full_raw = "\n".join(pages)
    full = {d: norm(full_raw, d) for d in (True, False)}
    spans = toc_spans(doc)
    d = HERE / name
    qs, keys, near = (load_jsonl(d / f) for f in ("questions.jsonl", "keys.jsonl", "near_domain.jsonl"))

    def err(msg):
        errors.append(f"{name}: {msg}")

    # questions
    if len(qs) != N_QUESTIONS:
        err(f"questions.jsonl has {len(qs)} records, expected {N_QUESTIONS}")
    seen = set()
    for q in qs:
        qid = q.get("qid", "?")
        for f in Q_FIELDS:
            if f not in q:
                err(f"{qid}: missing field {f}")
        if qid in seen:
            err(f"{qid}: duplicate qid")
        seen.add(qid)
        if not re.fullmatch(re.escape(name) + r":\d{2}", qid):
            err(f"{qid}: qid should look like {name}:NN")
        if q.get("qtype") != "paraphrased" or q.get("gold_level") != "section":
            err(f"{qid}: qtype/gold_level")
        first, last = q["gold_pages"]
        if not (1 <= first <= last <= doc.page_count) or last - first > 1:
            err(f"{qid}: bad gold_pages {q['gold_pages']}")
            continue
        want = [doc[p - 1].get_label() if has_labels else str(p) for p in range(first, last + 1)]
        if q["printed_pages"] != want:
            err(f"{qid}: printed_pages {q['printed_pages']} != {want}")
        if not has_labels:  # printed number must be in the page's running head
            for p in range(first, last + 1):
                if str(p) not in pages[p - 1].split("\n")[:3]:
                    err(f"{qid}: page {p} does not show printed number {p}")
        ev = q["evidence"]
        if len(ev) > 300:
            err(f"{qid}: evidence longer than 300 characters ({len(ev)})")
        gold_text = "\n".join(pages[first - 1:last])
        for frag in ev.split(ELLIPSIS):
            if not in_text(frag, gold_text):
                err(f"{qid}: evidence not on gold page(s) {first}-{last}: {frag[:70]!r}")
        title = q["section_title"]
        ok = [s for s in spans if s[0] == title and s[1] <= first and last <= s[2]
              and chapter_of(s[3]) == q["chapter"]]
        # an appendix without subsections: its bookmark is the chapter itself, "A A sample session"
        ok += [s for s in spans if s[0] == f"{q['chapter']} {title}" and s[1] <= first and last <= s[2]]
        if not ok:
            err(f"{qid}: section_title {title!r} (chapter {q['chapter']}) is no bookmark covering pages {first}-{last}")
        if q.get("section") and not re.fullmatch(re.escape(q["chapter"]) + r"(\.\d+)+", q["section"]):
            err(f"{qid}: section {q['section']!r} does not belong to chapter {q['chapter']}")

    # keys
    kq = {k["qid"]: k for k in keys}
    if set(kq) != seen or len(keys) != len(qs):
        err("keys.jsonl qids do not match questions.jsonl one to one")
    uses_key = 0
    for q in qs:
        k = kq.get(q["qid"])
        if not k:
            continue
        terms = k.get("key_terms", [])
        if not 1 <= len(terms) <= 3 or not k.get("why"):
            err(f"{q['qid']}: needs 1-3 key terms and a why")
        qtext = norm(q["question"], True)
        hit = False
        for term in terms:
            if not term:
                err(f"{q['qid']}: empty key term")
            for alt in term:
                if alt != alt.lower() or len(alt.split()) > 3 or not alt.strip():
                    err(f"{q['qid']}: alternative {alt!r} must be lower case, 1-3 words")
                pat = word_re(norm(alt, True))
                if not any(pat.search(full[dd]) for dd in full):
                    err(f"{q['qid']}: key alternative {alt!r} not found in the manual's text")
                if pat.search(qtext):
                    hit = True
        uses_key += hit
        if q.get("mentions_key_term") is not hit:
            err(f"{q['qid']}: mentions_key_term should be {hit}")

    # near-domain
    if len(near) != N_NEAR:
        err(f"near_domain.jsonl has {len(near)} records, expected {N_NEAR}")
    kinds = {"absent-term": 0, "topic": 0}
    for i, n in enumerate(near, 1):
        kind = n.get("kind")
        if kind not in kinds or not n.get("question") or not n.get("checked") or "absent_terms" not in n:
            err(f"near_domain line {i}: bad record")
            continue
        kinds[kind] += 1
        if kind == "topic" and n["absent_terms"]:
            err(f"near_domain line {i}: topic questions list no absent_terms")
        if kind == "absent-term":
            if not n["absent_terms"]:
                err(f"near_domain line {i}: absent-term question without terms")
            for t in n["absent_terms"]:
                if t.lower() not in n["question"].lower():
                    err(f"near_domain line {i}: term {t!r} not in the question")
                hits = absent_hits(t, full[True]) + absent_hits(t, full[False])
                if hits:
                    err(f"near_domain line {i}: term {t!r} occurs {hits} times in the manual")

    chapters = sorted({q["chapter"] for q in qs}, key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else c))
    report.append(f"{name}: {pdf} ({pdf.stat().st_size:,} bytes, {doc.page_count} pages); "
                  f"{len(qs)} questions over chapters {','.join(chapters)}; {len(keys)} keys; "
                  f"{len(near)} near-domain ({kinds['absent-term']} absent-term, {kinds['topic']} topic); "
                  f"{uses_key} questions contain a key term, {len(qs) - uses_key} avoid it")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("LANTERN_HELDOUT_PDFS", "/work/heldout-pdfs"))
    errors, report = [], []
    for name in SETS:
        check_set(name, root, errors, report)
    for line in report:
        print(line)
    for e in errors:
        print("FAIL", e)
    print("OK: all held-out checks passed" if not errors else f"{len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
