"""Dagster definitions of the annotation stage: the judgments (an external asset and the sensor that
records their version), the human agreement table and its coverage check."""
import dagster as dg

from mmeb_assets.annotation.assets import (annotation_judgments, annotation_judgments_sensor, human_agreement,
                                           human_agreement_coverage)

defs = dg.Definitions(assets=[annotation_judgments, human_agreement], asset_checks=[human_agreement_coverage],
                      sensors=[annotation_judgments_sensor])
