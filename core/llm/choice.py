"""Which chat model this computer should run: the most correct one that answers in time.

Correctness comes first, speed second.  ``QUALITY_ORDER`` ranks the catalogue by measured answer
correctness on the dev books (``benchmarks/answers.py``; README "Answers").  Speed is measured on this
machine once: ``measure`` loads a model, evaluates a fixed prompt of about ``MEASURE_PROMPT_TOKENS``
tokens and generates ``MEASURE_ANSWER_TOKENS``, and records prompt and generation tokens per second
(with GPU offload when the settings ask for it).  ``predict`` turns that into the first-token and
whole-answer time of a typical question, and ``choose`` picks:

* ``Quality.BEST`` — the most correct model that is installed and fits in memory, whatever its speed;
* ``Quality.BALANCED`` (default) — the most correct model whose predicted first token is at most
  ``Budget.first_token_s`` and whole answer at most ``Budget.whole_answer_s``; the fastest if none is;
* ``Quality.FASTEST`` — the model with the quickest predicted whole answer.

The measurements are kept in ``<user data dir>/machine.json`` (per model, threads and GPU layers), so a
later start chooses without measuring again.  Nothing here touches the network.
"""
from __future__ import annotations

import datetime as _dt
import enum
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import platformdirs

from core.errors import ModelUnavailableError
from core.llm.catalog import CATALOG, QWEN25_CODER_05B, QWEN25_CODER_15B, SMOLLM2_135M, bundled_model_file, is_installed
from core.llm.model import LocalModel
from core.llm.settings import ENV_MODEL, LLMSettings
from core.paths import APP_NAME

log = logging.getLogger(__name__)

QUALITY_ORDER: tuple[str, ...] = (QWEN25_CODER_15B.key, QWEN25_CODER_05B.key, SMOLLM2_135M.key)
"""Most correct first (key-term recall and keyed-option accuracy over the dev books, README "Answers")."""
PROFILE_ENV = "LANTERN_MACHINE_PROFILE"
QUALITY_ENV = "LANTERN_ANSWER_QUALITY"
MEASURE_ENV = "LANTERN_MEASURE_MODELS"
"""``0``: never measure models (choose from an existing profile or keep the default): tests, smoke tests."""
MEASURE_PROMPT_TOKENS = 400
MEASURE_ANSWER_TOKENS = 48
_FILLER = ("The student reads the textbook chapter about energy, work and motion, and takes notes on every "
           "definition, example and exercise so that the ideas are clear before the next class. ")


class Quality(str, enum.Enum):
    """The student's preference in Settings: "Answer quality"."""

    BEST = "best"
    BALANCED = "balanced"
    FASTEST = "fastest"

    @classmethod
    def from_env(cls) -> Quality:
        """``LANTERN_ANSWER_QUALITY`` (best / balanced / fastest), balanced when unset or unknown."""
        value = os.environ.get(QUALITY_ENV, "").strip().lower()
        return cls(value) if value in {q.value for q in cls} else cls.BALANCED


@dataclass(frozen=True)
class Budget:
    """What a typical question costs and how long a student should wait (issue: first token ≤ 10 s,
    whole answer ≤ 30 s on the target laptop)."""

    first_token_s: float = 10.0
    whole_answer_s: float = 30.0
    # What a question's prompt costs once the fixed instructions are cached (the app prewarms them): p50 377,
    # p90 453 tokens over 60 questions of the five dev books with the 1.5B model's tokenizer (2026-11-25).
    prompt_tokens: int = 380
    answer_tokens: int = 150  # two to six sentences (the budget is 180; answers measured 20-100 tokens)


@dataclass(frozen=True)
class Speed:
    """One model's measured speed on this machine."""

    model: str  # catalogue key
    prompt_tps: float
    generate_tps: float
    load_s: float
    threads: int
    gpu_layers: int
    measured_at: str = ""


@dataclass(frozen=True)
class Choice:
    """The model to run, and why (shown in Settings)."""

    model: str
    quality: Quality
    reason: str
    first_token_s: float | None = None
    whole_answer_s: float | None = None


