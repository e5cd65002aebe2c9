"""Warnings of the measure engine, attributed to the user's line, not to the engine's internals."""

from __future__ import annotations

import os
import sys
import unicodedata
import warnings

__all__ = ["warn_caller", "one_line", "no_relevant_document"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def warn_caller(message: "str | Warning", category: type[Warning] = UserWarning) -> None:
    """Issue ``message`` with the stack level of the first caller outside :mod:`helpers.measures`.

    The engine calls itself through several layers (``evaluate`` -> ``evaluate_frames`` -> ...);
    a fixed ``stacklevel`` would point at one of them whenever the call path changes. ``message``
    may be a warning instance (its own class is then used, with any attributes it carries).
    """
    frame, level = sys._getframe(1), 2  # stacklevel 2 is the caller of warn_caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_HERE + os.sep):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def one_line(text: object) -> str:
    """``text`` with every control character (newline, tab, CR, U+001C-U+001F, U+0085, U+2028,
    U+2029, ...) written as its Python escape (``\\n``, ``\\x1c``, ``\\u2028``): a value echoed in a
    message (``-m 'P.5<newline>'``) then cannot split the message's line."""
    text = str(text)
    if not any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text):
        return text
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)


def plain(x):
    """A numpy scalar as its Python value, for messages (``9007199254740992``, not
    ``np.int64(9007199254740992)``); anything else unchanged."""
    return x.item() if type(x).__module__ == "numpy" and hasattr(x, "item") else x


def no_relevant_document(what: str, rule: str, outcome: str) -> ValueError:
    """The one refusal of judgments without a single relevant document, shared by
    :func:`helpers.measures.evaluate` and :func:`helpers.measures.diversity.evaluate`:
    ``{what} hold no relevant document ({rule}), so {outcome}``."""
    return ValueError(f"{what} hold no relevant document ({rule}), so {outcome}")
