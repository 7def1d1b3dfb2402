"""Which chat model this computer should run: the most correct one that answers in time.

Correctness comes first, speed second.  ``QUALITY_ORDER`` ranks the catalogue by measured answer
correctness on the dev books (``benchmarks/answers.py``; README "Answers").  Speed is measured on this
machine: ``measure`` loads a model, evaluates a fixed prompt of about ``MEASURE_PROMPT_TOKENS`` tokens and
generates ``MEASURE_ANSWER_TOKENS``, again until two runs agree, and records prompt and generation tokens
per second (with GPU offload when the settings ask for it) together with how much of the CPU other programs
used meanwhile (``core.llm.machine``).  ``predict`` turns that into the first-token and whole-answer time
of a typical question, and ``choose`` picks:

* ``Quality.BEST`` — the most correct model that is installed and fits in memory, whatever its speed;
* ``Quality.BALANCED`` (default) — the most correct model whose predicted first token is at most
  ``Budget.first_token_s`` and whole answer at most ``Budget.whole_answer_s``; the fastest if none is;
* ``Quality.FASTEST`` — the model with the quickest predicted whole answer.

Measured fairly or not at all: ``choose_for_machine`` measures only while other programs leave the CPU
nearly idle.  A measurement is *fair* when they used at most ``machine.IDLE_SHARE`` of it and two runs
agreed; any other (and one stored by a Lantern that did not record this) is *provisional*: it never
makes ``choose`` pass over a more correct model, and it is measured again when the computer is idle.
So a downgrade is kept only when an idle computer truly cannot run the more correct model in time.

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

from core.errors import LanternError, ModelUnavailableError
from core.llm import machine
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
MEASURE_MAX_RUNS = 3
AGREE_TOLERANCE = 0.2
"""Two runs agree when their prompt and generation speeds each differ by at most this share."""
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
    others_share: float | None = None  # share of the CPU other programs used while it was measured
    runs: int = 0  # timed runs (0: stored by a Lantern that ran one and did not check the load)
    runs_agree: bool = False  # two runs in a row agreed within AGREE_TOLERANCE
    fair: bool = False  # measured with the computer idle and runs agreeing (old profiles: False)

    @property
    def condition(self) -> str:
        """How it was measured, for Settings and ``lantern models``."""
        share = machine.describe_share(self.others_share)
        if self.fair:
            return f"measured with the computer idle ({share})"
        if self.runs == 0:
            return "provisional: measured by an earlier Lantern that did not check how busy the computer was"
        if not machine.is_idle(self.others_share):
            return f"provisional: the computer was busy ({share})"
        return f"provisional: two runs did not agree ({share})"


class MeasurementCancelled(LanternError):
    """A measurement was stopped (the student started an import or asked a question)."""

    code = "cancelled"


class MachineBusy(LanternError):
    """Nothing could be measured: other programs keep the computer busy.  Measured again later."""

    code = "busy"


@dataclass(frozen=True)
class Choice:
    """The model to run, and why (shown in Settings)."""

    model: str
    quality: Quality
    reason: str
    first_token_s: float | None = None
    whole_answer_s: float | None = None
    provisional: bool = False  # rests on a measurement to repeat when the computer is idle


def is_fair(speed: Speed | None) -> bool:
    return speed is not None and speed.fair


def predict(speed: Speed, budget: Budget = Budget()) -> tuple[float, float]:
    """(first token, whole answer) seconds for a typical question with a prewarmed model."""
    first = budget.prompt_tokens / max(speed.prompt_tps, 1e-6) + 1 / max(speed.generate_tps, 1e-6)
    return first, first + budget.answer_tokens / max(speed.generate_tps, 1e-6)


def choose(speeds: Mapping[str, Speed], quality: Quality = Quality.BALANCED, budget: Budget = Budget(),
           installed: Iterable[str] | None = None) -> Choice:
    """The model for ``quality`` among the measured (and installed) ones, with a one-line reason.

    A provisional measurement (``Speed.fair`` false) never passes a model over: for ``BALANCED`` the most
    correct model runs unless a fair measurement shows it too slow."""
    keys = [k for k in QUALITY_ORDER if k in speeds and (installed is None or k in set(installed))]
    if not keys:
        raise ModelUnavailableError("No chat model could be measured on this computer.")
    times = {k: predict(speeds[k], budget) for k in keys}

    def pick(key: str, reason: str) -> Choice:
        first, whole = times[key]
        speed = speeds[key]
        return Choice(key, quality, f"{reason} Speed {speed.condition}.", round(first, 1), round(whole, 1),
                      provisional=not speed.fair)

    name = {k: CATALOG[k].display_name for k in keys}
    if quality is Quality.BEST:
        return pick(keys[0], f"{name[keys[0]]} is the most correct model installed.")
    fastest = min(keys, key=lambda k: times[k][1])
    if quality is Quality.FASTEST:
        return pick(fastest, f"{name[fastest]} answers fastest here "
                             f"(first words in ~{times[fastest][0]:.0f} s, whole answer ~{times[fastest][1]:.0f} s).")
    for k in keys:
        first, whole = times[k]
        better = [name[b] for b in keys[:keys.index(k)]]
        slower = f" ({', '.join(better)} would take longer than that here)" if better else ""
        if first <= budget.first_token_s and whole <= budget.whole_answer_s:
            return pick(k, f"{name[k]} is the most correct model that starts answering within "
                           f"{budget.first_token_s:.0f} s and finishes within {budget.whole_answer_s:.0f} s "
                           f"on this computer (~{first:.0f} s / ~{whole:.0f} s){slower}.")
        if not speeds[k].fair:
            return pick(k, f"{name[k]} is the most correct model{slower}; measured at ~{first:.0f} s / "
                           f"~{whole:.0f} s, but not on an idle computer, so it is measured again before "
                           "a less correct model replaces it.")
    return pick(fastest, f"No model answers within {budget.first_token_s:.0f} s here; {name[fastest]} is the "
                         f"fastest (~{times[fastest][0]:.0f} s to the first words).")


# -- measuring -------------------------------------------------------------------------------------
def measure_messages(tokens: int = MEASURE_PROMPT_TOKENS, run: int = 0) -> list[dict[str, str]]:
    """A fixed prompt of about ``tokens`` tokens (never cached: its text differs from any real prompt, and
    each ``run`` starts differently so a repeat evaluates it all again)."""
    body = (_FILLER * (tokens // 30 + 1))[: tokens * 4]
    return [{"role": "system", "content": f"You are a careful assistant (measurement {run + 1})."},
            {"role": "user", "content": body + "\n\nWrite one long paragraph about these notes."}]


def runs_agree(a: tuple[float, float], b: tuple[float, float], tolerance: float = AGREE_TOLERANCE) -> bool:
    """Whether two runs' (prompt, generation) tokens per second differ by at most ``tolerance`` each."""
    return all(abs(x - y) <= tolerance * max(x, y, 1e-9) for x, y in zip(a, b))


