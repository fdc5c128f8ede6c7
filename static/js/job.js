// A job's progress on its page (and on an import's report): the bar, the counts, a stalled job's
// reason or what a worker is busy with, and what the finished job offers (an export's download; an import's report, by reloading).
import { describeJob, followProgress } from "./progress.js";

const box = document.getElementById("job");
const bar = box.querySelector("progress");
const text = box.querySelector(".job-text");
const stalled = box.querySelector(".job-stalled");
const busy = box.querySelector(".job-busy");
const download = document.getElementById("job-download");
// An import's report rendered before its import finished waits for the stage named here: once the job is
// past it (or finished), the page reloads to show what was imported. It is rendered only while the job is
// queued or in that stage, so the reloaded page does not reload again; the stages in between may be too
// quick for any poll to see.
const waitingFor = box.dataset.reloadAfter;
let reloading = false;

followProgress(box.dataset.progress, (job) => {
  bar.max = job.total || 1;
  bar.value = job.total ? job.done : 0;
  if (job.total === null && !job.finished) bar.removeAttribute("value");
  text.textContent = describeJob(job);
  box.dataset.status = job.status;
  stalled.hidden = !job.stalled;
  stalled.textContent = job.stalled ? `Stalled: ${job.stalled}` : "";
  busy.hidden = !job.busy || Boolean(job.stalled);
  busy.textContent = busy.hidden ? "" : `Busy: ${job.busy}`;
  if (download) download.hidden = job.status !== "done";
  if (waitingFor && !reloading && (job.finished || !["", waitingFor].includes(job.stage))) {
    reloading = true;
    window.location.reload();
  }
});
