// The live leaderboard: the table sorts by any column and follows gold saves made anywhere, by polling
// the table's fragment with If-None-Match (the server answers 304, computing nothing, until the scores
// or the extractions change). Polling pauses while the tab is hidden.
import { makeSortable } from "./leaderboard_sort.js";
import { poller } from "./progress.js";

const board = document.getElementById("board");
const sorting = makeSortable(board);
let tag = null;

async function poll() {
  const response = await fetch(board.dataset.src, {
    headers: tag ? { "If-None-Match": tag } : {},
    cache: "no-store",
    credentials: "same-origin",
  });
  if (response.status === 200) {
    board.innerHTML = await response.text();
    tag = response.headers.get("ETag");
    sorting.reapply();
    board.dataset.refreshes = String(Number(board.dataset.refreshes || 0) + 1);
  }
  return true;
}

poller(poll);
