"""Lesson 9 with a recommender's files: recommendations + held-out interactions, read with
their own column names, in a recommender engineer's words, with what accuracy cannot see.

The samples are the issue's shop (assets/samples/shop.py): 200 users x 500 items, a
most-popular baseline and an MF model's top-10 lists, held-out ratings 1-5 as ``uid,iid,stars``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from irlib import recsys
from tests.apptest import address, run_page

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"


def page(**query) -> AppTest:
    return run_page("upload", query=query, timeout=90)


def unescaped(text: str) -> str:
    return text.replace("\\", "")


@pytest.fixture(scope="module")
def shop() -> AppTest:
    at = page(input="recsys", k="10")
    at.button(key="upload_sample_recsys").click().run()
    assert not at.exception, at.exception
    return at


def _truth(relevant_from=None) -> dict:
    held = recsys.read_interactions(SAMPLES / "shop_test.csv")
    train = recsys.read_interactions(SAMPLES / "shop_train.csv")
    return {name: recsys.evaluate_recommendations(
                recsys.read_recommendations(SAMPLES / f"shop_recs_{name}.{ext}"), held, k=10,
                relevant_from=relevant_from, train=train)
            for name, ext in (("popular", "tsv"), ("mf", "csv"))}


def test_the_shop_is_read_with_its_own_column_names_and_scored_per_user(shop):
    at = shop
    captions = " ".join(unescaped(c.value) for c in at.caption)
    assert "columns: user = uid, item = iid, rating = stars" in captions
    assert "columns: user = customer, item = product, rank = rank" in captions
    truth = _truth()
    metrics = {m.label: m.value for m in at.metric}
    popular = truth["popular"].accuracy
    for label in ("NDCG@10", "HitRate@10", "Recall@10", "MAP@10", "MRR@10"):
        assert metrics[f"{label} · sample data"] == f"{popular[label]:.4f}", label
    table = next(d for d in at.dataframe if (d.key or "").startswith("upload_table_")).value
    assert len(table) == truth["popular"].users.evaluated
    assert [h.value for h in at.subheader][2:4] == ["3. User by user", "4. One user up close"]


def test_the_popular_baseline_wins_accuracy_by_collapsing_and_the_page_says_so(shop):
    at = shop
    systems = next(d.value for d in at.dataframe if "system" in d.value.columns
                   and "MAP@10" in d.value.columns)
    assert systems["system"].tolist() == ["shop_recs_popular", "shop_recs_mf"]
    assert "★" in systems.set_index("system").loc["shop_recs_popular", "NDCG@10"]
    beyond = next(d.value for d in at.dataframe if "Catalogue coverage" in " ".join(
        d.value.columns) or "coverage" in " ".join(d.value.columns).lower())
    coverage = beyond.set_index("system").filter(like="overage").iloc[:, 0]
    assert coverage["shop_recs_popular"] < 0.1 < 0.5 < coverage["shop_recs_mf"]
    (collapse,) = [unescaped(w.value) for w in at.warning if "collapsing" in w.value]
    assert collapse.startswith("shop_recs_popular wins on NDCG@10")
    assert "(sample data)" in collapse


def test_a_one_star_rating_is_no_hit_when_relevance_starts_at_four():
    at = page(input="recsys", k="10", **{"from": "4"})
    at.button(key="upload_sample_recsys").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    truth = _truth(relevant_from=4)["popular"]
    assert metrics["HitRate@10 · sample data"] == f"{truth.accuracy['HitRate@10']:.4f}"
    left_out = [unescaped(w.value) for w in at.warning if "rated 4 or more" in w.value]
    n_out = len(truth.users.without_relevant)
    assert (f"{n_out:,} users have no held-out item rated 4" in left_out[0]) if n_out else \
        not left_out
    assert truth.accuracy["HitRate@10"] != _truth()["popular"].accuracy["HitRate@10"]
    assert address(at)["from"] == "4"


def test_columns_that_cannot_be_guessed_are_picked_on_the_page():
    at = page(input="recsys")
    data = b"a,b,c\nu1,i1,5\nu1,i2,3\nu2,i1,4\n"
    recs = b"who,what,score\nu1,i1,0.9\nu1,i9,0.5\nu2,i2,0.7\nu3,i1,0.4\n"
    at.session_state["upload_inject"] = [("heldout", "test.csv", data), ("recs", "r.csv", recs)]
    at.run()
    assert not at.exception
    (error,) = [unescaped(e.value) for e in at.error if "test.csv" in unescaped(e.value)]
    # no user/item found: the page points to its pickers, not to irlib's columns={...}
    assert "no column for the user" in error and "the header has: a, b, c" in error
    assert error.endswith("Pick the user and the item columns below, then “Read with these "
                          "columns”."), error
    assert "columns=" not in error
    role = {s.label: s for s in at.selectbox if s.key and "upload_col_heldout" in s.key}
    role["user"].set_value("a")
    role["item"].set_value("b")
    role["rating"].set_value("c")
    at.button(key="upload_col_apply_heldout").click().run()
    assert not at.exception
    assert "heldout" in at.session_state["upload_files"]
    assert not [e for e in at.error if "test.csv" in unescaped(e.value)]
    # the lists' columns were guessed after a fix too (who/what are not guessed: pick them)
    if "recs_1" not in at.session_state["upload_files"]:
        role = {s.label: s for s in at.selectbox if s.key and "upload_col_recs_1" in s.key}
        role["user"].set_value("who")
        role["item"].set_value("what")
        at.button(key="upload_col_apply_recs_1").click().run()
    table = next(d for d in at.dataframe if (d.key or "").startswith("upload_table_")).value
    assert sorted(table["query_id"]) == ["u1", "u2"]              # u3 has nothing held out
    assert any("no held-out item" in c.value for c in at.caption)


def test_files_whose_ids_never_meet_are_refused_and_the_good_ones_kept():
    """A list from another data set, or held-out items under other ids, would score 0 for
    everyone: refused with irlib's reason, the shop's files and scores stay."""
    at = page(input="recsys", k="10")
    at.button(key="upload_sample_recsys").click().run()
    before = {m.label: m.value for m in at.metric}
    names = {p: f.name for p, f in at.session_state["upload_files"].items()}
    for slot, name, data, reason in (
            ("recs_1", "other_shop.csv", b"user,item,score\nz1,m0462,1\n", "no user of"),
            ("heldout", "other_ids.csv", b"uid,iid\nu000,sku-1\nu001,sku-2\n", "no item of")):
        at.session_state["upload_inject"] = [(slot, name, data)]
        at.run()
        assert not at.exception, at.exception
        (error,) = [unescaped(e.value) for e in at.error if name in unescaped(e.value)]
        assert f"{name} does not go with" in error and reason in error, error
        assert {p: f.name for p, f in at.session_state["upload_files"].items()} == names
        assert {m.label: m.value for m in at.metric} == before


def test_a_column_picked_wrongly_is_a_message_not_a_traceback():
    """Files that met until the user read another column as the user: no scores, a reason."""
    at = page(input="recsys")
    held = b"a,b,c\nu1,i1,5\nu2,i2,4\n"
    recs = b"uid,iid,score\nu1,i1,0.9\nu2,i2,0.7\n"
    at.session_state["upload_inject"] = [("heldout", "test.csv", held), ("recs", "r.csv", recs)]
    at.run()
    role = {s.label: s for s in at.selectbox if s.key and "upload_col_heldout" in s.key}
    role["user"].set_value("b")                       # the item column read as the user
    role["item"].set_value("a")
    at.button(key="upload_col_apply_heldout").click().run()
    assert not at.exception, at.exception
    assert any("no user of the recommendations" in unescaped(e.value) for e in at.error)
    assert not at.metric


def test_users_without_recommendations_count_zero_and_are_counted():
    held = b"uid,iid\nu1,i1\nu2,i2\nu3,i3\n"
    recs = b"uid,iid,score\nu1,i1,1.0\nu2,i9,1.0\n"
    at = page(input="recsys", rm="Success,R", k="10")
    at.session_state["upload_inject"] = [("heldout", "held.csv", held), ("recs", "r.csv", recs)]
    at.run()
    assert not at.exception
    (note,) = [unescaped(i.value) for i in at.info if "no recommendations for" in i.value]
    assert "no recommendations for 1 of the 3 users" in note and "count 0" in note
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["HitRate@10"] == f"{1 / 3:.4f}"


def test_the_report_speaks_of_users_the_rule_and_what_the_lists_hold():
    """The product team's copy: the relevance rule the engineer chose (not trec_eval's -l),
    K for every measure, the beyond-accuracy table, users (not queries)."""
    from ui import upload as ui
    from ui.upload.compare import build_pair
    from ui.upload.model import BeyondSummary, Parsed
    from ui.upload.report import report_html
    from ui.upload.tables import beyond_frame, recommender_evaluations

    names = {"heldout": ("shop_test.csv", recsys.read_interactions),
             "recs_1": ("shop_recs_popular.tsv", recsys.read_recommendations),
             "recs_2": ("shop_recs_mf.csv", recsys.read_recommendations),
             "train": ("shop_train.csv", recsys.read_interactions)}
    files = {slot: Parsed(name, read(SAMPLES / name), slot * 8, 1, sample=True)
             for slot, (name, read) in names.items()}
    dataset, missing = ui.build_dataset("recsys", files, relevant_from=4)
    assert dataset is not None, missing
    settings = ui.Settings(("nDCG", "Success"), "nDCG", 10, "linear", recsys=True)
    evaluations = ui.score(dataset, settings.names)
    pair = build_pair(dataset, evaluations, settings, True, tuple(dataset.runs))
    lists = recommender_evaluations(dataset, 10)
    first = next(iter(lists.values()))
    beyond = BeyondSummary(beyond_frame(lists), "popular wins by collapsing", first.relevance,
                           True, (first.catalogue_sentence,))
    text = unescaped(report_html(dataset, settings, True, None, pair, beyond=beyond).decode())
    # a collapse is a warning; the catalogue is stated; a healthy verdict is plain text
    assert "<div class='disagree'><p>popular wins by collapsing" in text
    assert "Catalogue for coverage and Gini: 481 items" in text
    plain = BeyondSummary(beyond_frame(lists), "No clear winner on NDCG@10", first.relevance)
    calm = unescaped(report_html(dataset, settings, True, None, pair, beyond=plain).decode())
    assert "<div class='verdict'><p>No clear winner on NDCG@10" in calm and "disagree'><p>No clear" not in calm
    assert "Relevant: a held-out item rated 4 or more is relevant" in text
    assert "trec_eval -l" not in text and "grade itself" not in text
    assert "Cut-off K = 10 for every measure" in text
    assert "<h2>Beyond accuracy</h2>" in text and "Catalogue coverage" in text and "Novelty" in text
    assert "<h2>User by user</h2>" in text and "The 10 users that moved most" in text
    body = text.split("<body>")[1].split("<h2>Settings")[0]
    body = re.sub(r"<script.*?</script>", "", body, flags=re.S)      # plotly's own code
    assert "<th>user_id</th>" in body
    assert "quer" not in body.lower(), re.findall(r".{40}quer.{40}", body.lower())


def _one_hit_each(n: int) -> dict[str, str]:
    """Files of ``n`` users who each have "hit" held out: good.csv recommends it first,
    poor.csv second (every user differs)."""
    users = [f"u{i}" for i in range(1, n + 1)]
    return {"held.csv": "uid,iid\n" + "".join(f"{u},hit\n" for u in users),
            "poor.csv": "uid,iid,score\n" + "".join(f"{u},miss,1\n{u},hit,0.5\n"
                                                    for u in users),
            "good.csv": "uid,iid,score\n" + "".join(f"{u},hit,1\n" for u in users)}


def test_a_few_users_that_differ_are_called_users_in_the_tests_captions():
    """Two lists over six users: the randomization floor's caption and the tests' help count
    users, the mode's unit, not queries."""
    texts = _one_hit_each(6)
    at = page(input="recsys", k="10")
    at.session_state["upload_inject"] = [(slot, name, texts[name].encode()) for slot, name in
                                         (("heldout", "held.csv"), ("recs_1", "poor.csv"),
                                          ("recs_2", "good.csv"))]
    at.run()
    assert not at.exception, at.exception
    (floor,) = [unescaped(c.value) for c in at.caption if "cannot give a p below" in c.value]
    assert floor.startswith("With 6 users that differ the randomization test"), floor
    assert "quer" not in floor and "hold out more users" in floor
    helps = " ".join(m.help or "" for m in at.metric if "test p" in m.label or "mean" in m.label)
    assert "6 users that differ" in helps and "quer" not in helps, helps
    (reading,) = [m.value for m in at.markdown if "**paired**" in m.value]
    assert "the same users" in reading and "quer" not in reading, reading


