"""Shaping a ranked candidate list for the answer step.

* ``dedupe_overlapping`` — drop chunks that mostly repeat a better-ranked chunk.
* ``diversify`` — cap how many top hits one section supplies (cheap MMR).
* ``apply_roles`` / ``missing_roles`` — meet a ``QueryPlan``'s role quotas (definitions want a
  concept and a glossary entry, "show me an example" wants worked examples first, ...).
* ``select_hits`` — all of the above in the measured order, around a caller-supplied search.

Pure functions over ``Hit`` lists; ranks are renumbered 1..n on every output.
"""
from __future__ import annotations

import logging
import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

from core.index.fts import term_patterns
from core.models import Chunk, ChunkRole, Hit
from core.retrieval.fusion import fuse_hits, renumber
from core.retrieval.plan import QueryPlan

log = logging.getLogger(__name__)


def section_key(chunk: Chunk) -> Hashable:
    """Identity of the section a chunk belongs to (the numbered section citations show)."""
    if chunk.section_number:
        return (chunk.book_id, "n", chunk.section_number)
    return (chunk.book_id, "id", chunk.section_id, chunk.chapter_number)


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _shingles(text: str) -> frozenset[tuple[str, str]]:
    words = _WORD.findall(text.lower())
    if len(words) < 2:
        return frozenset((w, "") for w in words)
    return frozenset(zip(words, words[1:]))


