// Follow a background job: fetch its progress JSON every second until it says it has finished,
// backing off while the server cannot be reached.
const POLL_MS = 1000;

export function followProgress(url, show) {
  async function poll() {
    let progress;
    try {
      progress = await (await fetch(url, { credentials: "same-origin" })).json();
    } catch {
      setTimeout(poll, POLL_MS * 3);
      return;
    }
    show(progress);
    if (!progress.finished) setTimeout(poll, POLL_MS);
  }
  poll();
}
