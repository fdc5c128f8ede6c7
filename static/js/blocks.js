// Blocks of the saved page in the sandboxed, same-origin frame: outlined on hover (or on the keyboard's
// pointer), acted on by clicks, Shift+clicks and widened containers (the annotate view decides what that
// does to the gold, with align.js), highlighted while a gold line is aligned to them. The saved page's own scripts never
// run (no allow-scripts); these listeners belong to this page. Every click in the frame is cancelled, so
// a link or a form in the saved page never navigates anywhere.
//
// What a block is and what its text is has one definition, in Python (webapp/corpus/visible_text.py):
// its tag sets and hidden-style rule reach this module as `rules` (browser_rules(), rendered into the
// annotate view as JSON), and blocksOf walks the DOM exactly as block_lines walks lxml's tree. So a
// block is a line of the gold text the corpus readers and the extractors produce: a `<br>` or a nested
// block ends it, so a div's own text and each `<br><br>`-separated run are blocks of their own.
const STYLE = `.goldtext-hover { outline: 2px solid #e67e22 !important; cursor: pointer !important; }
.goldtext-in { background: rgba(255, 214, 0, .35) !important; }
.goldtext-point { cursor: pointer !important; }
::highlight(goldtext-hover) { background-color: rgba(230, 126, 34, .25); text-decoration: underline 2px #e67e22; }
::highlight(goldtext-in) { background-color: rgba(255, 214, 0, .35); }
.goldtext-container { outline: 3px dashed #1f6feb !important; outline-offset: 2px; }
.goldtext-repeated { outline: 1px dashed #7a5c00 !important; outline-offset: -1px; }
.goldtext-by-0 { outline: 2px solid #1f6feb !important; outline-offset: 1px; }
.goldtext-by-1 { outline: 2px dashed #c2410c !important; outline-offset: 1px; }
.goldtext-by-2 { outline: 2px dotted #7e22ce !important; outline-offset: 1px; }
.goldtext-by-all { outline: 3px double #15803d !important; outline-offset: 1px; }
.goldtext-by-some { outline: 3px double #a16207 !important; outline-offset: 1px; }
::highlight(goldtext-by-0) { text-decoration: underline 2px solid #1f6feb; }
::highlight(goldtext-by-1) { text-decoration: underline 2px dashed #c2410c; }
::highlight(goldtext-by-2) { text-decoration: underline 2px dotted #7e22ce; }
::highlight(goldtext-by-all) { text-decoration: underline 3px double #15803d; }
::highlight(goldtext-by-some) { text-decoration: underline 3px double #a16207; }
::highlight(goldtext-repeated) { text-decoration: underline dashed #7a5c00; }`;

// The characters Python's str.split() splits on (str.isspace()): JavaScript's \s differs (it adds
// U+FEFF and lacks U+001C-U+001F and U+0085).
const SPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

// Saved pages can clobber DOM properties: `<img name="addEventListener">` makes doc.addEventListener an
// element, `<form><input name="nextSibling">` makes form.nextSibling an input. So the frame's nodes are
// only ever touched through the accessors and methods of this (the parent's) realm's prototypes. Outside a
// browser (node --test on a fake DOM) there are no prototypes, and plain properties are read instead.
const proto = (name) => globalThis[name]?.prototype;
function getter(owner, name) {
  const prototype = proto(owner);
  const descriptor = prototype && Object.getOwnPropertyDescriptor(prototype, name);
  return descriptor?.get ? (object) => descriptor.get.call(object) : (object) => object[name];
}
function method(owner, name) {
  const own = proto(owner)?.[name];
  return own ? (object, ...args) => own.apply(object, args) : (object, ...args) => object[name](...args);
}
export const dom = {
  nodeType: getter("Node", "nodeType"),
  firstChild: getter("Node", "firstChild"),
  nextSibling: getter("Node", "nextSibling"),
  parentNode: getter("Node", "parentNode"),
  parentElement: getter("Node", "parentElement"),
  contains: method("Node", "contains"),
  appendChild: method("Node", "appendChild"),
  data: getter("CharacterData", "data"),
  localName: getter("Element", "localName"),
  getAttribute: method("Element", "getAttribute"),
  hasAttribute: method("Element", "hasAttribute"),
  classList: getter("Element", "classList"),
  documentElement: getter("Document", "documentElement"),
  head: getter("Document", "head"),
  defaultView: getter("Document", "defaultView"),
  url: getter("Document", "URL"),
  readyState: getter("Document", "readyState"),
  createElement: method("Document", "createElement"),
  createRange: method("Document", "createRange"),
  getSelection: method("Document", "getSelection"),
  caretPositionFromPoint: proto("Document")?.caretPositionFromPoint ? method("Document", "caretPositionFromPoint") : null,
  scrollIntoView: method("Element", "scrollIntoView"),
  caretRangeFromPoint: proto("Document")?.caretRangeFromPoint ? method("Document", "caretRangeFromPoint") : null,
  on: method("EventTarget", "addEventListener"),
};

