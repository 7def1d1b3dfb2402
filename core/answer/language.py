"""The student's language: which language a question is written in, and the messages that have the local chat
model translate a question into the book's language and an answer back.

Lantern reads, retrieves and checks in the book's language: the keyword index, the English embedding model,
the evidence sentences and the grounding all compare words of the book.  A question in Spanish is therefore
translated into English first, answered and grounded in English, and only the finished sentences go back into
Spanish, each keeping the citation and the grey it earned in English.  Quotes stay the book's own words.

Language identification is py3langid (langid.py's model, shipped in the wheel), limited to the languages below.
A short English question can look foreign to it ("define entropy" scores as French), so a question is taken as
foreign only when it also uses a word the book never does: a question made of the book's own words is asked in
the book's language, whatever the detector says.  That needs no threshold.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from core.answer.attribution import ABOUT_CODE_LABEL, UNSUPPORTED_LABEL
from core.ingest.language import ENGLISH, NAMES, text_language
from core.llm.settings import Message

LANGUAGES = {code: name for code, name in NAMES.items() if code != ENGLISH}
"""The languages a student may ask an English book in."""
# How a greyed sentence is marked, in the student's language: (no source backs it, it is about the student's code).
_LABELS = {
    "es": ("no está en tu libro", "sobre tu código: ejecútalo para comprobarlo"),
    "fr": ("absent de ton livre", "sur ton code : exécute-le pour vérifier"),
    "de": ("nicht in deinem Buch", "zu deinem Code: führe ihn aus, um es zu prüfen"),
    "pt": ("não está no seu livro", "sobre o seu código: execute-o para conferir"),
    "zh": ("书中没有", "关于你的代码：请运行检查"),
}
_FENCED = r"```.*?(?:```|$)"  # a fenced code block (an unclosed one runs to the end)
_CODE = re.compile(_FENCED + r"|`[^`\n]+`", re.S)
_WORD = re.compile(r"[^\W\d_]+", re.U)
_CJK = re.compile(r"[\u3400-\u9fff]")
_NUMBERED = re.compile(r"^\s*(\d+)\s*[.)：:、．]\s*(.*\S)\s*$")


def sentence_labels(language: str) -> tuple[str, str]:
    """How the CLI and the desktop mark a greyed sentence in ``language``: (not found in the book, about the
    student's own code)."""
    return _LABELS.get(language, (UNSUPPORTED_LABEL, ABOUT_CODE_LABEL))


def language_name(language: str) -> str:
    """"Spanish" for "es" ("English" for a language Lantern does not know)."""
    return NAMES.get(language, NAMES[ENGLISH])


def prose(text: str) -> str:
    """``text`` without its code: fenced blocks and `inline code` are neither language nor to be translated."""
    return " ".join(_CODE.sub(" ", text).split())


def detect(question: str, known: Callable[[str], bool], book_language: str = ENGLISH) -> str:
    """The language of ``question``: a key of ``NAMES``.

    ``known(word)`` says whether the book uses a word; ``book_language`` is the language the book is written
    in.  A question in Chinese characters is Chinese.  Otherwise the detector's choice stands when it is the
    book's language or the book is not in English; against an English book, only when some everyday word of the
    question is unknown to the book: an acronym, a code name or a capitalised name inside the question ("INS",
    "VecDeque", "Guantánamo") says nothing about the language the student writes in.  (A French or German book
    quotes English commands, messages and whole untranslated passages, so knowing every word of a question does not
    make it French; a misread question is caught after its translation instead, by ``untranslated``.)"""
    text = prose(question)
    if not text:
        return book_language
    if _CJK.search(text):
        return "zh"
    language = text_language(text)
    if language == book_language or book_language != ENGLISH:
        return language
    words = _WORD.findall(text)
    # Lower case, or capitalised only because it opens the question ("Que signifie …"); not a name, an acronym
    # or a code name ("Boumediene", "INS", "VecDeque").
    everyday = [w for i, w in enumerate(words) if w.islower() or (i == 0 and w[1:].islower())]
    return language if any(not known(w) for w in everyday) else book_language


# Two worked examples, one with a blank, on topics far from any textbook: without them the 1.5B answers a question
# ("... is John Stuart Mill"), fills its blank, or hands it back untranslated.
_EXAMPLES = {
    "es": ("¿Cuánto tiempo hay que hervir un huevo para que quede duro?",
           "¿Cuál es el río más largo de ________ y por qué se desborda?"),
    "fr": ("Combien de temps faut-il faire bouillir un œuf pour qu'il soit dur ?",
           "Quel est le plus long fleuve de ________ et pourquoi déborde-t-il ?"),
    "de": ("Wie lange muss man ein Ei kochen, damit es hart wird?",
           "Was ist der längste Fluss in ________, und warum tritt er über die Ufer?"),
    "pt": ("Quanto tempo é preciso ferver um ovo para ele ficar duro?",
           "Qual é o rio mais longo de ________ e por que ele transborda?"),
    "zh": ("鸡蛋要煮多长时间才会变成全熟？", "________最长的河流是哪一条？它为什么会泛滥？"),
}
_EXAMPLES[ENGLISH] = ("How long does an egg have to be boiled to become hard-boiled?",
                      "What is the longest river in ________, and why does it flood?")


def question_messages(question: str, language: str, target: str = ENGLISH) -> list[Message]:
    """Chat messages asking for ``question`` (its prose; code blocks are kept out), asked in ``language``, in
    ``target`` (the book's language)."""
    messages: list[Message] = [{"role": "system", "content":
                                f"You translate a student's question from {language_name(language)} into "
                                f"{language_name(target)}. Translate it as a question with the same meaning: do "
                                "not answer it and do not fill in any blank (________); keep names, numbers, "
                                f"formulas and code exactly as written. Reply with the {language_name(target)} "
                                "question only."}]
    for asked, translated in zip(_EXAMPLES[language], _EXAMPLES[target]):
        messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": translated}]
    return messages + [{"role": "user", "content": prose_with_inline_code(question)}]


def prose_with_inline_code(question: str) -> str:
    """The question without its fenced code blocks (inline `code` stays: it is part of the sentence)."""
    return " ".join(re.sub(_FENCED, " ", question, flags=re.S).split())


def code_blocks(question: str) -> str:
    """The fenced code blocks of ``question``, as written, to go back after its translation."""
    return "\n\n".join(m.group(0) for m in re.finditer(_FENCED, question, flags=re.S))


def translated_question(question: str, translated: str) -> str:
    """The model's translation, cleaned (a quoted or labelled reply; `backticks` the question did not have), with
    the question's code blocks after it."""
    text = translated.strip().splitlines()[0] if translated.strip() else ""
    labels = "|".join(["translation", *(name.lower() for name in NAMES.values())])
    text = re.sub(rf"^(?:{labels})\s*:\s*", "", text, flags=re.I).strip().strip('"\u201c\u201d')
    if "`" not in prose_with_inline_code(question):
        text = text.replace("`", "")
    code = code_blocks(question)
    return f"{text}\n\n{code}" if code else text


def answer_messages(sentences: Sequence[str], language: str, question: str = "",
                    source: str = ENGLISH) -> list[Message]:
    """Chat messages asking for the numbered ``sentences`` (in ``source``, the book's language) in ``language``,
    one numbered line each.  The student's own ``question`` is given so the translation uses the student's words
    for the same things."""
    lines = "\n".join(f"{i}. {' '.join(s.split())}" for i, s in enumerate(sentences, 1))
    asked = f" The student asked: \u201c{prose_with_inline_code(question)}\u201d" if question.strip() else ""
    return [{"role": "system", "content":
             f"You translate a tutor's answer from {language_name(source)} into {language_name(language)}.{asked} "
             "Translate every numbered sentence; keep names, numbers, formulas and anything in `backticks` exactly "
             "as written. Reply with the same numbered lines, one sentence per line, and nothing else."},
            {"role": "user", "content": lines}]


def numbered_lines(reply: str, count: int) -> list[str] | None:
    """The ``count`` translations in a numbered reply, in order, or None when any is missing."""
    found: dict[int, str] = {}
    for line in reply.splitlines():
        m = _NUMBERED.match(line)
        if m and 1 <= int(m.group(1)) <= count and int(m.group(1)) not in found:
            found[int(m.group(1))] = m.group(2)
    if count == 1 and not found:  # one sentence back without its number
        lines = [line.strip() for line in reply.splitlines() if line.strip()]
        return lines[:1] or None
    return [found[i] for i in range(1, count + 1)] if len(found) == count else None


def untranslated(question: str, english: str) -> bool:
    """Did the translation keep every word of the question?  Then nothing was translated: the question was
    already in the book's language ("define entropy", which the detector alone takes for French)."""
    kept = {w.lower() for w in _WORD.findall(english)}
    return all(w.lower() in kept for w in _WORD.findall(prose(question)))
