"""One named choice of evaluation conventions, shared by :func:`helpers.measures.evaluate`, the
command line (``python -m helpers evaluate --conventions``) and the notebooks.

Two tools that define a measure the same way can still print different numbers for the same
files: they read measure names differently (``nDCG@10``), rank tied documents differently, and
score empty topics differently. A *convention* fixes all of these together:

=====================  =================================  =====================================
setting                ``"ntcireval"`` (default)          ``"trec_eval"``
=====================  =================================  =====================================
``names``              NTCIREVAL's (``nDCG@10`` is the    trec_eval's and ir_measures'
                       original Jarvelin-Kekalainen       (``ndcg_cut_10``, ``map``, ``P_10``;
                       nDCG; ``AP@10`` divides by         ``nDCG@10`` is ``ndcg_cut_10``;
                       ``min(10, R)``)                    ``AP@10`` is ``map_cut_10``)
``order_by``           ``"rank"``: the run's own ranking  ``"score"``: decreasing score, ties
                       (rank column; NTCIREVAL reads a    by decreasing ``doc_id``; the rank
                       ranked list as given), ties by     column is ignored
                       score, then ``doc_id`` descending
``score_precision``    ``"double"``                       ``"single"``: scores compared as C
                                                          ``float``, as trec_eval stores them
``no_relevant``        ``"skip"``: topics without a       ``"zero"``: such topics score 0
                       relevant document are left out
                       (NTCIREVAL refuses them)
``missing``            ``"zero"``: qrels topics a run     ``"skip"``: left out (trec_eval
                       did not answer score 0             without ``-c``)
=====================  =================================  =====================================

Any setting can still be given on its own and then overrides the convention's value
(``evaluate(..., conventions="trec_eval", missing="zero")`` is ``trec_eval -c``). Without
``conventions=``, ``names="trec_eval"`` (or ``"ir_measures"``) selects the trec_eval convention,
anything else the default. The settings in force are returned by :func:`resolve`, reported in
``evaluate(...).attrs["conventions"]`` and printed on stderr by the command line.

A measure registered in :data:`helpers.measures.spec.MEASURES` needs nothing here: the
conventions act on ranked lists and topics, never on a measure's definition, and trec_eval /
ir_measures names reach the registry through :func:`helpers.measures.names.translate`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Conventions", "PRESETS", "CHOICES", "DEFAULT", "resolve"]

#: The settings a convention fixes and the values each one takes.
CHOICES: dict[str, tuple[str, ...]] = {
    "names": ("ntcireval", "trec_eval", "ir_measures"),
    "order_by": ("rank", "score"),
    "score_precision": ("double", "single"),
    "no_relevant": ("skip", "zero", "nan"),
    "missing": ("zero", "skip"),
}

#: The named conventions (see the module docstring).
PRESETS: dict[str, dict[str, str]] = {
    "ntcireval": {"names": "ntcireval", "order_by": "rank", "score_precision": "double",
                  "no_relevant": "skip", "missing": "zero"},
    "trec_eval": {"names": "trec_eval", "order_by": "score", "score_precision": "single",
                  "no_relevant": "zero", "missing": "skip"},
}

#: The convention used when none is named (and ``names=`` does not pick one).
DEFAULT = "ntcireval"

_WORDS = {
    ("names", "ntcireval"): "NTCIREVAL names (nDCG@K is the original nDCG)",
    ("names", "trec_eval"): "trec_eval/ir_measures names (nDCG@K is ndcg_cut_K)",
    ("names", "ir_measures"): "trec_eval/ir_measures names (nDCG@K is ndcg_cut_K)",
    ("order_by", "rank"): "lists in rank order (ties by score, then doc_id descending)",
    ("order_by", "score"): "lists by decreasing score (ties by doc_id descending)",
    ("score_precision", "double"): "scores in double precision",
    ("score_precision", "single"): "scores compared in single precision (C float, as trec_eval)",
    ("no_relevant", "skip"): "topics without a relevant document left out",
    ("no_relevant", "zero"): "topics without a relevant document score 0",
    ("no_relevant", "nan"): "topics without a relevant document kept as NaN",
    ("missing", "zero"): "qrels topics a run did not answer score 0",
    ("missing", "skip"): "qrels topics a run did not answer left out",
}


@dataclass(frozen=True)
class Conventions:
    """The settings in force: a named convention with the settings given on their own.

    ``preset`` is the convention's name, ``source`` says how it was chosen (``"default"``,
    ``"conventions="`` or ``"names="``) and ``overrides`` lists the settings given on their own
    that differ from the convention's values.
    """

    preset: str
    names: str
    order_by: str
    score_precision: str
    no_relevant: str
    missing: str
    source: str = "default"
    overrides: tuple[str, ...] = ()

    @property
    def chosen(self) -> bool:
        """Whether the user named a convention (or a naming scheme) rather than taking the default."""
        return self.source != "default"

    def settings(self) -> dict[str, str]:
        """The five settings as a dict (the keywords of :func:`helpers.measures.evaluate`)."""
        return {k: getattr(self, k) for k in CHOICES}

    def as_dict(self) -> dict:
        """Everything, for ``attrs`` and JSON: the settings, the preset, the source, the overrides."""
        return {"conventions": self.preset, **self.settings(), "source": self.source,
                "overrides": list(self.overrides)}

    def describe(self, *, file_order: bool = False) -> str:
        """One line saying what is in force, e.g. for the command line's stderr.

        ``file_order``: the lists are in the order of the rows (the command's ``--order file``,
        which ranks each row by its position): said instead of the order setting, once.
        """
        how = {"default": "the default", "conventions=": "chosen",
               "names=": f"chosen by names={self.names!r}"}.get(self.source, self.source)
        parts = [_WORDS[(k, v)] if not (file_order and k == "order_by") else
                 "lists in file order (each row ranked by its position; scores not compared)"
                 for k, v in self.settings().items() if not (file_order and k == "score_precision")]
        text = f"conventions {self.preset} ({how}): " + "; ".join(parts)
        shown = [f"{k}={getattr(self, k)!r}" for k in self.overrides if not (file_order and k == "order_by")]
        shown += ["order_by=file order (--order file)"] if file_order else []
        if shown:
            text += " [overridden: " + ", ".join(shown) + "]"
        return text


def resolve(conventions: "str | Conventions | None" = None, **settings: "str | None") -> Conventions:
    """The settings in force for a named convention and settings given on their own.

    Parameters
    ----------
    conventions : {"ntcireval", "trec_eval"}, Conventions or None
        The named convention (a :class:`Conventions` is taken as it is, then overridden). None: the
        trec_eval convention when ``names`` is ``"trec_eval"`` or ``"ir_measures"``, else
        :data:`DEFAULT`.
    **settings : str or None
        ``names``, ``order_by``, ``score_precision``, ``no_relevant``, ``missing``; None keeps
        the convention's value.

    Returns
    -------
    Conventions

    Raises
    ------
    ValueError
        For an unknown convention, an unknown setting, or a value a setting does not take (the
        message lists the allowed ones).

    Examples
    --------
    >>> c = resolve("trec_eval", missing="zero")
    >>> c.order_by, c.score_precision, c.no_relevant, c.missing, c.overrides
    ('score', 'single', 'zero', 'zero', ('missing',))
    """
    unknown = sorted(set(settings) - set(CHOICES))
    if unknown:
        raise ValueError(f"unknown setting(s) {unknown}; a convention sets {list(CHOICES)}")
    for key, value in settings.items():
        if value is not None and value not in CHOICES[key]:
            raise ValueError(f"{key} must be one of {CHOICES[key]}, got {value!r}")
    if isinstance(conventions, Conventions):
        base, preset, source = conventions.settings(), conventions.preset, conventions.source
        given = set(conventions.overrides)
    elif conventions is None:
        preset = "trec_eval" if settings.get("names") in ("trec_eval", "ir_measures") else DEFAULT
        source = "names=" if settings.get("names") is not None else "default"
        base, given = dict(PRESETS[preset]), set()
    elif isinstance(conventions, str) and conventions in PRESETS:
        preset, source, base, given = conventions, "conventions=", dict(PRESETS[conventions]), set()
    else:
        raise ValueError(f"conventions must be one of {tuple(PRESETS)} (or None for {DEFAULT!r}), "
                         f"got {conventions!r}")
    for key, value in settings.items():
        if value is not None:
            base[key] = value
            given.add(key)
    if source == "names=":
        given.discard("names")
    overrides = tuple(k for k in CHOICES if k in given and base[k] != PRESETS[preset][k])
    return Conventions(preset=preset, **base, source=source, overrides=overrides)


assert all(set(p) == set(CHOICES) for p in PRESETS.values())
assert [f.name for f in fields(Conventions)][1:6] == list(CHOICES)
