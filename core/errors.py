"""Lantern's exceptions: one shared base so the CLI and GUI can turn any of them into a message.

Each class carries a stable ``code`` (used in JSON output and tests) and a readable message.
"""
from __future__ import annotations


class LanternError(Exception):
    """Base of every error Lantern raises on purpose."""

    code = "error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BookImportError(LanternError):
    """A file could not be imported; the library was left unchanged."""

    code = "import_failed"


class UnreadablePathError(BookImportError):
    code = "unreadable"


class UnsupportedFormatError(BookImportError):
    code = "unsupported"


class EncryptedPdfError(BookImportError):
    code = "encrypted"


class DrmProtectedError(EncryptedPdfError):
    """An e-book (EPUB) is DRM-protected; shares the "encrypted" code so callers treat it alike."""


class ScannedPdfError(BookImportError):
    code = "scanned"


class OcrUnavailableError(ScannedPdfError):
    """A scanned PDF, and the OCR component is missing from this installation."""

    code = "ocr_unavailable"


class CorruptFileError(BookImportError):
    code = "corrupt"


class EmptyDocumentError(BookImportError):
    code = "empty"


class TooLargeError(BookImportError):
    code = "too_large"


class ImportCancelled(LanternError):
    """The user (or a shutdown) cancelled an import; nothing was stored."""

    code = "cancelled"


class BookNotFoundError(LanternError):
    code = "not_found"


class LibraryError(LanternError):
    """The library folder or database cannot be used (locked, newer schema, damaged)."""

    code = "library"


class ManifestMismatchError(LibraryError):
    """The vector index was built with another embedding model, dimension or chunker."""

    code = "manifest_mismatch"


class ModelUnavailableError(LanternError):
    """A model (embedding, re-ranker, chat) is missing, corrupt or cannot load."""

    code = "model_unavailable"


class CoursePackError(LanternError):
    """A course pack cannot be read or written: damaged, truncated, tampered with, hostile or not a pack.
    An import that raises it leaves the library as it was."""

    code = "bad_pack"


class PackVersionError(CoursePackError):
    """The course pack was made by a newer Lantern (a format this one does not know)."""

    code = "pack_version"
