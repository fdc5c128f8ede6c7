// The saved page beside the gold editor: its blocks highlighted where the gold has them (the gold's
// Markdown lines aligned to the page by their plain text, align.js and markdown_lines.js), a block clicked
// going into the gold as its structure at its place or its own line going out, Shift+click ranges, widened
// containers, the keyboard's block pointer (and the next block the gold lacks), and the site's repeated
// lines taken out. A table goes in whole from any of its rows, and out whole.
import { align, NONE, setBlocks, toggleBlock } from "./align.js";
import { attachBlocks, dom, normalise } from "./blocks.js";
import { apart, blockMarkdown, enclosingTable, plainLines, tableSpan, unitLength } from "./markdown_lines.js";
import { plural, short } from "./say.js";

// The gold's lines are Markdown: aligned to the page by their plain text, a block going in as its structure.
const MARKDOWN_LINES = { plain: plainLines, apart, unit: unitLength };

// `view`: the annotate view's shared parts (annotate.js); `onKey`: the view's key handler, for the frame.
export function pageBlocks(view, onKey) {
  const { data, $, editor, state, effort, text, notices } = view;
  const frame = $("frame");
  const pageTexts = () => state.frame?.texts ?? [];
  const markdownOfBlock = (index) => blockMarkdown(state.frame?.owners?.[index] ?? null, pageTexts()[index]);

  // The page's blocks the gold's lines are aligned to, computed once per text and pins (the highlight after
  // a change and the debounced one after it ask alike).
  let aligned = { text: null, pinned: null, texts: null, blocks: new Set() };
  function goldBlocks() {
    const texts = pageTexts();
    if (aligned.text !== editor.value || aligned.pinned !== state.pinned || aligned.texts !== texts) {
      const blocks = align(plainLines(text.lines()), texts, state.pinned).filter((block) => block !== NONE);
      aligned = { text: editor.value, pinned: state.pinned, texts, blocks: new Set(blocks) };
    }
    return aligned.blocks;
  }

  const highlight = () => state.frame?.highlight(goldBlocks());

  let lastChange = null; // {before, after, notice, pinned (before)} of the last change from the page or a candidate

  // One change to the gold from the page or a candidate: one undoable edit (Ctrl+Z), a notice with an undo
  // button, the editor scrolled to line `at` (its `count` lines selected); its new lines' origin is `origin`.
  function changeGold(next, at, count, message, pinnedBefore = state.pinned, origin = "block") {
    const offset = next.slice(0, at).reduce((sum, line) => sum + line.length + 1, 0);
    const end = offset + Math.max(0, next.slice(at, at + count).join("\n").length);
    const after = next.join("\n");
    const before = text.replaceFrom(origin, after, offset, end);
    const shown = notices.undoNotice(message, before, "page-change", () => text.replaceText(before));
    lastChange = { before, after, notice: shown, pinned: pinnedBefore };
    highlight();
  }

  // The action the last change from the page counted: a double click takes it back with the change.
  let pageCounted = null;
  function countPage(action) {
    effort.count(action);
    pageCounted = action;
  }

  // The first click of a double click changed the gold: the double click selects a word instead.
  function cancelLastChange() {
    if (!lastChange || editor.value !== lastChange.after) return;
    text.undoEdit("undo");
    if (editor.value !== lastChange.before) text.replaceText(lastChange.before);
    lastChange.notice.remove();
    state.pinned = lastChange.pinned;
    lastChange = null;
    if (pageCounted) effort.uncount(pageCounted); // selecting text is no action
    pageCounted = null;
    highlight();
  }

  // The indexes of the blocks (rows) of the table block `index` is in, or null when it is in none.
  function tableRows(index) {
    const owners = state.frame?.owners ?? [];
    const table = enclosingTable(owners[index] ?? null);
    if (!table) return null;
    return owners.flatMap((owner, k) => (owner && dom.contains(table, owner) ? [k] : []));
  }

  // A row of a table clicked: the whole table in at its place (as GFM, or as HTML when a cell spans), or the
  // whole table out when the gold has it.
  function toggleTable(index, rows) {
    const lines = text.lines(), texts = pageTexts(), before = state.pinned;
    const alignment = align(plainLines(lines), texts, before);
    const at = alignment.findIndex((block) => rows.includes(block));
    state.pinned = new Set(before);
    if (at !== NONE) {
      const [from, to] = tableSpan(lines, at) ?? [at, at + 1];
      let next = [...lines.slice(0, from), ...lines.slice(to)];
      if (from > 0 && !next[from - 1].trim() && (from >= next.length || !next[from].trim())) {
        next = [...next.slice(0, from - 1), ...next.slice(from)];
      }
      rows.forEach((row) => state.pinned.delete(row));
      changeGold(next, Math.min(from, next.length), 0, `Took out the table “${short(texts[index])}” from the gold.`, before);
      return;
    }
    const added = toggleBlock(lines, texts, rows[0], { pinned: before, text: markdownOfBlock(index), ...MARKDOWN_LINES });
    rows.forEach((row) => state.pinned.add(row));
    changeGold(added.lines, added.at, added.count, `Added the table “${short(texts[index])}” to the gold.`, before);
  }

  // A block clicked in the page: its own line goes out of the gold, or it goes in at its place.
  function toggleBlockLine(index) {
    countPage("block");
    const rows = tableRows(index);
    if (rows) { toggleTable(index, rows); return; }
    const texts = pageTexts();
    const before = state.pinned;
    const { lines, at, added, count } = toggleBlock(text.lines(), texts, index,
      { pinned: before, text: markdownOfBlock(index), ...MARKDOWN_LINES });
    state.pinned = new Set(before);
    if (added) state.pinned.add(index);
    else state.pinned.delete(index);
    changeGold(lines, at, added ? count : 0,
      added ? `Added “${short(texts[index])}” to the gold.` : `Took out “${short(texts[index])}” from the gold.`, before);
  }

  // Several blocks into the gold (`take`) or out of it at once (a Shift+click range, a container), as one
  // change; `what` names them in the notice.
  function setPageBlocks(indexes, take, what) {
    const texts = pageTexts(), lines = text.lines();
    const before = state.pinned;
    const { lines: next, changed, pinned } = setBlocks(lines, texts, indexes, take, before,
      { textOf: markdownOfBlock, ...MARKDOWN_LINES });
    state.pinned = pinned;
    if (!changed) {
      notices.notice(`Every block of ${what} is ${take ? "in" : "out of"} the gold already.`, null, "page-change");
      return;
    }
    const placed = align(plainLines(take ? next : lines), texts, state.pinned);
    const first = Math.max(0, placed.findIndex((block) => indexes.includes(block)));
    changeGold(next, first, take ? changed : 0,
      `${take ? "Added" : "Took out"} ${plural(changed, "block")} of ${what} ${take ? "to" : "from"} the gold.`, before);
  }

  const actions = {
    toggle: toggleBlockLine,
    range(from, to) {
      const [lo, hi] = from < to ? [from, to] : [to, from];
      const indexes = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
      countPage("range");
      setPageBlocks(indexes, !goldBlocks().has(to), "the range");
    },
    container(indexes) {
      const present = goldBlocks();
      countPage("block");
      setPageBlocks(indexes, !indexes.every((index) => present.has(index)), "the outlined container");
    },
    cancel: cancelLastChange,
  };

  // The keyboard's block pointer in the page: the next or previous block, or (`missing`) the next block the
  // gold lacks.
  function stepBlock(delta, missing = false) {
    const present = missing ? goldBlocks() : null;
    const found = state.frame?.step(delta, missing ? (index) => !present.has(index) : undefined);
    if (found !== undefined && found !== null) {
      view.setSaveState(`Block: “${short(found)}” (t takes it or takes it out).`);
    } else if (missing && state.frame) {
      view.setSaveState("No block after this one is missing from the gold.");
    }
  }

  function actOnPointed(range) {
    if (state.frame && !state.frame.actOnPointed(range)) {
      view.setSaveState("Point at a block first: move the mouse over it, or ] and [ to step through the page.", true);
    }
  }

  function widenBlock(outward) {
    if (!state.frame) return;
    const found = outward ? state.frame.widen() : state.frame.narrow();
    if (found && outward) effort.count("widen");
    if (found) view.setSaveState(`Outlined: a ${found.name} with ${plural(found.count, "block")} (click or t takes it; + wider, - narrower).`);
    else view.setSaveState(outward ? "No wider container: point at a block first, or this is the page's widest." : "Back to the block alone.");
  }

  // Every line of the gold that is repeated boilerplate on the page's site, out as one undoable edit.
  function dropRepeated() {
    const repeated = new Set(data.boilerplate || []);
    const lines = editor.value.split("\n"), plain = plainLines(lines);
    const kept = lines.filter((line, k) => !repeated.has(plain[k] || normalise(line)));
    const dropped = lines.length - kept.length;
    if (!dropped) {
      notices.notice("No line of the gold is repeated boilerplate on this site.", null, "page-change");
      return;
    }
    const before = text.replaceText(kept.join("\n"));
    effort.count("drop_boilerplate");
    notices.undoNotice(`Took out ${dropped} line${dropped === 1 ? "" : "s"} repeated on this site's pages.`, before,
      "page-change", () => text.replaceText(before));
  }

  const wired = new WeakSet();
  function setup() {
    const doc = frame.contentDocument;
    if (frame.dataset.mode === "source" || !doc || dom.url(doc) === "about:blank" || wired.has(doc)) return;
    wired.add(doc);
    dom.on(doc, "keydown", onKey);
    view.activity.watch(doc);
    view.onFrameDocument(doc);
    state.frame = attachBlocks(doc, actions, data.blocks);
    state.frame.markRepeated(data.boilerplate || []);
    highlight();
  }

  frame.addEventListener("load", () => {
    state.frame = null;
    setup();
  });

  function showFrame(mode) {
    frame.dataset.mode = mode;
    frame.src = mode === "source" ? frame.dataset.source : frame.dataset.raw;
    $("show-rendered").setAttribute("aria-pressed", String(mode !== "source"));
    $("show-source").setAttribute("aria-pressed", String(mode === "source"));
  }
  $("show-rendered").addEventListener("click", () => showFrame("raw"));
  $("show-source").addEventListener("click", () => showFrame("source"));

  // Wire the page if it loaded before this script ran.
  function start() {
    const loaded = frame.contentDocument;
    if (loaded && dom.readyState(loaded) === "complete") setup();
  }

  return { frame, pageTexts, goldBlocks, highlight, changeGold, stepBlock, actOnPointed, widenBlock, dropRepeated, start };
}
