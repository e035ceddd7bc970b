"""Does B beat A? The verdict (naming its test, saying when the tests disagree), a reading
for a product team, the paired tests, the per-query differences as bars and as a table
(the numbers and sentences come from irlib.stats.compare and irlib.stats.verdict).

The verdict rests on the systems table's own result for the pair
(:meth:`irlib.stats.compare_many.ManyComparison.finding`): the test chosen above it, its
correction over the same family, its mark; never on another test behind its back."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import irlib
from irlib.stats import claims
from irlib.stats.compare import Comparison
from irlib.stats.compare_many import TESTS, ManyComparison
from irlib.stats.randomization import randomization_floor
from irlib.stats.verdict import Verdict, format_p, t_test_caveat, verdict
from ui.shared.downloads import DOWNLOAD_NOTE, csv_bytes
from ui.shared.print_style import keep_together
from ui.shared.texts import md_escape
from ui.upload.cache import cached_compare
from ui.shared.charts import plotly_config
from ui.upload.figures import deltas_figure
from ui.upload.measures import measure_label
from ui.upload.model import Dataset, Settings, file_safe
from ui.upload.scores import SAMPLE_TAG, sample_tag
from ui.upload.settings import page_state
from ui.upload.tables import (
    comparison_formats,
    comparison_frame,
    coverage_problem,
    differences_csv_frame,
)

#: What to do when too few rows differ, in the words of the rows' unit.
MORE_TO_BE_SURE = {"query": "judge more queries to be sure",
                   "user": "hold out more users' interactions to be sure"}


@dataclass(frozen=True)
class Pair:
    """A two-system comparison as the page and the report show it."""
    names: tuple[str, str]
    label: str
    comparison: Comparison
    verdict: Verdict
    frame: pd.DataFrame
    left_out: int = 0       # queries one of the two has no ranking for (out of the tests)


def marked_system(result: ManyComparison, measure: str) -> str | None:
    """The system the systems table marks ★ on ``measure`` (the first of them in the table),
    the baseline aside; None when no other system is marked."""
    best = result.best.get(measure, ())
    return next((s for s in result.means.index if s in best and s != result.baseline), None)


def pick_versus(names: list[str], baseline: str, marked: str | None) -> str:
    """The system compared with the baseline: the one the learner picked (here, or a link's
    ``vs``), else ``marked`` (the system the systems table marks), else the first after the
    baseline. Until one is picked ``vs`` stays empty, so the address (and a link made from it)
    follows the table's mark rather than pinning a system nobody chose."""
    others = [n for n in names if n != baseline]
    fields = page_state()
    picked = fields.get("versus")
    if picked is not None and picked > len(names):
        # a link's system not loaded yet (its files come one by one): kept, and said
        st.caption(f"The link compares system {picked} with the baseline; {len(names)} systems "
                   f"are loaded so far. Until it is, this compares another one.")
        picked = None                   # for this run only: the field keeps it
    if len(others) == 1:
        return others[0]
    if picked is not None and (picked < 1 or names[picked - 1] == baseline):
        fields.set("versus", None)      # now the baseline itself
        picked = None
    shown = names[picked - 1] if picked is not None else (marked if marked in others
                                                          else others[0])
    widget = "upload_versus_pick"       # drawn from the field each run; a pick sets the field
    st.session_state[widget] = names.index(shown) + 1
    st.selectbox("Compare with the baseline", [names.index(o) + 1 for o in others],
                 format_func=lambda i: names[i - 1], key=widget,
                 on_change=lambda: fields.set("versus", st.session_state[widget]))
    return shown


def build_pair(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation], settings: Settings,
               include_missing: bool, names: tuple[str, str],
               result: ManyComparison | None = None) -> Pair | None:
    """The comparison of ``names[1]`` against ``names[0]`` on the ranking measure, or None
    when a system answers too few judged queries for a verdict; said from ``result``'s
    finding for the pair (the systems table's test, correction and mark)."""
    if coverage_problem(evaluations, names):
        return None
    name_a, name_b = names
    label = settings.label(settings.by)
    measure = settings.name(settings.by)
    a = evaluations[name_a].per_query[measure]
    b = evaluations[name_b].per_query[measure]
    left_out = 0
    if not include_missing:
        gone = set(evaluations[name_a].missing_queries) | set(evaluations[name_b].missing_queries)
        # one system's gap only: a query both miss is out of both table means too
        left_out = len(set(evaluations[name_a].missing_queries)
                       ^ set(evaluations[name_b].missing_queries))
        a, b = a.drop(index=list(gone & set(a.index))), b.drop(index=list(gone & set(b.index)))
    comparison = cached_compare((dataset.key, measure, names, include_missing), a, b)
    plain = measure_label(settings.by, settings.k, recsys=settings.recsys)   # no gain/threshold
    finding = None if result is None else result.finding(measure, name_b, name_a)
    said = verdict(comparison, label, name_a, name_b, finding=finding, plain_label=plain,
                   unit=dataset.unit)
    if dataset.sample:                # numbers from the app's samples say so, every time
        said = Verdict(said.sentence.removesuffix(".") + f" ({SAMPLE_TAG}).", said.disagreement,
                       f"These are {SAMPLE_TAG}. " + said.plain, said.significant, said.finding)
    return Pair(names, label, comparison, said,
                comparison_frame(comparison, names, dataset.query_text), left_out)