def measure(model, *, key: str, threads: int, gpu_layers: int, cancel: Callable[[], bool] | None = None,
            watch: Callable[[], machine.CpuWatch] = machine.CpuWatch, max_runs: int = MEASURE_MAX_RUNS) -> Speed:
    """Load ``model`` (a ``LocalModel``) and time a fixed prompt and a short answer, again until two runs in
    a row agree (at most ``max_runs``), watching how much of the CPU other programs use meanwhile.

    Raises ``MeasurementCancelled`` when ``cancel()`` turns true."""
    cancelled = cancel or (lambda: False)
    cpu = watch().start()
    t0 = time.perf_counter()
    model.prewarm([{"role": "system", "content": "warm up"}]).result()
    load_s = time.perf_counter() - t0
    runs: list[tuple[float, float]] = []
    agree = False
    for run in range(max_runs):
        if cancelled():
            raise MeasurementCancelled("The measurement was stopped.")
        stream = model.stream_chat(measure_messages(run=run), max_tokens=MEASURE_ANSWER_TOKENS, temperature=0.0,
                                   cancel=cancelled)
        for _ in stream:
            pass
        if cancelled():
            raise MeasurementCancelled("The measurement was stopped.")
        st = stream.stats
        runs.append((max(1.0, st.evaluated_tokens / max(st.prompt_s, 1e-3)), max(0.1, st.tokens_per_second)))
        if len(runs) >= 2 and runs_agree(runs[-2], runs[-1]):
            agree = True
            break
    share = cpu.share()
    prompt_tps, generate_tps = ((runs[-2][0] + runs[-1][0]) / 2, (runs[-2][1] + runs[-1][1]) / 2) if agree \
        else max(runs, key=lambda r: r[1])  # no agreement: the fastest run is the nearest to an idle machine
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    fair = agree and share is not None and machine.is_idle(share)
    log.info("measured %s: %.0f prompt tok/s, %.1f tok/s over %d runs (agree %s, others' CPU share %s)",
             key, prompt_tps, generate_tps, len(runs), agree, share)
    return Speed(key, round(prompt_tps, 1), round(generate_tps, 2), round(load_s, 2), threads, gpu_layers, now,
                 others_share=share, runs=len(runs), runs_agree=agree, fair=fair)


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
                       progress: Callable[[str], None] | None = None, path: Path | None = None,
                       busy: Callable[[], float | None] = machine.others_share_now,
                       cancel: Callable[[], bool] | None = None) -> Choice:
    """Choose, measuring what is missing or provisional: most correct first, stopping (for ``BALANCED``) at
    the first model that fits the budget or whose speed stays provisional.  ``open_model(key)`` returns a
    ``LocalModel``; ``busy()`` says how much of the CPU other programs use now: above
    ``machine.IDLE_SHARE`` nothing is measured (the choice rests on what is known, provisional if need be).

    Raises ``MachineBusy`` when nothing is known and the computer was too busy to measure,
    ``MeasurementCancelled`` when ``cancel()`` turned true."""
    installed = [k for k in QUALITY_ORDER if k in set(installed)]
    speeds = load_speeds(threads, gpu_layers, path)
    deferred = False
    for key in installed:
        if not is_fair(speeds.get(key)):
            share = busy()
            if not machine.is_idle(share):
                log.info("not measuring %s now: %s", key, machine.describe_share(share))
                if progress:
                    progress(f"The computer is busy ({machine.describe_share(share)}): "
                             "Lantern measures the models when it is idle.")
                deferred = True
                break
            if progress:
                progress(f"Measuring {CATALOG[key].display_name} on this computer…")
            model = open_model(key)
            try:
                speeds[key] = measure(model, key=key, threads=threads, gpu_layers=gpu_layers, cancel=cancel)
                save_speed(speeds[key], path)
            except ModelUnavailableError as exc:
                log.warning("cannot measure %s: %s", key, exc.message)
                continue
            finally:
                model.close()
        if not speeds[key].fair:
            break  # provisional: it runs until an idle computer says otherwise
        first, whole = predict(speeds[key], budget)
        if quality is Quality.BALANCED and first <= budget.first_token_s and whole <= budget.whole_answer_s:
            break
    if deferred and not any(k in speeds for k in installed):
        raise MachineBusy("The computer is busy: Lantern measures the models when it is idle.")
    choice = choose(speeds, quality, budget, installed)
    if deferred and not choice.provisional:
        choice = replace(choice, provisional=True, reason=choice.reason + " More correct models are measured "
                                                                          "when the computer is idle.")
    return choice


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
        try:
            choice = choose_for_machine(lambda key: LocalModel(replace(settings, model=key)), installed,
                                        threads=settings.threads, gpu_layers=settings.n_gpu_layers,
                                        quality=quality, progress=progress)
        except MachineBusy as exc:
            log.info("%s", exc.message)
            return settings, None
    else:
        speeds = load_speeds(settings.threads, settings.n_gpu_layers)
        if not any(k in speeds for k in installed):
            return settings, None
        choice = choose(speeds, quality, installed=installed)
    return replace(settings, model=choice.model), choice


__all__ = ["Budget", "Choice", "MEASURE_ENV", "MachineBusy", "MeasurementCancelled", "QUALITY_ORDER", "Quality",
           "Speed", "choose", "choose_for_machine", "installed_models", "is_fair", "load_speeds", "measure",
           "measure_messages", "predict", "profile_path", "resolve_model", "runs_agree", "save_speed"]
