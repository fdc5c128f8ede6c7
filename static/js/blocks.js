// Blocks of the saved page in the sandboxed, same-origin frame: outlined on hover, toggled in and out of
// the gold on click, highlighted while their text is in the gold. The saved page's own scripts never
// run (no allow-scripts); these listeners belong to this page. Every click in the frame is cancelled, so
// a link or a form in the saved page never navigates anywhere.
const BLOCK_TAGS = new Set(["P", "H1", "H2", "H3", "H4", "H5", "H6", "LI", "BLOCKQUOTE", "PRE", "TD", "TH",
  "FIGCAPTION", "CAPTION", "DT", "DD"]);
const TEXT_HOLDERS = new Set(["DIV", "SECTION", "ARTICLE", "MAIN", "ASIDE", "HEADER", "FOOTER", "SPAN", "FIGURE"]);
const STYLE = `.goldtext-hover { outline: 2px solid #e67e22 !important; cursor: pointer !important; }
.goldtext-in { background: rgba(255, 214, 0, .35) !important; }`;

export function normalise(text) {
  return text.replace(/\s+/g, " ").trim();
}

function holdsText(element) {
  for (const node of element.childNodes) {
    if (node.nodeType === 3 && node.nodeValue.trim()) return true;
  }
  return false;
}

export function isBlock(element) {
  return BLOCK_TAGS.has(element.tagName) || (TEXT_HOLDERS.has(element.tagName) && holdsText(element));
}

// Every block of the document with text, in document order.
export function blocksOf(doc) {
  const found = [];
  if (!doc.body) return found;
  const walker = doc.createTreeWalker(doc.body, 1);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (isBlock(node) && normalise(node.textContent)) found.push(node);
  }
  return found;
}

function closestBlock(node) {
  for (let element = node.nodeType === 1 ? node : node.parentElement; element; element = element.parentElement) {
    if (isBlock(element) && normalise(element.textContent)) return element;
  }
  return null;
}

// Lines of the gold with `text` taken out when present, else put in document order: after the last line
// that is an earlier block, else before the first line that is a later block, else at the end.
export function toggleLine(lines, text, order) {
  const present = lines.some((line) => normalise(line) === text);
  if (present) return lines.filter((line) => normalise(line) !== text);
  const mine = order.get(text);
  let after = -1, before = -1;
  lines.forEach((line, index) => {
    const position = order.get(normalise(line));
    if (position === undefined) return;
    if (position < mine) after = index;
    else if (before < 0) before = index;
  });
  const at = after >= 0 ? after + 1 : before >= 0 ? before : lines.length;
  return [...lines.slice(0, at), text, ...lines.slice(at)];
}

// Wire the frame's document once it has loaded; `onToggle(text, order)` is called on a block click.
export function attachBlocks(doc, onToggle) {
  const blocks = blocksOf(doc);
  const order = new Map();
  blocks.forEach((block, index) => {
    const text = normalise(block.textContent);
    if (!order.has(text)) order.set(text, index);
  });
  const style = doc.createElement("style");
  style.textContent = STYLE;
  (doc.head || doc.documentElement).append(style);
  let hovered = null;
  doc.addEventListener("mouseover", (event) => {
    const block = closestBlock(event.target);
    if (block === hovered) return;
    hovered?.classList.remove("goldtext-hover");
    hovered = block;
    hovered?.classList.add("goldtext-hover");
  });
  const cancel = (event) => { event.preventDefault(); event.stopPropagation(); };
  doc.addEventListener("click", (event) => {
    cancel(event);
    const block = closestBlock(event.target);
    if (block) onToggle(normalise(block.textContent), order);
  }, true);
  for (const type of ["auxclick", "submit", "dragstart"]) doc.addEventListener(type, cancel, true);
  return {
    highlight(lines) {
      const inGold = new Set(lines.map(normalise));
      for (const block of blocks) block.classList.toggle("goldtext-in", inGold.has(normalise(block.textContent)));
    },
  };
}
