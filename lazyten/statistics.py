"""NumPy's statistics, comparisons and NaN-aware reductions beyond the core
reductions (``functions.py``): each written the way NumPy's own Python
implementation composes its ufuncs and reductions, so lazily and with
NumPy's bits; functions whose result's shape depends on the data
(``histogram``, ``bincount``) evaluate their input, as ``unique`` does."""

from __future__ import annotations

__all__: list[str] = []
