// The import report: follow the background extraction's progress until it has finished.
import { followProgress } from "./progress.js";

const bar = document.getElementById("extraction-bar");
const text = document.getElementById("extraction-text");

followProgress(document.getElementById("extraction").dataset.progress, (progress) => {
  if (progress.total) {
    bar.max = progress.total;
    bar.value = progress.done;
    text.textContent = `${progress.done} / ${progress.total} extractions${progress.errors ? `, ${progress.errors} errors` : ""}`;
  } else {
    text.textContent = `${progress.done} extractions stored`;
  }
  if (progress.failure) text.textContent += ` — stopped: ${progress.failure}`;
  else if (progress.finished) text.textContent += " — finished";
});
