"""Many systems: the baseline, the systems x measures table with significance markers, the
every-pair matrix on request, and the summary CSV (numbers from irlib.stats.compare_many)."""
from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

import irlib
from ui.shared import print_style
from irlib.stats import claims
from irlib.stats.compare_many import TESTS, ManyComparison
from ui.shared.downloads import DOWNLOAD_NOTE, csv_bytes
from ui.shared.texts import md_escape
from ui.upload.cache import cached_compare_many
from ui.upload.model import Dataset, Settings, file_safe
from ui.upload.scores import sample_aside
from ui.upload.settings import TESTS as TEST_LABELS
from ui.upload.settings import page_state
from ui.upload.tables import pairwise_frame, rows_shown, summary_rows, systems_frame


def position(field: str, names: list[str], default: int = 1) -> int:
    """A 1-based system position from the page's state, kept within the systems loaded.

    Call it before the field's picker is drawn. The picker's browser side keeps the *label*
    it shows, not the position: once the names change under it (the other input kind's
    systems, a renamed one) it would send back a label that is no option, which Streamlit
    hands on as that text. So when the names differ from the ones last offered the position
    is set again, which redraws the picker's label from these names; a text or a position
    past the end falls back to ``default``.
    """
    fields, offered = page_state(), st.session_state.setdefault("upload_offered", {})
    value = fields.get(field)
    if not (isinstance(value, int) and 1 <= value <= len(names)):
        value = min(default, len(names))
    if value != fields.get(field) or offered.get(field) != names:
        fields.set(field, value)
        offered[field] = list(names)
    return value


def baseline_picker(names: list[str]) -> str:
    position("baseline", names)
    choice = st.selectbox("Baseline (the others are compared with it)",
                          list(range(1, len(names) + 1)), format_func=lambda i: names[i - 1],
                          **page_state().bind("baseline"),
                          help="Usually the system in production today.")
    return names[choice - 1]


def systems_section(dataset: Dataset, evaluations: Mapping[str, irlib.Evaluation],
                    settings: Settings, include_missing: bool) -> ManyComparison | None:
    names = list(dataset.runs)
    if len(names) < 2:
        return None
    fields = page_state()
    with st.container(horizontal=True, vertical_alignment="bottom", gap="medium"):
        baseline = baseline_picker(names)
        test = st.segmented_control("Test", list(TESTS), format_func=TEST_LABELS.get,
                                    required=True, **fields.bind("test"),
                                    help=f"The randomization test assumes nothing about the "
                                         f"shape of the per-{dataset.unit} differences (exact up "
                                         f"to 20 {dataset.units} that differ); the t-test "
                                         "assumes they are roughly normal.")
        pairs = st.toggle("Compare every pair", **fields.bind("pairs"),
                          help="Also test every two systems against each other, not only "
                               "against the baseline (more comparisons: each needs a smaller p).")
    per_query = {name: rows_shown(ev, include_missing)[list(settings.names)]
                 for name, ev in evaluations.items()}
    result = cached_compare_many((dataset.key, settings, include_missing, baseline, test, pairs),
                                 per_query, baseline, settings.names, test, pairs)
    by_name = settings.name(settings.by)
    counts = {s: _counts(result, by_name, s) for s in names if s != baseline}
    frame = systems_frame(result, settings, counts)
    n_tests = len(result.tests) // max(len(settings.names), 1)
    with print_style.keep_together("upload_systems"):       # the table and its legend
        _systems_table(frame, result, settings, dataset, baseline, n_tests)
    if pairs:
        st.markdown(f"**Every pair on {md_escape(settings.label(settings.by))}**: "
                    + md_escape(claims.pair_grid_caption(result)))
        st.dataframe(pairwise_frame(result, by_name), hide_index=True, width="stretch",
                     key="upload_pairs_table")
    summary = summary_rows(result, settings, sample=dataset.sample)
    st.download_button("Download the summary (CSV)", csv_bytes(summary),
                       file_name=f"summary_{len(names)}_systems_baseline_"
                                 f"{file_safe(baseline)}.csv",
                       mime="text/csv", icon=":material/download:", key="upload_dl_summary",
                       on_click="ignore", help=DOWNLOAD_NOTE)
    return result


def _systems_table(frame, result: ManyComparison, settings: Settings, dataset: Dataset,
                   baseline: str, n_tests: int) -> None:
    print_style.dataframe(frame, hide_index=True, width="stretch", key="upload_systems_table",
                          column_config={"system": st.column_config.TextColumn("system")})
    st.caption(f"Means{sample_aside(dataset)} over the {dataset.units} each system is scored on. "
               + md_escape(claims.legend(result))
               + f" Better / tie / worse: {dataset.units} on "
               f"{md_escape(settings.label(settings.by))} against the baseline.")


def _counts(result: ManyComparison, name: str, system: str) -> tuple[int, int, int]:
    row = result.cell(name, system)
    return (int(row["wins"]), int(row["ties"]), int(row["losses"])) if row is not None \
        else (0, 0, 0)
