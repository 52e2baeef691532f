"""``lt.ma``: lazy masked tensors with ``numpy.ma``'s semantics.

As numpy.ma is: ``core`` has the ``MaskedTensor``, its operations and
numpy.ma's own functions (``numpy.ma.core``'s), ``extras`` the functions
of ``numpy.ma.extras`` (stacking, rows and columns, masks' runs, set
operations, ``cov``, ...), built on ``core``.  Both are this namespace.
"""

from .core import *  # noqa: F401,F403  (each module's __all__)
from .core import __all__ as _core_all
from .extras import *  # noqa: F401,F403
from .extras import __all__ as _extras_all

__all__ = [*_core_all, *_extras_all]
