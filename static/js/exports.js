// An export's page: follow the background job's progress, then offer the download.
import { followProgress } from "./progress.js";

const bar = document.getElementById("export-bar");
const text = document.getElementById("export-text");
const link = document.getElementById("export-download");

followProgress(document.getElementById("export").dataset.progress, (progress) => {
  bar.max = progress.total || 1;
  bar.value = progress.done;
  text.textContent = `${progress.done} / ${progress.total ?? "?"} pages`;
  if (progress.failure) text.textContent += ` — failed: ${progress.failure}`;
  else if (progress.ready) text.textContent += " — ready";
  link.hidden = !progress.ready;
});
