// Polling that respects the reader: `poller` calls `tick` every interval until it answers false,
// pauses while the tab is hidden (and polls at once when it shows again), and waits three intervals
// after a network failure. `followProgress` follows a job's JSON until the job has finished or is
// unknown (404: nothing more will change).
export const POLL_MS = 1000;

export function poller(tick, { interval = POLL_MS, doc = globalThis.document } = {}) {
  let timer = null;
  let stopped = false;
  let running = false;

  function hidden() {
    return doc ? doc.visibilityState === "hidden" : false;
  }

  function schedule(delay) {
    clearTimeout(timer);
    timer = null;
    if (!stopped && !hidden()) timer = setTimeout(run, delay);
  }

  async function run() {
    if (stopped || running) return;
    running = true;
    let next;
    try {
      next = await tick();
    } catch {
      next = "retry";
    }
    running = false;
    if (next === false) stop();
    else schedule(next === "retry" ? interval * 3 : interval);
  }

  function onVisibility() {
    if (hidden()) {
      clearTimeout(timer);
      timer = null;
    } else if (!stopped && timer === null) {
      run();
    }
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    doc?.removeEventListener("visibilitychange", onVisibility);
  }

  doc?.addEventListener("visibilitychange", onVisibility);
  if (!hidden()) run();
  return { stop, get stopped() { return stopped; } };
}

export function followProgress(url, show, options = {}) {
  const fetcher = options.fetch ?? globalThis.fetch;
  return poller(async () => {
    const response = await fetcher(url, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 404) {
      show({ unknown: true, finished: true, status: "unknown", done: 0, total: null });
      return false;
    }
    if (!response.ok) return "retry";
    const progress = await response.json();
    show(progress);
    return !progress.finished;
  }, options);
}

export function describeJob(job) {
  if (job.unknown) return "This job is not known to the server (it may have been removed).";
  const result = job.result ?? {};
  if (job.status === "done" && result.extracted !== undefined) {
    const errors = result.errors ? `, ${result.errors} errors` : "";
    return `done: ${result.extracted} extractions${errors}; scores cached for ${result.measured} pages`;
  }
  const count = job.total === null || job.total === undefined ? `${job.done}` : `${job.done} / ${job.total}`;
  let text = `${job.status}${job.stage ? `, ${job.stage}` : ""}: ${count}`;
  if (job.errors) text += `, ${job.errors} errors`;
  if (job.error) text += ` — ${job.error}`;
  return text;
}
