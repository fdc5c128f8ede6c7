// "Already in the gold": line buttons (a candidate's lines to take, an annotator's blocks, the disputed
// lines) whose content a text already holds in another form (content.js) are marked so, and a take of
// such a line asks first, so that nothing goes in twice unasked.
import { within } from "./content.js";
import { short } from "./say.js";

export const LEAST = 3; // tokens: a shorter line ("Home", "Read more") is in most texts by chance

// Mark each button (its line: data-text) that is not pressed and whose content `text` holds; `where`
// names the text ("the gold", "the result").
export function markContent(buttons, text, where) {
  const holds = within(text, LEAST);
  for (const button of buttons) {
    const other = button.getAttribute("aria-pressed") !== "true" && holds(button.dataset.text ?? "");
    button.classList.toggle("in-other-form", other);
    const mark = button.querySelector(".content-mark");
    if (other && !mark) {
      const small = button.ownerDocument.createElement("small");
      small.className = "content-mark";
      small.textContent = ` · already in ${where}`;
      button.append(small);
    } else if (!other && mark) mark.remove();
  }
}

// Whether the person declines to take `lines` whose content `text` already holds (asked with `confirm`);
// false when none is there.
export function declined(lines, text, where, confirm) {
  const holds = within(text, LEAST);
  const twice = lines.filter(holds);
  if (!twice.length) return false;
  const what = twice.length === 1 ? `“${short(twice[0])}” is` : `${twice.length} of these lines are`;
  return !confirm(`${what} already in ${where} in another form. Take ${twice.length === 1 ? "it" : "them"} again?`);
}
