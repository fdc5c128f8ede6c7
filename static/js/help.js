// The keyboard help of a view: a modal dialog (templates/_help.html) listing the view's shortcuts (keys.js).
// While it is open the page behind it is inert and no other shortcut fires; Tab cycles inside it.
import { renderHelp } from "./keys.js";

// shortcuts: the view's table as keys.js takes it (rows only shown, without `run`, may be added).
// Returns {toggle(show?), isOpen()}.
export function helpDialog(shortcuts) {
  const help = document.getElementById("help");
  const toggle = (show = !help.open) => {
    if (show && !help.open) help.showModal();
    else if (!show && help.open) help.close();
  };
  help.addEventListener("click", (event) => { if (event.target === help) toggle(false); });
  document.getElementById("help-close").addEventListener("click", () => toggle(false));
  help.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const stops = [...help.querySelectorAll("button, a[href], [tabindex]")];
    event.preventDefault();
    const at = stops.indexOf(document.activeElement);
    stops[(at + (event.shiftKey ? stops.length - 1 : 1)) % stops.length]?.focus();
  });
  document.getElementById("help-button").addEventListener("click", () => toggle());
  renderHelp(shortcuts, document.getElementById("help-table"));
  return { toggle, isOpen: () => help.open };
}