// The control characters that are not whitespace, dropped as Python's normalise_line drops them
// (webapp/corpus/visible_text.py says why).
const CONTROLS = /[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]/g;

export function normalise(text) {
  return text.replace(CONTROLS, "").replace(SPACE, " ").replace(/^ | $/g, "");
}

function compile(rules) {
  return {
    blocks: new Set(rules.blocks),
    cells: new Set(rules.cells),
    lineBreaks: new Set(rules.lineBreaks),
    invisible: new Set(rules.invisible),
    hiddenAttribute: rules.hiddenAttribute,
    hiddenStyle: new RegExp(rules.hiddenStyle, "i"),
  };
}

function isInvisible(element, rules) {
  return rules.invisible.has(dom.localName(element)) || dom.hasAttribute(element, rules.hiddenAttribute)
    || rules.hiddenStyle.test(dom.getAttribute(element, "style") || "");
}

// The blocks of the document in document order, as Python's block_lines gives their lines: each is
// {text, nodes (its text nodes), owner (the innermost block element holding it), whole (the owner holds
// no other block, so its text is this block's)}.
export function blocksOf(doc, rules) {
  const compiled = compile(rules);
  const found = [];
  const open = []; // the block elements the walk is inside, outermost first
  const held = new Map(); // block element -> how many blocks it holds
  let parts = [], nodes = [];
  const endLine = () => {
    const text = normalise(parts.join(""));
    if (text) {
      found.push({ text, nodes, owner: open[open.length - 1] ?? null, whole: false });
      for (const element of open) held.set(element, (held.get(element) ?? 0) + 1);
    }
    parts = [];
    nodes = [];
  };
  const enter = (element) => { // false when the element's content is skipped
    const name = dom.localName(element);
    const block = compiled.blocks.has(name);
    if (isInvisible(element, compiled)) {
      if (block) endLine();
      return false;
    }
    if (block || compiled.lineBreaks.has(name)) endLine();
    else if (compiled.cells.has(name)) parts.push(" ");
    if (block) open.push(element);
    return true;
  };
  const leave = (element) => {
    if (open[open.length - 1] === element) {
      endLine();
      open.pop();
    }
  };
  const root = dom.documentElement(doc);
  if (!root) return found;
  // Depth first without recursion: saved pages can nest deeper than the call stack allows.
  let node = root;
  while (node) {
    let descend = false;
    const type = dom.nodeType(node);
    if (type === 3) {
      parts.push(dom.data(node));
      nodes.push(node);
    } else if (type === 1) {
      descend = enter(node);
    }
    const first = descend ? dom.firstChild(node) : null;
    if (first) {
      node = first;
      continue;
    }
    if (descend) leave(node);
    while (node !== root && !dom.nextSibling(node)) {
      node = dom.parentNode(node);
      leave(node);
    }
    node = node === root ? null : dom.nextSibling(node);
  }
  endLine();
  for (const block of found) block.whole = block.owner !== null && held.get(block.owner) === 1;
  return found;
}

// A block that is its owner's whole text is marked on the owner element (outline, background); one that
// shares its owner with other blocks (a div's own text beside nested paragraphs, a run between <br>s) is
// marked on its text with the CSS Custom Highlight API, where the browser has it.
function marker(doc) {
  const view = dom.defaultView(doc);
  const registry = view?.CSS?.highlights;
  return (name, blocks) => {
    if (!registry || !view.Highlight) return;
    const ranges = blocks.map((block) => {
      const range = dom.createRange(doc);
      range.setStartBefore(block.nodes[0]);
      range.setEndAfter(block.nodes[block.nodes.length - 1]);
      return range;
    });
    registry.set(name, new view.Highlight(...ranges));
  };
}