def predict(speed: Speed, budget: Budget = Budget()) -> tuple[float, float]:
    """(first token, whole answer) seconds for a typical question with a prewarmed model."""
    first = budget.prompt_tokens / max(speed.prompt_tps, 1e-6) + 1 / max(speed.generate_tps, 1e-6)
    return first, first + budget.answer_tokens / max(speed.generate_tps, 1e-6)


def choose(speeds: Mapping[str, Speed], quality: Quality = Quality.BALANCED, budget: Budget = Budget(),
           installed: Iterable[str] | None = None) -> Choice:
    """The model for ``quality`` among the measured (and installed) ones, with a one-line reason."""
    keys = [k for k in QUALITY_ORDER if k in speeds and (installed is None or k in set(installed))]
    if not keys:
        raise ModelUnavailableError("No chat model could be measured on this computer.")
    times = {k: predict(speeds[k], budget) for k in keys}

    def pick(key: str, reason: str) -> Choice:
        first, whole = times[key]
        return Choice(key, quality, reason, round(first, 1), round(whole, 1))

    name = {k: CATALOG[k].display_name for k in keys}
    if quality is Quality.BEST:
        return pick(keys[0], f"{name[keys[0]]} is the most correct model installed.")
    fastest = min(keys, key=lambda k: times[k][1])
    if quality is Quality.FASTEST:
        return pick(fastest, f"{name[fastest]} answers fastest here "
                             f"(first words in ~{times[fastest][0]:.0f} s, whole answer ~{times[fastest][1]:.0f} s).")
    for k in keys:
        first, whole = times[k]
        if first <= budget.first_token_s and whole <= budget.whole_answer_s:
            better = [name[b] for b in keys[:keys.index(k)]]
            slower = f" ({', '.join(better)} would take longer than that here)" if better else ""
            return pick(k, f"{name[k]} is the most correct model that starts answering within "
                           f"{budget.first_token_s:.0f} s and finishes within {budget.whole_answer_s:.0f} s "
                           f"on this computer (~{first:.0f} s / ~{whole:.0f} s){slower}.")
    return pick(fastest, f"No model answers within {budget.first_token_s:.0f} s here; {name[fastest]} is the "
                         f"fastest (~{times[fastest][0]:.0f} s to the first words).")


