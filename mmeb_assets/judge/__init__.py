"""The judge: one package that QA validation and evaluation both import, so a gold answer is checked
by the very rules that later score a model's answer.

- `rules.py`        the deterministic judge: each task judged by the structure of its gold (roles,
                    ordered histories, sets, choices, quantities with units, verdict polarity, abstentions).
- `llm.py`          the LLM-as-judge (JSON-encoded untrusted fields) and the rule set's provenance names.
- `answer_text.py`, `value_match.py`, `quantities.py` (pint), `number_words.py`, `roles.py`  what the
                    rules read an answer with.
- `readers.py`      the diagnostic readers (latest / first mention, oracle evidence): no model, the
                    shortcut audits of QA validation and the reader rows of Tables 5-7.

It imports only the schema, prompts and resources; the stages import it, never the reverse.
"""
