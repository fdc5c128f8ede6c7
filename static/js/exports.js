// An export's page: poll the background job's progress, then offer the download.
const box = document.getElementById("export");
const bar = document.getElementById("export-bar");
const text = document.getElementById("export-text");
const link = document.getElementById("export-download");
const POLL_MS = 1000;

async function poll() {
  let progress;
  try {
    progress = await (await fetch(box.dataset.progress, { credentials: "same-origin" })).json();
  } catch {
    setTimeout(poll, POLL_MS * 3);
    return;
  }
  bar.max = progress.total || 1;
  bar.value = progress.done;
  text.textContent = `${progress.done} / ${progress.total ?? "?"} pages`;
  if (progress.failure) text.textContent += ` — failed: ${progress.failure}`;
  else if (progress.ready) text.textContent += " — ready";
  link.hidden = !progress.ready;
  if (!progress.finished) setTimeout(poll, POLL_MS);
}

poll();
