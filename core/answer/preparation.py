"""The passages one answer is built from: numbered sources within the token budget, trimmed to what the
answer needs, the prompt, the source sentences answer sentences are matched against, and their embeddings.

``prepare`` is the step of ``Tutor.ask`` between retrieval and the model; ``Prepared`` is its working
state, filled step by step (so not frozen) and never shown outside ``core.answer``.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.answer.attribution import SourceSentence, best_quotes, sentence_candidates, stems
from core.answer.evidence import Evidence, Gathered, gather, select_evidence
from core.answer.grounding import Grounded, Judge, ground
from core.answer.verification import chip_judge, model_judge
from core.answer.prompt import citation_grammar, fit_prompt, wants_detail
from core.answer.replies import trim_sources
from core.ingest.language import ENGLISH, NAMES, NOUNS_CAPITALISED
from core.models import Chunk, Source
from core.retrieval.context import approx_tokens, build_sources, source_label
from core.retrieval.mentions import Absence, absence

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AnswerSettings:
    """How the tutor answers.  The source budget is what keeps the first token fast on 2 cores:
    Qwen2.5-0.5B evaluates ~96 prompt tokens/s there, so ~320 tokens of sources plus the question ≈ 4 s."""

    k: int = 4  # passages retrieved
    max_sources: int = 3  # passages given to the model
    source_tokens: int = 320  # all passages together (model tokens)
    per_source_tokens: int = 150
    answer_tokens: int = 180  # two to six sentences; the answer is cut at its last whole sentence beyond this
    detail_tokens: int = 450  # when the student asks for steps or detail
    temperature: float = 0.2
    beyond_book: bool = False  # allow labelled general-knowledge answers when the book falls short
    drop_unsupported: bool = True  # remove sentences nothing in the sources supports
    neighbour_radius: int = 1  # small-to-big: neighbouring chunks a passage may grow into
    trim_sources: bool = True  # leave out passages that answer the question much worse than the best one
    focus_sources: bool = True  # a hit over its budget keeps its sentence nearest the question
    # An answer none of whose sentences a passage supports is declined as "not in your book" unless the
    # coverage score is at least this (then the book's own sentences are shown instead).
    grounded_keep: float = 0.6
    # What the model reads: "evidence" — the best sentences of the retrieved passages, numbered, cited by
    # number under a grammar (``core.answer.evidence``, ``core.answer.grounding``); "passages" — whole
    # passages cited by passage (the reader before evidence, kept as the benchmarks' baseline).
    reader: str = "evidence"
    evidence_hits: int = 6  # retrieved passages whose sentences (and their neighbours') are candidates
    evidence_tokens: int = 260  # all evidence sentences together (model tokens)
    max_evidence: int = 12
    # Put each sentence a chip would show to the chat model with its claim, and grey a claim none of its carrying
    # sentences states by the model's odds (``core.answer.verification``; ``grounding.UNSTATED``).  On 227
    # hand-labelled chips of five dev books and two held-out manuals it greyed 37 of 69 that did not state their
    # sentence and 14 of 158 that did.  It costs a short prompt evaluation per sentence after the answer is written.
    check_chips: bool = True


@dataclass
class Prepared:
    """Working state of one ``ask``: filled step by step (so not frozen), never leaves ``core.answer.tutor``."""

    sources: tuple[Source, ...]
    messages: list[dict[str, str]]
    pool: tuple[Chunk, ...]  # the hits' neighbours: where a quote's page is looked up
    max_tokens: int = 0  # the answer's token budget
    finish_reason: str = ""  # why the model stopped ("length": the budget cut it)
    candidates: list[SourceSentence] = field(default_factory=list)
    question_sims: np.ndarray | None = None  # cosine(question, candidate j)
    answer_sims: np.ndarray | None = None  # cosine(answer sentence i, candidate j)
    evidence: tuple[Evidence, ...] = ()  # the evidence reader's sentences (``sources`` are the same, numbered)
    evidence_vectors: np.ndarray | None = None  # their embeddings, row i = evidence i + 1
    grammar: str | None = None  # the citation grammar the model writes under (evidence ids only)

    @property
    def uses_evidence(self) -> bool:
        return bool(self.evidence)


def prepare(tutor: Any, query: str, hits: Sequence[Any], *, beyond_note: bool, use_model: bool,
            gathered: Gathered | None = None) -> Prepared:
    """Sources (grown small-to-big, trimmed) and, with ``use_model``, the prompt fitted to the model's window.
    With ``settings.reader == "evidence"`` the sources are evidence sentences (``prepare_evidence``; ``gathered``:
    its candidates when the caller already embedded them)."""
    if tutor.settings.reader == "evidence":
        return prepare_evidence(tutor, query, hits, beyond_note=beyond_note, use_model=use_model, gathered=gathered)
    s, library, model = tutor.settings, tutor.library, tutor.model
    count = model.count_tokens if use_model else approx_tokens
    titles = {b.id: b.title for b in library.books()}
    top = list(hits)[: s.k]
    pool = library.neighbour_chunks([h.chunk for h in top], s.neighbour_radius) if top else []
    sources = build_sources(top, book_titles=titles, neighbours=pool, count_tokens=count,
                            per_source_tokens=s.per_source_tokens, total_tokens=s.source_tokens,
                            max_sources=s.max_sources,
                            relevance=question_relevance(query) if s.focus_sources else None)
    if s.trim_sources:
        sources = trim_sources(sources, best_quotes(query, sentence_candidates(sources), None))
    messages: list[dict[str, str]] = []
    detail = wants_detail(query)
    max_tokens = s.detail_tokens if detail else s.answer_tokens
    if use_model and (sources or beyond_note):  # beyond the book, the model may answer without sources
        messages, sources = fit_prompt(query, sources, max_tokens=model.n_ctx - max_tokens, count_tokens=count,
                                       beyond_book=beyond_note, detail=detail, evidence=False,
                                       count_messages=model.count_chat_tokens,
                                       language=answer_language(library, sources))
    return Prepared(sources=tuple(sources), messages=messages, pool=tuple(pool), max_tokens=max_tokens,
                    candidates=sentence_candidates(sources))


def gather_evidence(tutor: Any, query: str, hits: Sequence[Any]) -> Gathered:
    """The evidence candidates of ``query``: sentences of the top hits and their neighbours, embedded."""
    top = list(hits)[: tutor.settings.evidence_hits]
    pool = tutor.library.neighbour_chunks([h.chunk for h in top], 1) if top else []
    return gather(query, top, pool, tutor.settings.evidence_hits, lambda texts: _encode(tutor.embedder, texts))


def books_never_mention(library: Any, embedder: Any, question: str, book_id: str | None,
                        language: str = ENGLISH) -> Absence:
    """What ``question`` (in ``language``, the books') names that the books in scope never mention
    (``core.retrieval.mentions``).  A word the books never use is not absent when it is a slip of one they do
    ("rythm", "Great Compromize"), nor a hyphenated term whose parts they use ("Pavlov-style"); in a language that
    capitalises every noun, a capitalised word is no name."""
    def mentioned(phrase: str, exact: bool) -> bool:
        return library.mentions(phrase, book_id=book_id, exact_case=exact) or (
            not exact and library.mentions_loosely(phrase, book_id=book_id))

    def word_pieces(word: str) -> int:  # how many the embedder's vocabulary needs (1 = an everyday word)
        try:
            return len(embedder.token_ids([word])[0])
        except Exception:  # an embedder without a tokenizer: judge names and code only
            return 1
    return absence(question, mentioned, word_pieces, nouns_capitalised=language in NOUNS_CAPITALISED)


def answer_language(library: Any, sources: Sequence[Source]) -> str:
    """The language to answer in when every source comes from books not written in English ("French"); '' for
    English (the system prompt's own)."""
    languages = {b.language for b in library.books() if b.id in {s.chunk.book_id for s in sources}}
    return NAMES[languages.pop()] if len(languages) == 1 and languages != {ENGLISH} else ""


def prepare_evidence(tutor: Any, query: str, hits: Sequence[Any], *, beyond_note: bool,
                     use_model: bool, gathered: Gathered | None = None) -> Prepared:
    """The evidence reader's sources: the best sentences of the top hits and their neighbours, each a ``Source``
    numbered in book order (its chunk gives section and page), the prompt and the citation grammar."""
    s, library, model = tutor.settings, tutor.library, tutor.model
    count = model.count_tokens if use_model else approx_tokens
    titles = {b.id: b.title for b in library.books()}
    gathered = gathered if gathered is not None else gather_evidence(tutor, query, hits)
    vectors = gathered.vectors
    chosen = select_evidence(query, gathered.units, gathered.cosines, token_budget=s.evidence_tokens,
                             count_tokens=count, stems=stems, max_units=s.max_evidence)
    row = {(u.chunk.id, u.index): j for j, u in enumerate(gathered.units)}
    ev_vectors = (np.stack([vectors[1 + row[(e.chunk.id, e.index)]] for e in chosen])
                  if vectors is not None and chosen else None)
    sources = tuple(Source(n=e.id, chunk=e.chunk, text=e.text, book_title=titles.get(e.chunk.book_id, ""),
                           label=source_label(titles.get(e.chunk.book_id, ""), e.chunk), quote=e.text)
                    for e in chosen)
    detail = wants_detail(query)
    max_tokens = s.detail_tokens if detail else s.answer_tokens
    messages: list[dict[str, str]] = []
    if use_model and (sources or beyond_note):
        messages, kept = fit_prompt(query, sources, max_tokens=model.n_ctx - max_tokens, count_tokens=count,
                                    beyond_book=beyond_note, detail=detail, evidence=True,
                                    count_messages=model.count_chat_tokens,
                                    language=answer_language(library, sources))
        chosen, sources = chosen[:len(kept)], kept
        ev_vectors = ev_vectors[:len(kept)] if ev_vectors is not None else None
    q_sims = ev_vectors @ vectors[0] if ev_vectors is not None and len(chosen) else None
    return Prepared(sources=sources, messages=messages, pool=(), max_tokens=max_tokens,
                    candidates=[SourceSentence(src.n, src.text) for src in sources], question_sims=q_sims,
                    evidence=tuple(chosen), evidence_vectors=ev_vectors,
                    grammar=citation_grammar([src.n for src in sources]) if sources else None)


# Words a question uses to ask for a meaning ("What does mores mean?", "Define entropy"): not part of the term.
_ASKS_MEANING = stems("mean means meaning meant define defined definition term called")


def book_definition(prep: Prepared, question: str) -> int | None:
    """The evidence sentence that defines all the question asks about ("The kinetic energy of an object … is …"
    for "What is kinetic energy?"; not "Energy is …" for "What is dark energy?"), or None.  The book answers such
    a question in its own words whatever the model wrote, so it is never declined as one the book does not
    answer (``Tutor._finish``), and it is shown first as "From the book" (a better start than the sentence sharing
    most words, "Kinetic energy, however, usually is not.").  Only all of it: a sentence that defines one word of
    a longer question ("Names are effectively unlimited in length." for "Is R case sensitive about variable
    names …?") was shown first for 42 of 98 stored questions of five books and two manuals (session 27), where
    the best quote ("It is case sensitive as are most UNIX based packages …") answers it."""
    asked = stems(question) - _ASKS_MEANING
    return next((e.id for e in prep.evidence if e.defines and e.defines == asked), None)


def _encode(embedder: Any, texts: list[str]) -> np.ndarray:
    try:
        return embedder.encode(texts)
    except Exception as exc:  # a broken embedder must not cost the student the answer (``gather`` copes)
        log.warning("no sentence embeddings for evidence (%s); ranking by word overlap only", exc)
        raise


def encode_or_none(embedder: Any, texts: list[str]) -> Any:
    """The embeddings of an answer's sentences, or None when the embedder fails (word overlap alone still grounds
    the answer)."""
    try:
        return embedder.encode(texts)
    except Exception as exc:
        log.warning("no embeddings for the answer's sentences (%s)", exc)
        return None


def ground_answer(embedder: Any, sentences: Sequence[tuple[int, str, tuple[int, ...]]], prep: Prepared,
                  sources: Sequence[Source], question: str, *, beyond: bool, unused: Sequence[str] = (),
                  unused_words: Sequence[str] = (), model: Any = None, check_chips: bool = False) -> list[Any]:
    """Each answer sentence with the evidence sentence that carries it (``core.answer.grounding.ground``), the
    answer's sentences embedded against the evidence's; ``unused``: what the question names that the books never
    use.  The chat ``model`` checks each Yes/No verdict against its sentence (``grounding.VERDICT``), and with
    ``check_chips`` whether the sentences that carry an answer sentence by words state it, the chip being the first
    that does (``grounding.JUDGED_CHIPS``; ``core.answer.verification``)."""
    texts = {s.n: s.text for s in sources}
    sims = None
    if prep.evidence_vectors is not None and sentences:
        answer = encode_or_none(embedder, [t for _, t, _ in sentences])
        sims = answer @ prep.evidence_vectors.T if answer is not None else None
    asked: list[int] = []
    judge = _counted(model_judge(model), asked)
    states = _counted(chip_judge(model), asked) if check_chips else None
    leaned = {e.id: e.leans_on for e in prep.evidence if e.leans_on and e.id in texts}
    grounded = ground(sentences, Grounded(texts, sims, leaned), question=question, beyond_book=beyond, unused=unused,
                      unused_words=unused_words, judge=judge, chip_judge=states)
    # The judge's prompts took the model's cache: put the answer instructions back while the student reads, so
    # the next question pays only for its evidence again (queued on the model's thread; not waited for).
    if asked and prep.messages and hasattr(model, "prewarm"):
        model.prewarm(prep.messages[:1])
    return grounded


def _counted(judge: Judge | None, calls: list[int]) -> Judge | None:
    """``judge``, counting its calls in ``calls``."""
    if judge is None:
        return None

    def counted(quote: str, claim: str) -> float:
        calls.append(1)
        return judge(quote, claim)
    return counted


def question_relevance(question: str) -> Callable[[str], float]:
    """A sentence's share of the question's content stems: how a source longer than its budget is cut.  (Mixed
    with the embedder's cosine, as ``best_quotes`` scores a quote, it kept fewer answer keys on three of four
    keyed dev books.)"""
    asked = stems(question)
    return lambda sentence: len(asked & stems(sentence)) / len(asked) if asked else 0.0


def embed_candidates(embedder: Any, query: str, prep: Prepared, answer: Sequence[str] = ()) -> None:
    """Embed the question, every source sentence and the answer's sentences in one batch (into ``prep``)."""
    texts = [query] + [c.text for c in prep.candidates] + list(answer)
    try:
        vectors = embedder.encode(texts)
    except Exception as exc:  # a broken embedder must not cost the student the answer
        log.warning("no sentence embeddings for attribution (%s); using word overlap only", exc)
        return
    m = len(prep.candidates)
    cands = vectors[1:1 + m]
    prep.question_sims = cands @ vectors[0]
    prep.answer_sims = vectors[1 + m:] @ cands.T if answer else None


__all__ = ["AnswerSettings", "Prepared", "embed_candidates", "gather_evidence", "ground_answer", "prepare",
           "prepare_evidence", "question_relevance", "book_definition"]
