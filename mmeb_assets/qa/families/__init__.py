"""Rule-based question families: each module turns plan facts + located records into draft items."""
