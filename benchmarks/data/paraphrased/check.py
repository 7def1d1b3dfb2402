"""Check the paraphrased benchmark questions in this folder.

Run from anywhere:  python benchmarks/data/paraphrased/check.py [--new-words]

Checks (exit status 1 if any fails):
  * every line of every file parses and has the expected fields; style is one of the four styles;
  * keyed files: 40 lines, each qid exists in the book's questions.jsonl and answer key, no duplicates,
    every keyed qid is covered; no "which of the following"; questions with a `program` field contain
    the program verbatim; `avoids` lists only alternatives of the question's key terms;
  * no paraphrase of a keyed question contains any alternative of its key terms (case-insensitive,
    whole word, apostrophes dropped; `#[test]` as a literal substring). For questions with a `program`,
    the verbatim program is taken out before this check (it may print the answer, e.g. `c2`);
    hits inside the program are reported, not failed. With nltk installed, inflected forms
    (Porter stems, as the key-term scorer matches) are also reported, not failed;
  * off-book files: 40 lines in the order of ../offbook/<book>.jsonl, same `original` and `kind`;
    `absent_terms` is a subset of the original's and each listed term occurs in the paraphrase;
    "absent-term" paraphrases that are not "everyday" keep all their terms; no listed term occurs in
    book.md (case-insensitive);
  * "short" paraphrases have 3-8 words outside code fences;
  * counts per style per file are printed.

--new-words also prints, for each off-book paraphrase, the words (4+ letters) that are not in the
original question with their counts in book.md, to review that no paraphrase drifted onto a topic
the book covers.
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent
BENCH = (HERE / "../../../../shared/bench").resolve()
KEYED_BOOKS = ["psychology-2e", "chemistry-2e", "american-government-4e", "rust-book"]
ALL_BOOKS = ["psychology-2e", "chemistry-2e", "american-government-4e", "astronomy-2e", "rust-book"]
STYLES = ["everyday", "short", "typo", "context"]

try:
    from nltk.stem.porter import PorterStemmer
    _stem = PorterStemmer().stem
except ImportError:  # the stem report is optional
    _stem = None

errors = []


def err(msg):
    errors.append(msg)
    print("ERROR:", msg)


def norm(s):
    return s.lower().replace("'", "").replace("\u2019", "")


def contains(text, alt):
    """Whole-word, case-insensitive occurrence of a key-term alternative."""
    t, a = norm(text), norm(alt)
    if re.search(r"[^a-z0-9_\- ]", a):
        return a in t
    pat = r"(?<![a-z0-9_])" + r"\s+".join(re.escape(w) for w in a.split()) + r"(?![a-z0-9_])"
    return re.search(pat, t) is not None


def stem_contains(text, alt):
    if re.search(r"[^a-z0-9_\- ]", norm(alt)):  # literal alternatives such as #[test] are not stemmed
        return False
    toks = [_stem(w) for w in re.findall(r"[a-z0-9_]+", norm(text))]
    atoks = [_stem(w) for w in re.findall(r"[a-z0-9_]+", norm(alt))]
    n = len(atoks)
    return n > 0 and any(toks[i:i + n] == atoks for i in range(len(toks) - n + 1))


def prose(text):
    return re.sub(r"```.*?```", " ", text, flags=re.S)


def load(path):
    rows = []
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            err(f"{path.name}:{i} does not parse: {e}")
    return rows


def check_style(name, i, row):
    if row.get("style") not in STYLES:
        err(f"{name}:{i} bad style {row.get('style')!r}")
    elif row["style"] == "short":
        n = len(prose(row["question"]).split())
        if not 3 <= n <= 8:
            err(f"{name}:{i} short question has {n} words")


def report(name, rows):
    c = Counter(r.get("style") for r in rows)
    mix = ", ".join(f"{s} {c[s]}" for s in STYLES)
    print(f"{name:38s} {len(rows):3d} lines: {mix}")
    return c


def check_keyed(book, totals):
    name = f"{book}.jsonl"
    rows = load(HERE / name)
    qs = {}
    for line in open(BENCH / book / "questions.jsonl", encoding="utf-8"):
        r = json.loads(line)
        qs[r["qid"]] = r
    keys = {}
    for line in open(DATA / "answer_keys" / name, encoding="utf-8"):
        k = json.loads(line)
        keys[k["qid"]] = k
    seen = set()
    for i, row in enumerate(rows, 1):
        if set(row) != {"qid", "question", "style", "avoids"}:
            err(f"{name}:{i} fields {sorted(row)}")
        qid, q = row.get("qid"), row.get("question", "")
        if qid not in qs:
            err(f"{name}:{i} qid {qid} not in questions.jsonl")
        if qid not in keys:
            err(f"{name}:{i} qid {qid} not in answer key")
            continue
        if qid in seen:
            err(f"{name}:{i} duplicate qid {qid}")
        seen.add(qid)
        check_style(name, i, row)
        if "which of the following" in q.lower():
            err(f"{name}:{i} still says 'which of the following'")
        alts = [a for term in keys[qid]["key_terms"] for a in term]
        for a in row.get("avoids", []):
            if a not in alts:
                err(f"{name}:{i} avoids {a!r} is not a key-term alternative")
        program = qs.get(qid, {}).get("program")
        text = q
        if program:
            if program not in q:
                err(f"{name}:{i} program is not verbatim")
            text = q.replace(program, " ")
        for a in alts:
            if contains(text, a):
                err(f"{name}:{i} contains key term {a!r}: {q[:80]!r}")
            elif program and contains(program, a):
                print(f"  note: {name}:{i} key term {a!r} occurs only inside the verbatim program")
            elif _stem and stem_contains(text, a):
                print(f"  note: {name}:{i} an inflected form of {a!r} occurs (stem match)")
    missing = set(keys) - seen
    if missing:
        err(f"{name}: keyed qids without a paraphrase: {sorted(missing)}")
    totals.update(report(name, rows))


def check_offbook(book, totals, new_words):
    name = f"offbook-{book}.jsonl"
    rows = load(HERE / name)
    orig = [json.loads(l) for l in open(DATA / "offbook" / f"{book}.jsonl", encoding="utf-8")]
    bookmd = (BENCH / book / "book.md").read_text(encoding="utf-8")
    low = bookmd.lower()
    if len(rows) != len(orig):
        err(f"{name}: {len(rows)} lines, original has {len(orig)}")
    for i, (row, o) in enumerate(zip(rows, orig), 1):
        if set(row) != {"question", "original", "kind", "absent_terms", "style"}:
            err(f"{name}:{i} fields {sorted(row)}")
        if row.get("original") != o["question"] or row.get("kind") != o["kind"]:
            err(f"{name}:{i} original/kind differ from offbook/{book}.jsonl line {i}")
        check_style(name, i, row)
        q, terms = row.get("question", ""), row.get("absent_terms", [])
        for t in terms:
            if t not in o["absent_terms"]:
                err(f"{name}:{i} absent term {t!r} not in the original's list")
            if t not in q:
                err(f"{name}:{i} absent term {t!r} not written in the paraphrase")
            if t.lower() in low:
                err(f"{name}:{i} absent term {t!r} occurs in book.md")
        if o["kind"] == "absent-term" and row.get("style") != "everyday" and terms != o["absent_terms"]:
            err(f"{name}:{i} non-everyday absent-term paraphrase drops its term(s)")
        if o["kind"] == "absent-term" and not terms:
            print(f"  note: {name}:{i} describes its term instead of naming it: {q!r}")
        if new_words:
            old = set(re.findall(r"[a-z]+", o["question"].lower()))
            new = [w for w in dict.fromkeys(re.findall(r"[a-z]+", q.lower())) if len(w) >= 4 and w not in old]
            counts = ", ".join(f"{w}:{len(re.findall(r'(?<![a-z])' + w, low))}" for w in new)
            print(f"  {name}:{i} {q!r}\n      new words: {counts}")
    totals.update(report(name, rows))


def main():
    new_words = "--new-words" in sys.argv
    totals = Counter()
    for book in KEYED_BOOKS:
        check_keyed(book, totals)
    for book in ALL_BOOKS:
        check_offbook(book, totals, new_words)
    n = sum(totals.values())
    print(f"{'total':38s} {n:3d} lines: " + ", ".join(f"{s} {totals[s]} ({100 * totals[s] / n:.0f}%)" for s in STYLES))
    extra = [p.name for p in HERE.glob("*.jsonl")
             if p.name not in {f"{b}.jsonl" for b in KEYED_BOOKS} | {f"offbook-{b}.jsonl" for b in ALL_BOOKS}]
    if extra:
        err(f"unexpected files: {extra}")
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
