"""Load the project's Definitions and build one seed's first stages through them, recording every
warning on the way (helper of tests/test_dagster_warnings.py, run in a fresh interpreter so that the
decorators run again: in the test process other tests have already imported the stage modules).

Prints one JSON list of {category, message, filename, lineno}. Usage: python warnings_probe.py SEED
"""
from __future__ import annotations

import json
import sys
import warnings

STAGES = ("seed_document", "source_facts", "organization", "event_plan", "records")


def build_one_seed(seed: str) -> bool:
    """`mmeb build` of seed_document to records (with their checks) for `seed`, through the project's
    Definitions as `mmeb` and `dagster dev` load them, on an ephemeral instance, in this process; the
    build runs the source sensors first. True when every run succeeded (a failed blocking check fails its run)."""
    import dagster as dg

    from mmeb_assets.build.orchestrate import build_all
    from mmeb_assets.definitions import defs

    definitions = defs()
    definitions.resolve_all_job_defs()  # what loading the code location does
    report = build_all(partitions=[seed], selection=list(STAGES), definitions=definitions,
                       instance=dg.DagsterInstance.ephemeral(), log=lambda line: print(line, file=sys.stderr))
    ran = {name for o in report.outcomes for name in o.assets}
    return bool(report.outcomes) and all(o.ok for o in report.outcomes) and ran >= set(STAGES)


def main(seed: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = build_one_seed(seed)
    print(json.dumps({"ok": ok, "warnings": [{"category": w.category.__name__, "message": str(w.message),
                                              "filename": w.filename, "lineno": w.lineno} for w in caught]}))


if __name__ == "__main__":
    main(sys.argv[1])
