"""Words that give a claim its direction, in families (increase/decrease, before/after, attract/repel, positive/negative).

Shared by the answer's grounding (``core.answer.grounding``: a sentence may only use a family its evidence
uses) and the study grader (``core.study.grading``: an answer that moves the other way than the book says
the opposite).  Below both layers, so each uses the one list.
"""
from __future__ import annotations

import re

_DIRECTIONS = {
    "up": "increase increases increased increasing rise rises rising rose raise raises raised grow grows growing "
          "grew higher more greater larger bigger faster stronger longer gain gains gained above exceed exceeds "
          "highest greatest largest biggest fastest strongest longest",
    "down": "decrease decreases decreased decreasing fall falls falling fell drop drops dropped dropping decline "
            "declines declined lower less fewer smaller slower weaker shorter reduce reduces reduced reducing "
            "below lose loses lost shrink shrinks lowest fewest smallest slowest weakest shortest",
    "before": "before earlier prior precede precedes preceded first",
    "after": "after later following follow follows followed then",
    # Not a direction but a polarity, checked the same way: "attractive forces" on a sentence about repulsive ones.
    "attract": "attract attracts attracted attracting attraction attractions attractive",
    "repel": "repel repels repelled repelling repulsion repulsions repulsive",
    "positive": "positive positively",
    "negative": "negative negatively",
}
_FAMILY = {w: fam for fam, words in _DIRECTIONS.items() for w in words.split()}
_WORD = re.compile(r"[a-z]+")
# "Use the following code:", "as follows", "follow these steps": words that point at what comes next in the text,
# not a claim that one thing comes after another.  A manual's answers are full of them (R-intro's "To read the
# arguments …, you can use the following code: …" was greyed for a direction its evidence lacked).
_POINTING = re.compile(r"\b(?:the following(?! (?:days?|weeks?|months?|years?|decades?|century|morning|night))"
                       r"|as follows|follow(?:ing)? (?:these|this|the) (?:steps?|instructions?|procedures?|examples?|"
                       r"syntax|code|commands?))\b", re.I)


def directions(text: str) -> set[str]:
    """The direction families ("up", "down", "before", "after") a text's words belong to (pointing phrases such as
    "the following" left out)."""
    return {_FAMILY[w] for w in _WORD.findall(_POINTING.sub(" ", text).lower()) if w in _FAMILY}
