// The live leaderboard: the table sorts by any column and follows gold saves made anywhere, by polling
// the table's fragment with If-None-Match (the server answers 304, computing nothing, until the scores
// or the extractions change).
import { makeSortable } from "./leaderboard_sort.js";

const POLL_MS = 1000;
const board = document.getElementById("board");
const sorting = makeSortable(board);
let tag = null;

async function poll() {
  try {
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
  } catch {
    // offline or restarting: the next poll tries again
  }
  setTimeout(poll, POLL_MS);
}

poll();
