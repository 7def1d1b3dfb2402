"""Whole sentences of a book's prose: paragraph and code separation, sentence splitting that keeps
"e.g." and "Fig. 3" together, and the checks every line a student is shown must pass.

``line_problem`` is the automatic check of guide lines, card backs and quiz proofs: a line is a
whole sentence (capital start, terminal punctuation), its brackets and quotes match, it is not a
heading (or a heading run into a sentence), not a tautology, not a pointer to other material ("Watch this
video …"), not two sentences glued or restarting inside around a lost footnote or table name, and carries no
markup left by the importer.  ``prose_sentences`` leaves out the problems a book sets ("Find the empirical
formula.", the exercise after "Check Your Learning") with their answers.  ``standalone`` adds that the
sentence can be read alone (it does not start with "This", "However", ...); ``narrative`` that it talks to
the reader ("we", "you", "let's") rather than stating a fact.  Pure functions; no storage, no models.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.study.text import content_words, loose

_PROMPT = re.compile(r"^\s*(?:>{1,3}(?: |$)|\$ |\+ |octave:\d+> |gnuplot> |In \[\d+\]: |#\s)")
_CODE_CHARS = re.compile(r"[{};=<>\[\]()#%$@\\|&*^~`]")
_CODEISH = re.compile(r"^\s*(?:fn |let |use |pub |impl |struct |enum |mod |match |if .*\{|for .*\{|while .*\{|"
                      r"def |class |import |from \S+ import|return\b|}|\{|#include|int |void |print\(|"
                      r"[A-Za-z_][\w.]*\s*(?:<-|=|\+=|:=)\s*\S)")
_OUTPUT = re.compile(r"^\s*(?:\[\d+(?:,\d*)?\]|\[,\d+\]|error(?:\[E\d+\])?:|warning:|-->|\d+\s*\||\s*\|)")
_JOIN_AFTER = re.compile(r"(?i)\b(?:e\.g|i\.e|etc|cf|vs|viz|al|fig|figs|eq|eqs|no|nos|p|pp|ch|sec|vol|approx|"
                         r"ca|resp|incl|dr|mr|mrs|ms|prof|st|jr|sr|u\.s|u\.k|ph\.d|a\.m|p\.m|"
                         r"(?-i:(?<=\s)v))\.$")  # lower-case "v." after a word: a case name ("Citizens United v. …")
_STOP_THEN_LOWER = re.compile(r"(?<!\S)([A-Z]\S*\.|\S*[\d)\]]\.) [a-z]")  # "… South Pole. lists", "(2014). cases"
# A problem set to the student ("Find the empirical formula.", "What volume of SO2 … is produced …?") and the
# headings that introduce one: the book asks it, it does not teach it.
_TASK = re.compile(r"(?i)^(?:(?:find|calculate|determine|compute|estimate|predict|show that|explain why)\b|"
                   r"what (?:volume|mass|is the (?:value|mass|volume|pressure|temperature|concentration|ph|energy))\b"
                   r".*\?$)")  # not "How much …?": a book asks that of itself ("How much of our personality is …?")
_TASK_HEADING = re.compile(r"(?i)^(?:check your learning|exercises?|practice problems?|try it|your turn|"
                           r"self[- ]check)$")
_ANSWER = re.compile(r"(?i)^\s*(?:answer|solution)s?\b")
_INITIAL = re.compile(r"(?:^|\s)(?:[A-Z]\.\s)*(?:[A-Z][a-z]+\s)?[A-Z]\.$")  # "B. F." / "John F." (not "of M.")
_SPLIT = re.compile(r"(?<=[.!?])([\"”’)\]]*)\s+(?=[\"“(\[]?[A-Z0-9`]|[a-z_][\w.]*\()")
_MARKUP = re.compile(r"<!--|-->|</?[a-z]+[^<>]*>|\]\[|\]\(|\[image|\[figure|\bhttps?://|\\[a-z]+\{|\{#|```")
_IDENT_START = re.compile(r"^[a-z_][\w.]*(?:\(|_|\.\w)")
_OPENERS = {"(": ")", "[": "]", "{": "}", "“": "”"}
_DANGLING = re.compile(
    r"(?i)^(?:this|these|those|that|it|its|they|them|their|such|here|there|also|so|thus|hence|then|but|and|or|nor|"
    r"however|similarly|conversely|likewise|furthermore|moreover|instead|otherwise|therefore|consequently|again|"
    r"finally|next|now|first|second|third|last|lastly|both|each|another|other|the former|the latter|he|she|we|"
    r"you|i|in (?:this|that|these|such|our|the (?:previous|next|following))|on the other hand|for (?:this|that) "
    r"reason|as (?:a result|such|before|above|mentioned|noted|shown|we)|above|below|see|recall|note|notice|"
    r"remember|let'?s|let’s|figure|table|listing|example|one|two|suppose|consider|imagine|assume|let|in addition|"
    r"additionally|meanwhile|instead|rather|still|yet|even so|his|her|for one|similar|in similar|in both|"
    r"in particular|in fact|in (?:reaction|response)|the (?:left|right|top|bottom|center|middle)\b|the (?:problem|"
    r"result|answer|following|same|rest|latter|former|reason|other|first|second|last|next|previous)|"
    r"because of (?:this|that|these|those)|part of the (?:problem|reason|answer|explanation)|"
    r"(?:all|most|many|some|several|none|neither|either) (?:of (?:them|these|those)|have|has|are|were|is|was)|"
    # a fronted phrase, then a pronoun whose noun came before: "At full phase, it shows …", "In some cases, their aim"
    r"(?:in|at|on|for|during|after|before|by|with|from|since|under|over|unlike|like) [^,]{1,40}, "
    r"(?:it|its|they|their|them|he|she|his|her)\b)\b")
_XREF = re.compile(r"(?i)\b(?:see|in|of) (?:Section|Chapter|Figure|Table|Appendix|Listing)s? [\dA-Z]|\bpages? \d|"
                   r"\bin (?:this|that|each|the following|the previous|our) (?:case|example|listing|code)\b|"
                   r"\((?:[a-h]|[ivx]{1,3})\)|"
                   r"\b(?:should be able to|would expect|might expect|let[’']s|we[’']ll see|we haven[’']t)\b|"
                   r"\bwe(?:[’']ve| have) been\b|\byou (?:might|may) have (?:noticed|seen|heard)\b|\bmuch to your\b|"
                   r"^(?:\w+[ ,]+){0,3}(?:this|these|such|that) (?!is\b|are\b|was\b)\w+|"
                   r"\b(?:these|those|such) [“\"‘`]?(?!as\b|that\b)\w+|"
                   r"\bthis [“\"‘`]?(?!is\b|was\b|means\b)[a-z]\w*|"
                   r"\bthe (?:two|three|four|five)\b(?=\s*[,.;:]|\s+(?:are|were|have|had|is|was)\b)|"  # "of the three,"
                   r"\binstead[.!?]*$|\bat (?:that|this) (?:time|point|stage|moment)\b|"
                   r"\blike this\b|\bone example\b|, however,|\ba similar\b|\(see\b|"
                   r"\b(?:above|below|previous|following|earlier|later)\b|\[[^\]]+\]|"
                   r"\bthan (?:that|this|these|those|before)\b")  # "… more efficient than that."
_SETUP = re.compile(r"(?i)^(?:for (?:example|instance)\b|as (?:an?|another) [^,.]{0,40}\bexample\b|in (?:this|the) example\b|"
                    r"the (?:following|next) (?:example|code|program|listing)\b)")
_LOST_FIGURE = re.compile(r"\b(?:[Aa]s|[Ii]n) (?:shows|illustrates|depicts|indicates|summarizes|lists)\b|"
                          r"\b(?:in|see|like|from|of) [,.;:)]")  # "As you can see in , the belt", "(like )"
_TITLE_RUN = re.compile(r"^(?:[A-Z][\w’'-]*\s+(?:(?:of|on|the|in|and|for|to|a|an|with)\s+)*){2,}(?:A|An|The)\s+[a-z]")
_MEDIA = r"(?:videos?|web ?sites?|web ?pages?|sites?|links?|simulations?|interactives?|animations?|podcasts?)"
_POINTER = re.compile(rf"(?i)^(?:(?:please )?click\b|(?:watch|visit|view|go to|explore|check out|listen to|try|use|"
                      rf"read|see|follow)\b.{{0,120}}\b{_MEDIA}\b|(?:this|the following) {_MEDIA}\b)")
_FINITE = re.compile(r"(?i)\b(?:is|are|was|were|has|have|had|can|could|will|would|may|might|must|should|does|do|did|"
                     r"means|makes|allows|gives|lets|requires|helps|takes|becomes|involves|uses|needs)\b")
_VERB = re.compile(r"(?i)\b(?:is|are|was|were|be|been|has|have|had|can|cannot|can't|may|might|must|should|will|"
                   r"would|could|does|do|did|means|refers|gives|returns|takes|makes|uses|forms|allows|produces|"
                   r"calculates|computes|contains|holds|causes|occurs|becomes|provides|creates|consists|describes|"
                   r"defines|requires|depends|shows|prints|generates|consists|[a-z]{3,}(?:s|ed))\b")
_TAUTOLOGY = re.compile(r"(?i)^(?P<subject>.+?)\s+(?:is|are)\s+(?:(?:used|needed|required|responsible|important|"
                        r"useful|known|essential)\s+(?:for|in|to|as)|(?:an?|the)\s+(?:kind|type|form|example|part)\s+"
                        r"of|called|the same as|defined as|also)\s+(?P<object>.+?)[.!?]?$")


def paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs of ``text``, stripped."""
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def is_code_line(line: str) -> bool:
    """A line of program code, a console prompt or console output (not prose)."""
    s = line.rstrip()
    if not s.strip():
        return False
    if _PROMPT.match(s) or _OUTPUT.match(s) or _CODEISH.match(s):
        return True
    if s.startswith(("    ", "\t")) and _CODE_CHARS.search(s):
        return True
    symbols = len(_CODE_CHARS.findall(s))
    words = len(re.findall(r"[A-Za-z]{2,}", s))
    return symbols >= 3 and symbols >= words * 0.6


