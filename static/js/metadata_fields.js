// The gold's title, authors and date above the gold text (templates/annotate/_metadata_fields.html): each field
// starts from the saved gold or its best candidate (webapp/annotation/metadata_prefill.py), shows every
// candidate's value beside it (a click or a key takes one), can be marked "none on the page", and is sent with
// the save with where each field came from (the provenance's `fields`). Each field is in one of three states:
// a value, none on the page (null), or not annotated (absent from the save).
//
// The annotate view calls this module twice: `metadataFields(help)` once at start (after its help dialog, whose
// table gains this module's keys) and `into(body)` on the body of each save. The rest it does itself: its keys,
// a draft of its fields in this browser (restored when the saved fields are still those it edited), an
// unsaved marker and a warning before leaving, the saved state once the view says "Saved version", and in a
// conflict the other save's fields beside these, each taken with a click ("Keep theirs" takes them all).
import { bindShortcuts, renderHelp } from "./keys.js";

export const NAMES = { title: "title", authors: "authors", published: "date" };
const SEPARATOR = ";";

// A field's value as the input shows it, and the input's text read back (authors split at ";").
export function shownValue(field, value) {
  if (value === null || value === undefined) return "";
  return field === "authors" ? value.join(`${SEPARATOR} `) : String(value);
}

export function readValue(field, text) {
  if (field === "authors") {
    const names = text.split(SEPARATOR).map((name) => name.trim().replace(/\s+/g, " ")).filter(Boolean);
    return names.length ? names : null;
  }
  const value = text.trim().replace(/\s+/g, " ");
  return value || null;
}

// The metadata of the fields' states: {field: value} for a value, {field: null} for none on the page, the
// field absent when not annotated (or its input emptied).
export function metadataOf(states) {
  const metadata = {};
  for (const [field, state] of Object.entries(states)) {
    if (state.kind === "none") metadata[field] = null;
    else if (state.kind === "value" && state.value !== null) metadata[field] = state.value;
  }
  return metadata;
}

export function originsOf(states) {
  const origins = {};
  for (const [field, state] of Object.entries(states)) {
    if (state.kind === "none") origins[field] = "none";
    else if (state.kind === "value" && state.value !== null) origins[field] = state.origin;
  }
  return origins;
}

// The state a field starts in from a metadata object and the origins of its fields.
export function startState(field, metadata, origins) {
  if (!(field in metadata)) return { kind: "unset", value: null, origin: null };
  if (metadata[field] === null) return { kind: "none", value: null, origin: "none" };
  return { kind: "value", value: metadata[field], origin: origins[field] || "gold" };
}

// The next candidate value of a field after the current one (cycling), or the first.
export function nextCandidate(values, current) {
  if (!values.length) return null;
  const at = values.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(current));
  return values[(at + 1) % values.length];
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const draftKey = (pageId) => `goldtext:metadata-draft:${pageId}`;

