// A job's progress on its page (and on an import's report): the bar, the counts, a stalled job's
// reason, and what the finished job offers (an export's download; an import's report, by reloading).
import { describeJob, followProgress } from "./progress.js";

const box = document.getElementById("job");
const bar = box.querySelector("progress");
const text = box.querySelector(".job-text");
const stalled = box.querySelector(".job-stalled");
const download = document.getElementById("job-download");
let stage = box.dataset.stage;

followProgress(box.dataset.progress, (job) => {
  bar.max = job.total || 1;
  bar.value = job.total ? job.done : 0;
  if (job.total === null && !job.finished) bar.removeAttribute("value");
  text.textContent = describeJob(job);
  box.dataset.status = job.status;
  stalled.hidden = !job.stalled;
  stalled.textContent = job.stalled ? `Stalled: ${job.stalled}` : "";
  if (download) download.hidden = job.status !== "done";
  if (box.dataset.reloadAfter && stage === box.dataset.reloadAfter && job.stage !== stage) {
    window.location.reload();
  }
  stage = job.stage;
});
