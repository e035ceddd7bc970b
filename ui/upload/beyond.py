"""Recommenders beyond accuracy: what each system's lists hold (coverage, exposure Gini,
popularity, novelty, diversity) and irlib's sentence on whether the accuracy winner won by
collapsing onto popular items (numbers from irlib.recsys)."""
from __future__ import annotations

import streamlit as st

from irlib.recsys import BEYOND
from ui.texts import md_escape
from ui.upload.cache import cached_recommenders
from ui.upload.model import BeyondSummary, Dataset, Settings
from ui.upload.scores import sample_aside
from ui.upload.tables import BEYOND_EXPLAINED, beyond_frame, collapse_sentence


def beyond_section(dataset: Dataset, settings: Settings, baseline: str) -> BeyondSummary:
    """The table and the sentence; returns both and the relevance rule (for the report)."""
    evaluations = cached_recommenders(dataset.key, settings.k, dataset)
    frame = beyond_frame(evaluations)
    config = {title: st.column_config.NumberColumn(title, format="%.3f", help=info.description)
              for info in BEYOND.values() for title in [info.title]}
    st.dataframe(frame, hide_index=True, width="stretch", key="upload_beyond_table",
                 column_config=config)
    missing = [what for what, ok in (("popularity and novelty need the training interactions",
                                      dataset.extras["train"] is not None),
                                     ("diversity needs the item categories",
                                      dataset.extras["categories"] is not None)) if not ok]
    st.caption(f"At K = {settings.k}{sample_aside(dataset)}. "
               + BEYOND_EXPLAINED.format(k=settings.k)
               + (f" Not shown: {'; '.join(missing)}." if missing else ""))
    sentence = collapse_sentence(evaluations, baseline, settings.by, settings.k)
    if sentence:
        st.warning(md_escape(sentence) + sample_aside(dataset),
                   icon=":material/trending_down:")
    return BeyondSummary(frame, sentence, next(iter(evaluations.values())).relevance)
