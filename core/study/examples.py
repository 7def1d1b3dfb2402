"""Code examples and worked examples of a chapter, with the result the book prints for them.

``code_examples`` finds console sessions ("> x[i]" then "[1] 9 6 3"; ">>> ", "octave:1> "), programs
followed by the output the book shows for them ("$ cargo run ... Running ... The value of x is: 5", or
the compiler's error), and Texinfo-style examples ("any (eye (2, 4))" then "⇒[ 1, 1, 0, 0 ]"); never
one whose output depends on chance or time, nor an unfinished command.  ``worked_examples`` finds
"... What is the frequency of this light?" / "Solution" / "... = 5.09 × 10^14 s^-1".  Pure functions;
``core.study.lesson`` caches them.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.models import ChunkRole, Chunk
from core.study.models import SourceRef
from core.study.prose import is_code, is_code_line, paragraphs
from core.study.text import Run, is_prose, normalize, stitch

MAX_CODE_LINES = 14
MAX_OUTPUT_CHARS = 240

@dataclass(frozen=True)
class CodeExample:
    """A code example of the book with the result it shows for it (``output``, verbatim)."""

    code: str
    output: str
    intro: str
    source: SourceRef
    error: bool = False  # the result is a compiler/interpreter error

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "output": self.output, "intro": self.intro, "error": self.error,
                "source": self.source.to_json()}


@dataclass(frozen=True)
class WorkedExample:
    """A worked example of the book: the problem as printed and the result its solution ends with."""

    problem: str
    answer: str
    source: SourceRef

    def to_json(self) -> dict[str, Any]:
        return {"problem": self.problem, "answer": self.answer, "source": self.source.to_json()}


_CHANCE = re.compile(r"(?i)\b(?:rand|random|rnorm|runif|rbinom|sample|shuffle|thread|spawn|sleep|time|now|date|"
                     r"sys\.time|getwd|ls\(\)|memory|address|plot|hist|help|example\(|demo\(|readline|stdin|"
                     r"read_line|file|url|source\()")
_RUNNING = re.compile(r"(?m)^\s*Running `[^`]*`\s*$")
_ERROR = re.compile(r"(?m)^(error(?:\[E\d+\])?: .+)$")

def _prompt_session(lines: list[str], start: int, prompts: re.Pattern[str]) -> list[tuple[str, str, int]]:
    """(code so far, output, index) for each prompt command that the book follows with printed output."""
    out = []
    for i, line in enumerate(lines):
        if not prompts.match(line):
            continue
        j = i + 1
        while j < len(lines) and re.match(r"^\+ ", lines[j]):
            j += 1
        k = j
        while k < len(lines) and not prompts.match(lines[k]) and lines[k].strip():
            k += 1
        result = "\n".join(ln.rstrip() for ln in lines[j:k]).strip("\n")
        if result and k - j <= 8 and len(result) <= MAX_OUTPUT_CHARS:
            first = max(start, i - MAX_CODE_LINES + 1)
            while first < i and not prompts.match(lines[first]):
                first += 1
            context = lines[first:j]
            out.append(("\n".join(ln.rstrip() for ln in context), result, i))
    return out


_CONSOLE = re.compile(r"^(?:>(?: |$)|>>> |octave:\d+> |gnuplot> )")


def _console_examples(run: Run) -> list[CodeExample]:
    examples = []
    paras = paragraphs(run.text)
    block: list[str] = []
    intro = ""
    for para in paras + ["."]:
        if is_code(para) and not para.lstrip().startswith("$ "):
            block += [ln for ln in para.splitlines() if ln.strip()]
            continue
        if block and any(_CONSOLE.match(ln) for ln in block):
            for code, result, _ in _prompt_session(block, 0, _CONSOLE):
                last = code.splitlines()[-1] if code else ""
                if _CHANCE.search(last) or _CONSOLE.match(result) or not _CONSOLE.sub("", last).strip():
                    continue
                if re.search(r"[{(,+\-*/=<|&]\s*$", last) or re.search(r"<-|\bfunction\s*\(|^\s*[{}]", result, re.M):
                    continue  # an unfinished command: what follows is the rest of the code, not its output
                offset = run.text.find(last)
                examples.append(CodeExample(code, result, intro, SourceRef.of(run.chunk_at(max(offset, 0)))))
        block = []
        intro = para if not is_code(para) else intro
    return examples


_TAG_ONLY = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?>")  # a markup tag left on its own line by the import


def _program_examples(run: Run) -> list[CodeExample]:
    """A program followed (after at most one lead-in paragraph) by a ``$ cargo run``-style transcript."""
    paras = [p for p in paragraphs(run.text) if not _TAG_ONLY.fullmatch(p)]  # "</Listing>" is no paragraph
    examples = []
    for i, para in enumerate(paras):
        if not para.startswith("$ ") or i == 0:
            continue
        code_i = i - 1 if is_code(paras[i - 1]) else i - 2
        if code_i < 0 or not is_code(paras[code_i]) or paras[code_i].startswith("$ "):
            continue
        code_lines = [ln for ln in paras[code_i].splitlines() if ln.strip() and not ln.startswith("<span")]
        if not code_lines or len(code_lines) > MAX_CODE_LINES + 6:
            continue
        code = "\n".join(code_lines)
        if code.count("{") != code.count("}") or code_lines[0].startswith((" ", "}")):
            continue
        error = _ERROR.search(para)
        running = list(_RUNNING.finditer(para))
        if error:
            result, is_error = error.group(1).strip(), True
        elif running and "fn main" in code:
            result, is_error = para[running[-1].end():].strip("\n"), False
            if not result.strip() or len(result) > MAX_OUTPUT_CHARS or result.count("\n") > 6:
                continue
        else:
            continue
        if _CHANCE.search(code):
            continue
        intro = paras[code_i - 1] if code_i > 0 and not is_code(paras[code_i - 1]) else ""
        offset = run.text.find(code_lines[0])
        examples.append(CodeExample(code, result, " ".join(intro.split())[:400],
                                    SourceRef.of(run.chunk_at(max(offset, 0))), is_error))
    return examples


_ARROW = re.compile(r"^\s*(?:⇒|⊣|=>)\s*(?P<out>\S.*)$")


def _arrow_examples(run: Run) -> list[CodeExample]:
    """Texinfo-style examples: code, then ``⇒ result`` (or ``⊣ printed``) on the next line, as GNU manuals
    (Octave, gnuplot, Emacs ...) print them; one example per arrow."""
    examples = []
    paras = paragraphs(run.text)
    for i, para in enumerate(paras):
        lines = para.splitlines()
        arrows = [j for j, ln in enumerate(lines) if _ARROW.match(ln)]
        start = 0
        for at in arrows:
            code_lines = lines[start:at] or (paras[i - 1].splitlines() if i and not start and is_code(paras[i - 1])
                                             else [])
            result, j = [_ARROW.match(lines[at]).group("out")], at + 1
            while j < len(lines) and not _ARROW.match(lines[j]) and not (j + 1 < len(lines) and
                                                                       _ARROW.match(lines[j + 1])) \
                    and not re.search(r"[A-Za-z_]\w*\s*\(|;\s*$", lines[j]) and len(result) < 6:
                result.append(lines[j].strip())
                j += 1
            start = j
            output = "\n".join(r for r in result if r).strip()
            code = "\n".join(ln.rstrip() for ln in code_lines[-MAX_CODE_LINES:]).strip("\n")
            if not code or not output or len(output) > MAX_OUTPUT_CHARS or _CHANCE.search(code) \
                    or not any(is_code_line(ln) for ln in code_lines):
                continue
            intro = paras[i - 1] if i and not is_code(paras[i - 1]) else ""
            offset = run.text.find(code_lines[0])
            examples.append(CodeExample(code, output, " ".join(intro.split())[:400],
                                        SourceRef.of(run.chunk_at(max(offset, 0)))))
    return examples


def code_examples(chunks: Sequence[Chunk]) -> list[CodeExample]:
    """The chapter's code examples whose result the book prints (console sessions and run programs)."""
    readable = [c for c in chunks if c.role not in (ChunkRole.EXERCISE, ChunkRole.GLOSSARY, ChunkRole.OBJECTIVES)
                and is_prose(c)]
    out: list[CodeExample] = []
    seen: set[tuple[str, str]] = set()
    for run in stitch(readable):
        for ex in _console_examples(run) + _program_examples(run) + _arrow_examples(run):
            key = (normalize(ex.code)[-200:], normalize(ex.output))
            if key not in seen:
                seen.add(key)
                out.append(ex)
    return out