def test_the_reports_most_moved_table_says_how_many_it_holds(tmp_path):
    """Five users: all five are listed, and the head says so (not "the ten")."""
    from ui import upload as ui
    from ui.upload.compare import build_pair
    from ui.upload.model import Parsed
    from ui.upload.report import report_html

    for name, text in _one_hit_each(5).items():
        (tmp_path / name).write_text(text)
    read = {"heldout": ("held.csv", recsys.read_interactions),
            "recs_1": ("poor.csv", recsys.read_recommendations),
            "recs_2": ("good.csv", recsys.read_recommendations)}
    files = {slot: Parsed(name, reader(tmp_path / name), slot * 8, 1)
             for slot, (name, reader) in read.items()}
    dataset, missing = ui.build_dataset("recsys", files)
    assert dataset is not None, missing
    settings = ui.Settings(("nDCG",), "nDCG", 10, "linear", recsys=True)
    pair = build_pair(dataset, ui.score(dataset, settings.names), settings, True,
                      tuple(dataset.runs))
    text = unescaped(report_html(dataset, settings, True, None, pair).decode())
    assert "<p>All 5 users, most moved first:</p>" in text
    assert "The ten" not in text
    # a lecturer's walk: the scores column mixed "1.0" with "0.6309"; each number has four
    # decimals now, the difference signed, as on the page (the frame keeps its numbers)
    table = text.split("most moved first:</p>")[1].split("</table>")[0]
    numbers = re.findall(r"<td class='num'>([^<]*)</td>", table)
    assert len(numbers) == 5 * 3, numbers
    assert all(re.fullmatch(r"[+-]?\d\.\d{4}", n) for n in numbers), numbers
    assert {"1.0000", "0.6309", "+0.3691"} <= set(numbers), numbers
    assert pair.frame["difference"].dtype.kind == "f"


