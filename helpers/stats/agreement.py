"""Agreement between assessors: Krippendorff's alpha (through the maintained ``krippendorff`` package)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["krippendorff_alpha"]


def krippendorff_alpha(
    data: Any,
    level: str = "nominal",
    categories: Sequence[Any] | None = None,
) -> float:
    """Krippendorff's alpha for a units x coders table (``krippendorff`` package).

    alpha = 1 - D_o / D_e (observed over expected disagreement on the pairable values;
    Krippendorff 2004, Content Analysis, ch. 11; Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability").  The computation is delegated to the maintained ``krippendorff``
    package; this wrapper fixes the orientation, missing values and string labels.

    Parameters
    ----------
    data : pandas.DataFrame or array_like, shape (n_units, n_coders)
        One row per unit (item, document, preference pair), one column per coder (assessor).
        Missing judgements are NaN/None.  Values are numbers or string labels (e.g. "LEFT",
        "RIGHT", "EQUAL" for preference judgements).  Units judged by fewer than two coders are
        not pairable and do not contribute.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement (distance metric).
    categories : sequence, optional
        The ordered value domain.  Required for ``"ordinal"`` with string labels (their order
        cannot be guessed); optional otherwise.  String labels on an interval/ratio scale are
        rejected.  Any observed value outside ``categories`` raises ``ValueError``.

    Returns
    -------
    float
        alpha (1 = perfect agreement, 0 = chance level, negative = systematic disagreement).
    """
    from .. import optional

    _kd = optional("krippendorff", "Krippendorff's alpha")

    levels = ("nominal", "ordinal", "interval", "ratio")
    if level not in levels:
        raise ValueError(f"level must be one of {levels}, got {level!r}")
    if isinstance(data, pd.DataFrame):
        arr = data.to_numpy(dtype=object)
    else:
        arr = np.asarray(data, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"data must be 2-D (units x coders), got {arr.ndim} dimension(s)")
    if arr.shape[1] < 2:
        raise ValueError(f"data needs at least 2 coders (columns), got {arr.shape[1]}")
    missing = pd.isna(arr)
    present = arr[~missing]
    is_str = np.array([isinstance(v, str) for v in present], dtype=bool)
    if is_str.any() and not is_str.all():
        raise ValueError("data mixes string labels and numbers; use one kind of value")
    strings = bool(is_str.any())
    if not strings:
        for v in present:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"data values must be numbers or string labels, got {v!r}")
        vals = present.astype(np.float64)
        if not np.isfinite(vals).all():
            raise ValueError("data contains infinite values (use NaN for missing judgements)")
    if strings and level in ("interval", "ratio"):
        raise ValueError(f"string labels have no {level} distances; map them to numbers first")
    if strings and level == "ordinal" and categories is None:
        raise ValueError("ordinal alpha on string labels needs categories=<ordered labels>")

    if strings:
        domain = list(categories) if categories is not None else sorted(set(present))
        if len(set(domain)) != len(domain):
            raise ValueError("categories contains duplicates")
        lookup = {c: i for i, c in enumerate(domain)}
        unknown = sorted({v for v in present if v not in lookup})
        if unknown:
            raise ValueError(f"data contains labels outside categories: {unknown}")
        codes_present = np.asarray([lookup[v] for v in present], dtype=np.float64)
        value_domain = np.arange(len(domain), dtype=np.float64)
    else:
        codes_present = present.astype(np.float64)
        if categories is None:
            value_domain = np.unique(codes_present)
        else:
            try:
                value_domain = np.asarray([float(c) for c in categories])
            except (TypeError, ValueError):
                raise ValueError("categories must be numbers when data values are numbers") from None
            if np.unique(value_domain).size != value_domain.size:
                raise ValueError("categories contains duplicates")
            unknown = np.setdiff1d(codes_present, value_domain)
            if unknown.size:
                raise ValueError(f"data contains values outside categories: {unknown.tolist()}")

    codes = np.full(arr.shape, np.nan)
    codes[~missing] = codes_present
    pairable = np.sum(~missing, axis=1) >= 2
    if not pairable.any():
        raise ValueError("no unit has judgements from at least two coders; alpha is undefined")
    pv = codes[pairable]
    if np.unique(pv[~np.isnan(pv)]).size < 2:
        raise ValueError(
            "alpha is undefined when all pairable judgements have the same value "
            "(no expected disagreement)"
        )
    return float(
        _kd.alpha(reliability_data=codes.T, value_domain=value_domain, level_of_measurement=level)
    )