def overlap_ratio(a: str, b: str) -> float:
    """Containment of word bigrams: |A∩B| / min(|A|, |B|) (1.0 = one text lies inside the other)."""
    sa, sb = _shingles(a), _shingles(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def dedupe_overlapping(hits: Sequence[Hit], *, same_section: float = 0.6, any_section: float = 0.9
                       ) -> list[Hit]:
    """Drop hits whose text mostly repeats a higher-ranked hit.

    Neighbouring chunks share 1–2 sentences by design (containment ~0.1–0.3), so only a
    containment of ``same_section`` or more within a section counts as a duplicate; across
    sections (a repeated box, the same book imported twice) only near-identical text does.
    """
    kept: list[tuple[Hit, frozenset, Hashable]] = []
    for h in hits:
        sh, key = _shingles(h.chunk.text), section_key(h.chunk)
        dup = False
        for other, osh, okey in kept:
            if not sh or not osh:
                continue
            ratio = len(sh & osh) / min(len(sh), len(osh))
            if ratio >= (same_section if key == okey else any_section):
                dup = True
                log.debug("dropping chunk %s: %.0f%% inside chunk %s", h.chunk.id, ratio * 100, other.chunk.id)
                break
        if not dup:
            kept.append((h, sh, key))
    return renumber([h for h, _, _ in kept])


def diversify(hits: Sequence[Hit], max_per_section: int = 2) -> list[Hit]:
    """At most ``max_per_section`` hits per section before any section gets more (cheap MMR).

    Nothing is dropped: a section's surplus hits move behind every hit of a less-used section,
    keeping their relative order, so the top-k spans more sections whenever candidates allow.
    """
    if max_per_section < 1:
        raise ValueError("max_per_section must be at least 1")
    counts: Counter = Counter()
    first, later = [], []
    for h in hits:
        key = section_key(h.chunk)
        counts[key] += 1
        (first if counts[key] <= max_per_section else later).append(h)
    return renumber(first + later)


def apply_roles(hits: Sequence[Hit], plan: QueryPlan, k: int, *, protect: int = 1,
                depth: int | None = None) -> list[Hit]:
    """The top ``k`` of ``hits`` (ranked best first), adjusted to the plan's role quotas.

    For each quota not met in the top-k, the best candidate of that role from below (at most
    ``depth`` ranks down, default 4k) replaces the lowest-ranked top-k hit that no quota needs;
    the ``protect`` best hits are never replaced.  A comparison likewise pulls in a hit from a
    second section when the top-k holds one section only.  A promoted chunk must mention most of
    ``plan.key_terms`` (when the question has any): a glossary entry about something else is not
    worth a place just for being a glossary entry.  The selection keeps score order, then the
    best hit of ``plan.lead_role`` from the top hit's section (if any) moves to the front — the
    student asked for an example / exercise / summary, so that leads.  Returns at most ``k`` hits,
    ranks renumbered.
    """
    ranked = list(hits)
    if k <= 0:
        return []
    pool = ranked[:depth if depth is not None else 4 * k]
    top, rest = pool[:k], pool[k:]
    promoted: set[int] = set()
    quotas = {q.role: q.count for q in plan.preferred_roles}
    stems = term_patterns(plan.key_terms)
    rest = [h for h in rest if _mentions(h.chunk, stems)]

    def victim_index() -> int | None:
        have = Counter(h.chunk.role for h in top)
        for i in range(len(top) - 1, protect - 1, -1):
            h = top[i]
            if h.chunk.id not in promoted and have[h.chunk.role] > quotas.get(h.chunk.role, 0):
                return i
        return None

    def promote(pick: Hit) -> bool:
        i = victim_index()
        if i is None:
            return False
        rest.remove(pick)
        rest.append(top[i])
        top[i] = pick
        promoted.add(pick.chunk.id)
        return True

    if len(top) == k:  # fewer candidates than k: nothing can be swapped in
        for quota in plan.preferred_roles:
            while sum(h.chunk.role is quota.role for h in top) < quota.count:
                pick = next((h for h in rest if h.chunk.role is quota.role), None)
                if pick is None or not promote(pick):
                    break
        if plan.min_sections > 1:
            sections = Counter(section_key(h.chunk) for h in top)
            while len(sections) < plan.min_sections:
                fresh = [h for h in rest if section_key(h.chunk) not in sections]
                preferred = [h for h in fresh if h.chunk.role in quotas]
                pick = (preferred or fresh or [None])[0]
                if pick is None or not promote(pick):
                    break
                sections = Counter(section_key(h.chunk) for h in top)
    order = {id(h): i for i, h in enumerate(ranked)}
    top.sort(key=lambda h: order[id(h)])
    if plan.lead_role is not None and top:
        # Only a chunk from the best hit's own section may jump the queue: on Chemistry 2e, leading
        # with the best example from anywhere cut Hit@1 of problem-solving questions from 0.56 to 0.32.
        best = section_key(top[0].chunk)
        lead = next((h for h in top if h.chunk.role is plan.lead_role and section_key(h.chunk) == best), None)
        if lead is not None and lead is not top[0]:
            top.remove(lead)
            top.insert(0, lead)
    out = []
    for h in top:
        if h.chunk.id in promoted:
            h = replace(h, stage_scores=h.stage_scores + (("role_promoted", 1.0),))
        out.append(h)
    return renumber(out)


def _mentions(chunk: Chunk, stems: Sequence[re.Pattern[str]]) -> bool:
    """Does the chunk mention most of the question's terms (both of two, two of three, ...)?

    One shared word is too weak: "limiting reactant" must not admit every example about a reactant.
    """
    if not stems:
        return True
    text = " ".join((chunk.text, chunk.section_title, *chunk.key_terms))
    need = len(stems) if len(stems) <= 2 else math.ceil(len(stems) * 2 / 3)
    return sum(1 for rx in stems if rx.search(text)) >= need


def missing_roles(hits: Sequence[Hit], plan: QueryPlan, k: int) -> tuple[ChunkRole, ...]:
    """Quota roles still short in ``apply_roles(hits, plan, k)`` — worth a role-filtered extra search.

    ``hits`` are the candidates (not yet cut to k); an empty result means every quota is met or no
    search could do better than what the candidates hold.
    """
    top = apply_roles(hits, plan, k)
    have = Counter(h.chunk.role for h in top)
    return tuple(q.role for q in plan.preferred_roles if have[q.role] < min(q.count, k))


SearchFn = Callable[[str, int, tuple[str, ...]], list[Hit]]
"""``search(text, n, roles)`` -> up to n hits, best first; ``roles`` (ChunkRole values) restricts when given."""


RescoreFn = Callable[[str, list[Hit]], list[Hit]]
"""``rescore(question, hits)`` -> the same hits re-ordered (a re-ranking stage, see ``core.retrieval.rescoring``)."""


def select_hits(plan: QueryPlan, search: SearchFn, k: int, *, candidates: int = 40, max_per_section: int = 2,
                use_facets: bool = False, rescore: RescoreFn | None = None) -> list[Hit]:
    """The top ``k`` hits for a plan: search, section filter, re-rank, dedupe, diversify, role quotas.

    ``search`` is bound by the caller to the book/chapter/page filters (``Library.search``) and
    is called with ``plan.search_text``; once more per comparison facet when ``use_facets``; and
    once per quota role missing from the candidates, restricted to that role.  Sections named in
    the question ("section 2.3") are enforced here with ``plan.scope.matches``.  ``rescore`` (when
    given) re-orders the in-scope candidates with the question as written (``plan.text``) before
    de-duplication and diversity, so those act on the better order.
    """
    hits = search(plan.search_text, candidates, ())
    if use_facets and plan.facets:
        hits = fuse_hits([hits, *(search(f, candidates, ()) for f in plan.facets)])
    hits = [h for h in hits if plan.scope.matches(h.chunk)]
    if rescore is not None and hits:
        hits = rescore(plan.text or plan.question, hits)
    hits = diversify(dedupe_overlapping(hits), max_per_section)
    seen = {h.chunk.id for h in hits}
    for role in missing_roles(hits, plan, k):
        for h in search(plan.search_text, k, (role.value,)):
            if h.chunk.id not in seen and h.chunk.role is role and plan.scope.matches(h.chunk):
                seen.add(h.chunk.id)
                hits.append(h)
    return apply_roles(hits, plan, k, depth=len(hits))


__all__ = ["RescoreFn", "SearchFn", "apply_roles", "dedupe_overlapping", "diversify", "missing_roles", "overlap_ratio",
           "section_key", "select_hits"]
