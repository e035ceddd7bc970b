"""trec_eval's vocabulary: its measure names, parameter lists, nicknames and printing order.

trec_eval names a measure by a base name and an optional parameter list after the first dot:
``-m P.5,10`` asks for ``P_5`` and ``P_10``, ``-m P`` for every default cut-off, ``-m map``
for one number, ``-m official`` for trec_eval's default set. Its output lists the measures in
its own table's order, whatever the order of ``-m``; a measure named twice is printed once,
with the first parameter list given. This module reads that syntax into irlib's measures
(the registry, :data:`irlib.measures.registry.MEASURES`, holds each measure's trec_eval names and
default cut-offs) and names each printed line as trec_eval does.

Not computed here (trec_eval's ``all_trec`` has them): see :data:`NOT_COMPUTED`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from irlib.measures.registry import MEASURES, TREC_EVAL_NAMES, Measure, parse_measure

#: trec_eval 10's measure table, in its printing order (measures.c, te_trec_measures).
TABLE_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "idcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "yaap", "rbp", "rbp_resid",
    "unj")
#: trec_eval's nicknames for sets of measures (measures.c).
NICKNAMES = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
}
#: trec_eval measures irlib does not compute, and why (``-m all_trec`` skips them, saying so).
NOT_COMPUTED = {
    "relstring": "a string of the top grades, not a number",
    "utility": "needs the utility weights of a filtering task",
    "Rprec_mult": "rarely reported: R-precision at 0.2R ... 2R",
    "relative_P": "rarely reported: P@K over min(K, R)",
    "set_relative_P": "rarely reported", "set_map": "rarely reported",
    "ndcg_rel": "rarely reported", "Rndcg": "rarely reported",
    "binG": "rarely reported", "G": "rarely reported",
    "dcg": "not in all_trec; irlib's DCG@K is the same number",
    "idcg": "not in all_trec", "yaap": "not in all_trec",
    "rbp": "trec_eval 10 only; not in pytrec_eval, so irlib has no reference to agree with "
           "(irlib's RBP, ir_measures' name, agrees with cwl_eval)",
    "rbp_resid": "trec_eval 10 only, as rbp", "unj": "trec_eval 10 only (unjudged share of the "
                                                     "top K)",
}
RUNID = "runid"
_LEVEL_NAMES = {"IPrec"}           # parameters are recall levels: printed as %3.2f


@dataclass(frozen=True)
class TrecMeasure:
    """One line of trec_eval's output: the name it prints and the measure behind it.

    ``measure`` is None for ``runid`` (the run's tag, not a number).
    """
    name: str
    measure: Measure | None


def is_trec_eval_syntax(token: str) -> bool:
    """Whether ``token`` is trec_eval's syntax (``map``, ``P.5,10``, ``official``, ``P_10``)
    rather than ir_measures' (``AP``, ``P@10``, ``nDCG(dcg='exp-log2')@10``).

    >>> [is_trec_eval_syntax(t) for t in ("map", "P.5,10", "P_10", "P@10", "AP", "nDCG")]
    [True, True, True, False, False, False]
    """
    token = token.strip()
    if "@" in token or "(" in token:
        return False
    base = token.split(".", 1)[0]
    if base in TREC_EVAL_NAMES or base in NICKNAMES or base in NOT_COMPUTED or base == RUNID:
        return True
    try:
        return parse_measure(token) is not None and token not in MEASURES
    except ValueError:
        return False


def _split(token: str) -> tuple[str, str | None]:
    base, dot, params = token.strip().partition(".")
    if dot and not params:
        raise ValueError(f"trec_eval measure {token!r} has a '.' but no parameters")
    return base, (params if dot else None)


def trec_eval_measures(tokens: Sequence[str], *, rel: int | None = None,
                       rule: str | None = None) -> tuple[list[TrecMeasure], list[str]]:
    """trec_eval's ``-m`` options as the lines it prints, in its order.

    Returns the lines and the names of requested trec_eval measures irlib does not compute
    (``-m all_trec`` includes some; asking for one by name is an error). ``rel`` is ``-l``;
    ``rule`` how IPrec turns recall levels into counts (:mod:`irlib.measures.interpolated`).

    Examples
    --------
    >>> lines, _ = trec_eval_measures(["P.10,5", "map", "ndcg_cut.10", "P"])
    >>> [line.name for line in lines], str(lines[-1].measure)
    (['map', 'P_5', 'P_10', 'ndcg_cut_10'], 'nDCG@10')
    >>> lines, skipped = trec_eval_measures(["official"])
    >>> len(lines), lines[0].name, lines[-1].name, skipped
    (30, 'runid', 'P_1000', [])
    """
    wanted: dict[str, str | None] = {}           # base name -> its first parameter list
    singles: list[str] = []                      # one line each, e.g. P_10 (irlib's extension)
    skipped: list[str] = []
    for token in tokens:
        base, params = _split(token)
        if base in NICKNAMES:
            if params is not None:
                raise ValueError(f"the nickname {base!r} takes no parameters (in {token!r})")
            skipped += [name for name in NICKNAMES[base] if name in NOT_COMPUTED]
            for name in NICKNAMES[base]:
                if name not in NOT_COMPUTED:
                    wanted.setdefault(name, None)
        elif base in NOT_COMPUTED:
            raise ValueError(f"irlib does not compute trec_eval's {base!r}: "
                             f"{NOT_COMPUTED[base]}")
        elif base == RUNID or base in TREC_EVAL_NAMES:
            if wanted.get(base) is None:             # the first parameter list wins
                wanted[base] = params
        else:
            parse_measure(token)                     # a known single name, or a clear error
            singles.append(token.strip())
    lines = [line for base, params in wanted.items() for line in _lines_of(base, params, rel, rule)]
    names = {line.name for line in lines}
    lines += [TrecMeasure(name, _set_options(parse_measure(name), rel, rule))
              for name in dict.fromkeys(singles) if name not in names]
    lines.sort(key=_table_position)
    return lines, list(dict.fromkeys(skipped))


def _table_position(line: TrecMeasure) -> tuple[int, float]:
    if line.measure is None:
        return TABLE_ORDER.index(RUNID), 0.0
    info = MEASURES[line.measure.name]
    k = line.measure.k
    base = info.trec_eval_cut if k is not None and info.trec_eval_cut else info.trec_eval
    return TABLE_ORDER.index(base), float(k or 0)


def _set_options(m: Measure, rel, rule) -> Measure:
    info = MEASURES[m.name]
    if rel is not None and "rel" in info.params:
        m = replace(m, rel=rel)
    if rule is not None and "rule" in info.params:
        m = replace(m, rule=rule)
    return m


def _lines_of(base: str, params: str | None, rel, rule) -> list[TrecMeasure]:
    if base == RUNID:
        return [TrecMeasure(RUNID, None)]
    name, how = TREC_EVAL_NAMES[base]
    info = MEASURES[name]
    if how == "plain":
        if params is None:
            return [TrecMeasure(base, _set_options(Measure(name), rel, rule))]
        if name == "SetF":                               # set_F.0.5: beta, named as given
            m = parse_measure(f"{base}_{params}")
            return [TrecMeasure(f"{base}_{params}", _set_options(m, rel, rule))]
        raise ValueError(f"irlib's {base} takes no parameters (got {base}.{params}); "
                         + ("its gain is the grade, as trec_eval's default"
                            if name == "nDCG" else "trec_eval's defaults are used"))
    cutoffs = info.trec_eval_cutoffs if params is None else _cutoffs(base, params, name)
    lines = []
    for k in cutoffs:
        label = f"{base}_{k:3.2f}" if name in _LEVEL_NAMES else f"{base}_{k}"
        lines.append(TrecMeasure(label, _set_options(Measure(name, k), rel, rule)))
    return lines


def _cutoffs(base: str, params: str, name: str) -> list:
    values = []
    for raw in params.split(","):
        parsed = parse_measure(f"{base}_{raw.strip()}") if raw.strip() else None
        if parsed is None:
            raise ValueError(f"empty parameter in {base}.{params}")
        values.append(parsed.k)
    values.sort()
    if len(set(values)) != len(values):
        raise ValueError(f"{base}.{params} repeats a cut-off (trec_eval refuses duplicates)")
    return values


def expand_measures(measures: Iterable) -> list[Measure]:
    """Measures from ir_measures' or trec_eval's names, in the order given, each once.

    trec_eval's names are read as ``irlib-trec-eval -m`` reads them: ``"P.5,10"`` gives P@5
    and P@10, ``"recall"`` recall at trec_eval's default cut-offs, ``"official"`` trec_eval's
    default set (its ``runid`` line is not a measure and is left out).

    >>> [str(m) for m in expand_measures(["nDCG@10", "P.5,10", "map", "AP"])]
    ['nDCG@10', 'P@5', 'P@10', 'AP']
    >>> [str(m) for m in expand_measures(["success", "iprec_at_recall.0.5"])]
    ['Success@1', 'Success@5', 'Success@10', 'IPrec@0.5']
    """
    out: dict[Measure, None] = {}
    for item in measures:
        if isinstance(item, Measure):
            out.setdefault(item)
            continue
        text = str(item)
        if is_trec_eval_syntax(text):          # as the CLI's -m: "P" is P@5 ... P@1000
            for line in trec_eval_measures([text])[0]:
                if line.measure is not None:
                    out.setdefault(line.measure)
        else:
            out.setdefault(parse_measure(text))
    return list(out)


def trec_eval_name(measure: Measure) -> str | None:
    """The name trec_eval prints for ``measure``, or None when trec_eval has no such line.

    >>> trec_eval_name(parse_measure("nDCG@10")), trec_eval_name(parse_measure("IPrec@0.1"))
    ('ndcg_cut_10', 'iprec_at_recall_0.10')
    >>> trec_eval_name(parse_measure("F1@10")) is None
    True
    """
    info = MEASURES[measure.name]
    if measure.dcg != "log2":
        return None
    if measure.k is None:
        if measure.name == "SetF" and measure.beta != 1.0:
            return f"set_F_{measure.beta:g}"
        return info.trec_eval
    if not info.trec_eval_cut:
        return None
    return (f"{info.trec_eval_cut}_{measure.k:3.2f}" if measure.name in _LEVEL_NAMES
            else f"{info.trec_eval_cut}_{measure.k}")