_SOLUTION = re.compile(r"(?m)^\s*Solution\s*$")
_VALUE = re.compile(r"[−\-]?\d[\d.,]*(?:\s*×\s*10\^\{?[−\-]?\d+\}?)?\s*(?:%|[A-Za-zμ°][\w°/·^{}−\-]*(?:\s[A-Za-z]\w*)?)")
_ASKS_VALUE = re.compile(r"(?i)\b(?:what is the|what are the|calculate|how (?:many|much|long|far|fast)|determine the|"
                         r"find the)\b")
_NOT_A_VALUE = re.compile(r"(?i)\b(?:formula|part of|which|spontaneous|why|explain|describe|sketch|draw|compare)\b")
_RESULT = re.compile(r"=\s*(?P<value>[^=;]{1,60}?)\s*$")


def worked_examples(chunks: Sequence[Chunk]) -> list[WorkedExample]:
    """Worked examples ("... What is the frequency of this light?" / "Solution" / "... = 5.09 × 10^14 s^-1"):
    the question asked before "Solution" and the value the solution ends with."""
    out: list[WorkedExample] = []
    for run in stitch([c for c in chunks if c.role is ChunkRole.EXAMPLE and is_prose(c)]):
        for m in _SOLUTION.finditer(run.text):
            before = paragraphs(run.text[max(0, m.start() - 1200):m.start()])
            asks = [p for p in before if p.rstrip().endswith("?") and not is_code(p)]
            after = run.text[m.end():m.end() + 2500]
            stop = re.search(r"(?mi)^\s*(?:check your learning|answer:|example \d|solution\s*$)", after)
            body = paragraphs(after[:stop.start()] if stop else after)
            result = next((r for r in (_RESULT.search(p.replace("\n", " ")) for p in reversed(body)) if r), None)
            value = result.group("value").strip() if result else ""
            if not asks or not _VALUE.fullmatch(value) or not _ASKS_VALUE.search(asks[-1]) \
                    or _NOT_A_VALUE.search(asks[-1]) or not asks[-1][:1].isupper():
                continue  # a yes/no, formula or multi-part question: its last "=" is not the answer
            problem = asks[-1]
            at = before.index(asks[-1])
            if len(problem) < 100 and at > 0 and before[at - 1].rstrip().endswith(".") and not is_code(before[at - 1]):
                problem = f"{before[at - 1]}\n\n{problem}"  # the data the question is about
            out.append(WorkedExample(" ".join(problem.split())[:900], result.group("value").strip(),
                                     SourceRef.of(run.chunk_at(m.start()))))
    return out
