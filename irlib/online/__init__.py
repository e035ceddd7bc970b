"""Online evaluation, simulated: click models, interleaving and A/B tests.

The same user a metric models (who reads down a ranking and stops) can click: this package
turns judged rankings into simulated clicks (:mod:`.clicks`), mixes two rankings for one
user (:mod:`.interleaving`), and asks how many users an A/B test or an interleaving needs to
tell two rankings apart (:mod:`.experiments`, :mod:`.compare`). Every random draw takes a
seed; nothing here imports Streamlit.
"""
from irlib.online.clicks import (MODEL_NAMES, MODELS, any_click_probability, attractiveness,
                                 click_probabilities, clicks_by_rank, examination,
                                 simulate_clicks)
from irlib.online.compare import (OnlineComparison, Setting, compare_online, online_claims,
                                  position_bias_claim, simulate_one_day)
from irlib.online.experiments import (Outcomes, ab_test, ab_users_needed,
                                      interleaving_users_needed, power_curve, sign_test,
                                      simulate_experiments)
from irlib.online.interleaving import (METHOD_NAMES, METHODS, Shown, Votes, credit, outcomes,
                                       simulate_votes, team_draft, vote_probabilities)

__all__ = [
    "MODELS", "MODEL_NAMES", "attractiveness", "examination", "click_probabilities",
    "any_click_probability", "simulate_clicks", "clicks_by_rank",
    "METHODS", "METHOD_NAMES", "Shown", "Votes", "team_draft", "outcomes", "credit",
    "vote_probabilities", "simulate_votes",
    "Outcomes", "ab_users_needed", "interleaving_users_needed", "ab_test", "sign_test",
    "simulate_experiments", "power_curve",
    "Setting", "OnlineComparison", "compare_online", "simulate_one_day", "online_claims",
    "position_bias_claim",
]
