"""Stage: records. SourceFacts + Organization + EventPlan -> a RecordSet of Slack, e-mail, Notion,
meeting, TXT/LOG, PDF-page, slide and image records (`projects/<seed>/records.jsonl`)."""
from mmeb_assets.records.checks import all_findings
from mmeb_assets.records.render import RecordsInputError, render_records
from mmeb_assets.records.stats import WorkspaceStats, workspace_stats

__all__ = ["render_records", "RecordsInputError", "all_findings", "workspace_stats", "WorkspaceStats"]
