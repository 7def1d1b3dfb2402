"""Answering a question asked in another language than the book's (``core.answer.language`` says which), or
about a book not written in English.

The question goes into the book's language with the local chat model; the tutor answers, cites and grounds it
in the book's language as it does any question; then the finished answer comes back in the student's language,
sentence by sentence, each keeping its ``[n]`` markers and its grey.  Quotes and section names stay the book's own
words; a "not in your book" is written in the student's language from fixed phrases
(``core.answer.replies.refusal_text``).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from core.answer.language import (ENGLISH, answer_messages, numbered_lines, question_messages, translated_question,
                                  untranslated)
from core.answer.replies import refusal_text, unchecked
from core.models import Answer, AnswerEvent, AnswerEventKind

log = logging.getLogger(__name__)

QUESTION_TOKENS = 120  # a translated question is a sentence or two
SENTENCE_TOKENS = 90  # per answer sentence translated
_END = re.compile(r"[.!?:;\u3002\uff01\uff1f\uff1a\uff1b][\"\u201d\u2019)\u300d]*$")
_LOOP_WORD = re.compile(r"\b([^\W\d_]+)\b(?:\W+\1\b){3,}", re.U | re.I)
_LOOP_CJK = re.compile(r"([\u3400-\u9fff]{1,4})\1{3,}")
_MARKS = re.compile(r"(\s*(?:\[\d+(?:\s*[,;]\s*\d+)*\])+)?([.!?:;][\"\u201d\u2019)]*)?")

Chat = Callable[..., str]


def chat_with(model: Any, cancel: Callable[[], bool] | None = None) -> Chat:
    """``chat(messages, **options)`` -> the whole reply, from a model's ``stream_chat`` (stopped by ``cancel``)."""
    return lambda messages, **options: "".join(model.stream_chat(messages, cancel=cancel, **options))


def translate_question(chat: Chat, question: str, language: str, target: str = ENGLISH) -> str:
    """``question``, asked in ``language``, in ``target`` (its code blocks kept as written); the question itself
    when the model gives nothing back."""
    reply = chat(question_messages(question, language, target), max_tokens=QUESTION_TOKENS, temperature=0.0)
    return translated_question(question, reply) or question


def translate_sentences(chat: Chat, sentences: Sequence[str], language: str, question: str = "",
                        source: str = ENGLISH) -> list[str]:
    """Each sentence (in ``source``) in ``language``: one call with numbered lines, then one call per sentence the
    reply lost or looped on; a sentence the model cannot translate cleanly stays as it was."""
    if not sentences:
        return []
    reply = chat(answer_messages(sentences, language, question, source),
                 max_tokens=SENTENCE_TOKENS * len(sentences), temperature=0.0)
    lines = numbered_lines(reply, len(sentences)) or [""] * len(sentences)
    out = []
    for sentence, line in zip(sentences, lines):
        if not line or looping(line):
            one = numbered_lines(chat(answer_messages([sentence], language, question, source),
                                      max_tokens=SENTENCE_TOKENS, temperature=0.0), 1)
            line = one[0] if one and not looping(one[0]) else sentence
            log.info("sentence translated again on its own%s", "" if line != sentence else ": kept in English")
        out.append(line)
    return out


def looping(text: str) -> bool:
    """Did the model get stuck repeating itself ("cuarto cuarto cuarto cuarto")?  No language says one word, or
    one to four characters, four times running."""
    return bool(_LOOP_WORD.search(text) or _LOOP_CJK.search(text))


def _split_end(sentence: str) -> tuple[str, str]:
    m = _END.search(sentence)
    return (sentence[:m.start()], m.group(0)) if m else (sentence, "")


def swap_sentences(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    """``text`` with each English sentence replaced by its translation, the ``[n]`` markers that ``render``
    put before the sentence's last punctuation kept in place."""
    out, pos = [], 0
    located = sorted(((text.find(_split_end(s)[0], 0), s, t) for s, t in pairs), key=lambda x: x[0])
    for i, english, translated in located:
        body = _split_end(english)[0]
        if i < pos or not body:
            continue
        j = i + len(body)
        m = _MARKS.match(text, j)
        marks, punct = m.group(1) or "", m.group(2) or ""
        new_body, new_punct = _split_end(translated.strip())
        out.append(text[pos:i] + new_body + marks + (new_punct or punct))
        pos = m.end()
    return "".join(out) + text[pos:]


def translate_answer(answer: Answer, language: str, chat: Chat, question: str, source: str = ENGLISH) -> Answer:
    """``answer`` (in ``source``, the book's language) for a student who asked ``question`` in ``language``; the
    answer as written is kept in ``Answer.original``."""
    if answer.refused:  # fixed phrases in the student's language: nothing was checked that could be shown instead
        text = refusal_text(answer.nearest_sections, absent=answer.absent_terms, language=language,
                            unchecked=unchecked(answer.dropped))
        return replace(answer, question=question, text=text, language=language)
    if answer.extractive:  # the book's own words, quoted: nothing to translate
        return replace(answer, question=question, language=language, original=answer.text, original_language=source)
    written = list(dict.fromkeys(s for s in (*answer.supported, *answer.unsupported) if s.strip()))
    translated = dict(zip(written, translate_sentences(chat, written, language, question, source)))
    pick = lambda texts: tuple(translated.get(s, s) for s in texts)  # noqa: E731
    return replace(answer, question=question, text=swap_sentences(answer.text, list(translated.items())),
                   supported=pick(answer.supported), unsupported=pick(answer.unsupported),
                   about_code=pick(answer.about_code), language=language, original=answer.text,
                   original_language=source)


def in_book_language(answer: Answer, language: str) -> Answer:
    """``answer``, written in the book's own ``language`` (not English), as it is; a "not in your book" in that
    language too."""
    if not answer.refused:
        return replace(answer, language=language)
    return replace(answer, language=language,
                   text=refusal_text(answer.nearest_sections, absent=answer.absent_terms, language=language,
                                     unchecked=unchecked(answer.dropped)))


def ask_in_language(question: str, language: str, chat: Chat, ask: Callable[[str], Iterator[AnswerEvent]],
                    remember: Callable[[Answer], Answer], book_language: str = ENGLISH) -> Iterator[AnswerEvent]:
    """Events of ``ask(question in the book's language)`` with the finished answer in ``language``, passed through
    ``remember`` (which stores it in the conversation).

    The answer streams in the book's language as it is written (the student sees the tutor at work); DONE
    carries the translation, which replaces it."""
    asked = question
    if language != book_language:
        asked = translate_question(chat, question, language, book_language)
        if untranslated(question, asked):
            log.info("the %s-looking question came back unchanged from translation: asked as written", language)
            asked, language = question, book_language
        else:
            log.info("question in %s, asked in %s as: %s", language, book_language, asked)
    for event in ask(asked):
        if event.kind is AnswerEventKind.DONE and event.answer is not None:
            answer = event.answer
            if language != book_language:
                answer = translate_answer(answer, language, chat, question, book_language)
            elif language != ENGLISH:
                answer = in_book_language(answer, language)
            event = replace(event, answer=remember(answer))
        yield event
