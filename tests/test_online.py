"""irlib.online against closed forms and its own simulations: the cascade model's click chance
a_i ∏_{j<i}(1 − a_j), team draft's fairness under clicks that ignore the results (and the
case where balanced interleaving is not fair), the A/B sample-size formula against published
tables and against seeded experiments, and the same seed giving the same numbers."""
import math

import numpy as np
import pytest

from irlib import online


def test_cascade_click_chance_is_the_closed_form():
    a = np.array([0.3, 0.7, 0.2, 0.9, 0.5])
    expected = [a[i] * np.prod(1 - a[:i]) for i in range(len(a))]
    assert np.allclose(online.click_probabilities(a, "cascade"), expected)
    # with patience p each further rank is reached with chance p more
    p = 0.6
    expected_p = [a[i] * p ** i * np.prod(1 - a[:i]) for i in range(len(a))]
    assert np.allclose(online.click_probabilities(a, "cascade", patience=p), expected_p)
    assert math.isclose(online.any_click_probability(a, "cascade"), 1 - np.prod(1 - a))


def test_position_based_click_chance():
    a = np.array([0.5, 0.5, 0.8])
    assert np.allclose(online.click_probabilities(a, "position", bias=2), a / np.array([1, 4, 9]))
    assert math.isclose(online.any_click_probability(a, "position", bias=0), 1 - 0.5 * 0.5 * 0.2)


@pytest.mark.parametrize("model,kw", [("cascade", {"patience": 0.8}), ("position", {"bias": 1})])
def test_simulated_clicks_match_the_closed_form(model, kw):
    a = online.attractiveness([4, 0, 2, 3, 1, 0], top_grade=4, noise=0.1)
    clicks = online.simulate_clicks(a, 40_000, model, rng=7, **kw)
    expected = online.click_probabilities(a, model, **kw)
    # 4 standard errors of a share out of 40,000
    assert np.all(np.abs(online.clicks_by_rank(clicks) - expected)
                  < 4 * np.sqrt(expected * (1 - expected) / 40_000) + 1e-9)
    if model == "cascade":
        assert clicks.sum(axis=1).max() == 1


def test_position_bias_a_good_result_low_draws_fewer_clicks_than_a_bad_one_on_top():
    """Clicks are a biased judgment: the same results, the relevant one moved down."""
    a = online.attractiveness([0, 0, 0, 0, 0, 0, 0, 4], top_grade=4, noise=0.2)
    probs = online.click_probabilities(a, "position", bias=1)
    assert probs[0] > probs[-1]          # the useless top result out-clicks the perfect one


def test_attractiveness_noise():
    assert online.attractiveness([0, 1], 1, noise=0.5).tolist() == [0.5, 0.5]
    with pytest.raises(ValueError):
        online.attractiveness([5], 4)
    with pytest.raises(ValueError):
        online.attractiveness([1], 1, noise=0.7)


def test_same_seed_same_clicks_other_seed_other_clicks():
    a = [0.5] * 6
    one = online.simulate_clicks(a, 500, "position", rng=3)
    assert np.array_equal(one, online.simulate_clicks(a, 500, "position", rng=3))
    assert not np.array_equal(one, online.simulate_clicks(a, 500, "position", rng=4))


def test_team_draft_lists_each_result_once_and_balances_the_teams():
    a, b = list("abcdefgh"), list("hgfedcba")
    for seed in range(20):
        shown, teams = online.team_draft(a, b, rng=seed)
        assert sorted(shown) == sorted(a)
        # after every round the teams differ by one at most
        assert all(abs(teams[:i].count("A") - teams[:i].count("B")) <= 1 for i in range(9))
    lists = online.outcomes(a, b)
    assert len(lists) == 16 and math.isclose(sum(s.chance for s in lists), 1)


@pytest.mark.parametrize("a,b", [("abcd", "dcba"), ("abc", "bca"), ("abcdef", "badcfe"),
                                 ("abcde", "abced")])
def test_team_draft_is_fair_under_random_clicks(a, b):
    for rate in (0.1, 0.5, 0.9):
        votes = online.vote_probabilities(a, b, None, random_clicks=rate)
        assert math.isclose(votes.a, votes.b, abs_tol=1e-12)


