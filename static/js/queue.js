// The queue (your pages first, then every page): j / k move the selection, Enter opens the selected page.
import { bindShortcuts } from "./keys.js";

const rows = [...document.querySelectorAll("#own-queue tbody tr[data-href], #queue tbody tr[data-href]")];
let selected = -1;

function select(index) {
  if (!rows.length) return;
  selected = Math.max(0, Math.min(rows.length - 1, index));
  rows.forEach((row, i) => row.classList.toggle("selected", i === selected));
  rows[selected].scrollIntoView({ block: "nearest" });
}

bindShortcuts([
  { keys: ["j"], label: "next row", run: () => select(selected + 1) },
  { keys: ["k"], label: "previous row", run: () => select(selected - 1) },
  // Enter on a focused link or button (Log out, the filters' button) is that control's, not the row's
  { keys: ["Enter"], label: "open", when: (event) => !event.target.closest?.("a, button, select"),
    run: () => { if (selected >= 0) window.location.href = rows[selected].dataset.href; } },
]);
select(0);
