"""numpy.ma.extras's functions for masked tensors (see ``lazyten.ma``)."""

from __future__ import annotations

__all__: list[str] = []
