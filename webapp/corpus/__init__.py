"""Corpus readers (folder, zip, WARC, JSONL, Readability test pages) and byte decoding."""
