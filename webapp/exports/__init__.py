"""Gold datasets out: the layouts the corpus readers read (round trip), a dataset card and checksums.

`service.run_export` streams the selected pages from the database into one writer per format (one
module each), then writes the card (README.md) and SHA256SUMS. No Flask here: the CLI command and the
browser's background job both call the service.
"""
