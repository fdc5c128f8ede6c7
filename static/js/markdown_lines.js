// The gold editor holds the gold's Markdown (CommonMark with GFM tables, webapp/scoring/markdown_text.py):
// blocks apart by blank lines, a list's items and a table's rows line after line, a fenced code block its
// lines between two fences. Here:
// - plainLines: each line's plain text, as the page's blocks hold it, so that the alignment of the gold to
//   the page (align.js) compares texts, not markup: "## Fares" is aligned to the heading "Fares", a table
//   row "| Day | Time |" to the row "Day Time", and a fenced block (on its opening fence's line) to the
//   `pre` that holds its code.
// - blockMarkdown: a block clicked in the page as Markdown of its structure: a heading with its level, a
//   list item in its list (nested lists indented), a quote, a table row; a `pre` as a fenced block with
//   its language; a table (any of its cells) as the whole table, in GFM, or as HTML when a cell spans
//   rows or columns (GFM cannot hold that).
// - apart and unitLength: where a block inserted needs a blank line to stay a block, and how many lines a
//   block taken out spans.
import { dom, normalise } from "./blocks.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const HIDDEN = 0xe000;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const QUOTE = /^\s{0,3}>/;
const HEADING = /^\s{0,3}#{1,6}(?:\s|$)/;
const HTML_LINE = /^\s*<\/?(?:table|thead|tbody|tfoot|tr|caption)\b/i;

