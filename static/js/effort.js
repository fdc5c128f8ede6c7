// The effort of a page, sent with each save (webapp/annotation/effort_record.py checks it): the active time
// and the actions since the page was opened or last saved.
//
// Active time: the time between two events of the page (focus, a key, the mouse, a scroll, an input) when
// they are at most `idleSeconds` apart; a longer gap counts nothing, nor does the time after the page was
// hidden or lost the focus, until the next event. Actions: counts by name (block, range, widen, take, …),
// and the words typed and deleted and the lines deleted by typing, from the text as typing left it
// (`textChanges`) against the text as the last tool (a block click, a take, an undo) or save left it.
import { diff } from "./worddiff.js";

// The words of some lines; a word: a run of non-space characters.
const wordsOf = (lines) => lines.join(" ").match(/\S+/g) ?? [];

// What typing did between two texts: {typed_words, deleted_words, line_deletions}. Lines are matched in
// order; a changed region that only removes lines counts each non-blank one as a line deletion, any other
// changed region counts the words added and removed in it (by a word diff of its lines).
export function textChanges(before, after) {
  const counts = { typed_words: 0, deleted_words: 0, line_deletions: 0 };
  if (before === after) return counts;
  const ops = diff(before.split("\n"), after.split("\n"));
  for (let i = 0; i < ops.length;) {
    if (ops[i].op === "=") { i++; continue; }
    const removed = [], added = [];
    for (; i < ops.length && ops[i].op !== "="; i++) (ops[i].op === "-" ? removed : added).push(...ops[i].items);
    if (!added.some((line) => line.trim())) {
      counts.line_deletions += removed.filter((line) => line.trim()).length;
      continue;
    }
    for (const run of diff(wordsOf(removed), wordsOf(added))) {
      if (run.op === "+") counts.typed_words += run.items.length;
      if (run.op === "-") counts.deleted_words += run.items.length;
    }
  }
  return counts;
}

// A counter of one page's effort. `clock()` gives milliseconds (performance.now() in a browser), `text`
// the editor's text when the page opened.
export function effortCounter({ idleSeconds, text = "", clock = () => performance.now() }) {
  const idle = idleSeconds * 1000;
  let spent = 0; // milliseconds counted
  let last = null; // the time of the last event, null while paused (hidden, unfocused)
  let base = text; // the text as the last tool or save left it: typing is measured from it
  let actions = {};
  const span = (t) => (last !== null && t - last >= 0 && t - last <= idle ? t - last : 0);
  const add = (name, n) => { if (n > 0) actions[name] = (actions[name] ?? 0) + n; };

  // The text as typing left it: what changed since `base` counts as typed and deleted words and lines.
  const typed = (now) => {
    for (const [name, n] of Object.entries(textChanges(base, now))) add(name, n);
    base = now;
  };

  return {
    // An event of the page (a key, the mouse, a scroll, an input, the focus back).
    active(t = clock()) { spent += span(t); last = t; },
    // The page hidden or unfocused: the time since the last event counts (if not idle), then none.
    pause(t = clock()) { spent += span(t); last = null; },
    // Active seconds so far, as the next save would record them.
    seconds(t = clock()) { return (spent + span(t)) / 1000; },
    count(name, n = 1) { add(name, n); },
    // An action taken back before it counted for anything (a double click's first click, see blocks.js).
    uncount(name) {
      if (actions[name] > 1) actions[name] -= 1;
      else delete actions[name];
    },
    typed,
    // The text as a tool left it (a take, a click, an undo, another's text kept): not typing.
    replaced(now) { base = now; },
    // A tool's change: the typing before it counts, the change itself does not.
    tool(now, change) {
      typed(now());
      change();
      base = now();
    },
    // The effort to send with a save of `now` (the editor's text): {active_seconds, actions}.
    snapshot(now, t = clock()) {
      typed(now);
      spent += span(t);
      if (last !== null) last = t;
      return { active_seconds: Math.round(spent / 100) / 10, actions: { ...actions } };
    },
    // Take on an unsaved effort kept with a draft (a snapshot) by an earlier visit of the page; only the
    // `known` actions' counts, so that a stale or damaged draft never makes a save refused.
    resume(kept, known) {
      const seconds = Number(kept?.active_seconds);
      if (seconds > 0 && seconds <= 86400) spent += seconds * 1000;
      for (const [name, n] of Object.entries(kept?.actions ?? {})) {
        if (known.includes(name) && Number.isInteger(n) && n > 0 && n <= 1e6) add(name, n);
      }
    },
    // A save recorded `sent` (a snapshot): what came after it is the next save's.
    recorded(sent) {
      spent = Math.max(0, spent - sent.active_seconds * 1000);
      const left = {};
      for (const [name, n] of Object.entries(actions)) {
        if (n - (sent.actions[name] ?? 0) > 0) left[name] = n - (sent.actions[name] ?? 0);
      }
      actions = left;
    },
  };
}

// Feed a counter the events of a window's document (and of documents added later with `watch`): keys, the
// mouse, scrolls, inputs and the focus are activity; the page hidden, or the focus gone out of the window
// (not into one of its frames), pauses it. `on(target, type, listener, capture)` adds a listener (the
// annotate view passes blocks.js's, which a saved page cannot clobber).
const ACTIVITY = ["keydown", "pointerdown", "pointermove", "wheel", "scroll", "input", "focus"];

export function trackActivity(counter, win = window, on = (target, ...args) => target.addEventListener(...args)) {
  const watch = (doc) => {
    for (const type of ACTIVITY) on(doc, type, () => counter.active(), { capture: true, passive: true });
  };
  watch(win.document);
  on(win, "focus", () => counter.active());
  on(win, "blur", () => setTimeout(() => { if (!win.document.hasFocus()) counter.pause(); }, 0));
  on(win.document, "visibilitychange", () => (win.document.hidden ? counter.pause() : counter.active()));
  if (win.document.hasFocus() && !win.document.hidden) counter.active();
  return { watch };
}

// Seconds as m:ss (or h:mm:ss).
export function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
