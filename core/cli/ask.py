"""``lantern ask``: a question answered from the books by the local model, streamed, with citations."""
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from core.answer.preparation import AnswerSettings
from core.answer.tutor import Tutor
from core.cli.output import answer_record, emit, json_flag, preview_line, print_answer_tail
from core.errors import LanternError
from core.library import Library
from core.llm.choice import Quality, resolve_model
from core.llm.model import LocalModel
from core.models import AnswerEventKind

log = logging.getLogger(__name__)


def add_parsers(sub: Any) -> None:
    """Add ``ask`` to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("ask", help="answer a question from your books with the local model, citing pages")
    p.add_argument("question", metavar="QUESTION")
    p.add_argument("--book", metavar="ID", help="only this book")
    p.add_argument("--chapter", metavar="N", action="append", default=[], help="only chapter N (repeatable)")
    p.add_argument("--model", metavar="PATH", help="a .gguf file or catalogue key (default: $LANTERN_CHAT_MODEL "
                   "or the bundled model)")
    p.add_argument("--conversation", metavar="ID", type=int,
                   help="continue this stored conversation (follow-ups like 'why?' use its last turn)")
    p.add_argument("--new-conversation", action="store_true", help="store this question as a new conversation")
    p.add_argument("--beyond-book", action="store_true",
                   help="when the book does not cover it, answer from general knowledge (labelled)")
    p.add_argument("--translate-quotes", action="store_true",
                   help="asked in another language than the book's: also show each quote in that language")
    json_flag(p)


def namespace(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed arguments of ``lantern ask ARGV`` (for commands that end by asking, like ``demo``)."""
    parser = argparse.ArgumentParser(prog="lantern")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["ask", *argv])


def cmd_ask(lib: Library, args: argparse.Namespace) -> int:
    llm, choice = resolve_model(args.model, quality=Quality.from_env(),
                                progress=lambda text: sys.stderr.write(text + " (once)\n"))
    if choice is not None:
        log.info("model: %s", choice.reason)
    tutor = Tutor(lib, LocalModel(llm), settings=AnswerSettings(beyond_book=args.beyond_book))
    try:
        conversation = args.conversation
        if conversation is None and args.new_conversation:
            conversation = tutor.start_conversation(args.question, args.book)
        answer, streamed = None, []
        for ev in tutor.ask(args.question, book_id=args.book, chapters=tuple(args.chapter),
                            conversation_id=conversation):
            if ev.kind is AnswerEventKind.ERROR:
                raise LanternError(ev.text)
            if ev.kind is AnswerEventKind.SOURCES and ev.preview is not None and not args.json:
                sys.stdout.write(preview_line(ev.preview) + "\n\n")
                sys.stdout.flush()
            elif ev.kind is AnswerEventKind.TOKEN and not args.json:
                streamed.append(ev.text)
                sys.stdout.write(ev.text)
                sys.stdout.flush()
            elif ev.kind is AnswerEventKind.CHECKING and not args.json:  # a few seconds with the chip judge
                sys.stderr.write("\n(checking each sentence against your book…)\n")
                sys.stderr.flush()
            elif ev.kind is AnswerEventKind.DONE:
                answer = ev.answer
        if answer is not None and answer.original and args.translate_quotes:
            quotes = [c.quote for c in answer.citations if c.quote]
            translated = dict(zip(quotes, tutor.translate_quotes(quotes, answer.language, answer.original_language)))
            answer = replace(answer, citations=tuple(replace(c, quote_translation=translated.get(c.quote, ""))
                                                     for c in answer.citations))
    finally:
        tutor.close()
    if answer is None:
        raise LanternError("No answer was produced.")
    if args.json:
        emit(args, answer_record(answer), "")
    else:
        print_answer_tail(answer, sys.stdout, "".join(streamed))
    return 0


COMMANDS = {"ask": cmd_ask}