def test_team_draft_fairness_by_simulation_with_the_real_algorithm():
    """Each user's list drawn by team_draft itself (its own coins), clicks at random."""
    rng = np.random.default_rng(11)
    a, b = list("abcdef"), list("fbdace")
    wins = np.zeros(2)
    for _ in range(6000):
        shown, teams = online.team_draft(a, b, rng)
        clicked = rng.random(len(shown)) < 0.3
        on_a = sum(c for c, t in zip(clicked, teams) if t == "A")
        on_b = sum(c for c, t in zip(clicked, teams) if t == "B")
        if on_a != on_b:
            wins[int(on_b > on_a)] += 1
    share = wins[0] / wins.sum()
    assert abs(share - 0.5) < 4 * math.sqrt(0.25 / wins.sum())


def test_balanced_interleaving_is_not_always_fair():
    """Rankings (a, b, c) and (b, c, a): random clicks favour the second (Radlinski et al.)."""
    votes = online.vote_probabilities("abc", "bca", None, method="balanced", random_clicks=0.3)
    assert votes.b > votes.a + 0.1


@pytest.mark.parametrize("method", online.METHODS)
@pytest.mark.parametrize("model", online.MODELS)
def test_simulated_votes_match_the_exact_chances(method, model):
    grades = {"w": 4, "x": 0, "y": 2, "z": 1, "v": 3}
    attract = dict(zip(grades, online.attractiveness(list(grades.values()), 4, 0.1)))
    a, b = list("xwyzv"), list("wvyxz")
    exact = online.vote_probabilities(a, b, attract, method=method, model=model)
    votes = online.simulate_votes(a, b, attract, 30_000, method=method, model=model, rng=5)
    for share, p in (((votes > 0).mean(), exact.a), ((votes < 0).mean(), exact.b)):
        assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / 30_000) + 1e-9
    assert exact.b > exact.a              # b puts the perfect result first


def test_ab_sample_size_matches_the_published_formula():
    # Fleiss' continuity-free formula, 50 % vs 55 %, alpha 0.05 two-sided, power 0.8: 1,565
    # per arm (statsmodels' arcsine version gives 1,562)
    assert online.ab_users_needed(0.50, 0.55) in (2 * 1564, 2 * 1565)
    assert online.ab_users_needed(0.1, 0.1) is None
    assert online.ab_users_needed(0.1, 0.2) < online.ab_users_needed(0.1, 0.15)


@pytest.mark.parametrize("kind,rates,n", [
    ("ab", (0.30, 0.33), online.ab_users_needed(0.30, 0.33)),
    ("interleaving", (0.30, 0.25), online.interleaving_users_needed(0.30, 0.25))])
def test_users_needed_give_80_percent_in_simulated_experiments(kind, rates, n):
    o = online.simulate_experiments(kind, n, rate_a=rates[0], rate_b=rates[1],
                                    experiments=2000, rng=9)
    assert 0.76 < o.found < 0.84
    assert o.wrong_way < 0.05


def test_no_difference_false_alarms_at_the_level():
    o = online.simulate_experiments("ab", 2000, rate_a=0.4, rate_b=0.4, experiments=3000, rng=1)
    assert o.found < 0.07 and o.wrong_way == 0


def test_sign_test_against_scipy():
    from scipy.stats import binomtest
    for w, l in ((60, 40), (7, 1), (0, 5), (12, 12)):
        assert math.isclose(online.sign_test(w, l), binomtest(w, w + l).pvalue, rel_tol=1e-9)


def test_compare_online_is_reproducible_and_says_its_numbers():
    g = {"x": 0, "y": 3, "z": 1, "w": 2}
    args = (list("xyzw"), list("yxzw"), g, 3)
    one = online.compare_online(*args, users=400, experiments=200)
    two = online.compare_online(*args, users=400, experiments=200)
    assert one.ab_at_users == two.ab_at_users and one.interleaving_at_needed == \
        two.interleaving_at_needed
    claims = online.online_claims(one, "A", "B", "NDCG@4")
    assert f"about {one.ab_needed:,} users" in claims["ab"]
    assert f"about {one.interleaving_needed:,} users" in claims["stakeholder"]
    assert "not a forecast" in claims["stakeholder"]


def test_identical_rankings_need_no_number_of_users():
    g = {"x": 0, "y": 3}
    r = online.compare_online(["x", "y"], ["x", "y"], g, 3, users=100, experiments=50)
    assert r.ab_needed is None and r.interleaving_needed is None
    assert "no experiment size" in online.online_claims(r)["stakeholder"]
