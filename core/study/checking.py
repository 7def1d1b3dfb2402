"""Checking a student's answer against the book's key: numbers within 2 % and shared content words.

Used by the book's own exercises (``practice``) and by the practice Lantern makes from the text
(``drills``, for reworked examples), so it sits below both.
"""
from __future__ import annotations

import re

from core.study.models import Verdict
from core.study.text import content_words

_NUM = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?(?:\s*[x×]\s*10\^?\s*-?\d+)?")


def _numbers(text: str) -> list[float]:
    out = []
    for m in _NUM.findall(text.replace("−", "-")):
        base, _, exp = re.split(r"\s*[x×]\s*10\^?\s*", m) + ["", ""] if re.search(r"[x×]", m) else (m, "", "")
        try:
            value = float(base.replace(",", ""))
            if exp:
                value *= 10 ** int(exp)
            out.append(value)
        except ValueError:
            continue
    return out


def check_answer(key: str, student: str) -> tuple[Verdict, float]:
    """Compare a student's answer with the book's key: numbers within 2 % and shared content words.

    Returns the verdict and an agreement score 0..1 (numbers weigh 0.7 when the key has any).
    """
    if not student.strip():
        return Verdict.INCORRECT, 0.0
    key_numbers = [n for n in _numbers(key) if n not in (0.0,)] or _numbers(key)
    student_numbers = _numbers(student)
    key_words = set(content_words(re.sub(r"\$[^$]*\$", " ", key)))
    student_words = set(content_words(student))
    words = len(key_words & student_words) / len(key_words) if key_words else 0.0
    if key_numbers:
        matched = sum(1 for n in key_numbers
                      if any(abs(s - n) <= 0.02 * max(abs(n), 1e-9) for s in student_numbers))
        final = key_numbers[-1]
        final_ok = any(abs(s - final) <= 0.02 * max(abs(final), 1e-9) for s in student_numbers)
        share = max(matched / len(key_numbers), 1.0 if final_ok else 0.0)
        score = 0.8 * share + 0.2 * min(1.0, words * 2)
    else:
        score = words
    verdict = Verdict.CORRECT if score >= 0.75 else Verdict.PARTLY if score >= 0.4 else Verdict.INCORRECT
    return verdict, round(score, 3)
