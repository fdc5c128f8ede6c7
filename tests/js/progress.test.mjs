// Unit tests of static/js/progress.js with node:test: a fake clock (mock.timers), a fake document (an
// EventTarget with a visibilityState) and a fake fetch. Run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeJob, followProgress, poller } from "../../static/js/progress.js";

const INTERVAL = 100;
const URL = "/api/jobs/7";

class FakeDocument extends EventTarget {
  constructor(visibilityState = "visible") {
    super();
    this.visibilityState = visibilityState;
    this.listeners = 0;
  }

  addEventListener(...args) {
    this.listeners += 1;
    super.addEventListener(...args);
  }

  removeEventListener(...args) {
    this.listeners -= 1;
    super.removeEventListener(...args);
  }

  show(state) {
    this.visibilityState = state;
    this.dispatchEvent(new Event("visibilitychange"));
  }
}

// Let every pending promise callback run (setImmediate is not faked: only setTimeout is).
const settle = () => new Promise((resolve) => setImmediate(resolve));

function fakeClock(t) {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  return async (ms) => {
    t.mock.timers.tick(ms);
    await settle();
  };
}

function json(body, status = 200) {
  return { status, ok: status >= 200 && status < 300, json: async () => body };
}

// A fake fetch answering from `answers` in turn (the last one repeats); a function answer is called.
function fakeFetch(answers) {
  const calls = [];
  const fetch = async (url, options) => {
    calls.push({ url, options });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    return typeof answer === "function" ? answer() : answer;
  };
  return { fetch, calls };
}

function counter(answer = true) {
  const tick = async () => {
    tick.calls += 1;
    return typeof answer === "function" ? answer(tick.calls) : answer;
  };
  tick.calls = 0;
  return tick;
}

test("followProgress polls every interval and stops once the job has finished", async (t) => {
  const advance = fakeClock(t);
  const doc = new FakeDocument();
  const running = { status: "running", done: 1, total: 3, finished: false };
  const finished = { status: "done", done: 3, total: 3, finished: true };
  const { fetch, calls } = fakeFetch([json(running), json(running), json(finished)]);
  const shown = [];
  const handle = followProgress(URL, (p) => shown.push(p), { fetch, interval: INTERVAL, doc });

  await settle();
  assert.equal(calls.length, 1, "the first poll is made at once");
  assert.equal(calls[0].url, URL);
  assert.equal(calls[0].options.credentials, "same-origin");
  await advance(INTERVAL - 1);
  assert.equal(calls.length, 1, "no poll before an interval has passed");
  await advance(1);
  assert.equal(calls.length, 2);
  await advance(INTERVAL);
  assert.equal(calls.length, 3);
  assert.deepEqual(shown, [running, running, finished]);
  assert.equal(handle.stopped, true);
  assert.equal(doc.listeners, 0, "a stopped poller no longer listens to the document");

  await advance(INTERVAL * 20);
  doc.show("hidden");
  doc.show("visible");
  await settle();
  assert.equal(calls.length, 3, "no poll after the job finished");
  assert.equal(shown.length, 3);
});

test("followProgress stops on a 404 after showing the job as unknown", async (t) => {
  const advance = fakeClock(t);
  const doc = new FakeDocument();
  const { fetch, calls } = fakeFetch([json({ error: "no such job" }, 404)]);
  const shown = [];
  const handle = followProgress(URL, (p) => shown.push(p), { fetch, interval: INTERVAL, doc });

  await settle();
  assert.equal(calls.length, 1);
  assert.equal(shown.length, 1);
  assert.equal(shown[0].unknown, true);
  assert.equal(shown[0].finished, true);
  assert.equal(handle.stopped, true);
  assert.equal(doc.listeners, 0);

  await advance(INTERVAL * 20);
  doc.show("hidden");
  doc.show("visible");
  await settle();
  assert.equal(calls.length, 1, "an unknown job is not polled again");
  assert.equal(shown.length, 1);
});

test("a tick answering true keeps the poller going, one tick per interval, until stopped", async (t) => {
  const advance = fakeClock(t);
  const tick = counter(true);
  const handle = poller(tick, { interval: INTERVAL, doc: new FakeDocument() });

  await settle();
  assert.equal(tick.calls, 1);
  for (let i = 2; i <= 6; i += 1) {
    await advance(INTERVAL);
    assert.equal(tick.calls, i);
  }
  assert.equal(handle.stopped, false);
  handle.stop();
  await advance(INTERVAL * 10);
  assert.equal(tick.calls, 6);
  assert.equal(handle.stopped, true);
});

test("a tick answering false stops the poller", async (t) => {
  const advance = fakeClock(t);
  const tick = counter((n) => n < 2);
  const handle = poller(tick, { interval: INTERVAL, doc: new FakeDocument() });

  await settle();
  await advance(INTERVAL);
  assert.equal(tick.calls, 2);
  assert.equal(handle.stopped, true);
  await advance(INTERVAL * 10);
  assert.equal(tick.calls, 2);
});