def test_the_verdict_is_the_systems_tables_test_and_the_catalogue_is_stated(shop):
    """Issue 33: the sentence names the test and its p as the systems table computed it, a
    win by collapsing is a warning, and coverage's denominator is said once for both."""
    at = shop
    truth = _truth()
    (collapse,) = [unescaped(w.value) for w in at.warning if "collapsing" in w.value]
    assert collapse.startswith(
        f"shop_recs_popular wins on NDCG@10 ({truth['popular'].accuracy['NDCG@10']:.3f} vs "
        f"{truth['mf'].accuracy['NDCG@10']:.3f}; paired randomization test over the users: "
        "p < 0.001) by collapsing onto popular items")
    captions = " ".join(unescaped(c.value) for c in at.caption)
    assert "Catalogue for coverage and Gini: 481 items (the training and held-out items)." \
        in captions
    # the picker and the systems table name the measures alike (MAP@K / MAP@10, not AP@K)
    picker = next(m for m in at.multiselect if m.label == "Measures")
    named = {o.replace("@K", "@10") for o in picker.options}
    systems = next(d.value for d in at.dataframe if "MAP@10" in d.value.columns)
    assert {c for c in systems.columns if c.endswith("@10") and " " not in c} <= named
    assert "MAP@10" in named and "MRR@10" in named and "AP@10" not in named
    (ranking,) = [d.value for d in at.dataframe if "in top 10" in d.value.columns]
    assert "score" not in ranking.columns          # the popular list has ranks, no scores
    assert {"doc_id", "relevance", "judged"} <= set(ranking.columns)


