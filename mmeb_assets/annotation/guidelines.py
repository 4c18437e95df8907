"""The annotators' guidelines page (`/guidelines`), linked from every item: what each criterion asks,
the good answer of each (always the first choice), what to do when no evidence is cited, the keys."""
from __future__ import annotations

from mmeb_assets.annotation.views import KEY_HINT, page

GUIDELINES = f"""
<header><span><b>Guidelines</b></span><nav><a href='/'>annotators</a></nav></header>
<main class='guidelines'>
<p>Each item is a question the benchmark asks, its reference answer and the records it cites. Judge the
item, not the system that wrote it. You do not see the automatic validation's decision. For each
criterion the first choice is the good one: an item that passes all three gets "Yes" three times.</p>
<h2>C1: Can the reference answer be derived using only the cited evidence?</h2>
<p>Read the cited records (open by default; images open full size in a new tab). "Yes" when a careful
reader would reach the reference answer from them alone, with arithmetic where the question asks for it.
"No" when a record is missing, contradicts the answer, or the answer needs a guess. "Cannot judge" when
the records cannot be read (a broken image) or the question cannot be understood.</p>
<p><b>No evidence cited.</b> Questions whose reference says the records do not establish the answer
cite nothing. Search the records on the right for what the question asks: "Yes" when nothing there
answers it, "No" when a record does.</p>
<h2>C2: Is the reference answer correct for what the question asks?</h2>
<p>Right value, right unit and scale, right person or document, current where the question asks for
the current value, complete where it asks for a list or a history.</p>
<h2>C3: Does the question keep the requested answer out of its own text?</h2>
<p>"No, the question gives it away" when the question states the value or name it asks for. Values the
question sets as its premise, values it asks about (a figure to verify) and run ids are not a leak.</p>
<h2>Saving, skipping, drafts</h2>
<p>{KEY_HINT}. "Save and next" saves and opens your next unjudged item; "next" and "k" skip without
saving. Choices you make are kept in this browser until saved: a reload, a crash or a save refused
because someone changed the item meanwhile restores them, and the saved revision is shown above the
form beside them. Leaving an item with unsaved choices asks first.</p>
</main>"""


def guidelines_page() -> str:
    return page("Guidelines", GUIDELINES)
