"""Evidence sentences: the few sentences of the retrieved passages that bear on the question.

Small models answer far better from a few relevant sentences than from whole passages (LLMQuoter,
arXiv 2501.05554), and a sentence is what a student can check a claim against.  ``evidence_units``
cuts the retrieved chunks (and their neighbours) into sentences — a code block or a table row stays
whole — and ``select_evidence`` keeps the best ones within a token budget:

* each sentence is ranked four ways — by its embedding cosine with the question, by the share of the
  question's content words it holds, by the rank of the passage it came from, and by how well it reads
  as a statement (a list run or a table row ranks below a whole sentence) — and the ranks are fused
  (reciprocal rank fusion, the usual constant 60): no weight and no threshold to tune;
* a sentence that defines a term the question names comes first; beside it, a sentence defining a broader term
  ("Energy is …" for "what is kinetic energy?") is left out, with the sentences that lean on it;
* a sentence that leans on the one before ("This is called …", "It …") brings that one with it;
* a footnote reference run into the text (a quoted title and a web address) is no evidence;
* the chosen sentences are numbered in book order, grouped by section (``format_evidence``), and each
  number is tied to its chunk: book, section and printed page.

Pure functions over chunks and a similarity vector: the caller embeds.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.answer.attribution import quote_penalty
from core.answer.faithfulness import definition_subject, leans_on_previous
from core.index.fts import STOPWORDS
from core.ingest.sentences import default_splitter
from core.models import Chunk, Hit
from core.retrieval.context import page_span, table_sentences

RRF_K = 60  # the constant of reciprocal rank fusion (Cormack et al. 2009); not tuned here
MIN_WORDS = 4  # shorter pieces ("See Figure 2.") state nothing on their own
MAX_UNIT_TOKENS = 160  # a code block or table row longer than this is cut (its first lines)

_PARAGRAPH = re.compile(r"\n\s*\n")
_CODE_LINE = re.compile(r"[{};=]|::|->|=>|^\s{2,}\S|^\s*(?:fn|let|use|pub|def|return|#|//|\$|>>>|>)\s", re.M)
_QUESTION_END = re.compile(r"\?[\"”’)]*$")
# A sentence that runs into a displayed equation ("The kinetic energy of an object of mass m moving at speed v is"
# / "Ek = ½mv²"): the lead-in stops on a lower-case word, a comma or a colon; the display is one line with "=" and
# hardly an ordinary word.  Apart, the lead-in states nothing and the equation is too short to be evidence.
_RUNS_ON = re.compile(r"[a-z,:]$")
REACTION_ARROWS = "[→⟶⇌⇄⟷↔⇋←]"  # what a chemical equation has where an algebraic one has "="
# A paragraph break inside a sentence, left by the PDF's layout ("… consists of three stages: (1) alarm reaction," /
# "(2) stage of resistance, and (3) stage of exhaustion."): the first part stops on a lower-case word, a comma or a
# colon, the rest starts lower-case or with the next "(2)" of a list.  Apart, the second half listed two stages as if
# it were a sentence, and the chip judge took it for a statement of which stage makes one ill (a hand check).
_CONTINUES = re.compile(r"^(?:[a-z]|\(\w{1,3}\)\s)")
_CODE_MARK = re.compile(r"[;{}`]|==|=>|::")  # "let x = 5;" is code, not a display
_ORDINARY_WORD = re.compile(r"(?<!\S)[a-z]{3,}[.,;:]?(?!\S)")
_RUN_IN_HEAD = re.compile(r"^[^.!?]{1,60}[.!?]\s+(?=[A-Z])")  # "Definition (Kinetic energy). The …"
# "The kinetic energy of an object of mass m moving at speed v is …": a definition whose subject is "X of a Y" defines
# X ("The heat capacity of the small frying pan is found …" speaks of one pan: no definition).
_OF_HEAD = re.compile(r"^(?:an?\s+|the\s+)?(?P<head>[^,;:()]{2,40}?)\s+of\s+(?:an?|any)\s+[^,;:()]{2,80}?"
                      r"\s+(?:is|are|means)\s", re.I)
# A footnote reference run into the text: a quoted title and a web address ("Lydia Saad, "Trust in Federal Government's
# Competence Remains Low," Gallup, 29 September 2020, https://…").  It states nothing, yet its title's words carried a
# claim ("Americans approve of the federal government's competence") in a hand check.
_REFERENCE = re.compile(r"[\"“][^\"”]{3,200}[\"”].*\bhttps?://|\bhttps?://\S+.*[\"“][^\"”]{3,200}[\"”]", re.S)


def is_reference(text: str) -> bool:
    """Is the unit a bibliographic reference (a quoted title and a web address), not a statement?"""
    return bool(_REFERENCE.search(text))


_TITLE_WORD = re.compile(r"[A-Za-z][\w’'-]*")
_HEADING_CHARS = re.compile(r"[\w\s,’'&–-]+")  # words only: no closing stop, no code ("> Inf - Inf")


def is_heading(text: str) -> bool:
    """Is an evidence unit a heading rather than a sentence: words only (no closing stop, no code), and every word
    but the small ones ("of", "from", "the": ``STOPWORDS``) capitalised ("Calculating Molar Concentrations from
    the Mass of Solute", "Key Concepts and Summary")?  A heading names a topic and states nothing."""
    text = text.strip().lstrip("#").strip()
    words = [w for w in _TITLE_WORD.findall(text) if w.lower() not in STOPWORDS]
    return bool(_HEADING_CHARS.fullmatch(text)) and len(words) >= 2 and all(w[0].isupper() for w in words)


@dataclass(frozen=True)
class Unit:
    """A candidate: one sentence (or a whole code block or table row) of one retrieved chunk."""

    chunk: Chunk
    index: int  # position within the chunk, in reading order
    text: str
    hit_rank: int  # rank of the retrieved passage it belongs to (0 = best); a neighbour shares its hit's rank
    code: bool = False


@dataclass(frozen=True)
class Evidence:
    """One numbered evidence sentence: what the model reads and cites as ``[id]``."""

    id: int
    text: str
    chunk: Chunk  # where it is printed: book, section, pages
    index: int  # position within the chunk
    score: float = 0.0  # its fused rank score (higher = nearer the question)
    code: bool = False
    # The stems of the asked term it defines (chosen first; the "From the book" line shows it), or empty.
    defines: frozenset[str] = frozenset()
    leans_on: str = ""  # the sentence before it when it takes its subject from it ("It is …"): judged together


@lru_cache(maxsize=1)
def _splitter():
    return default_splitter()


def is_code(paragraph: str) -> bool:
    """A paragraph of several lines, at least half of which look like code (braces, ``=``, ``::``, indents)."""
    lines = [ln for ln in paragraph.splitlines() if ln.strip()]
    if len(lines) < 2:
        return bool(lines) and len(_CODE_LINE.findall(lines[0])) >= 2 and " " not in lines[0].strip()[:3]
    return sum(1 for ln in lines if _CODE_LINE.search(ln)) * 2 >= len(lines)


_EQUATES = re.compile(r"=|" + REACTION_ARROWS)
_SCRIPT = re.compile(r"[_^]\{[^{}]*\}")


def is_display_equation(paragraph: str) -> bool:
    """One line with "=" or a reaction's arrow and too few ordinary words to be a sentence ("Ek = ½mv²",
    "Wnet = ΔEk = ½mvf² − ½mvi²", "HCO_3^–(aq)+H_2O(l)⇌CO_3^{2–}(aq)+H_3O^+(aq)")."""
    text = _SCRIPT.sub("", paragraph.strip())  # "CO_3^{2–}": a sub- or superscript's braces are no code
    return "\n" not in text and _EQUATES.search(text) is not None and not _CODE_MARK.search(text) \
        and len(_ORDINARY_WORD.findall(text)) < MIN_WORDS


def _with_run_in_heads(sentences: Sequence[str]) -> list[str]:
    """A paragraph's sentences, each piece too short to state anything ("Definition (Work–energy theorem).",
    "Note.") joined to the sentence it heads: apart, the head has the question's words and no content, and the
    sentence it heads has the content without the term's name."""
    out: list[str] = []
    head = ""
    for sentence in (s.strip() for s in sentences):
        if not sentence:
            continue
        if len(sentence.split()) < MIN_WORDS:
            head = f"{head} {sentence}".strip()
            continue
        out.append(f"{head} {sentence}".strip())
        head = ""
    return out + [head] if head else out


def chunk_units(chunk: Chunk, hit_rank: int) -> list[Unit]:
    """The sentences of ``chunk`` (a code paragraph whole; a table's rows as sentences; a displayed equation joined
    to the sentence that leads into it, a run-in head to the sentence it heads)."""
    if chunk.label.startswith("Table"):
        pieces = [(row, False) for row in table_sentences(chunk.text).split("\n") if row.strip()]
    elif chunk.label:  # a figure's caption: one unit
        pieces = [(" ".join(chunk.text.split()), False)]
    else:
        pieces = _paragraph_pieces(chunk.text)
    return [Unit(chunk, i, text, hit_rank, code) for i, (text, code) in enumerate(pieces)]


def _paragraph_pieces(text: str) -> list[tuple[str, bool]]:
    """(sentence or code block, is code) of running text, paragraph by paragraph (``chunk_units``)."""
    pieces: list[tuple[str, bool]] = []
    displayed = False  # did the last piece take a displayed equation?  ("… water:" + two reactions, one per line)
    for para in _PARAGRAPH.split(text):
        if not para.strip():
            continue
        prose = bool(pieces) and not pieces[-1][1]
        if prose and is_display_equation(para) and (displayed or _RUNS_ON.search(pieces[-1][0])):
            pieces[-1] = (f"{pieces[-1][0]} {' '.join(para.split())}", False)
            displayed = True
            continue
        displayed = False
        if is_code(para):
            pieces.append((para.strip("\n"), True))
            continue
        flat = " ".join(para.split())
        if prose and _RUNS_ON.search(pieces[-1][0]) and _CONTINUES.match(flat):
            flat = f"{pieces.pop()[0]} {flat}"  # the sentence the layout broke, whole again
        pieces.extend((s, False) for s in _with_run_in_heads(_splitter().split(flat)))
    return pieces


def evidence_units(hits: Sequence[Hit], neighbours: Sequence[Chunk], k: int) -> list[Unit]:
    """Candidate units from the best ``k`` hits and, for each, its neighbouring chunks in the same section.

    A chunk reached from several hits keeps the best rank; chunks are visited in hit order."""
    by_id: dict[int, tuple[int, Chunk]] = {}
    pool = sorted(neighbours, key=lambda c: (c.book_id, c.ordinal))
    for rank, hit in enumerate(hits[:k]):
        c = hit.chunk
        near = [n for n in pool if n.book_id == c.book_id and n.section_id == c.section_id
                and abs(n.ordinal - c.ordinal) <= 1 and not n.label]
        for chunk in [c, *near]:
            if chunk.id not in by_id:
                by_id[chunk.id] = (rank, chunk)
    units: list[Unit] = []
    for rank, chunk in by_id.values():
        units.extend(chunk_units(chunk, rank))
    return units


@dataclass(frozen=True)
class Gathered:
    """The candidates of one question, embedded once: ``vectors[0]`` is the question, ``vectors[1 + j]`` unit j
    (None when the embedder failed: word overlap and passage rank only)."""

    units: tuple[Unit, ...]
    vectors: np.ndarray | None = None

    @property
    def cosines(self) -> np.ndarray | None:
        return self.vectors[1:] @ self.vectors[0] if self.vectors is not None and len(self.units) else None

    def vector_of(self, unit: Unit) -> np.ndarray | None:
        """The embedding of ``unit`` (one of ``units``)."""
        if self.vectors is None:
            return None
        j = next(i for i, u in enumerate(self.units) if u.chunk.id == unit.chunk.id and u.index == unit.index)
        return self.vectors[1 + j]


def gather(question: str, hits: Sequence[Hit], neighbours: Sequence[Chunk], k: int,
           encode: Callable[[list[str]], np.ndarray] | None) -> Gathered:
    """``evidence_units`` of the best ``k`` hits, embedded with the question in one batch (``encode`` may be
    None or fail: then no vectors)."""
    units = tuple(evidence_units(hits, neighbours, k))
    vectors = None
    if units and encode is not None:
        try:
            vectors = encode([question] + [u.text for u in units])
        except Exception:  # a broken embedder must not cost the student the answer: rank by words
            vectors = None
    return Gathered(units, vectors)


def evidence_signals(question: str, gathered: Gathered, stems: Callable[[str], frozenset[str]],
                     top: int = 3) -> dict[str, float]:
    """How well the best single sentences meet the question (for the "does the book answer this?" decision):
    ``evidence_best`` — the highest question–sentence cosine; ``evidence_top`` — the mean of the ``top`` highest;
    ``evidence_terms`` — the share of the question's content words that those ``top`` sentences hold."""
    cos = gathered.cosines
    if cos is None or not len(cos):
        return {"evidence_best": 0.0, "evidence_top": 0.0, "evidence_terms": 0.0}
    order = np.argsort(-cos)[:top]
    asked = stems(question)
    held = frozenset().union(*(stems(gathered.units[j].text) for j in order))
    return {"evidence_best": float(cos[order[0]]), "evidence_top": float(np.mean(cos[order])),
            "evidence_terms": len(asked & held) / len(asked) if asked else 0.0}


def _ranks(values: Sequence[float]) -> np.ndarray:
    """0 for the largest value; ties share the better rank."""
    arr = np.asarray(values, dtype=float)
    order = np.argsort(-arr, kind="stable")
    ranks = np.empty(len(arr), dtype=float)
    prev, prev_rank = None, 0
    for pos, j in enumerate(order):
        if prev is None or arr[j] != prev:
            prev, prev_rank = arr[j], pos
        ranks[j] = prev_rank
    return ranks


def fused_scores(cosines: Sequence[float], overlaps: Sequence[float], hit_ranks: Sequence[int],
                 penalties: Sequence[float] | None = None) -> np.ndarray:
    """Reciprocal rank fusion of the rankings (higher = better): by cosine, by word overlap, by passage rank and,
    with ``penalties``, by how well the unit reads as a statement (``quote_penalty``: list runs, table
    bars, fragments rank below whole sentences)."""
    if not len(cosines):
        return np.zeros(0)
    rankings = [cosines, overlaps, [-r for r in hit_ranks]]
    if penalties is not None:
        rankings.append([-p for p in penalties])
    return sum(1.0 / (RRF_K + 1 + _ranks(v)) for v in rankings)


def defined_term(unit_text: str, stems: Callable[[str], frozenset[str]]) -> frozenset[str]:
    """The stems of the term a sentence defines ("Mores are …"; "The kinetic energy of an object … is …": the head
    before "of"; after a run-in head such as "Definition (Kinetic energy)."), or an empty set."""
    text = _without_run_in_head(unit_text)
    head = _OF_HEAD.match(text)
    subject = definition_subject(text) or (definition_subject(f"{head['head']} is …") if head else None)
    return stems(subject) if subject else frozenset()


def _without_run_in_head(text: str) -> str:
    """"Definition (Kinetic energy). The kinetic energy of …" → "The kinetic energy of …" (``_with_run_in_heads``)."""
    m = _RUN_IN_HEAD.match(text.strip())
    return text.strip()[m.end():] if m and len(m.group(0).split()) < MIN_WORDS else text.strip()


def _leans_on(units: Sequence[Unit], j: int, position: Mapping[tuple[int, int], int], left_out: set[int]) -> bool:
    """Does unit j take its subject ("It comes in many forms") from a unit that is left out?"""
    prev = position.get((units[j].chunk.id, units[j].index - 1))
    return prev in left_out and not units[j].code and leans_on_previous(units[j].text)


def select_evidence(question: str, units: Sequence[Unit], cosines: Sequence[float] | None, *,
                    token_budget: int, count_tokens: Callable[[str], int],
                    stems: Callable[[str], frozenset[str]], max_units: int = 12) -> tuple[Evidence, ...]:
    """The best units within ``token_budget``, numbered 1..n in book order (see the module docstring).

    ``cosines[j]``: cosine between the question and unit j (None: word overlap and passage rank only)."""
    asked = stems(question)
    usable = [j for j, u in enumerate(units)
              if u.code or (len(u.text.split()) >= MIN_WORDS and not _QUESTION_END.search(u.text)
                            and not is_reference(u.text))]
    if not usable:
        return ()
    cos = [float(cosines[j]) if cosines is not None else 0.0 for j in usable]
    lex = [len(asked & stems(units[j].text)) / len(asked) if asked else 0.0 for j in usable]
    fused = fused_scores(cos, lex, [units[j].hit_rank for j in usable],
                         [0.0 if units[j].code else quote_penalty(units[j].text) for j in usable])
    score = {j: float(f) for j, f in zip(usable, fused)}
    terms = {j: defined_term(units[j].text, stems) for j in usable}
    defining = [j for j in usable if terms[j] and terms[j] <= asked]  # "Mores are …" for "what are mores?"
    # "Energy is the capacity to do work." beside "The kinetic energy of an object … is …" for "what is kinetic
    # energy?": the broader term's definition is left out (with what leans on it).  The 1.5B gave kinetic energy the
    # definition of energy in 8 of 8 samples with both in its evidence (the sample book, session 18).
    broader = {j for j in defining if any(terms[j] < terms[k] for k in defining)}
    first = [j for j in defining if j not in broader]
    position = {(u.chunk.id, u.index): j for j, u in enumerate(units)}
    order = first[:2] + [j for j in sorted(usable, key=lambda j: -score[j]) if j not in first[:2]
                         and j not in broader and not _leans_on(units, j, position, broader)]
    chosen: dict[int, float] = {}
    used = 0
    seen: set[str] = set()
    for j in order:
        if len(chosen) >= max_units or used >= token_budget:
            break
        group = [j]
        prev = position.get((units[j].chunk.id, units[j].index - 1))
        if prev is not None and prev not in chosen and not units[j].code and leans_on_previous(units[j].text):
            group.insert(0, prev)
        group = [g for g in group if g not in chosen and _norm(units[g].text) not in seen]
        cost = sum(_cost(units[g], count_tokens) for g in group)
        if not group or used + cost > token_budget:
            continue
        for g in group:
            chosen[g] = score.get(g, 0.0)
            seen.add(_norm(units[g].text))
        used += cost
    picked = sorted(chosen, key=lambda j: (units[j].chunk.book_id, units[j].chunk.ordinal, units[j].index))
    return tuple(Evidence(id=i + 1, text=_clip(units[j], count_tokens), chunk=units[j].chunk,
                          index=units[j].index, score=chosen[j], code=units[j].code,
                          defines=terms[j] if j in first else frozenset(), leans_on=_leaned_on(units, j, position))
                 for i, j in enumerate(picked))


_LEADING_PHRASE = re.compile(r"^[^,.;:]{1,40},\s+")  # "For the most part, it also resolved …"


def _leaned_on(units: Sequence[Unit], j: int, position: Mapping[tuple[int, int], int]) -> str:
    """The unit before unit j when j takes its subject from it, also past a short leading phrase ("For the most
    part, it also resolved …": read alone, the judge took it for the Great Compromise, not the Constitution)."""
    prev = position.get((units[j].chunk.id, units[j].index - 1))
    text = units[j].text
    if prev is None or units[j].code or units[prev].code:
        return ""
    leans = leans_on_previous(text) or leans_on_previous(_LEADING_PHRASE.sub("", text, count=1))
    return units[prev].text if leans else ""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _cost(unit: Unit, count_tokens: Callable[[str], int]) -> int:
    return min(count_tokens(unit.text), MAX_UNIT_TOKENS) + 3  # "[n] " and the line break


def _clip(unit: Unit, count_tokens: Callable[[str], int]) -> str:
    """A code block or table row over ``MAX_UNIT_TOKENS`` keeps its first lines (whole lines)."""
    if count_tokens(unit.text) <= MAX_UNIT_TOKENS:
        return unit.text
    kept: list[str] = []
    for line in unit.text.splitlines() if unit.code else unit.text.split(" "):
        trial = ("\n" if unit.code else " ").join([*kept, line])
        if count_tokens(trial) > MAX_UNIT_TOKENS:
            break
        kept.append(line)
    return ("\n" if unit.code else " ").join(kept) + " …"


def section_heading(chunk: Chunk) -> str:
    """"2.3 Analyzing Findings (p. 44)": how a group of evidence sentences is introduced."""
    name = f"{chunk.section_number or ''} {chunk.section_title}".strip() or chunk.chapter_title.strip()
    if chunk.label:
        name = f"{name}, {chunk.label}" if name else chunk.label
    pages = page_span(chunk)
    return f"{name} ({pages})" if name and pages else name or pages


def grouped(evidence: Sequence[Evidence]) -> list[tuple[str, list[Evidence]]]:
    """Evidence in order, grouped into runs of the same section (a heading per run)."""
    groups: list[tuple[str, list[Evidence]]] = []
    last = None
    for e in evidence:
        key = (e.chunk.book_id, e.chunk.section_id, e.chunk.label)
        if key != last:
            groups.append((section_heading(e.chunk), []))
            last = key
        groups[-1][1].append(e)
    return groups


__all__ = ["Evidence", "Gathered", "RRF_K", "Unit", "evidence_signals", "gather", "chunk_units", "defined_term", "evidence_units", "fused_scores",
           "grouped", "is_code", "is_display_equation", "is_heading", "section_heading", "select_evidence"]
