// Sortable tables: click a header (th[data-key]) to sort the rows by that column's data-value (numbers
// numerically, the rest alphabetically; empty values last); click again to reverse. Listens on a container,
// so a table re-rendered inside it keeps working, and `reapply()` restores the order after a refresh.
const number = (text) => (text === "" ? NaN : Number(text));

function sortRows(table, key, descending) {
  const body = table.tBodies[0];
  if (!body) return;
  const cell = (row) => row.querySelector(`td[data-key="${CSS.escape(key)}"]`);
  const rows = [...body.rows].filter(cell);
  const value = (row) => cell(row).dataset.value ?? "";
  rows.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x === "" || y === "") return (x === "") - (y === "");
    const [nx, ny] = [number(x), number(y)];
    const order = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    return descending ? -order : order;
  });
  body.append(...rows);
  for (const th of table.querySelectorAll("th[data-key]")) {
    th.setAttribute("aria-sort", th.dataset.key === key ? (descending ? "descending" : "ascending") : "none");
  }
}

export function makeSortable(container) {
  const state = { key: null, descending: false };
  container.addEventListener("click", (event) => {
    const th = event.target.closest("th[data-key]");
    if (!th || !container.contains(th)) return;
    const table = th.closest("table");
    state.descending = state.key === th.dataset.key ? !state.descending : th.dataset.key !== "extractor" && th.dataset.key !== "site";
    state.key = th.dataset.key;
    sortRows(table, state.key, state.descending);
  });
  return {
    reapply() {
      if (state.key === null) return;
      for (const table of container.querySelectorAll("table[data-sortable]")) sortRows(table, state.key, state.descending);
    },
  };
}
