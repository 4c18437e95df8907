"""Fact extraction: measured quantities a reader would quote, and the numbers kept out with a reason."""
