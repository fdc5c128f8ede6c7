"""The crawl: the extraction the leaderboard chose, run over a whole crawl on datatrove (local, Slurm, Ray), and
the crawl's least certain pages brought back as a batch to annotate.

`pins` (what a pipeline's configuration pins and the check of it against what is installed), `routing` (a page's
type from its facts), `choice` (the configuration from the leaderboard), `step` (the datatrove step), `warc`
(datatrove's WARC reader decoding as Goldtext does), `pipeline` (the runnable script and its configuration),
`output` (reading a run's documents and stats), `sample` (the stratified sample), `report` (the run's report and
card). Everything but `choice` runs without an app: the pipeline imports it on every node of the crawl.
"""