// The plain text of one line of Markdown outside code: its markup removed.
export function plainOfLine(line) {
  if (HTML_LINE.test(line)) { // a row of a table kept as HTML: its cells' texts
    return normalise(line.replace(/<[^>]*>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"));
  }
  if (DELIMITER_ROW.test(line) && line.includes("-") && line.includes("|")) return "";
  // Escaped characters are hidden from the markup's patterns (as private-use characters) and put back.
  let text = line.replace(/\\([!-/:-@[-`{-~])/g, (_, char) => String.fromCharCode(HIDDEN + char.charCodeAt(0)));
  if (TABLE_ROW.test(text)) {
    text = text.trim().slice(1, -1).split("|").map((cell) => cell.trim()).join(" ");
  }
  text = text.replace(/^ {0,3}#{1,6}(?:[ \t]+|$)/, (heading) => (heading ? "" : heading))
    .replace(/[ \t]+#+[ \t]*$/, (closing) => (line.trimStart().startsWith("#") ? "" : closing))
    .replace(/^\s*(?:>\s?)+/, "")
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/, "")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "") // an image is no text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // a link is its text
    .replace(/<(https?:[^>\s]+)>/g, "$1")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[^\w*])([*_])(?=\S)(.+?)(?<=\S)\2(?![\w*])/g, "$1$3")
    .replace(/[\ue000-\ue07f]/g, (char) => String.fromCharCode(char.charCodeAt(0) - HIDDEN));
  return normalise(text);
}

// Each line's plain text for the alignment: a fenced block's code on its opening line (the `pre` it came
// from is one block), its other lines and the fences empty; a table's delimiter row empty.
export function plainLines(lines) {
  const out = [];
  let fence = null;
  lines.forEach((line, index) => {
    if (fence) {
      const closing = line.trim();
      if (closing.startsWith(fence.marker[0]) && closing.length >= fence.marker.length
          && /^(`+|~+)$/.test(closing)) {
        out[fence.at] = normalise(fence.code.join(" "));
        fence = null;
      } else {
        fence.code.push(line);
      }
      out.push("");
      return;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { marker: open[1], at: index, code: [] };
      out.push("");
      return;
    }
    out.push(plainOfLine(line));
  });
  if (fence) out[fence.at] = normalise(fence.code.join(" "));
  return out;
}

// Whether two lines next to each other in the editor (`line` above `neighbour`) need a blank line between
// them to stay two blocks. A line of the editor is a block of its own (a paragraph's lines are read as
// lines, webapp/scoring/markdown_text.py), but Markdown would join these: a table's rows and the text next
// to them (GFM ends a table at a blank line only), an HTML block (a table GFM cannot hold) and its
// neighbours, a fence and its neighbours, and a list item or a quote above a line of text (that line would
// continue the item or the quote).
export function apart(line, neighbour) {
  const table = (text) => TABLE_ROW.test(text), html = (text) => HTML_LINE.test(text);
  const fence = (text) => FENCE.test(text);
  if (table(line) !== table(neighbour) || html(line) !== html(neighbour) || fence(line) || fence(neighbour)) {
    return true;
  }
  const continues = (pattern) => pattern.test(line) && !pattern.test(neighbour);
  return (continues(LIST_ITEM) || continues(QUOTE)) && !HEADING.test(neighbour) && !LIST_ITEM.test(neighbour);
}

// The lines [from, to) of the table that line `at` is a row of: a GFM table's rows, or an HTML table's
// lines from `<table>` to `</table>`; null when line `at` is no table's.
export function tableSpan(lines, at) {
  const inside = (pattern) => {
    let from = at, to = at + 1;
    while (from > 0 && pattern.test(lines[from - 1])) from--;
    while (to < lines.length && pattern.test(lines[to])) to++;
    return [from, to];
  };
  if (TABLE_ROW.test(lines[at] ?? "")) return inside(TABLE_ROW);
  if (HTML_LINE.test(lines[at] ?? "")) return inside(HTML_LINE);
  return null;
}

// A Markdown text as the units a candidate's lines are taken by: each {lines (its Markdown), plain (its
// text, as the page's block holds it)}: a fenced block is one unit (the page's `pre`), an HTML table one,
// a table's header row takes its delimiter row along; every other non-blank line is one.
export function markdownUnits(markdown) {
  const lines = markdown.split("\n"), plain = plainLines(lines);
  const units = [];
  for (let at = 0; at < lines.length;) {
    if (!lines[at].trim()) { at++; continue; }
    let size = unitLength(lines, at);
    if (lines[at].trim().toLowerCase().startsWith("<table")) size = tableSpan(lines, at)[1] - at;
    else if (TABLE_ROW.test(lines[at]) && DELIMITER_ROW.test(lines[at + 1] ?? "")) size = 2;
    const own = lines.slice(at, at + size);
    const text = size > 1 && !FENCE.test(lines[at]) ? plainLines(own).filter(Boolean).join(" ") : plain[at];
    units.push({ lines: own, plain: normalise(text) });
    at += size;
  }
  return units;
}

// How many lines the block starting at `at` spans: a fenced block's lines to its closing fence, else one.
export function unitLength(lines, at) {
  const open = FENCE.exec(lines[at] ?? "");
  if (!open) return 1;
  for (let k = at + 1; k < lines.length; k++) {
    const closing = lines[k].trim();
    if (closing.startsWith(open[1][0]) && closing.length >= open[1].length && /^(`+|~+)$/.test(closing)) {
      return k - at + 1;
    }
  }
  return lines.length - at;
}

// --- blocks of the page as Markdown -------------------------------------------------------------------

const HEADINGS = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

function children(element) {
  const found = [];
  for (let node = dom.firstChild(element); node; node = dom.nextSibling(node)) found.push(node);
  return found;
}

function textOf(node) {
  if (dom.nodeType(node) === 3) return dom.data(node);
  if (dom.nodeType(node) !== 1) return "";
  const name = dom.localName(node);
  if (name === "br") return "\n";
  if (name === "script" || name === "style" || name === "template") return "";
  return children(node).map(textOf).join("");
}

function ancestors(element) {
  const found = [];
  for (let node = dom.parentNode(element); node && dom.nodeType(node) === 1; node = dom.parentNode(node)) {
    found.push(node);
  }
  return found;
}

// Characters Markdown would read as markup at the start of a line or anywhere, escaped: the text of a
// block stays its text (as markdown_text.py's markdown_of_line escapes a flat line).
export function escaped(text) {
  return text.replace(/([\\`*_[\]<>&~|$!])/g, "\\$1")
    .replace(/^(\s*)([#>+=-])/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/, "$1\\$2");
}

function cellText(cell) {
  return normalise(textOf(cell)).replace(/\|/g, "\\|");
}

function tableOf(table) {
  const rows = [];
  const visit = (element) => {
    for (const child of children(element)) {
      if (dom.nodeType(child) !== 1) continue;
      const name = dom.localName(child);
      if (name === "tr") rows.push(child);
      else if (["thead", "tbody", "tfoot"].includes(name)) visit(child);
    }
  };
  visit(table);
  const cells = rows.map((row) => children(row).filter((c) => dom.nodeType(c) === 1
    && ["td", "th"].includes(dom.localName(c))));
  const spans = cells.flat().some((cell) => Number(dom.getAttribute(cell, "rowspan") || 1) > 1
    || Number(dom.getAttribute(cell, "colspan") || 1) > 1);
  if (spans) { // GFM cannot hold a spanning cell: the table as HTML, its texts escaped
    const html = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const lines = ["<table>"];
    cells.forEach((row) => {
      lines.push(`<tr>${row.map((cell) => {
        const tag = dom.localName(cell);
        const span = ["rowspan", "colspan"].map((name) => (Number(dom.getAttribute(cell, name) || 1) > 1
          ? ` ${name}="${Number(dom.getAttribute(cell, name))}"` : "")).join("");
        return `<${tag}${span}>${html(normalise(textOf(cell)))}</${tag}>`;
      }).join("")}</tr>`);
    });
    lines.push("</table>");
    return lines;
  }
  const width = Math.max(1, ...cells.map((row) => row.length));
  const line = (row) => `| ${Array.from({ length: width }, (_, k) => (row[k] ? cellText(row[k]) : "")).join(" | ")} |`;
  if (!cells.length) return [];
  return [line(cells[0]), `|${" --- |".repeat(width)}`, ...cells.slice(1).map(line)];
}

function fenced(pre) {
  const code = children(pre).find((child) => dom.nodeType(child) === 1 && dom.localName(child) === "code");
  const classes = `${dom.getAttribute(pre, "class") || ""} ${code ? dom.getAttribute(code, "class") || "" : ""}`;
  const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? "";
  const text = textOf(pre).replace(/\n$/, "");
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}`, ...text.split("\n"), fence];
}

// The table element a block's owner is in (a row's, a cell's), or null.
export function enclosingTable(owner) {
  if (!owner) return null;
  return [owner, ...ancestors(owner)].find((element) => dom.localName(element) === "table") ?? null;
}

// The Markdown lines of a block of the page: `owner` is its innermost block element, `text` its text.
export function blockMarkdown(owner, text) {
  if (!owner) return [escaped(text)];
  const chain = [owner, ...ancestors(owner)];
  const pre = chain.find((element) => dom.localName(element) === "pre");
  if (pre) return fenced(pre);
  const table = chain.find((element) => dom.localName(element) === "table");
  if (table) return tableOf(table);
  const name = dom.localName(owner);
  if (HEADINGS[name]) return [`${"#".repeat(HEADINGS[name])} ${escaped(text)}`];
  const item = chain.find((element) => dom.localName(element) === "li");
  if (item) {
    const lists = ancestors(item).filter((element) => ["ul", "ol"].includes(dom.localName(element)));
    const indent = "  ".repeat(Math.max(0, lists.length - 1));
    const marker = lists[0] && dom.localName(lists[0]) === "ol" ? "1." : "-";
    return [`${indent}${marker} ${escaped(text)}`];
  }
  if (chain.some((element) => dom.localName(element) === "blockquote")) return [`> ${escaped(text)}`];
  return [escaped(text)];
}
