"""NumPy's array-manipulation and index functions beyond the core ones
(``functions.py``): each a composition of registry ops where that gives
NumPy's values, dtypes and bits, or one registry op running NumPy's own
function where it does not."""

from __future__ import annotations

__all__: list[str] = []