function caretNode(doc, event) {
  const position = dom.caretPositionFromPoint?.(doc, event.clientX, event.clientY);
  if (position) return position.offsetNode;
  return dom.caretRangeFromPoint?.(doc, event.clientX, event.clientY)?.startContainer ?? null;
}

// How far (px) the mouse may move between press and release for a click still to be a click.
export const DRAG_PX = 4;

// Whether a click is a plain click (a toggle): not part of a double or triple click, not the end of a drag,
// and not leaving a selection behind. `press` is the mousedown's {x, y}.
export function isPlainClick(event, press, selected) {
  if (event.detail > 1 || selected) return false;
  return !press || Math.hypot(event.clientX - press.x, event.clientY - press.y) <= DRAG_PX;
}

// The element that holds a block: its owner, or the parent of its first text node.
const holder = (block) => block.owner ?? dom.parentElement(block.nodes[0]);

// Wire the frame's document once it has loaded. `actions` are called as the annotator acts on blocks,
// with indexes into the page's blocks (`texts` of the returned object):
//   toggle(index)         a plain click, or `t` on the pointed block: in or out of the gold
//   range(from, to)       Shift+click: every block between the last one acted on and this one
//   container(indexes)    a click (or `t`) while a container is outlined: all its blocks
//   cancel()              the click just applied was the first of a double click: undo it
// A click acts at once; the second press of a double click (which selects a word) cancels it.
export function attachBlocks(doc, actions, rules) {
  const blocks = blocksOf(doc, rules);
  const byOwner = new Map(); // owner element -> its whole block
  const byNode = new Map(); // text node -> its block
  const indexOf = new Map(); // block -> its index
  blocks.forEach((block, index) => {
    indexOf.set(block, index);
    if (block.whole) byOwner.set(block.owner, block);
    for (const node of block.nodes) byNode.set(node, block);
  });
  const mark = marker(doc);
  const style = dom.createElement(doc, "style");
  style.textContent = STYLE;
  dom.appendChild(dom.head(doc) || dom.documentElement(doc), style);

  const blockAt = (event) => {
    for (let element = event.target; element && dom.nodeType(element) === 1; element = dom.parentElement(element)) {
      if (byOwner.has(element)) return byOwner.get(element);
    }
    const node = caretNode(doc, event);
    return node && event.target && dom.contains(event.target, node) ? byNode.get(node) ?? null : null;
  };

  // Containers outlined by widening, innermost first: [{element, indexes}].
  let widened = [];
  const outline = (on) => {
    const top = widened[widened.length - 1];
    if (top) dom.classList(top.element).toggle("goldtext-container", on);
  };
  const unwiden = () => { outline(false); widened = []; };
  const inside = (element) => blocks.flatMap((block, index) => (dom.contains(element, block.nodes[0]) ? [index] : []));

  let hovered = null;
  const show = (block, on) => {
    if (!block) return;
    if (block.whole) dom.classList(block.owner).toggle("goldtext-hover", on);
    else {
      if (block.owner) dom.classList(block.owner).toggle("goldtext-point", on);
      mark("goldtext-hover", on ? [block] : []);
    }
  };
  const point = (block) => {
    if (block === hovered) return;
    show(hovered, false);
    hovered = block;
    show(hovered, true);
    const top = widened[widened.length - 1];
    if (top && !(block && top.indexes.includes(indexOf.get(block)))) unwiden();
  };
  dom.on(doc, "mousemove", (event) => point(blockAt(event)));

  let last = null; // the index of the block acted on last
  const act = (block, range) => {
    const index = indexOf.get(block);
    const top = widened[widened.length - 1];
    if (top && top.indexes.includes(index)) actions.container(top.indexes);
    else if (range && last !== null) actions.range(last, index);
    else actions.toggle(index);
    last = index;
  };

  const selected = () => {
    const selection = dom.getSelection(doc);
    return Boolean(selection && !selection.isCollapsed && String(selection).trim());
  };
  let press = null, clicked = false;
  dom.on(doc, "mousedown", (event) => {
    press = { x: event.clientX, y: event.clientY };
    if (event.shiftKey && event.button === 0) event.preventDefault(); // Shift+click takes a range, selects nothing
    if (event.detail === 2 && clicked) actions.cancel();
    clicked = false;
  }, true);
  const cancel = (event) => { event.preventDefault(); event.stopPropagation(); };
  dom.on(doc, "click", (event) => {
    cancel(event);
    if (event.button !== 0 || !isPlainClick(event, press, selected())) return;
    const block = blockAt(event);
    if (!block) return;
    act(block, event.shiftKey);
    clicked = true;
  }, true);
  for (const type of ["auxclick", "submit", "dragstart"]) dom.on(doc, type, cancel, true);
  return {
    texts: blocks.map((block) => block.text),
    owners: blocks.map((block) => block.owner), // the innermost block element of each (its structure)
    // The blocks in the gold (a set of indexes, from the alignment of the gold's lines) highlighted.
    highlight(indexes) {
      const shared = [];
      blocks.forEach((block, index) => {
        if (block.whole) dom.classList(block.owner).toggle("goldtext-in", indexes.has(index));
        else if (indexes.has(index)) shared.push(block);
      });
      mark("goldtext-in", shared);
    },
    // Blocks whose text is repeated boilerplate on the page's site (menus, footers, cookie banners).
    markRepeated(lines) {
      const repeated = new Set(lines);
      const shared = [];
      for (const block of blocks) {
        if (block.whole) dom.classList(block.owner).toggle("goldtext-repeated", repeated.has(block.text));
        else if (repeated.has(block.text)) shared.push(block);
      }
      mark("goldtext-repeated", shared);
    },
    // Each annotator's blocks (a list of sets of indexes, one per annotator) outlined in that annotator's
    // style (goldtext-by-0, -1, -2), the blocks every annotator has as goldtext-by-all, and those several
    // but not all have (three annotators or more) as goldtext-by-some.
    markAnnotators(groups) {
      const shared = new Map();
      blocks.forEach((block, index) => {
        const owners = groups.flatMap((indexes, k) => (indexes.has(index) ? [k] : []));
        const name = owners.length === 1 ? String(owners[0]) : owners.length === groups.length ? "all"
          : owners.length ? "some" : null;
        if (block.whole) {
          for (const k of [...groups.keys(), "all", "some"]) dom.classList(block.owner).toggle(`goldtext-by-${k}`, name === String(k));
        } else if (name !== null) {
          if (!shared.has(name)) shared.set(name, []);
          shared.get(name).push(block);
        }
      });
      for (const [name, list] of shared) mark(`goldtext-by-${name}`, list);
    },
    // The keyboard's pointer: the next (+1) or previous (-1) block, scrolled into view; with `wanted`
    // (index => boolean), the next such block in that direction, or none (null, the pointer stays).
    step(delta, wanted = null) {
      if (!blocks.length) return null;
      let at = hovered ? indexOf.get(hovered) + delta : delta > 0 ? 0 : blocks.length - 1;
      if (wanted) {
        while (at >= 0 && at < blocks.length && !wanted(at)) at += delta;
        if (at < 0 || at >= blocks.length) return null;
      }
      const block = blocks[Math.min(blocks.length - 1, Math.max(0, at))];
      point(block);
      dom.scrollIntoView(holder(block), { block: "nearest" });
      return block.text;
    },
    // Act on the pointed block as a click (`range`: as a Shift+click) would; false when none is pointed.
    actOnPointed(range) {
      if (!hovered) return false;
      act(hovered, range);
      return true;
    },
    // Outline the next container up from the pointed block (or the outlined container) that holds more
    // blocks; returns {name, count} or null when there is none.
    widen() {
      if (!hovered) return null;
      const top = widened[widened.length - 1];
      const root = dom.documentElement(doc);
      for (let element = top ? dom.parentElement(top.element) : holder(hovered); element && element !== root;
        element = dom.parentElement(element)) {
        const indexes = inside(element);
        if (indexes.length > (top ? top.indexes.length : 1)) {
          outline(false);
          widened.push({ element, indexes });
          outline(true);
          dom.scrollIntoView(element, { block: "nearest" });
          return { name: dom.localName(element), count: indexes.length };
        }
      }
      return null;
    },
    // Back to the container inside the outlined one (or to the block alone); returns what widen returns.
    narrow() {
      outline(false);
      widened.pop();
      outline(true);
      const top = widened[widened.length - 1];
      return top ? { name: dom.localName(top.element), count: top.indexes.length } : null;
    },
  };
}
