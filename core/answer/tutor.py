"""The tutor: a student's question → retrieved sources → a streamed, cited answer (or an honest refusal).

``Tutor.ask`` yields ``AnswerEvent``s in the order the desktop's ``Asker`` protocol promises:

1. the question is made self-contained with the previous turn (``core.answer.followup``);
2. ``Library.find`` retrieves passages and ``core.retrieval.coverage.assess`` judges whether they answer it;
   when they do not (and "beyond the book" is off) the tutor declines, naming the nearest
   sections, without calling the model — small models answer from memory otherwise (a question in another
   language than the book's goes through ``core.answer.multilingual`` around all of this);
3. the model starts evaluating the prompt on its own thread, and while it does the numbered
   sources, each with a supporting quote, go out as the ``SOURCES`` event;
4. ``TOKEN`` events stream the model's text (``[n]`` markers naming no source are filtered out);
5. every answer sentence is attributed to the source that supports it (``core.answer.attribution``),
   unsupported ones are flagged or dropped, and ``DONE`` carries the ``Answer`` with citations
   (chapter, section, printed and physical pages, verbatim quote) and timings.

Without a usable model (missing, damaged, too big) the answer is extractive: the sentences of the
sources that best answer the question, cited, plus a notice saying why.  Nothing here touches the
network; the model and the embedder load lazily on first use.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any


from core.answer.attribution import (BEYOND_BOOK_LABEL, Support, attribute, best_quotes, build_citations,
                                     complete_sentences, render, split_answer, stems)
from core.answer.followup import rewrite_followup
from core.answer.grounding import ABOUT_PROGRAM, bears_on_question, evidence_citations, never_used_words
from core.answer.language import ENGLISH, detect
from core.answer.markers import MarkerFilter, ParagraphGate, strip_source_tags
from core.answer.evidence import Gathered, evidence_signals
from core.answer.multilingual import ask_in_language, chat_with, translate_sentences
from core.answer.preparation import (AnswerSettings, Prepared, book_definition, books_never_mention,
                                     embed_candidates, gather_evidence, ground_answer, prepare)
from core.answer.prompt import PASSAGE_SYSTEM_PROMPT, SYSTEM_PROMPT
from core.answer.replies import (collect, declined_answer, extractive_text, preview_citation, says_not_covered,
                                 stream_words)
from core.errors import LanternError, ModelUnavailableError
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings, PromptTooLongError
from core.models import Answer, AnswerEvent, AnswerEventKind, Source, Turn
from core.retrieval import coverage as _coverage
from core.retrieval.mentions import Absence

log = logging.getLogger(__name__)

CancelFn = Callable[[], bool]


def _never() -> bool:
    return False


class Tutor:
    """Answers questions from a ``Library`` with a local chat model (``core.llm.model.LocalModel``).

    ``model``: a ``LocalModel`` (or anything with its ``stream_chat``/``count_tokens``/
    ``count_chat_tokens``/``prewarm``/``model_path``/``n_ctx``/``display_name``), a catalogue key or
    ``.gguf`` path, or None for the configured default (``LLMSettings.from_env``).  ``assess`` replaces
    ``core.retrieval.coverage.assess``; ``embedder`` the library's sentence embedder.  Creating a Tutor
    loads nothing.  ``ask`` may be called from any one thread at a time.
    """

    def __init__(self, library: Any, model: Any = None, *, settings: AnswerSettings | None = None,
                 assess: Callable[..., Any] | None = None, embedder: Any = None):
        self.library = library
        self._embedder = embedder  # for quotes and attribution; None: the library's (MiniLM)
        self.settings = settings or AnswerSettings()
        if model is None or isinstance(model, str):
            model = LocalModel(LLMSettings.from_env(model=model))
        self.model = model
        self._assess = assess or _coverage.assess
        self._model_error: ModelUnavailableError | None = None
        self.choice = None  # why this model runs (``core.llm.choice.Choice``), when it was chosen for the machine

    @property
    def embedder(self) -> Any:
        return self._embedder if self._embedder is not None else self.library.embedder

    # -- model state -----------------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return getattr(self.model, "display_name", "chat model")

    def model_error(self) -> ModelUnavailableError | None:
        """Why the model cannot answer (checked once: file, hash, header, memory), or None."""
        if self._model_error is None:
            try:
                self.model.model_path()
            except ModelUnavailableError as exc:
                self._model_error = exc
        return self._model_error

    def prewarm(self):
        """Load the model and evaluate the fixed instructions now (call at start-up, in the background),
        so the first question pays only for its sources.  Returns a future, or None without a model."""
        if self.model_error() is not None:
            return None
        try:
            system = SYSTEM_PROMPT if self.settings.reader == "evidence" else PASSAGE_SYSTEM_PROMPT
            return self.model.prewarm([{"role": "system", "content": system}])
        except ModelUnavailableError as exc:
            self._model_error = exc
            return None

    def close(self) -> None:
        close = getattr(self.model, "close", None)
        if close is not None:
            close()

    # -- conversations ---------------------------------------------------------------------------
    def start_conversation(self, title: str = "", book_id: str | None = None) -> int:
        """Create a stored conversation and return its id (pass it to ``ask`` for follow-ups)."""
        return int(self.library.create_conversation(title, book_id).id)

    def _previous_turn(self, conversation_id: int | None) -> Turn | None:
        if conversation_id is None:
            return None
        turns = self.library.load_conversation(conversation_id).turns
        return turns[-1] if turns else None

    # -- asking ----------------------------------------------------------------------------------
    def retrieve(self, question: str, *, book_id: str | None = None, chapters: tuple[str, ...] = (),
                 pages: tuple[int, int] | None = None) -> tuple[list[Any], Any]:
        """The passages ``ask`` would use for a (self-contained) question and the coverage verdict."""
        hits, verdict, _ = self._retrieve(question, book_id, tuple(chapters), pages)
        return hits, verdict

    def _retrieve(self, question: str, book_id: str | None, chapters: tuple[str, ...],
                  pages: tuple[int, int] | None) -> tuple[list[Any], Any, Gathered | None]:
        """Hits, the coverage verdict and (evidence reader) the embedded evidence candidates it weighed."""
        s = self.settings
        k = max(s.k, s.evidence_hits) if s.reader == "evidence" else s.k
        hits = self.library.find(question, k, book_id=book_id, chapters=chapters, pages=pages)
        gathered = gather_evidence(self, question, hits) if s.reader == "evidence" else None
        evidence = evidence_signals(question, gathered, stems) if gathered is not None else None
        verdict = self._assess(question, hits[:s.k], absence=self.absence(question, book_id=book_id),
                               evidence=evidence)
        return hits, verdict, gathered

    def absence(self, question: str, *, book_id: str | None = None) -> Absence:
        """What ``question`` names that the books in scope never mention (``preparation.books_never_mention``)."""
        return books_never_mention(self.library, self.embedder, question, book_id, self.book_language(book_id))

    def sources(self, question: str, hits: Sequence[Any]) -> tuple[Any, ...]:
        """The numbered sources ``ask`` would give the model for ``question`` and these hits (same budget)."""
        return prepare(self, question, hits, beyond_note=False, use_model=True).sources

    def ask(self, question: str, *, book_id: str | None = None, chapters: tuple[str, ...] = (),
            pages: tuple[int, int] | None = None, cancel: CancelFn = _never,
            conversation_id: int | None = None, previous: Turn | None = None,
            beyond_book: bool | None = None) -> Iterator[AnswerEvent]:
        """Answer ``question``: yields SOURCES, TOKEN*, DONE (or ERROR with a readable message).

        ``previous`` (or the last turn of ``conversation_id``) is used to rewrite follow-ups; with
        ``conversation_id`` the finished turn is stored in the library.  ``beyond_book`` overrides the
        setting for this question.  Stops quietly as soon as ``cancel()`` returns True.
        """
        beyond = self.settings.beyond_book if beyond_book is None else beyond_book
        cancel = cancel or _never
        try:
            book_language = self.book_language(book_id)
            language = self.language_of(question, book_id)
            if language == book_language == ENGLISH:
                yield from self._ask(question, book_id, tuple(chapters), pages, cancel, conversation_id, previous,
                                     beyond)
                return
            previous = previous or self._previous_turn(conversation_id)
            yield from ask_in_language(
                question, language, chat_with(self.model, cancel),
                lambda asked: self._ask(asked, book_id, tuple(chapters), pages, cancel, None, previous, beyond),
                lambda answer: self._remember(conversation_id, replace(answer, conversation_id=conversation_id)),
                book_language)
        except LanternError as exc:
            log.warning("answering failed: %s", exc.message)
            yield AnswerEvent(AnswerEventKind.ERROR, text=exc.message)

    def translate_quotes(self, quotes: Sequence[str], language: str, source: str = ENGLISH,
                         cancel: CancelFn = _never) -> list[str]:
        """The book's ``quotes`` (written in ``source``) in ``language``, for a student who asked in it: shown beside
        the book's own words, on request.  A quote the model cannot translate cleanly comes back as it is."""
        return translate_sentences(chat_with(self.model, cancel), quotes, language, source=source)

    def book_language(self, book_id: str | None = None) -> str:
        """The language the book (or every book of the library) is written in; English for a library of books in
        several languages."""
        if book_id:
            return self.library.book(book_id).language  # an id or its prefix (``lantern ask --book 1abd``)
        languages = {b.language for b in self.library.books()}
        return languages.pop() if len(languages) == 1 else ENGLISH

    def language_of(self, question: str, book_id: str | None = None) -> str:
        """The language ``question`` is asked in (``core.answer.language.detect``); the book's, whenever no model
        can translate."""
        if self.model_error() is not None:
            return self.book_language(book_id)
        return detect(question, lambda word: self.library.mentions(word, book_id=book_id),
                      self.book_language(book_id))

    def _ask(self, question: str, book_id: str | None, chapters: tuple[str, ...], pages: tuple[int, int] | None,
             cancel: CancelFn, conversation_id: int | None, previous: Turn | None,
             beyond: bool) -> Iterator[AnswerEvent]:
        t0 = time.perf_counter()
        ms = lambda: round((time.perf_counter() - t0) * 1000, 1)  # noqa: E731
        timings: dict[str, float] = {}
        previous = previous or self._previous_turn(conversation_id)
        rw = rewrite_followup(question, (previous.search_question or previous.question) if previous else None)
        query = rw.text
        if cancel():
            return
        hits, verdict, gathered = self._retrieve(query, book_id, chapters, pages)
        timings["retrieval_ms"] = ms()
        base = Answer(question=question, text="", citations=(), search_question=query,
                      conversation_id=conversation_id)
        if cancel():
            return
        if not verdict.covered and not beyond:
            answer = declined_answer(base, verdict, empty_library=not hits and not self.library.books())
            yield AnswerEvent(AnswerEventKind.SOURCES, sources=())
            timings["sources_ms"] = ms()
            yield from stream_words(answer.text, cancel)
            timings["first_token_ms"] = timings["sources_ms"]
            timings["total_ms"] = ms()
            answer = self._remember(conversation_id, replace(answer, timings_ms=tuple(timings.items())))
            yield AnswerEvent(AnswerEventKind.DONE, answer=answer)
            return

        error: LanternError | None = self.model_error()
        try:
            prep = prepare(self, query, hits, beyond_note=beyond, use_model=error is None, gathered=gathered)
        except ModelUnavailableError as exc:  # the header was fine but llama.cpp cannot read the vocabulary
            error = self._model_error = exc
            prep = prepare(self, query, hits, beyond_note=beyond, use_model=False, gathered=gathered)
        stream = None
        if error is None and prep.messages:
            try:  # starts prompt evaluation on the model's thread; the quotes below overlap with it
                stream = self.model.stream_chat(prep.messages, max_tokens=prep.max_tokens,
                                                temperature=self.settings.temperature, cancel=cancel,
                                                **({"grammar": prep.grammar} if prep.grammar else {}))
            except ModelUnavailableError as exc:
                error = self._model_error = exc
            except PromptTooLongError as exc:  # fit_prompt counted with the same tokenizer: not expected
                error = exc
        try:
            # Word-overlap quotes for the sources on screen now; the sentence embeddings wait until the
            # model has finished, so MiniLM does not compete with prompt evaluation for the 2 cores.
            quotes = best_quotes(query, prep.candidates, prep.question_sims)
            sources = tuple(replace(s, quote=quotes.get(s.n, ("", 0.0))[0]) for s in prep.sources)
            preview = preview_citation(sources, quotes, prep.pool, prefer=book_definition(prep, query),
                                       **({"rank_penalty": 0.0} if prep.uses_evidence else {}))
            base = replace(base, preview=preview)
            yield AnswerEvent(AnswerEventKind.SOURCES, sources=sources, preview=base.preview)
            timings["sources_ms"] = ms()
            if stream is not None:
                try:
                    raw = yield from self._stream(stream, prep, cancel, timings, ms, beyond)
                except ModelUnavailableError as exc:
                    error = self._model_error = exc
                    raw = None
                if cancel():
                    return
            if error is not None or stream is None or raw is None:
                if not prep.uses_evidence:
                    embed_candidates(self.embedder, query, prep)
                quotes = best_quotes(query, prep.candidates, prep.question_sims)
                yield from self._extractive(base, prep, sources, quotes, error, cancel, timings, ms, conversation_id)
                return
            if prep.uses_evidence:  # each sentence is matched to the book, by words and by the model's odds
                yield AnswerEvent(AnswerEventKind.CHECKING)
            answer = self._finish(base, raw, prep, sources, beyond, verdict, timings, ms)
        finally:
            if stream is not None:
                stream.close()
        self._remember(conversation_id, answer)
        yield AnswerEvent(AnswerEventKind.DONE, answer=answer)

    # -- steps -----------------------------------------------------------------------------------
    def _stream(self, stream: Any, prep: Prepared, cancel: CancelFn, timings: dict[str, float],
                ms: Callable[[], float], beyond: bool) -> Iterator[AnswerEvent]:
        marker_filter = MarkerFilter({s.n for s in prep.sources})
        # An unrequested "Beyond the book:" paragraph is dropped at the end: never show it while streaming.
        gate = ParagraphGate("\u200b" if beyond else BEYOND_BOOK_LABEL)
        pieces: list[str] = []
        for piece in stream:
            if cancel():
                stream.close()
                return None
            if "first_token_ms" not in timings:
                timings["first_token_ms"] = ms()
            pieces.append(piece)
            out = gate.feed(marker_filter.feed(piece))
            if out:
                yield AnswerEvent(AnswerEventKind.TOKEN, text=out)
        rest = gate.feed(marker_filter.flush()) + gate.flush()
        if rest:
            yield AnswerEvent(AnswerEventKind.TOKEN, text=rest)
        stats = getattr(stream, "stats", None)
        if stats is not None:
            prep.finish_reason = stats.finish_reason or ""
            timings["prompt_tokens"] = getattr(stats, "evaluated_tokens", 0)  # uncached: what the first word waited for
            log.info("answer: %d prompt tokens (%d cached), %d generated, first token %.2fs, %s",
                     stats.prompt_tokens, stats.cached_tokens, stats.completion_tokens, stats.first_token_s,
                     stats.finish_reason)
        timings.setdefault("first_token_ms", ms())
        return "".join(pieces)

    def _finish(self, base: Answer, raw: str, prep: Prepared, sources: tuple[Source, ...], beyond: bool,
                verdict: Any, timings: dict[str, float], ms: Callable[[], float]) -> Answer:
        t = time.perf_counter()
        uncovered = not verdict.covered
        if prep.finish_reason == "length":  # the budget cut a sentence: keep the whole ones
            raw = complete_sentences(raw)
        sentences = split_answer(strip_source_tags(raw))
        if prep.uses_evidence:
            attributed = ground_answer(self.embedder, sentences, prep, sources, base.search_question, beyond=beyond,
                                       unused=verdict.unused, unused_words=verdict.unused_words,
                                       model=self.model, check_chips=self.settings.check_chips)
        else:
            embed_candidates(self.embedder, base.search_question, prep, [s for _, s, _ in sentences])
            attributed = attribute(sentences, {s.n: s.text for s in sources}, prep.candidates, prep.answer_sims,
                                   beyond_book=beyond, question=base.search_question)
        if not self.settings.drop_unsupported:
            attributed = [replace(a, support=Support.WEAK) if a.support is Support.NONE else a for a in attributed]
        supported = [a for a in attributed if a.support is Support.SUPPORTED]
        notice = ""
        declined = says_not_covered(raw)
        # "What is kinetic energy?" with the book's definition of kinetic energy in the evidence: the book answers it,
        # whatever the model wrote; when nothing it wrote is carried, the student gets that definition, cited, rather
        # than a decline or an answer all greyed.
        definition = (book_definition(prep, base.search_question) if prep.uses_evidence and not beyond
                      and (declined or not supported) else None)
        # Sentences on a program the student pasted, and sentences the evidence carries all but the reason or one half
        # of (``grounding.BEARING``) count as answering (kept, greyed): the book bears on the question.
        grounded = bears_on_question(attributed) and not declined and definition is None
        if not beyond and not grounded and definition is None and (
                prep.uses_evidence or verdict.score < self.settings.grounded_keep):
            # The model says the book does not answer it, or no evidence sentence carries anything it wrote (the
            # evidence reader), or nothing it wrote is backed by a passage and retrieval was not sure either (the
            # passage reader): the book does not answer this question.
            # What the model wrote is kept in ``dropped`` (never shown), so a benchmark can tell "the model
            # said so" from "nothing it wrote was carried".
            timings["total_ms"] = ms()
            return declined_answer(base, verdict, model=self.model_name, timings_ms=tuple(timings.items()),
                                   dropped=tuple(t for _, t, _ in sentences),
                                   never_used=never_used_words(attributed, verdict.unused_words))
        if grounded or uncovered:
            text = render(attributed)
        else:  # the model declined or wrote nothing the book backs, yet retrieval is sure: the book's own words
            quotes = ({definition: (next(s.text for s in sources if s.n == definition), 1.0)} if definition is not None
                      else best_quotes(base.search_question, prep.candidates, prep.question_sims))
            text, supported = extractive_text(sources, quotes)
            notice = ("The model did not answer from these passages, so these are the book's own words." if declined
                      else "The model's answer could not be matched to your book, so these are the book's own words.")
        if uncovered:
            text = "Beyond the book (your textbook does not seem to cover this): " + text
        citations = (evidence_citations(supported, sources, prep.pool) if prep.uses_evidence
                     else build_citations(supported, sources, prep.pool))
        timings["attribution_ms"] = round((time.perf_counter() - t) * 1000, 1)
        timings["total_ms"] = ms()
        beyond_used = uncovered or any(a.support is Support.BEYOND for a in attributed)
        return replace(base, text=text.strip(), citations=citations, beyond_book=beyond_used, notice=notice,
                       supported=tuple(a.text for a in supported),
                       unsupported=tuple(a.text for a in attributed if a.support is Support.WEAK),
                       about_code=tuple(a.text for a in attributed if a.conflict == ABOUT_PROGRAM),
                       dropped=tuple(a.text for a in attributed if a.support is Support.NONE),
                       model=self.model_name, timings_ms=tuple(timings.items()))

    def _extractive(self, base: Answer, prep: Prepared, sources: tuple[Source, ...], quotes: dict,
                    error: LanternError | None, cancel: CancelFn, timings: dict[str, float],
                    ms: Callable[[], float], conversation_id: int | None) -> Iterator[AnswerEvent]:
        text, supported = extractive_text(sources, quotes)
        notice = (f"{error.message} Showing the passages of your book that answer it instead."
                  if error is not None else "")
        if not text:
            text = "I couldn't find sentences in your book that answer this."
        timings["first_token_ms"] = ms()
        yield from stream_words(text, cancel)
        if cancel():
            return
        timings["total_ms"] = ms()
        cite = evidence_citations if prep.uses_evidence else build_citations
        answer = replace(base, text=text, citations=cite(supported, sources, prep.pool),
                         extractive=True, notice=notice, timings_ms=tuple(timings.items()))
        self._remember(conversation_id, answer)
        yield AnswerEvent(AnswerEventKind.DONE, answer=answer)

    def _remember(self, conversation_id: int | None, answer: Answer) -> Answer:
        if conversation_id is None:
            return answer
        self.library.append_turn(conversation_id, Turn(
            question=answer.question, answer=answer.text, search_question=answer.search_question,
            refused=answer.refused, beyond_book=answer.beyond_book, extractive=answer.extractive,
            citations=answer.citations))
        return answer


__all__ = ["AnswerSettings", "Tutor", "collect"]
