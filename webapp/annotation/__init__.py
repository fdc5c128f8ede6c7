"""Annotation: gold saves and revisions, the annotator's queue, and the extractors' disagreement that
orders it. Services take a session and never commit."""