def is_code(paragraph: str) -> bool:
    """Most lines of ``paragraph`` are code, prompts or output."""
    lines = [ln for ln in paragraph.splitlines() if ln.strip()]
    return bool(lines) and sum(is_code_line(ln) for ln in lines) * 2 > len(lines)


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of one prose paragraph, without splitting after "e.g.", "Fig.", initials and such."""
    text = " ".join(paragraph.split())
    parts: list[str] = []
    start = 0
    for m in _SPLIT.finditer(text):
        end = m.start() + len(m.group(1))
        piece = text[start:end]
        tail = piece.rstrip("\"”’)]")
        initial = _INITIAL.search(tail) and (not re.search(r"\b[a-z]+ [A-Z]\.$", tail)
                                             or re.match(r"[A-Z]\.\s", text[m.end():m.end() + 3]))
        if _JOIN_AFTER.search(tail) or initial:
            continue
        parts.append(piece.strip())
        start = m.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def prose_sentences(text: str) -> list[tuple[str, str]]:
    """(sentence, its paragraph) for every sentence of the prose paragraphs of ``text``: code is skipped, and so is
    a problem set to the student with its answer (``_TASK``, ``_set_tasks``)."""
    out: list[tuple[str, str]] = []
    ended = True  # did the previous prose paragraph end a sentence? (a page break can split one)
    paras = paragraphs(text)
    set_tasks = _set_tasks(paras)
    for i, para in enumerate(paras):
        if is_code(para):
            ended = True
            continue
        found = split_sentences(para)
        if i in set_tasks or any(_TASK.match(s) for s in found):
            ended = True
            continue
        if not ended and found and not found[0][:1].isupper():
            # the rest of a sentence begun in the previous paragraph (a page break split it); after a heading,
            # which ends without a stop too, a capital starts a new sentence: often the section's definition
            found = found[1:]
        out += [(sentence, para) for sentence in found]
        ended = bool(re.search(r"[.!?:][\"”’)]*$", para.strip()))
    return out


def _set_tasks(paras: Sequence[str]) -> set[int]:
    """The paragraphs a task heading introduces: the problem after "Check Your Learning", then its "Answer:" and the
    answer itself ("The critical temperature of ammonia is 405.5 K, …" is the answer to an exercise, not a lesson)."""
    out: set[int] = set()
    for i, para in enumerate(paras):
        if not _TASK_HEADING.match(para.strip()) or i + 1 >= len(paras):
            continue
        out.add(i + 1)
        if i + 2 < len(paras) and _ANSWER.match(paras[i + 2]):
            out.add(i + 2)
            if not _ANSWER.sub("", paras[i + 2]).strip(" \t\n:") and i + 3 < len(paras):
                out.add(i + 3)  # "Answer:" on a line of its own, the answer below it
    return out


def balanced(text: str) -> bool:
    """Brackets and curly quotes open and close in order; straight double quotes come in pairs."""
    stack: list[str] = []
    for ch in text:
        if ch in _OPENERS:
            stack.append(_OPENERS[ch])
        elif ch in _OPENERS.values():
            if not stack or stack.pop() != ch:
                return False
    return not stack and text.count('"') % 2 == 0 and text.count("`") % 2 == 0


def is_tautology(sentence: str) -> bool:
    """"Matrix multiplication is used for matrix multiplication.": the predicate only repeats the subject."""
    m = _TAUTOLOGY.match(" ".join(sentence.split()))
    if not m:
        return False
    subject, obj = set(content_words(m.group("subject"))), set(content_words(m.group("object")))
    return bool(subject) and bool(obj) and (obj <= subject or subject <= obj)


def _restarts(text: str) -> bool:
    """A stop after a name, a number or a bracket that is no abbreviation ("U.S.", "B. F."), then a lower-case
    word: a footnote or a table's lost name sits in between ("… the lunar South Pole. lists some of …").  After a
    lower-case word the next sentence may open with a lower-case term ("… called s-p mixing. s-p mixing does …")."""
    words = (m.group(1) for m in _STOP_THEN_LOWER.finditer(text))
    return any(not (_JOIN_AFTER.search(w) or _INITIAL.search(w) or re.fullmatch(r"(?:\w\.)+", w)) for w in words)


def line_problem(line: str, headings: Iterable[str] = ()) -> str | None:
    """Why ``line`` is not a whole, readable sentence of the book, or None when it is (see the module doc)."""
    s = " ".join(line.split())
    if len(s) < 25:
        return "too short"
    if len(s) > 420:
        return "too long"
    if not (s[0].isupper() or s[0].isdigit() or s[0] in "“\"‘'(`%" or _IDENT_START.match(s)):
        return "does not start a sentence"
    if not re.search(r"[.!?][\"”’)]*$", s) or re.search(r"(?:\b(?:e\.g|i\.e|etc|vs|cf)|\.\.)\.?$", s):
        return "no terminal punctuation"
    if s.rstrip(".!?\"”’)").endswith((":", ",", ";")):
        return "cut off"
    if not balanced(s):
        return "unmatched bracket or quote"
    if _MARKUP.search(s):
        return "markup"
    if re.match(r"^\d{1,2} (?=[A-Z])", s):
        return "footnote marker"
    prose_only = re.sub(r"`[^`]*`", "", s)
    if re.search(r"[A-Za-z][a-z]\.(?:[A-Z][a-z]{2,}|\d{2,}\b)", prose_only):
        return "two sentences glued"  # "... to become citizens.Theodore Haas.", "... Republican Party.1985."
    if _restarts(prose_only):
        return "a sentence restarts inside"  # "… 572 U.S. 185 (2014). cases opened the door …"
    if _LOST_FIGURE.search(s):
        return "a figure reference lost"  # "As shows, the major sensory organs ..." (the PDF's link text dropped)
    if _POINTER.match(s):
        return "a pointer to other material"  # "Watch this video about …", "Click here to learn more …"
    if _TITLE_RUN.match(s):
        return "heading run into a sentence"
    long = [w for w in re.findall(r"[A-Za-z][\w’'-]*", s) if len(w) > 3]
    if len(long) >= 4 and sum(w[0].isupper() for w in long) / len(long) > 0.6 or re.search(r"\d+:\s*\d+[–-]\d+\.$", s):
        return "a title or reference"  # "“Organized Interests ...,” American Political Science Review 82: 1109–1128."
    if re.match(r"^[A-Z][a-z]+ing\b", s) and not _FINITE.search(s):
        return "no verb"  # "Storing a function in a file—called a function file."
    if not _VERB.search(s):
        return "no verb"
    letters = sum(ch.isalpha() or ch == " " for ch in s) / len(s)
    if letters < 0.72:
        return "mostly symbols"
    ls = loose(s)
    for heading in headings:
        lh = loose(heading)
        if not lh:
            continue
        if ls == lh:
            return "a copy of the heading"
        if len(lh.split()) >= 2 and ls.startswith(lh + " ") and s[len(heading.strip()):].lstrip()[:1].isupper():
            return "heading run into a sentence"
    if is_tautology(s):
        return "tautology"
    return None


# The book talking to its reader: such a sentence walks through an example, it does not state a fact.
_NARRATIVE = re.compile(r"(?i)\b(?:we|we’ll|we'll|we’ve|we've|we’re|we're|we’d|we'd|let’s|let's|our|us|you|you’ll|"
                        r"you'll|you’re|you're|your|i)\b")


def narrative(sentence: str) -> bool:
    """Does the sentence speak to the reader ("we", "you", "let's", "our", "I")?  Not a fact to key a card,
    an item or a question to."""
    return _NARRATIVE.search(sentence) is not None


def standalone(sentence: str) -> bool:
    """The sentence can be read alone: it does not lean on the one before ("This", "However", "For example")."""
    s = sentence.lstrip("“\"‘'( ")
    return not (_DANGLING.match(s) or _SETUP.match(s) or _XREF.search(s))


def whole_sentences(lines: Sequence[str], headings: Iterable[str] = ()) -> list[str]:
    """The lines that pass ``line_problem``."""
    heads = list(headings)
    return [ln for ln in lines if line_problem(ln, heads) is None]
