"""Cards and shoes under their public name (``from exact.cards import Shoe``, the
documentation's "The library"): every public name of :mod:`exact.core.cards`, where they are
defined.

Layer: outside the layers, a public name over the core (the package's own modules import
:mod:`exact.core.cards`).

>>> Shoe.standard(8).size
416
"""

from exact.core.cards import *  # noqa: F403  (the public names, whatever the core adds)
