"""NumPy's set operations and the remaining math helpers (``angle``,
``sinc``, ``nan_to_num``, ``divmod``, ``modf``, ``frexp``, ...): set
operations evaluate their inputs (their result's size depends on the data,
as ``unique``'s); the rest compose registry ops, or are registry ops."""

from __future__ import annotations

__all__: list[str] = []