def test_no_clear_winner_is_a_note_and_the_rule_that_turns_it_is_said():
    """Rated 4 or more at K = 5, the popular list's lead is not one the test finds: no
    winner, no warning; counting every held-out item it would win, and the page says so."""
    at = page(input="recsys", k="5", **{"from": "4"})
    at.button(key="upload_sample_recsys").click().run()
    assert not at.exception, at.exception
    assert not [w for w in at.warning if "wins" in w.value]
    infos = [unescaped(i.value) for i in at.info]
    (verdict,) = [i for i in infos if i.startswith("No clear winner on NDCG@5")]
    assert "could be chance (paired randomization test over the users: p = " in verdict
    (turn,) = [i for i in infos if i.startswith("The relevance rule changes the verdict")]
    assert "with every held-out item relevant, shop_recs_popular wins" in turn


def test_with_every_pair_compared_the_rule_note_speaks_for_the_same_family():
    """Issue 42: with "Compare every pair" on, the verdict box said "No clear winner ...
    corrected for the 3 comparisons of every pair" while the rule note, re-tested with the
    baseline-only family, said "with the rule in use ... wins". Three systems (the shop's two
    and MF with jittered scores), rated 4 or more at K = 5: one family, one verdict, and the
    corrected p always beside the uncorrected."""
    import numpy as np
    mf = pd.read_csv(SAMPLES / "shop_recs_mf.csv")
    mix = mf.assign(score=mf["score"] + np.random.default_rng(0).normal(0, 0.05, len(mf)))
    at = page(input="recsys", k="5", pairs="1", **{"from": "4"})
    at.session_state["upload_inject"] = [
        ("heldout", "shop_test.csv", (SAMPLES / "shop_test.csv").read_bytes()),
        ("recs_1", "shop_recs_popular.tsv", (SAMPLES / "shop_recs_popular.tsv").read_bytes()),
        ("recs_2", "shop_recs_mf.csv", (SAMPLES / "shop_recs_mf.csv").read_bytes()),
        ("recs_3", "recs_mix.csv", mix.to_csv(index=False).encode())]
    at.run()
    assert not at.exception, at.exception
    boxes = [unescaped(b.value) for b in [*at.info, *at.warning]]
    verdicts = [b for b in boxes if "on NDCG@5" in b and "corrected for" in b]
    assert len(verdicts) == 2, boxes
    assert all("corrected for the 3 comparisons of every pair (Holm–Bonferroni): p " in v
               and "; uncorrected p " in v for v in verdicts), verdicts
    (mf_box,) = [v for v in verdicts if "shop_recs_mf" in v and "recs_mix" not in v]
    assert mf_box.startswith("No clear winner on NDCG@5")
    (note,) = [b for b in boxes if b.startswith("The relevance rule changes the verdict")]
    assert "for shop_recs_mf against shop_recs_popular" in note
    assert note.split("with the rule in use, ")[1].startswith("no clear winner")


