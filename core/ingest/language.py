"""The language a book is written in, and the word stems its keyword index needs.

A book's language is read from its own text at import (py3langid: langid.py's model, shipped in the wheel),
limited to the languages Lantern can answer in.  The keyword index stems English with FTS5's porter tokenizer;
porter knows only English suffixes ("mobilité" and "mobilités" stay apart), so a French, Spanish, German or
Portuguese book also gets its words' Snowball stems (nltk's, pure Python, no data files) in a column of their
own, and a question about it is stemmed the same way (``stems``).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

ENGLISH = "en"
NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese", "zh": "Chinese"}
"""The languages Lantern detects, asks and answers in (ISO 639-1 codes)."""
NOUNS_CAPITALISED = frozenset({"de"})
"""Languages that capitalise every noun: there a capitalised word in a question is not a name."""
SNOWBALL = {"es": "spanish", "fr": "french", "de": "german", "pt": "portuguese"}
"""Languages whose books get Snowball stems in the keyword index (English has porter; Chinese has no stems)."""

# Closed-class words (articles, pronouns, prepositions, conjunctions, forms of "be" and "have") that say nothing of
# what a question is about.  Keyword search and the grounding check skip them as they skip "the" and "of".  Words
# that are also English content words are left out ("die", "den", "man", "hat", "son", "car", "pour", "sin",
# "os", "del", "su", "mit", "dos", "plus"): every book's words go through the same list.
FUNCTION_WORDS = {
    "fr": frozenset("""le la les l un une des du de d au aux et ou où mais donc ni or ce cet cette ces ça cela ceci
        il ils elle elles on je j tu nous vous me m te t se s lui leur leurs eux y en ne n pas que qu qui quoi quel
        quelle quels quelles dont est sont être été était étaient sera ont avoir avait a ai as avez avons sur sous
        dans avec sans par entre vers chez comme si aussi très moins tout tous toute toutes son sa ses mon ma mes
        ton ta tes notre nos votre vos même autre autres quand comment pourquoi combien peut faut fait""".split()),
    "es": frozenset("""el la los las lo un una unos unas de del al y e o u pero ni que qué quien quién quienes cual
        cuál cuales cuáles como cómo cuando cuándo donde dónde por para con en entre sobre hacia desde hasta se me te
        nos os le les mi mis tu tus sus nuestro nuestra este esta estos estas ese esa esos esas eso esto es son
        era fue ser está están estar ha han hay haber he yo él ella ellos ellas usted ustedes muy más menos también
        cada otro otra otros otras porque puede pueden""".split()),
    "de": frozenset("""der das dem des ein eine einer eines einem einen und oder aber doch sondern ist sind war
        waren sein wird werden wurde wurden hat haben hatte ich du er sie es wir ihr mich dich sich uns euch ihm ihn
        ihnen mein dein ihre ihren seine seinen nicht kein keine zu zum zur von vom mit bei nach aus auf für über
        unter vor im ins am an als wie wenn dass ob auch noch nur sehr was wer wo warum wieso welche welcher welches
        kann können muss dieser diese dieses man""".split()) - {"man"},
    "pt": frozenset("""o a os as um uma uns umas de da do das dos em na no nas nos ao aos à às e ou mas nem que quem
        qual quais como quando onde porque por para com sem entre sobre se me te lhe lhes eu ele ela eles elas você
        vocês nós meu minha seu sua seus suas este esta isto esse essa isso é são era foi ser estar está estão tem
        têm ter há muito mais menos também cada outro outra pode podem""".split()) - {"dos"},
}

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.U)
_SAMPLE_BLOCKS = 60  # blocks read spread over the book: enough for a sure vote, fast on a 1,000-page book
_MIN_LETTERS = 80  # shorter blocks (headings, captions, code) say little about the language


@lru_cache(maxsize=1)
def identifier():
    """py3langid's identifier, limited to ``NAMES`` (0.5 s to load: only when first asked)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    found = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    found.set_languages(list(NAMES))
    return found


def text_language(text: str) -> str:
    """The language of ``text``: a key of ``NAMES``."""
    return str(identifier().classify(text)[0])


def book_language(texts: Iterable[str]) -> str:
    """The language most of a book's prose blocks are written in (a key of ``NAMES``; English when there is
    no prose).  Each sampled block votes, so a few English code listings or quotations in a French book do not
    make it English."""
    prose = [t for t in texts if sum(c.isalpha() for c in t) >= _MIN_LETTERS]
    if not prose:
        return ENGLISH
    step = max(1, len(prose) // _SAMPLE_BLOCKS)
    votes = Counter(text_language(t) for t in prose[::step][:_SAMPLE_BLOCKS])
    return votes.most_common(1)[0][0]


@lru_cache(maxsize=None)
def snowball_stemmer(language: str):
    """nltk's Snowball stemmer for ``language`` (a key of ``SNOWBALL``), made once."""
    from nltk.stem.snowball import SnowballStemmer  # pure Python, no data files

    return SnowballStemmer(SNOWBALL[language])


def words(text: str) -> list[str]:
    """The words of ``text``, lower-cased; an elided article or pronoun is dropped ("l'économie" ->
    "économie", "qu'est" -> "est")."""
    out = []
    for word in _WORD.findall(text.lower()):
        parts = re.split(r"['’]", word)
        out.append(parts[-1] if len(parts) > 1 and len(parts[0]) <= 2 else parts[0])
    return out


def stems(text: str, language: str) -> str:
    """``text`` as its words' Snowball stems, space-separated ('' for a language without a Snowball stemmer):
    what the keyword index's stems column holds, and what a question about such a book is matched with."""
    if language not in SNOWBALL:
        return ""
    stem = snowball_stemmer(language).stem
    return " ".join(stem(w) for w in words(text))
