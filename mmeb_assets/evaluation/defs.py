"""Dagster definitions of the evaluation stage (assets, checks, jobs)."""
import dagster as dg

from mmeb_assets.evaluation.assets import answers, judgments, leaderboard
from mmeb_assets.evaluation.checks import answers_cover_sample, judgments_cover_answers

defs = dg.Definitions(assets=[answers, judgments, leaderboard],
                      asset_checks=[answers_cover_sample, judgments_cover_answers])
