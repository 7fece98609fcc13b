"""PNG figures drawn again only when what they show has changed.

Every pipeline run materializes the whole graph, and most runs change few of the tables a
figure shows: drawing and saving one costs 0.1-1 s (matplotlib's layout and rendering), a
plot's input table a few milliseconds to hash. A figure is saved with the digest of its
inputs in a PNG text chunk (:data:`DIGEST_KEY`); the next call that finds a file with the
same digest leaves it as it is. The digest covers the source of the module that draws it and
the matplotlib version, so changed drawing code draws again. The same figure wanted at
another place in the same process is copied from where it was last saved.
"""

from __future__ import annotations

import hashlib
import shutil
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


_SAVED: dict[str, Path] = {}
"""The last files :func:`save` wrote in this process, by digest: the same figure wanted at
another place (a report's plot and its copy in the exports) is copied, not drawn again."""
_SAVED_KEPT = 64


def _digest_of(path: Path) -> str | None:
    if not path.is_file():
        return None
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return image.info.get(DIGEST_KEY)
    except (OSError, UnidentifiedImageError):
        return None


def unchanged(path: Path, inputs: str) -> bool:
    """Whether ``path`` holds a PNG saved by :func:`save` from inputs of digest ``inputs``:
    it did already, or a file this process saved from the same inputs is copied there."""
    if _digest_of(path) == inputs:
        return True
    earlier = _SAVED.get(inputs)
    if earlier is None or earlier == path or _digest_of(earlier) != inputs:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(earlier, path)
    return True


def save(fig: Figure, path: Path, inputs: str, dpi: int) -> Path:
    """Save ``fig`` as PNG to ``path`` (folders created) with the digest ``inputs``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # zlib level 3: a third faster than Pillow's default 6, the files no larger for plots
    fig.savefig(path, dpi=dpi, metadata={DIGEST_KEY: inputs}, pil_kwargs={"compress_level": 3})
    if len(_SAVED) >= _SAVED_KEPT:
        _SAVED.pop(next(iter(_SAVED)))
    _SAVED[inputs] = path
    return path