def test_files_given_the_wrong_way_round_are_refused_with_the_reason():
    at = page(input="recsys")
    at.session_state["upload_inject"] = [
        ("heldout", "shop_recs_mf.csv", (SAMPLES / "shop_recs_mf.csv").read_bytes()),
        ("recs_1", "shop_test.csv", (SAMPLES / "shop_test.csv").read_bytes())]
    at.run()
    assert not at.exception, at.exception
    errors = [unescaped(e.value) for e in at.error]
    assert any("the files seem to be the wrong way round" in e and "exactly 10 rows" in e
               for e in errors), errors
    assert not at.metric                                   # nothing scored from them


def test_leave_one_out_files_given_the_wrong_way_round_are_refused():
    """One held-out film per user is as regular as a list: the lists' scores in the
    held-out slot are what refuses them, and the message says which file looks like which
    (before: K = 2 and NDCG@2 0.31 from scores read as ratings)."""
    held = pd.read_csv(SAMPLES / "shop_test.csv")
    loo = held.groupby("uid").head(1).to_csv(index=False).encode()
    at = page(input="recsys")
    at.session_state["upload_inject"] = [
        ("heldout", "shop_recs_mf.csv", (SAMPLES / "shop_recs_mf.csv").read_bytes()),
        ("recs_1", "test_loo.csv", loo)]
    at.run()
    assert not at.exception, at.exception
    errors = [unescaped(e.value) for e in at.error]
    assert any("the held-out interactions (shop_recs_mf.csv) look like recommendation lists"
               in e and "the recommendations (test_loo.csv) look like interactions" in e
               for e in errors), errors
    assert not at.metric


