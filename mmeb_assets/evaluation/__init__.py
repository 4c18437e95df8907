"""Stage: evaluation (the paper's "Experimental Setup", "Answer Generation", "Answer Evaluation",
Tables 5-7).

- the model registry (config/models.yaml) is `mmeb_resources/model_registry.py`, which partitions read.
- `prompting.py`  records ordered by timestamp / stored order / id, stored text, images, "Question:".
- `answering.py`  answers of one model at one k (readers, transformers, vLLM, served endpoints).
- the judge and the diagnostic readers live in `mmeb_assets/judge/`, shared with QA validation.
- `judging.py`    judgments of one model at one k, agreement when both judges run.
- `report.py`, `render.py`, `leaderboard.py`  Tables 5-7 with bootstrap 95% intervals; md/CSV/PNG.
- `assets.py`, `checks.py`, `defs.py`, `cli.py` (`mmeb report`).
"""
