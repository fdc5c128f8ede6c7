"""One job system for every long task: extraction runs, browser uploads, exports, metric refreshes.

A job is a row (`models.Job`) split into chunks (`models.JobChunk`). The database holds all of a job's
state, so any web process can show its progress and any worker can take over its chunks; the broker
(Huey: an SQLite file in the instance folder by default, Redis with `BROKER_URL`) only carries "run
chunk N" messages to the workers.

A worker runs a chunk under a lease that its heartbeat renews (`leases`). A worker killed mid-chunk
stops renewing; when the lease expires the reaper hands the chunk to another worker, which computes only
what is still missing. A message is therefore only a wake-up call: running the same chunk twice, or a
chunk that is already done, does nothing.

Modules: `records` (job rows and the one way to make one, `create_job`; progress, cancel, stalled), `leases`
(claims, heartbeats, the reaper), `broker` (the Huey adapter), `start` (dispatching a job after its commit),
`context` (what a step is given and returns), one module per kind of step (`extraction_steps`, `upload_step`,
`export_step`, `refresh_step`, `check_step`, named in `steps.STEPS`), `files` (uploads and export archives
kept in the database), `runner` (running one chunk), `workers` (the `goldtext worker` consumer and the
embedded one), `outages` (which errors mean the database or the broker is out: the chunk is handed back, the
job does not fail), `health` (what `/health` checks) and `lifeline` (the embedded worker of `goldtext serve`
dies with it, and runs once per instance).
"""