def test_items_seen_in_training_are_counted_and_dropped_on_request(tmp_path):
    train = pd.read_csv(SAMPLES / "shop_train.csv")
    had = train.groupby("userId").head(2).rename(columns={"userId": "user_id",
                                                          "movieId": "item_id"})
    leak = pd.concat([had[["user_id", "item_id"]].assign(score=9.0),
                      pd.read_csv(SAMPLES / "shop_recs_mf.csv")], ignore_index=True)
    at = page(input="recsys", k="10")
    at.session_state["upload_inject"] = [
        ("heldout", "shop_test.csv", (SAMPLES / "shop_test.csv").read_bytes()),
        ("recs_1", "recs_leak.csv", leak.to_csv(index=False).encode()),
        ("train", "shop_train.csv", (SAMPLES / "shop_train.csv").read_bytes())]
    at.run()
    assert not at.exception, at.exception
    captions = " ".join(unescaped(c.value) for c in at.caption)
    assert (f"recs_leak: {len(had)} top-10 recommendations (200 users) are items the user "
            "already had in training") in captions
    before = {m.label: m.value for m in at.metric}
    at.toggle(key="upload_drop_seen").set_value(True).run()
    assert not at.exception, at.exception
    after = {m.label: m.value for m in at.metric}
    mf = _truth()["mf"].accuracy            # without the repeats: MF's own lists
    assert after["NDCG@10"] == f"{mf['NDCG@10']:.4f}" != before["NDCG@10"]
    assert address(at)["unseen"] == "1"
    captions = " ".join(unescaped(c.value) for c in at.caption)
    assert "were items the user already had in training: dropped" in captions


def test_a_second_results_tables_own_labels_are_used_or_refused():
    """Issue 33: two results tables, each with its own relevance column and no judgments
    file: the second's labels count for its rows (before, the first's replaced them: DCG
    0.005 where its own labels give 0.17), and labels that disagree are refused."""
    import irlib
    from ui import upload as ui
    from ui.upload.model import Parsed

    def table(rows):
        return pd.DataFrame(rows, columns=["query_id", "doc_id", "score", "relevance"])

    pop = table([("u1", "hit", 2.0, 1), ("u1", "a", 1.0, 0), ("u2", "hit", 2.0, 0)])
    pers = table([("u1", "b", 2.0, 1), ("u2", "c", 2.0, 1), ("u2", "d", 1.0, 0)])
    files = {"table_1": Parsed("recs_pop.csv", pop), "table_2": Parsed("recs_pers.csv", pers)}
    dataset, missing = ui.build_dataset("table", files)
    assert dataset is not None, missing
    scores = ui.score(dataset, ("DCG@10",))
    own = irlib.evaluate(pers[["query_id", "doc_id", "relevance"]],
                         pers[["query_id", "doc_id", "score"]], ["DCG@10"]).means["DCG@10"]
    assert scores["recs_pers"].means["DCG@10"] == pytest.approx(own) == 1.0
    assert dataset.extras["self_judged"] == "recs_pop.csv and recs_pers.csv"
    clash = table([("u1", "hit", 2.0, 0)])
    files["table_2"] = Parsed("recs_clash.csv", clash)
    dataset, missing = ui.build_dataset("table", files)
    assert dataset is None
    assert missing.startswith("recs_pop.csv and recs_clash.csv label query 'u1', document "
                              "'hit' differently (1 and 0)")


def test_a_catalogue_file_is_coverages_denominator_for_every_system(shop):
    """A catalogue given on the page (its own column names): coverage and Gini divide by it
    for both systems, and the page says so."""
    at = shop
    items = sorted(set(pd.read_csv(SAMPLES / "shop_train.csv")["movieId"])
                   | set(pd.read_csv(SAMPLES / "shop_test.csv")["iid"])) + ["m9998", "m9999"]
    data = ("sku,title\n" + "".join(f"{i},Film {i}\n" for i in items)).encode()
    at.session_state["upload_inject"] = [("catalogue", "catalogue.csv", data)]
    at.run()
    assert not at.exception, at.exception
    captions = " ".join(unescaped(c.value) for c in at.caption)
    assert (f"Catalogue for coverage and Gini: {len(items):,} items (the catalogue given)."
            in captions)
    held = recsys.read_interactions(SAMPLES / "shop_test.csv")
    truth = recsys.evaluate_recommendations(
        recsys.read_recommendations(SAMPLES / "shop_recs_mf.csv"), held, k=10, catalogue=items)
    beyond = next(d.value for d in at.dataframe if "Catalogue coverage" in d.value.columns)
    coverage = beyond.set_index("system")["Catalogue coverage"]
    assert coverage["shop_recs_mf"] == pytest.approx(truth.beyond["Coverage"].value)
