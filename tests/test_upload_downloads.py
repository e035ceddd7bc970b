"""What Lesson 9 hands on as files: the summary CSV, the per-query differences CSV and the
differences chart (issue 25: a header with no measure, no means or p-values, a chart PNG
with no title). Built from the TREC samples the way the page builds them."""
from __future__ import annotations

import hashlib
import html
import io

import pandas as pd
import pytest

from irlib.stats.compare_many import compare_many
from irlib.io import read_qrels, read_run
from tests.test_page_upload_systems import SAMPLES
from ui import upload as ui
from ui.shared.downloads import csv_bytes
from ui.upload.compare import build_pair
from ui.upload.figures import deltas_figure
from ui.upload.model import Parsed
from ui.upload.tables import differences_csv_frame, summary_rows

RUNS = ("run_control.txt", "run_test.txt", "run_rm3.txt")


@pytest.fixture(scope="module")
def scored():
    files = {"qrels": Parsed("qrels.txt", read_qrels(SAMPLES / "qrels.txt"), "q" * 64, 10,
                             sample=True)}
    for i, name in enumerate(RUNS, start=1):
        files[f"run_{i}"] = Parsed(name, read_run(SAMPLES / name),
                                   hashlib.sha256(name.encode()).hexdigest(), 10, sample=True)
    dataset, missing = ui.build_dataset("trec", files)
    assert dataset is not None, missing
    settings = ui.Settings(("AP", "nDCG"), "AP", 10, "linear", rel=2, graded=True)
    evaluations = ui.score(dataset, settings.names)
    return dataset, settings, evaluations


def test_the_summary_names_each_measure_and_carries_means_tests_and_the_sample_tag(scored):
    dataset, settings, evaluations = scored
    systems = list(dataset.runs)
    per_query = {n: e.per_query[list(settings.names)] for n, e in evaluations.items()}
    result = compare_many(per_query, systems[0], measures=list(settings.names))
    summary = pd.read_csv(io.BytesIO(csv_bytes(summary_rows(result, settings, sample=True))))
    assert len(summary) == len(systems) * 2
    assert set(summary["measure"]) == {settings.label("AP"), settings.label("nDCG")}
    assert all("@10" in m or "AP" in m for m in summary["measure"])
    for system in systems:
        row = summary[(summary.system == system)
                      & (summary.measure == settings.label("nDCG"))].iloc[0]
        assert row["mean"] == pytest.approx(evaluations[system].means[settings.name("nDCG")])
        assert row["baseline"] == systems[0] and row["data"] == "sample data"
        cell = result.cell(settings.name("nDCG"), system)
        if system == systems[0]:
            assert pd.isna(row["p (uncorrected)"])        # no test against itself
        else:
            assert row["p (uncorrected)"] == pytest.approx(cell["p_value"])
            corrected = row["p corrected (Holm–Bonferroni)"]
            assert corrected == pytest.approx(cell["p_adjusted"])
            assert corrected >= row["p (uncorrected)"]
            assert row["comparisons corrected together"] == len(systems) - 1
            assert bool(row["marked (▲/▼)"]) == bool(cell["marked"])
            assert ("no clear difference" in row["finding"]) == (not cell["marked"])
    others = summary[summary.system != systems[0]]
    assert (others[["better", "ties", "worse"]].sum(axis=1) == others["better"].iloc[0]
            + others["ties"].iloc[0] + others["worse"].iloc[0]).all()
    assert ",10.0," not in csv_bytes(summary_rows(result, settings)).decode()
    assert summary["test"].nunique() == 1 and "randomization" in summary["test"][0].lower()
    pairs = summary_rows(compare_many(per_query, systems[0], measures=list(settings.names),
                                      all_pairs=True), settings)
    n = len(systems)                 # every pair: its own rows, the family's size named
    assert len(pairs) == 2 * (n + (n - 1) * (n - 2) // 2)
    assert set(pairs["comparisons corrected together"].dropna()) == {n * (n - 1) // 2}


def test_the_differences_csv_names_the_measure_in_every_number(scored):
    dataset, settings, evaluations = scored
    names = tuple(list(dataset.runs)[:2])
    pair = build_pair(dataset, evaluations, settings, True, names)
    label = settings.label("AP")
    out = differences_csv_frame(pair.frame, label, names, "sample data")
    numbers = [c for c in out.columns if pd.api.types.is_float_dtype(out[c])]
    assert numbers and all(f"{label}" in c for c in numbers), list(out.columns)
    assert f"difference in {label}" in out.columns and set(out["data"]) == {"sample data"}
    assert out[f"difference in {label}"].tolist() == pair.frame["difference"].tolist()
    assert "data" not in differences_csv_frame(pair.frame, label, names).columns


def test_the_chart_saved_as_a_picture_says_what_it_shows(scored):
    dataset, settings, evaluations = scored
    names = tuple(list(dataset.runs)[:2])
    pair = build_pair(dataset, evaluations, settings, True, names)
    title = f"{names[1]} vs {names[0]} on AP: {pair.verdict.sentence.split(';')[0]}"
    figure = deltas_figure(pair.frame, pair.label, names, pair.comparison.mean_delta,
                           title=title, units=dataset.units)
    # plotly.js draws each <br> line as its own <tspan>: a page's text (copied, or read aloud)
    # joins them as they are, so each line break keeps the space it replaced ("better on")
    assert "<br>" in figure.layout.title.text
    assert figure.layout.title.text.replace("<br>", "") == html.escape(title)
    assert figure.layout.yaxis.automargin is True              # its title is not clipped
    y_title = figure.layout.yaxis.title.text
    assert names[0] in y_title and pair.label in y_title
    # the mean is a legend entry, not a label sitting on the bars
    assert not figure.layout.annotations
    assert [t.name for t in figure.data if t.name and t.name.startswith("mean")] == [
        f"mean {pair.comparison.mean_delta:+.3f}"]
    assert len(figure.data[0].x) == len(pair.frame)
