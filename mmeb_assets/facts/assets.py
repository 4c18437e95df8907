"""Dagster asset of the facts stage: `source_facts` (SourceDocument -> SourceFacts).

It reads what ingestion wrote (`seed_document`) and nothing of ingestion reads it back, so the
arrow runs ingestion -> facts. The key, group (`ingestion`, as before the move, so the UI's lineage
and existing runs keep their place), partitions and IO manager are those the asset always had.
"""

import dagster as dg

from mmeb_assets.facts.attach import attach_facts
from mmeb_assets.facts.repairs import drop_unverified_claims
from mmeb_assets.facts.source_facts import extract_source_facts
from mmeb_assets.manifests import load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import code_version
from mmeb_assets.schema.source import SourceDocument, SourceFacts
from mmeb_assets.seedgen.demo_seeds import generated_figure_hints
from mmeb_assets.versioning import versioned
from mmeb_resources.llm import LLMResource

# Hashes `ingestion` as before the move, plus `facts`, where the asset's own code now lives: a hash of
# ingestion alone would no longer see a change to the asset, so a stale partition would look fresh.
SOURCE_FACTS_CODE_VERSION = code_version("ingestion", "facts")


def _metadata(facts: SourceFacts) -> dict:
    """What the UI shows of one partition: counts per kind, non-facts per reason, a preview."""
    textual = facts.textual
    return {
        "generator": facts.provenance.generator, "method_name": textual.method_name,
        "claims": len(textual.claims), "config_facts": len(textual.config_facts),
        "components": len(textual.components), "figures_described": len(facts.visual),
        "repairs": len(facts.provenance.repairs),
        "image_only_facts": sum(len(v.image_only_facts) for v in facts.visual),
        "facts": len(facts.facts), "statements": len(facts.statements),
        "statement_preview": dg.MetadataValue.md("\n".join(
            f"- p{st.page} {st.subject} ({st.aspect}): {st.stated}" for st in facts.statements[:8]) or "none"),
        **{f"non_facts_{n.reason}": n.count for n in facts.non_facts},
        "non_fact_examples": dg.MetadataValue.md("\n".join(
            f"- **{n.reason}** ({n.count}): " + "; ".join(n.examples[:3]) for n in facts.non_facts) or "none"),
        "preview": dg.MetadataValue.md("\n".join(
            [f"**{textual.method_name}**: {textual.one_sentence}", ""]
            + [f"- {c.label}: {', '.join(c.value_strings)}" for c in textual.claims[:8]])),
    }


@dg.asset(partitions_def=seed_partitions_def, code_version=SOURCE_FACTS_CODE_VERSION, group_name="ingestion",
          kinds={"python"})
def source_facts(context: dg.AssetExecutionContext, seed_document: SourceDocument, llm: LLMResource) -> dg.MaterializeResult[SourceFacts]:
    """Textual and visual extraction (paper: Source Information Extraction); rules twin when offline."""
    entry = load_manifest().seed(context.partition_key)
    hints = generated_figure_hints(entry)
    facts = drop_unverified_claims(extract_source_facts(seed_document, llm, domain=entry.domain, figure_hints=hints),
                                   seed_document)
    facts = attach_facts(facts, seed_document)
    return versioned(facts, _metadata(facts))
