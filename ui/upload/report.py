"""The report to send: one self-contained HTML file, without Streamlit.

It opens offline in any browser (plotly.js is inlined from ``static/vendor``; no CDN, no
fonts from the web; the chart's toolbar has no control that sends it anywhere) and prints on
its own pages, each lead-in kept with its table. With several systems it leads with the whole
comparison (:func:`irlib.stats.compare_many.headline`: who beats or falls behind the baseline after
correction, on which measures); then the systems table (and every pair's grid when asked
for), the closer look at one pair with the page's verdict, its plain-words reading and its
chart, what each measure means, the settings, and where the numbers come from (files, sizes,
SHA-256, query counts, date, the app's commit and the library versions). Everything a user
typed or uploaded is escaped (``html.escape``).

No PDF: the libraries that make one without a browser (WeasyPrint, ReportLab) cannot run the
chart's plotly.js, so the chart would need a second renderer (kaleido drives a headless
Chrome, i.e. a browser). The HTML prints to PDF from any browser with its own print rules.
"""
from __future__ import annotations

import datetime as dt
import html
import math
import platform
import re
from importlib import metadata
from pathlib import Path

import pandas as pd

from irlib.stats import claims
from irlib.stats.compare_many import ManyComparison, headline
from irlib.measures.registry import MEASURES
from irlib.recsys import ACCURACY
from irlib.stats.verdict import queries
from ui.shared.charts import plotly_config
from ui.upload.figures import deltas_figure
from ui.upload.measures import CUT_AT_K, WHOLE_RANKING, in_words, mean_label
from ui.upload.model import BeyondSummary, Dataset, Settings, file_safe, size_text
from ui.upload.tables import (BEYOND_EXPLAINED, RECSYS_NAMES, comparison_formats,
                               pairwise_frame, systems_frame)

ROOT = Path(__file__).resolve().parents[2]
PLOTLY_JS = ROOT / "static" / "vendor" / "plotly" / "plotly-basic.min.js"