export function metadataFields(help) {
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("metadata-data").textContent);
  const pageId = JSON.parse($("page-data").textContent).pageId;
  const readOnly = $("editor").readOnly;
  const fields = data.fields;
  const states = Object.fromEntries(fields.map((f) => [f, startState(f, data.start, data.origins)]));
  const server = metadataOf(states); // the fields as the server has them (or the prefill, before any save)
  let saved = data.origins && Object.values(data.origins).every((o) => o === "gold") ? server : null;
  let sent = null; // the metadata of the save in flight
  let pointed = fields[0];

  function show(field) {
    const state = states[field];
    const input = $(`metadata-${field}`);
    if (document.activeElement !== input) input.value = shownValue(field, state.value);
    input.closest(".metadata-field").classList.toggle("is-none", state.kind === "none");
    input.placeholder = state.kind === "none" ? "none on the page" : input.dataset.placeholder ?? input.placeholder;
    const where = state.origin?.startsWith("candidate:") ? `from ${state.origin.slice(10)}`
      : { none: "none on the page", gold: "saved", typed: "typed" }[state.origin] ?? "";
    $(`metadata-${field}-state`).textContent = state.kind === "unset" ? "not annotated" : where;
    for (const button of $(`metadata-${field}-candidates`).children) {
      button.classList.toggle("chosen", state.kind !== "unset" && same(JSON.parse(button.dataset.value), state.kind === "none" ? null : state.value));
    }
    if (field === "published") {
      const on = state.kind === "value" ? data.shown[state.value] : null;
      $("metadata-published-shown").textContent = state.kind === "value" && state.value
        ? (on ? `on the page: “${on}” · stored: ${state.value}` : `stored: ${state.value} (not found in the page's text)`) : "";
    }
  }

  function showAll() {
    fields.forEach(show);
    document.querySelectorAll(".metadata-field").forEach((row) => row.classList.toggle("pointed", row.dataset.field === pointed));
    const unsaved = saved === null ? false : !same(metadataOf(states), saved);
    $("metadata-fields").dataset.unsaved = String(unsaved);
    storeDraft();
  }

  function set(field, state) {
    if (readOnly) return;
    states[field] = state;
    pointed = field;
    showAll();
  }

  const take = (field, candidate) => set(field, candidate.value === null
    ? { kind: "none", value: null, origin: "none" }
    : { kind: "value", value: candidate.value, origin: `candidate:${candidate.names[0]}` });

  for (const field of fields) {
    const input = $(`metadata-${field}`);
    input.dataset.placeholder = input.placeholder;
    input.addEventListener("input", () => {
      states[field] = { kind: "value", value: readValue(field, input.value), origin: "typed" };
      pointed = field;
      showAll();
    });
    input.addEventListener("focus", () => { pointed = field; showAll(); });
    input.addEventListener("blur", () => show(field));
    const box = $(`metadata-${field}-candidates`);
    for (const candidate of data.candidates[field]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "metadata-candidate";
      button.dataset.value = JSON.stringify(candidate.value);
      const text = candidate.value === null ? "none" : shownValue(field, candidate.value);
      button.textContent = `${candidate.names.join(", ")}: ${text}`;
      button.title = `take ${candidate.names.join(", ")}'s ${NAMES[field]}: ${text}`;
      button.disabled = readOnly;
      button.addEventListener("click", () => take(field, candidate));
      box.append(button);
    }
  }
  document.querySelectorAll(".metadata-none").forEach((button) => button.addEventListener("click", () => setNone(button.dataset.field)));

  function setNone(field) {
    set(field, { kind: "none", value: null, origin: "none" });
  }
  function takeNext(field) {
    pointed = field;
    const state = states[field];
    const found = nextCandidate(data.candidates[field], state.kind === "none" ? null : state.value);
    if (found) take(field, found);
    else showAll();
  }
  const step = (delta) => {
    pointed = fields[(fields.indexOf(pointed) + delta + fields.length) % fields.length];
    showAll();
  };

  // --- a draft in this browser --------------------------------------------------------------------------
  function storeDraft() {
    try {
      localStorage.setItem(draftKey(pageId), JSON.stringify({ base: server, states }));
    } catch {
      // Storage full or disabled: the fields still hold the values.
    }
  }
  function restoreDraft() {
    let draft = null;
    try {
      draft = JSON.parse(localStorage.getItem(draftKey(pageId)));
    } catch {
      draft = null;
    }
    if (!draft || !draft.states || !same(draft.base, server) || same(metadataOf(draft.states), server)) return;
    for (const field of fields) if (draft.states[field]) states[field] = draft.states[field];
    const notice = document.createElement("p");
    notice.className = "notice";
    notice.id = "metadata-draft-notice";
    notice.textContent = "Restored your unsaved title, authors and date from this browser.";
    $("notices").append(notice);
  }

  // --- saves and conflicts ------------------------------------------------------------------------------
  // The view writes "Saved version N" once a save is applied: the fields it sent are the saved ones.
  new MutationObserver(() => {
    if (/^Saved version/.test($("save-state").textContent) && sent !== null) {
      saved = sent;
      showAll();
    }
  }).observe($("save-state"), { childList: true, characterData: true, subtree: true });
  window.addEventListener("beforeunload", (event) => {
    if ($("metadata-fields").dataset.unsaved !== "true") return;
    event.preventDefault();
    event.returnValue = "";
  });

  const conflict = $("conflict");
  const theirsBox = document.createElement("div");
  theirsBox.id = "metadata-conflict";
  conflict.insertBefore(theirsBox, $("keep-mine"));
  let theirs = null;
  new MutationObserver(async () => {
    if (conflict.hidden) return;
    const response = await fetch(JSON.parse($("page-data").textContent).saveUrl, { credentials: "same-origin" });
    theirs = (await response.json()).metadata || {};
    const differ = fields.filter((f) => !same([f in theirs, theirs[f]], [f in metadataOf(states), metadataOf(states)[f]]));
    theirsBox.replaceChildren();
    if (!differ.length) return;
    const head = document.createElement("p");
    head.textContent = "Their title, authors or date differ from yours:";
    theirsBox.append(head);
    for (const field of differ) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "metadata-theirs";
      const said = !(field in theirs) ? "not annotated" : theirs[field] === null ? "none on the page" : shownValue(field, theirs[field]);
      button.textContent = `Take their ${NAMES[field]}: ${said}`;
      button.addEventListener("click", () => { states[field] = startState(field, theirs, {}); showAll(); button.remove(); });
      theirsBox.append(button);
    }
  }).observe(conflict, { attributes: true, attributeFilter: ["hidden"] });
  $("keep-theirs").addEventListener("click", () => {
    if (theirs === null) return;
    for (const field of fields) states[field] = startState(field, theirs, {});
    saved = metadataOf(states);
    showAll();
  });

  // --- keys ---------------------------------------------------------------------------------------------
  const keys = [
    { keys: ["H"], label: "title: take the next candidate's title (each press the next one)", run: () => takeNext("title") },
    { keys: ["A"], label: "authors: take the next candidate's authors", run: () => takeNext("authors") },
    { keys: ["P"], label: "date: take the next candidate's date (fixes a wrong date with one key)", run: () => takeNext("published") },
    { keys: ["k"], label: "point at the next of title, authors, date (K: the previous one)", run: () => step(1) },
    { keys: ["K"], label: "point at the previous of title, authors, date", run: () => step(-1) },
    { keys: ["z"], label: "none on the page for the pointed field (no author, no date)", run: () => setNone(pointed) },
    { keys: ["Z"], label: "not annotated: clear the pointed field", run: () => set(pointed, { kind: "unset", value: null, origin: null }) },
    { keys: ["E"], label: "edit the pointed field (authors separated by “;”, Esc leaves it)", run: () => $(`metadata-${pointed}`).focus() },
  ];
  if (!readOnly) bindShortcuts(keys, help.isOpen);
  const rows = document.createElement("table");
  renderHelp(keys, rows);
  $("help-table").append(...rows.querySelectorAll("tr"));

  restoreDraft();
  showAll();

  return {
    // The body of a save with the fields and, in its provenance, where each came from.
    into(body) {
      const metadata = metadataOf(states);
      sent = metadata;
      return { ...body, metadata, provenance: { ...body.provenance, fields: originsOf(states) } };
    },
  };
}
