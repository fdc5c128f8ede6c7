// Pages with sortable tables and nothing live.
import { makeSortable } from "./leaderboard_sort.js";

for (const table of document.querySelectorAll("table[data-sortable]")) makeSortable(table);