def comparison_section(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation],
                       settings: Settings, include_missing: bool,
                       result: ManyComparison | None) -> Pair | None:
    """Section 5: the baseline of ``result`` (the systems table) against a chosen system."""
    names = list(dataset.runs)
    if len(names) < 2 or result is None:
        return None
    baseline = result.baseline
    versus = pick_versus(names, baseline, marked_system(result, settings.name(settings.by)))
    blocker = coverage_problem(evaluations, (baseline, versus), quote=md_escape)
    if blocker:
        st.warning(blocker, icon=":material/block:")
        return None
    pair = build_pair(dataset, evaluations, settings, include_missing, (baseline, versus),
                      result)
    name_a, name_b = (md_escape(n) for n in pair.names)
    comparison, said, label = pair.comparison, pair.verdict, pair.label
    with keep_together("upload_verdict"):         # on paper, the verdict and its numbers
        st.info(md_escape(said.sentence), icon=":material/record_voice_over:")
        if said.disagreement:
            st.warning(md_escape(said.disagreement), icon=":material/balance:")
        with st.expander("For a product team: what this means", icon=":material/groups:",
                         expanded=True):
            st.markdown(md_escape(said.plain))
            st.caption(f"{md_escape(label)}: {_jargon(settings)}")
        _cards(comparison, label, name_a, name_b, dataset, said, pair.left_out)
    frame = pair.frame
    if comparison.n:
        title = f"{pair.names[1]} vs {pair.names[0]} on {label}{sample_tag(dataset)}: " + \
            said.sentence.split(";")[0] + (f" ({said.p_text})" if said.p_text else "")
        st.plotly_chart(deltas_figure(frame, label, pair.names, comparison.mean_delta,
                                      title=title, units=dataset.units),
                        key="upload_delta_chart",
                        config=plotly_config(toImageButtonOptions={
                            "filename": f"{file_safe(pair.names[1])}_vs_"
                                        f"{file_safe(pair.names[0])}", "scale": 2}))
        st.caption(f"Each bar is one {dataset.unit}: how much the score moved from "
                   f"{name_a} to {name_b}. Green: better, orange: worse, grey: tie. The camera "
                   "icon in the chart's toolbar saves it as a picture, with its title.")
    with st.expander(f"Per-{dataset.unit} differences"):
        st.dataframe(frame, hide_index=True, width="stretch", key="upload_compare_table",
                     column_config=_comparison_columns(pair.names))
        st.download_button("Download the differences (CSV)",
                           csv_bytes(differences_csv_frame(frame, label, pair.names,
                                                           SAMPLE_TAG if dataset.sample
                                                           else None)),
                           file_name=f"compare_{file_safe(pair.names[0])}_"
                                     f"{file_safe(pair.names[1])}.csv",
                           mime="text/csv", icon=":material/download:", key="upload_dl_compare",
                           on_click="ignore", help=DOWNLOAD_NOTE)
        st.caption(DOWNLOAD_NOTE)
    with st.expander("How to read the tests"):
        unit, units = dataset.unit, dataset.units
        st.markdown(
            f"Both systems were scored on the same {units}, so the comparison is **paired**: "
            f"only each {unit}'s difference matters. The **t-test** asks whether the mean "
            "difference is far from 0 given how much the differences vary; the "
            f"**randomization test** flips the sign of each {unit}'s difference in every "
            f"possible way (or, with more than 20 {units} that differ, in 10,000 random "
            "ways) and counts how often the mean difference is as large as the real one. "
            "A small p (below 0.05) says the difference is unlikely to be luck of the "
            f"{unit} sample; a large p says *this test set cannot tell*, not that the systems "
            f"are equal. With few {units}, only large differences can be told apart from "
            f"chance — {MORE_TO_BE_SURE[unit]}.")
    return pair