# -- measuring -------------------------------------------------------------------------------------
def measure_messages(tokens: int = MEASURE_PROMPT_TOKENS) -> list[dict[str, str]]:
    """A fixed prompt of about ``tokens`` tokens (never cached: its text differs from any real prompt)."""
    body = (_FILLER * (tokens // 30 + 1))[: tokens * 4]
    return [{"role": "system", "content": "You are a careful assistant."},
            {"role": "user", "content": body + "\n\nWrite one long paragraph about these notes."}]


def measure(model, *, key: str, threads: int, gpu_layers: int) -> Speed:
    """Load ``model`` (a ``LocalModel``) and time a fixed prompt and a short answer."""
    t0 = time.perf_counter()
    model.prewarm([{"role": "system", "content": "warm up"}]).result()
    load_s = time.perf_counter() - t0
    stream = model.stream_chat(measure_messages(), max_tokens=MEASURE_ANSWER_TOKENS, temperature=0.0)
    for _ in stream:
        pass
    st = stream.stats
    prompt_tps = max(1.0, st.evaluated_tokens / max(st.prompt_s, 1e-3))
    generate_tps = max(0.1, st.tokens_per_second)
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    return Speed(key, round(prompt_tps, 1), round(generate_tps, 2), round(load_s, 2), threads, gpu_layers, now)


# -- the machine profile ---------------------------------------------------------------------------
def profile_path() -> Path:
    """``LANTERN_MACHINE_PROFILE`` or ``<user data dir>/machine.json``."""
    env = os.environ.get(PROFILE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "machine.json"


def _profile_key(key: str, threads: int, gpu_layers: int) -> str:
    return f"{key}|t{threads}|g{gpu_layers}"


def load_speeds(threads: int, gpu_layers: int, path: Path | None = None) -> dict[str, Speed]:
    """The speeds measured earlier on this machine for these threads and GPU layers."""
    path = path or profile_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out = {}
    for key in CATALOG:
        row = data.get("speeds", {}).get(_profile_key(key, threads, gpu_layers))
        if row:
            try:
                out[key] = Speed(**row)
            except TypeError:
                continue
    return out


def save_speed(speed: Speed, path: Path | None = None) -> None:
    """Add one measurement to the profile (written atomically)."""
    path = path or profile_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    data.setdefault("speeds", {})[_profile_key(speed.model, speed.threads, speed.gpu_layers)] = asdict(speed)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def choose_for_machine(open_model: Callable[[str], object], installed: Iterable[str], *, threads: int,
                       gpu_layers: int, quality: Quality = Quality.BALANCED, budget: Budget = Budget(),
                       progress: Callable[[str], None] | None = None, path: Path | None = None) -> Choice:
    """Choose, measuring what is missing: models are measured most correct first, and measuring stops at
    the first that fits the budget (for ``BALANCED``); ``open_model(key)`` returns a ``LocalModel``."""
    installed = [k for k in QUALITY_ORDER if k in set(installed)]
    speeds = load_speeds(threads, gpu_layers, path)
    for key in installed:
        if key not in speeds:
            if progress:
                progress(f"Measuring {CATALOG[key].display_name} on this computer…")
            model = open_model(key)
            try:
                speeds[key] = measure(model, key=key, threads=threads, gpu_layers=gpu_layers)
                save_speed(speeds[key], path)
            except ModelUnavailableError as exc:
                log.warning("cannot measure %s: %s", key, exc.message)
                continue
            finally:
                model.close()
        first, whole = predict(speeds[key], budget)
        if quality is Quality.BALANCED and first <= budget.first_token_s and whole <= budget.whole_answer_s:
            break
    return choose(speeds, quality, budget, installed)


def installed_models() -> list[str]:
    """Catalogue models that are installed (as packages) or bundled, most correct first."""
    return [k for k in QUALITY_ORDER if bundled_model_file(CATALOG[k]) is not None or is_installed(CATALOG[k])]


def resolve_model(explicit: str | None = None, *, quality: Quality = Quality.BALANCED, measure_missing: bool = True,
                  progress: Callable[[str], None] | None = None, **overrides) -> tuple[LLMSettings, Choice | None]:
    """The model settings to run with (``LLMSettings.from_env`` plus ``overrides``): an ``explicit`` model (a
    ``.gguf`` path or catalogue key) or ``LANTERN_CHAT_MODEL`` as it is; otherwise the chosen catalogue model
    (``choose_for_machine``: measuring what is missing when ``measure_missing``, from the profile only
    otherwise; the default key when nothing is known).  Returns the choice too (None when not chosen)."""
    settings = LLMSettings.from_env(model=explicit or None, **overrides)
    if explicit or os.environ.get(ENV_MODEL, "").strip():
        return settings, None
    installed = installed_models()
    if not installed:
        return settings, None
    if measure_missing and os.environ.get(MEASURE_ENV, "1") != "0":
        choice = choose_for_machine(lambda key: LocalModel(replace(settings, model=key)), installed,
                                    threads=settings.threads, gpu_layers=settings.n_gpu_layers, quality=quality,
                                    progress=progress)
    else:
        speeds = load_speeds(settings.threads, settings.n_gpu_layers)
        if not any(k in speeds for k in installed):
            return settings, None
        choice = choose(speeds, quality, installed=installed)
    return replace(settings, model=choice.model), choice


__all__ = ["Budget", "Choice", "MEASURE_ENV", "QUALITY_ORDER", "Quality", "Speed", "choose", "choose_for_machine",
           "installed_models", "load_speeds", "measure", "measure_messages", "predict", "profile_path",
           "resolve_model", "save_speed"]
