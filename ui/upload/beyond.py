"""Recommenders beyond accuracy: what each system's lists hold (coverage, exposure Gini,
popularity, novelty, diversity) over one stated catalogue, items already seen in training,
and irlib's verdict on each system against the baseline: a winner only where the systems
table's corrected test marks the difference, and whether it won by collapsing onto popular
items (numbers from irlib.recsys)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from irlib import recsys
from irlib.stats.compare_many import ManyComparison
from irlib.recsys.verdict import recommender_verdicts, rule_changes
from ui.shared.texts import md_escape
from ui.upload.cache import CACHE_TTL
from ui.upload.model import BeyondSummary, Dataset, Parsed, Settings
from ui.upload.scores import sample_aside
from ui.upload.settings import page_state
from ui.upload.tables import BEYOND_EXPLAINED, RECSYS_NAMES, beyond_frame


@st.cache_data(max_entries=8, ttl=CACHE_TTL, show_spinner=False)
def cached_evaluations(key: tuple, k: int, relevant_from: float | None,
                       _dataset: Dataset) -> dict:
    """irlib.recsys.evaluate_recommendations of every system under a relevance rule (None:
    every held-out item), dropping items seen in training when the page asks to."""
    extras = _dataset.extras
    return {name: recsys.evaluate_recommendations(
                lists, extras["heldout"], k=k, relevant_from=relevant_from,
                train=extras["train"], item_categories=extras["categories"],
                catalogue=extras.get("catalogue"),
                drop_seen=bool(extras.get("drop_seen")) and extras["train"] is not None)
            for name, lists in extras["lists"].items()}


@st.cache_data(max_entries=16, ttl=CACHE_TTL, show_spinner=False)
def cached_seen(key: tuple, _lists: pd.DataFrame, _train: pd.DataFrame, k: int) -> int:
    """How many top-``k`` recommendations are items the user had in training."""
    return recsys.seen.count_seen(_lists, _train, k).rows


def _read_as(parsed: Parsed) -> tuple:
    """The columns a file was read with (a file read with other columns is other data)."""
    return tuple(sorted(parsed.frame.attrs.get("columns", {}).items()))


def seen_option(files: dict[str, Parsed], k: int) -> bool:
    """With the training interactions loaded: a switch to drop the items each user already
    had in training from their list (recommender libraries' "remove seen"), with how many
    each system's top K holds. Returns whether to drop them."""
    fields = page_state()
    if "train" not in files:
        return False
    train = files["train"]
    systems = [f for slot, f in files.items() if slot.startswith("recs_")]
    counts = {f.name: cached_seen((f.digest, train.digest, _read_as(f), _read_as(train), k),
                                  f.frame, train.frame, k) for f in systems}
    if not any(counts.values()) and not fields["drop_seen"]:
        return False                      # nothing to drop: no switch to puzzle over
    listed = "; ".join(f"{name}: {n:,}" for name, n in counts.items())
    st.toggle("Drop items users had in training", **fields.bind("drop_seen"),
              help="Held-out items are new to the user, so a training item in a list can "
                   "never be a hit. Recommender libraries remove them (\"remove seen\") "
                   f"before taking the top K. In the top {k} as loaded: {listed}.")
    return bool(fields["drop_seen"])


def _rule_words(relevant_from: float | None) -> str:
    return "every held-out item relevant" if relevant_from is None else \
        f"only held-out items rated {relevant_from:g} or more relevant"


def beyond_section(dataset: Dataset, settings: Settings, baseline: str,
                   result: ManyComparison | None = None) -> BeyondSummary:
    """The table, the catalogue, items seen in training, and each system's verdict against
    the baseline under the systems table's test (``result``); returns what the report
    repeats."""
    extras = dataset.extras
    rule = extras["relevant_from"] or None
    evaluations = cached_evaluations(dataset.key, settings.k, rule, dataset)
    first = next(iter(evaluations.values()))
    frame = beyond_frame(evaluations)
    config = {title: st.column_config.NumberColumn(title, format="%.3f", help=info.description)
              for info in recsys.BEYOND.values() for title in [info.title]}
    st.dataframe(frame, hide_index=True, width="stretch", key="upload_beyond_table",
                 column_config=config)
    missing = [what for what, ok in (("popularity and novelty need the training interactions",
                                      extras["train"] is not None),
                                     ("diversity needs the item categories",
                                      extras["categories"] is not None)) if not ok]
    notes = [first.catalogue_sentence]
    notes += [s for name, e in evaluations.items() if e.seen is not None
              for s in [e.seen.sentence(name)] if s]
    # what the command line notes per system (items outside the catalogue, unknown to
    # training, short lists): coverage of 87 % may leave out 14 % of a system's items
    notes += [f"{name}: {note}" for name, e in evaluations.items() for note in e.notes]
    st.caption(f"At K = {settings.k}{sample_aside(dataset)}. {first.catalogue_sentence} "
               + BEYOND_EXPLAINED.format(k=settings.k)
               + (f" Not shown: {'; '.join(missing)}." if missing else ""))
    for line in notes[1:]:
        st.caption(md_escape(line))
    sentences, warning = _verdicts(dataset, settings, baseline, result, evaluations, rule)
    return BeyondSummary(frame, " ".join(sentences) or None, first.relevance, warning,
                         tuple(notes))


def _verdicts(dataset: Dataset, settings: Settings, baseline: str,
              result: ManyComparison | None, evaluations: dict, rule) -> tuple[list[str], bool]:
    """Each system against the baseline, as the systems table tested it: a warning for a
    win by collapsing, a note otherwise; then whether the other relevance rule changes a
    verdict."""
    if result is None or len(evaluations) < 2:
        return [], False
    by = f"{RECSYS_NAMES.get(settings.by, settings.by)}@{settings.k}"
    measure = settings.name(settings.by)
    verdicts = recommender_verdicts(evaluations, baseline, by=by, result=result,
                                    result_measure=measure)
    shown = [c for (system, against), c in verdicts.comparisons.items() if against == baseline]
    for c in shown:
        box = st.warning if c.warning else st.info
        box(md_escape(c.sentence) + sample_aside(dataset),
            icon=":material/trending_down:" if c.warning else ":material/balance:")
    sentences = [c.sentence for c in shown]
    held = dataset.extras["heldout"]
    liked = recsys.liked_from(held["rating"]) if "rating" in held.columns else None
    if liked is not None:
        other = liked if rule is None else None
        try:
            others = cached_evaluations(dataset.key, settings.k, other, dataset)
        except ValueError:               # nothing relevant under the other rule
            return sentences, any(c.warning for c in shown)
        # one family for both rules: the table's (with every pair compared, every pair)
        changes = rule_changes(verdicts, recommender_verdicts(
            others, baseline, by=by, test=result.test, correction=result.correction,
            all_pairs=result.all_pairs, alpha=result.alpha), _rule_words(other))
        for line in changes:
            st.info(md_escape(line), icon=":material/rule:")
        sentences += changes
    return sentences, any(c.warning for c in shown)