test("the poller pauses while the document is hidden and polls at once when it shows again", async (t) => {
  const advance = fakeClock(t);
  const doc = new FakeDocument();
  const tick = counter(true);
  poller(tick, { interval: INTERVAL, doc });

  await settle();
  await advance(INTERVAL);
  assert.equal(tick.calls, 2);

  doc.show("hidden");
  await advance(INTERVAL * 20);
  assert.equal(tick.calls, 2, "no tick while hidden");

  doc.show("visible");
  await settle();
  assert.equal(tick.calls, 3, "a tick at once when visible again, before any interval passes");
  await advance(INTERVAL - 1);
  assert.equal(tick.calls, 3);
  await advance(1);
  assert.equal(tick.calls, 4, "then one tick per interval again");
});

test("a poller started in a hidden document waits until it is shown", async (t) => {
  const advance = fakeClock(t);
  const doc = new FakeDocument("hidden");
  const tick = counter(true);
  poller(tick, { interval: INTERVAL, doc });

  await settle();
  await advance(INTERVAL * 20);
  assert.equal(tick.calls, 0);
  doc.show("visible");
  await settle();
  assert.equal(tick.calls, 1);
});

test("a document hidden during a tick schedules nothing until it shows again", async (t) => {
  const advance = fakeClock(t);
  const doc = new FakeDocument();
  let finish;
  let calls = 0;
  const tick = () => {
    calls += 1;
    return calls === 1 ? new Promise((resolve) => { finish = resolve; }) : Promise.resolve(true);
  };
  poller(tick, { interval: INTERVAL, doc });

  await settle();
  assert.equal(calls, 1);
  doc.show("hidden");
  finish(true);
  await settle();
  await advance(INTERVAL * 20);
  assert.equal(calls, 1, "the answer of a tick in flight does not restart polling while hidden");
  doc.show("visible");
  await settle();
  assert.equal(calls, 2);
});

test("after a network error (a thrown fetch) the next poll waits three intervals", async (t) => {
  const advance = fakeClock(t);
  const running = json({ status: "running", done: 1, total: null, finished: false });
  const { fetch, calls } = fakeFetch([
    () => { throw new TypeError("Failed to fetch"); },
    running,
  ]);
  const shown = [];
  const handle = followProgress(URL, (p) => shown.push(p), { fetch, interval: INTERVAL, doc: new FakeDocument() });

  await settle();
  assert.equal(calls.length, 1);
  assert.equal(shown.length, 0, "nothing is shown for a failed request");
  await advance(INTERVAL);
  await advance(INTERVAL);
  await advance(INTERVAL - 1);
  assert.equal(calls.length, 1, "no retry before three intervals");
  await advance(1);
  assert.equal(calls.length, 2, "a retry after three intervals");
  assert.equal(shown.length, 1);
  await advance(INTERVAL);
  assert.equal(calls.length, 3, "back to one interval once the server answers");
  assert.equal(handle.stopped, false);
});

test("a server error answer (not ok, not 404) also waits three intervals and shows nothing", async (t) => {
  const advance = fakeClock(t);
  const { fetch, calls } = fakeFetch([json({}, 503), json({ status: "done", done: 1, total: 1, finished: true })]);
  const shown = [];
  const handle = followProgress(URL, (p) => shown.push(p), { fetch, interval: INTERVAL, doc: new FakeDocument() });

  await settle();
  assert.equal(calls.length, 1);
  await advance(INTERVAL * 3 - 1);
  assert.equal(calls.length, 1);
  assert.equal(shown.length, 0);
  await advance(1);
  assert.equal(calls.length, 2);
  assert.equal(shown.length, 1);
  assert.equal(handle.stopped, true);
});

test("describeJob: a running job with a total", () => {
  assert.equal(describeJob({ status: "running", stage: "extracting", done: 3, total: 10 }),
    "running, extracting: 3 / 10");
  assert.equal(describeJob({ status: "running", done: 0, total: 10 }), "running: 0 / 10");
});

test("describeJob: a running job without a total", () => {
  assert.equal(describeJob({ status: "running", done: 42, total: null }), "running: 42");
  assert.equal(describeJob({ status: "queued", done: 0 }), "queued: 0");
});

test("describeJob: a job with errors", () => {
  assert.equal(describeJob({ status: "running", done: 5, total: 8, errors: 2 }), "running: 5 / 8, 2 errors");
  assert.equal(describeJob({ status: "running", done: 5, total: 8, errors: 0 }), "running: 5 / 8");
});

test("describeJob: a job with an error message", () => {
  assert.equal(describeJob({ status: "failed", done: 5, total: 8, error: "disk full" }), "failed: 5 / 8 — disk full");
  assert.equal(describeJob({ status: "failed", done: 5, total: 8, errors: 1, error: "disk full" }),
    "failed: 5 / 8, 1 errors — disk full");
});

test("describeJob: an unknown job", () => {
  assert.match(describeJob({ unknown: true, finished: true, status: "unknown", done: 0, total: null }), /not known/);
});

test("describeJob: a finished extraction says what it did, not its last stage's count", () => {
  const result = { extracted: 20, errors: 2, scores: 40, measured: 2 };
  assert.equal(describeJob({ status: "done", stage: "scoring", done: 2, total: 2, result }),
    "done: 20 extractions, 2 errors; scores cached for 2 pages");
  assert.equal(describeJob({ status: "done", stage: "scoring", done: 2, total: 2, result: { ...result, errors: 0 } }),
    "done: 20 extractions; scores cached for 2 pages");
  assert.equal(describeJob({ status: "done", stage: "exporting", done: 4, total: 4, result: { file: "x.zip" } }),
    "done, exporting: 4 / 4");
});