_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #121110;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.sample { background: #fff3cd; border: 1px solid #e0b100; padding: .4rem .8rem; }
.verdict { background: #eef5fb; border-left: 4px solid #0072B2; padding: .6rem 1rem; }
.disagree { background: #fdf2e9; border-left: 4px solid #D55E00; padding: .6rem 1rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
/* a cell breaks between words, a number never and a SHA-256 anywhere (anywhere for all
   broke "2.305/7" and "judgment/s" mid-word, a phone's whole systems table) */
th, td { border-bottom: 1px solid #ccc; padding: .3rem .5rem; text-align: left;
         overflow-wrap: break-word; }
td.num { font-variant-numeric: tabular-nums; white-space: nowrap; } td.long { word-break: break-all; }
@media (max-width: 40rem) { table { font-size: .8rem; } th, td { padding: .25rem .2rem; } }
.muted { color: #555; font-size: .85rem; } code { font-size: .85rem; word-break: break-all; }
section, table, .verdict, .disagree, .lead { break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } h2, h3, .lead > p { break-after: avoid; } }
"""


def app_version() -> str:
    """The app's git commit when it runs from a checkout or a worktree (read from .git, no
    subprocess: a worktree's .git is a file naming its git directory; a branch's commit may
    sit in packed-refs)."""
    try:
        git = ROOT / ".git"
        if git.is_file():                                  # a worktree: "gitdir: <path>"
            git = Path(git.read_text().split("gitdir:", 1)[1].strip())
        common = git / (git / "commondir").read_text().strip() \
            if (git / "commondir").exists() else git
        head = (git / "HEAD").read_text().strip()
        if head.startswith("ref: "):
            ref = head[5:]
            for base in (git, common):
                if (base / ref).exists():
                    return (base / ref).read_text().strip()[:12]
            packed = common / "packed-refs"
            for line in packed.read_text().splitlines() if packed.exists() else ():
                if line.endswith(" " + ref):
                    return line.split()[0][:12]
            return "unknown"
        return head[:12]
    except (OSError, IndexError):
        return "unknown"


#: The libraries whose versions the provenance names (the numbers depend on them).
VERSIONED = ("streamlit", "numpy", "pandas", "scipy", "plotly")


def versions() -> str:
    """The app's commit, Python's and the numeric libraries' versions, for the provenance.

    >>> versions().startswith("app ") and "Python " in versions() and "numpy " in versions()
    True
    """
    found = [f"app {app_version()}", f"Python {platform.python_version()}"]
    for name in VERSIONED:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)


def _e(text: object) -> str:
    return html.escape(str(text))


def _cell(value: object, spec: str | None) -> str:
    """A table cell: a number right-aligned, written with ``spec`` (a format spec) if given;
    a missing number as "–".

    >>> _cell(1.0, ".4f"), _cell(-0.25, "+.4f")
    ("<td class='num'>1.0000</td>", "<td class='num'>-0.2500</td>")
    >>> _cell(float("nan"), ".4f"), _cell("q1", None)
    ("<td class='num'>–</td>", '<td>q1</td>')
    """
    if not isinstance(value, (int, float)):
        long = " class='long'" if max(map(len, str(value).split()), default=0) >= 32 else ""
        # a file name may break after a dot, _ or / between letters ("run.dense_tied.txt")
        text = re.sub(r"(?<=[A-Za-z])([._/])(?=[A-Za-z])", r"\1<wbr>", _e(value))
        return f"<td{long}>{text}</td>"
    if spec is not None:
        value = "–" if math.isnan(value) else format(value, spec)
    return f"<td class='num'>{_e(value)}</td>"


def _table(frame: pd.DataFrame, formats: dict[str, str] | None = None) -> str:
    """``formats``: column -> format spec, for a column of numbers written alike (the frame
    keeps its numbers)."""
    specs = [(formats or {}).get(c) for c in frame.columns]
    head = "".join(f"<th>{_e(c)}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(_cell(v, spec) for v, spec in zip(row, specs)) + "</tr>"
                   for row in frame.itertuples(index=False))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _most_moved(shown: int, total: int, dataset: Dataset) -> str:
    """The head of the most-moved table, with the count it holds.

    >>> from types import SimpleNamespace
    >>> users = SimpleNamespace(unit="user", units="users")
    >>> _most_moved(10, 200, users), _most_moved(5, 5, users), _most_moved(1, 1, users)
    ('The 10 users that moved most', 'All 5 users, most moved first', 'The one user')
    """
    if shown < total:
        return f"The {queries(shown, dataset.unit)} that moved most"
    return f"The one {dataset.unit}" if shown == 1 else \
        f"All {queries(shown, dataset.unit)}, most moved first"


def unanswered(dataset: Dataset) -> bool:
    """Whether some system answers none of a judged query's results (what ``-c`` is for)."""
    judged = set(dataset.qrels["query_id"].astype(str))
    return any(judged - set(run["query_id"].astype(str)) for run in dataset.runs.values())


def _missing_line(dataset: Dataset, include_missing: bool) -> str:
    """trec_eval's ``-c`` is named only when it changed something: a judged query some
    system does not answer."""
    if not unanswered(dataset):
        return "Every system answers every judged query (so trec_eval's -c changes nothing)"
    return "Queries a system does not answer: " + (
        "count as 0 (trec_eval -c)" if include_missing else
        "left out (trec_eval's default, without -c)")


def _settings_lines(dataset: Dataset, settings: Settings, include_missing: bool, result,
                    pair, beyond: BeyondSummary | None) -> list[str]:
    if settings.recsys:
        lines = [f"Cut-off K = {settings.k} for every measure (the top-{settings.k} lists)",
                 f"Relevant: {beyond.relevance}" if beyond is not None else
                 "Relevant: every held-out item",
                 "Users with relevant held-out items and no list: " + (
                     "count as 0" if include_missing else "left out")]
    else:
        lines = [f"Cut-off K = {settings.k} (for {in_words(CUT_AT_K)}; "
                 f"{in_words(WHOLE_RANKING)} use the whole ranking)",
                 f"Gain of a grade in DCG/NDCG: "
                 f"{'2^grade − 1' if settings.gain == 'exponential' else 'the grade itself'}",
                 f"A grade counts as relevant from {settings.rel} (trec_eval -l {settings.rel})",
                 _missing_line(dataset, include_missing)]
    if result is not None:
        lines.append(f"Systems table: {result.method(dataset.unit)}; "
                     + ("every pair" if result.all_pairs else "each system against "
                        f"{result.baseline}") + f", {result.family_size} comparison"
                     + ("s" if result.family_size != 1 else "") + " per measure")
    if pair is not None and pair.comparison.randomization is not None \
            and (result is None or result.test == "randomization"):
        # the margin is this one comparison's: the table's comparisons each draw their own
        # sign patterns (irlib.stats.compare_many.comparison_seed), each with its own margin
        a, b = pair.names
        lines.append(f"Randomization test of {b} against {a}: "
                     f"{pair.comparison.randomization.describe(dataset.units)}"
                     + ("; every other comparison of the systems table draws its own random "
                        "sign patterns, with its own margin" if result is not None
                        and len(result.tests) > 1 else ""))
    return lines


def _description(key: str, settings: Settings) -> str:
    """A measure in one line, in users and items for recommenders (irlib.recsys' words)."""
    if settings.recsys and key in RECSYS_NAMES:
        return ACCURACY[RECSYS_NAMES[key]].description
    return MEASURES[key].description


def report_html(dataset: Dataset, settings: Settings, include_missing: bool,
                result: ManyComparison | None, pair, *, created: dt.datetime | None = None,
                beyond: BeyondSummary | None = None) -> bytes:
    """The report as UTF-8 HTML bytes; ``pair`` is the two-system comparison (or None);
    ``beyond``: recommenders, what the lists hold and irlib's sentence on an accuracy winner
    that went popular."""
    created = created or dt.datetime.now(dt.timezone.utc)
    systems = list(dataset.runs)
    label = settings.label(settings.by)
    parts = []
    many = result is not None and len(systems) > 2
    labels = dict(zip(settings.names, (_measure_title(k, settings) for k in settings.measures)))
    title, question = claims.report_question(
        result if many else None, systems, dataset.units, label,
        pair.names if pair is not None and not many else None,
        pair.comparison.n if pair is not None else None)
    parts.append(f"<h1>{_e(title)}</h1><p class='muted'>Report made {created:%Y-%m-%d %H:%M} "
                 f"UTC by the Ranking metrics lab (version {_e(app_version())}).</p>")
    if dataset.sample:
        parts.append("<p class='sample'><strong>Sample data.</strong> These numbers come from "
                     "the app's sample files, not from a real system.</p>")
    parts.append(f"<h2>The question</h2><p>{_e(question)}</p>")
    if many:
        parts.append(f"<h2>The answer</h2><div class='verdict'><p>"
                     f"{_e(headline(result, labels, dataset.unit))}</p></div>")
    elif pair is not None:
        parts += _pair_words(pair, "The answer")
    if beyond is not None:
        # a win by collapsing onto popular items is a warning; a healthy win or no clear
        # winner is said plainly (issue 33)
        style = _beyond_style(beyond)
        parts.append("<h2>Beyond accuracy</h2>" + (
            f"<div class='{style}'><p>{_e(beyond.sentence)}</p></div>" if beyond.sentence
            else "") + _table(beyond.table.round(3))
            + "".join(f"<p class='muted'>{_e(n)}</p>" for n in beyond.notes)
            + f"<p class='muted'>{_e(BEYOND_EXPLAINED.format(k=settings.k))}</p>")
    if result is not None:
        counts = {s: (int(r["wins"]), int(r["ties"]), int(r["losses"]))
                  for s in systems if s != result.baseline
                  for r in [result.cell(settings.name(settings.by), s)] if r is not None}
        parts.append("<h2>All systems</h2>" + _table(systems_frame(result, settings, counts))
                     + f"<p class='muted'>{_e(claims.legend(result))}</p>")
        if result.all_pairs:
            by = settings.name(settings.by)
            parts.append(f"<section class='lead'><h3>Every pair on {_e(label)}</h3>"
                         f"<p class='muted'>{_e(claims.pair_grid_caption(result))}</p>"
                         + _table(pairwise_frame(result, by)) + "</section>")
    if pair is not None and many:
        parts += _pair_words(pair, f"A closer look: {pair.names[1]} against {pair.names[0]}")
    if pair is not None and pair.comparison.n:
        figure = deltas_figure(pair.frame, label, pair.names, pair.comparison.mean_delta,
                               title=pair.verdict.sentence.split(";")[0], units=dataset.units)
        chart = figure.to_html(full_html=False, include_plotlyjs=False,
                               config=plotly_config(responsive=True))
        unit = dataset.unit
        parts.append(f"<h2>{unit.capitalize()} by {unit}</h2><section>{chart}</section><p "
                     f"class='muted'>Each bar is one {unit}: how much {_e(label)} moved from "
                     f"{_e(pair.names[0])} to {_e(pair.names[1])}. Green: better, orange: "
                     "worse, grey: tie.</p>")
        top = pair.frame.reindex(pair.frame["difference"].abs().sort_values(
            ascending=False).index).head(10).rename(columns={"query_id": f"{unit}_id"})
        parts.append(f"<section class='lead'><p>{_most_moved(len(top), len(pair.frame), dataset)}"
                     f":</p>{_table(top, comparison_formats(pair.names))}</section>")
    parts.append("<h2>The measures</h2><ul>" + "".join(
        f"<li><strong>{_e(settings.label(key))}</strong>: {_e(_description(key, settings))}"
        f"</li>" for key in settings.measures) + "</ul>")
    parts.append("<h2>Settings</h2><ul>" + "".join(
        f"<li>{_e(line)}</li>" for line in _settings_lines(dataset, settings, include_missing,
                                                             result, pair, beyond)) + "</ul>")
    sources = pd.DataFrame([{"role": s.role, "file": s.name, "size": size_text(s.size),
                             "rows": s.rows, dataset.units: s.queries, "SHA-256": s.sha256,
                             "sample": "yes" if s.sample else ""}
                            for s in dataset.sources])
    if not (sources["sample"] == "yes").any():       # an empty column: a phone's last 58 px
        sources = sources.drop(columns="sample")
    parts.append("<h2>Where the numbers come from</h2>" + _table(sources)
                 + "<p class='muted'>Check a file against its SHA-256 with <code>sha256sum "
                   "FILE</code> (Linux), <code>shasum -a 256 FILE</code> (macOS) or "
                   "<code>Get-FileHash FILE</code> (Windows).</p>"
                 f"<p class='muted'>Made with {_e(versions())}.</p>")
    script = ""
    if pair is not None and pair.comparison.n:
        script = f"<script>{PLOTLY_JS.read_text(encoding='utf-8')}</script>"
    page = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_e(title)}</title><style>{_CSS}</style>{script}</head><body>"
            + "".join(parts) + "</body></html>")
    return page.encode("utf-8")


def _measure_title(key: str, settings: Settings) -> str:
    """A measure as the systems table heads it."""
    return mean_label(key, settings.k, recsys=True) if settings.recsys else settings.label(key)


def _beyond_style(beyond: BeyondSummary) -> str:
    """A win by collapsing onto popular items is a warning; a healthy win is not (irlib.recsys'
    own flag, never a guess from the sentence's words)."""
    return "disagree" if beyond.warning else "verdict"


def _pair_words(pair, heading: str) -> list[str]:
    """The pair's verdict, the other test's disagreement and the plain-words reading."""
    said = pair.verdict
    out = [f"<h2>{_e(heading)}</h2><div class='verdict'><p>{_e(said.sentence)}</p></div>"]
    if said.disagreement:
        out.append(f"<div class='disagree'><p>{_e(said.disagreement)}</p></div>")
    out.append(f"<h3>In plain words</h3><p>{_e(said.plain)}</p>")
    return out


def report_file_name(settings: Settings, pair) -> str:
    what = "_vs_".join(reversed(pair.names)) if pair is not None else "systems"
    return file_safe(f"report_{what}_{settings.label(settings.by)}") + ".html"
