"""Where the tests find the public data's offline mirror: SUBJEVAL_DATA_MIRROR when it names a
folder, else ``../shared/data/mirror`` beside the checkout (as the Makefile sets it); None when
there is neither (the tests that need the real data then skip)."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import paths
from helpers.data import datasets


def find_mirror() -> Path | None:
    configured = os.environ.get(datasets.MIRROR_ENV, "")
    if configured and "://" not in configured and Path(configured).is_dir():
        return Path(configured)
    candidate = paths.ROOT.parent / "shared" / "data" / "mirror"
    return candidate if candidate.is_dir() else None