def _jargon(settings: Settings) -> str:
    """The settings in words, for the product-team reading."""
    if settings.recsys:
        return (f"the score of each user's top {settings.k} recommendations, against what "
                "they went on to do (the held-out interactions).")
    parts = [f"the score of each query's top {settings.k} results"
             if settings.by in ("P", "R", "F1", "Success", "nDCG", "DCG") else
             "the score of each query's whole ranking"]
    if settings.by in ("nDCG", "DCG"):
        parts.append("better grades near the top count more"
                     + (" (a grade g is worth 2^g − 1)" if settings.gain == "exponential" else
                        " (a grade g is worth g)"))
    elif settings.rel > 1:
        parts.append(f"a result counts as relevant from grade {settings.rel}")
    return "; ".join(parts) + "."


def _cards(comparison: Comparison, label: str, name_a: str, name_b: str,
           dataset: Dataset, said: Verdict, left_out: int = 0) -> None:
    n = comparison.n
    finding = said.finding
    uncorrected = " (uncorrected)" if finding is not None and finding.corrected else ""
    caveat = t_test_caveat(comparison, dataset.unit)
    tag = sample_tag(dataset)
    # Two rows: what changed (the counts and the mean difference), then whether it could be
    # chance (the p values, two or three). With the mean in the p values' row, a corrected p
    # made four tiles there: on a 1366 px laptop the randomization test's p wrapped to a row
    # of its own.
    with st.container(horizontal=True, gap="small"):
        st.metric(f"{name_b} better", f"{comparison.wins} of {n}", border=True,
                  width="stretch")
        st.metric(f"{name_b} worse", f"{comparison.losses} of {n}", border=True,
                  width="stretch")
        st.metric("ties", f"{comparison.ties} of {n}", border=True, width="stretch")
        # the t-interval is never corrected: say so when a corrected p sits beside it
        ci = (None if comparison.ci_low is None else
              f"{claims.interval_label(comparison.confidence, bool(uncorrected))} "
              f"{comparison.ci_low:+.3f} to {comparison.ci_high:+.3f}")
        apart = f" {claims.DAGGER}" if left_out else ""
        st.metric(f"mean difference in {label}{tag}{apart}",
                  "–" if comparison.mean_delta is None else f"{comparison.mean_delta:+.4f}",
                  delta=ci, delta_color="off", delta_arrow="off", border=True, width="stretch",
                  help=f"Mean of {name_b} − {name_a} over the {dataset.units}, with a t-based "
                       "95% confidence interval: if it excludes 0, the t-test's p is below 0.05.")
    with st.container(horizontal=True, gap="small"):
        if finding is not None and finding.corrected:
            st.metric(f"{TESTS[finding.test]} p, corrected", format_p(finding.p_adjusted),
                      border=True, width="stretch",
                      help=f"What the verdict and the systems table rest on: corrected for "
                           f"{finding.family} by the {finding.correction.title()} method "
                           "(each comparison made at once raises the chance that one of them "
                           "looks rare by luck).")
        st.metric(f"paired t-test p{uncorrected}", "not meaningful" if caveat else format_p(comparison.t_pvalue),
                  border=True, width="stretch",
                  help=(f"Not shown: {caveat}. " if caveat else "") +
                       f"scipy.stats.ttest_rel on the per-{dataset.unit} scores: how often a mean "
                       "difference this large would appear if the systems were equally good "
                       "(assumes roughly normal differences).")
        flips = comparison.randomization
        shown = format_p(comparison.randomization_pvalue)
        if flips is not None and not flips.exact and not shown.startswith("<"):
            shown += f" ± {flips.margin:.2g}"
        st.metric(f"randomization test p{uncorrected}", shown, border=True, width="stretch",
                  help=f"Flips the sign of each {dataset.unit}'s difference " +
                       (f"({flips.describe(dataset.units)})" if flips else "") +
                       " and counts how often the mean difference is as large; no normality "
                       "assumption.")
    if left_out:
        st.caption(claims.common_units_note(n, left_out, dataset.unit, dataset.units))
    if caveat and n >= 2:
        st.caption(f"The paired t-test is left out: {caveat}.")
    differing = comparison.randomization.n_differing if comparison.randomization else n
    floor = randomization_floor(differing)
    if differing and floor >= 0.01:
        st.caption(claims.chance_floor_words(differing, format_p(floor), dataset.unit,
                                             MORE_TO_BE_SURE[dataset.unit]))


def _comparison_columns(names: tuple[str, str]) -> dict:
    """Number formats of the per-query differences, keyed by the frame's own column names."""
    return {**{column: st.column_config.NumberColumn(format="%" + spec)
               for column, spec in comparison_formats(names).items()},
            "query_id": st.column_config.TextColumn("query id")}
