"""Synthetic chunks for the retrieval tests."""
from __future__ import annotations

import zlib

from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId


def make_chunk(cid: int, *, role: ChunkRole = ChunkRole.CONCEPT, section: str | None = "1.1",
           chapter: str | None = "1", text: str | None = None, book: str = "b") -> Chunk:
    default = f"entropy and conditioning, note {cid} " * 3
    return Chunk(id=ChunkId(cid), book_id=BookId(book), section_id=SectionId(zlib.crc32(str(section).encode())),
                 ordinal=cid, text=text if text is not None else default, role=role,
                 page_start=cid, page_end=cid, printed_page_start=str(cid), printed_page_end=str(cid),
                 chapter_number=chapter, chapter_title="Ch", section_number=section, section_title="Sec",
                 token_count=20)
