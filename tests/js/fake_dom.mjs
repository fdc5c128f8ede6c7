// A small fake DOM for the unit tests of the modules that walk the saved page (elements and text nodes
// linked as the parser links them): el("p", {hidden: ""}, "text", el(...)); strings are text nodes.
function link(parent, children) {
  parent.firstChild = children[0] ?? null;
  children.forEach((child, index) => {
    child.parentNode = parent;
    child.nextSibling = children[index + 1] ?? null;
  });
  return parent;
}

export function el(localName, attributes, ...children) {
  const element = {
    nodeType: 1, localName, nextSibling: null, parentNode: null,
    hasAttribute: (name) => name in attributes, getAttribute: (name) => attributes[name] ?? null,
  };
  return link(element, children.map((child) => typeof child === "string"
    ? { nodeType: 3, data: child, firstChild: null, nextSibling: null, parentNode: null } : child));
}
