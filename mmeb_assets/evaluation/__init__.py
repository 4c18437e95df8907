"""Stage: evaluation (the paper's "Experimental Setup", "Answer Generation", "Answer Evaluation",
Tables 5-7).

- `registry.py`   config/models.yaml: the paper's 10 models, SmolLM2 (offline) and three readers.
- `prompting.py`  records ordered by timestamp / stored order / id, stored text, images, "Question:".
- `answering.py`  answers of one model at one k (readers, transformers, vLLM, served endpoints).
- `readers.py`    diagnostic readers (latest / first mention, oracle evidence) for shortcut audits.
- `judge.py`      deterministic judge and LLM-as-judge (JSON-encoded untrusted fields).
- `judging.py`    judgments of one model at one k, agreement when both judges run.
- `report.py`, `render.py`, `leaderboard.py`  Tables 5-7 with bootstrap 95% intervals; md/CSV/PNG.
- `assets.py`, `checks.py`, `defs.py`, `cli.py` (`mmeb report`).
"""
