"""The results browser: a static site generated from a finished build (`mmeb view`, asset `results_view`).

It answers "why does this model score what it scores": leaderboard cells link to their slice of
questions, a question shows its gold evidence, every answer with its verdict, the retrievals, the seed
page the value came from and its lineage. The view reads what the other stages wrote under the data
home; nothing imports the view except the CLI and the Definitions.
"""
