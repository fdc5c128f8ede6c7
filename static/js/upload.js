// The import report: poll the background extraction's progress until it has finished.
const box = document.getElementById("extraction");
const bar = document.getElementById("extraction-bar");
const text = document.getElementById("extraction-text");
const POLL_MS = 1000;

async function poll() {
  let progress;
  try {
    progress = await (await fetch(box.dataset.progress, { credentials: "same-origin" })).json();
  } catch {
    setTimeout(poll, POLL_MS * 3);
    return;
  }
  if (progress.total) {
    bar.max = progress.total;
    bar.value = progress.done;
    text.textContent = `${progress.done} / ${progress.total} extractions${progress.errors ? `, ${progress.errors} errors` : ""}`;
  } else {
    text.textContent = `${progress.done} extractions stored`;
  }
  if (progress.failure) text.textContent += ` — stopped: ${progress.failure}`;
  else if (progress.finished) text.textContent += " — finished";
  if (!progress.finished) setTimeout(poll, POLL_MS);
}

poll();
