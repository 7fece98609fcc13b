"""PNG figures drawn again only when what they show has changed.

Every pipeline run materializes the whole graph, and most runs change few of the tables a
figure shows: drawing and saving one costs 0.1-1 s (matplotlib's layout and rendering), a
plot's input table a few milliseconds to hash. A figure is saved with the digest of its
inputs in a PNG text chunk (:data:`DIGEST_KEY`); the next call that finds a file with the
same digest leaves it as it is. The digest covers the source of the module that draws it and
the matplotlib version, so changed drawing code draws again.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DIGEST_KEY = "raterlab:inputs"
"""The PNG text chunk holding the SHA-256 of what the figure shows."""


def _part_bytes(part: object) -> bytes:
    import pandas as pd

    if isinstance(part, pd.DataFrame | pd.Series):
        frame = part.to_frame() if isinstance(part, pd.Series) else part
        head = "|".join(f"{c}:{t}" for c, t in frame.dtypes.astype(str).items()).encode()
        try:
            rows = pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes()
        except TypeError:  # unhashable cells (lists, dicts)
            rows = frame.to_json(orient="split", date_format="iso").encode()
        return head + b"\0" + rows
    return repr(part).encode()


def digest(module: str, *parts: object) -> str:
    """SHA-256 of the drawing ``module``'s source, matplotlib's version and ``parts`` (frames
    by their dtypes and row hashes, in order; anything else by its ``repr``)."""
    import matplotlib

    sha = hashlib.sha256(Path(sys.modules[module].__file__ or "").read_bytes())
    sha.update(matplotlib.__version__.encode())
    for part in parts:
        sha.update(b"\1" + _part_bytes(part))
    return sha.hexdigest()


def unchanged(path: Path, inputs: str) -> bool:
    """Whether ``path`` is a PNG saved by :func:`save` from inputs of digest ``inputs``."""
    if not path.is_file():
        return False
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return image.info.get(DIGEST_KEY) == inputs
    except (OSError, UnidentifiedImageError):
        return False


def save(fig: Figure, path: Path, inputs: str, dpi: int) -> Path:
    """Save ``fig`` as PNG to ``path`` (folders created) with the digest ``inputs``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi, metadata={DIGEST_KEY: inputs})
    return path
