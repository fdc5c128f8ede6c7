// Word-level diff: common prefix and suffix, then words unique to both sides as anchors (patience diff),
// then an exact LCS on what is left between anchors when it is small enough; a large region without
// anchors is reported as replaced. Line breaks are words of their own so paragraphs survive.
const LCS_CELLS = 1_000_000;

export function words(text) {
  return text.match(/\n|[^\s]+/g) || [];
}

// The edit script from `a` to `b`: runs of {op: "=" | "-" | "+", items: [words]}.
export function diff(a, b) {
  const ids = new Map();
  const id = (word) => {
    let value = ids.get(word);
    if (value === undefined) { value = ids.size; ids.set(word, value); }
    return value;
  };
  const A = Int32Array.from(a, id);
  const B = Int32Array.from(b, id);
  const ops = [];
  const emit = (op, list, lo, hi) => {
    if (hi <= lo) return;
    let last = ops[ops.length - 1];
    if (!last || last.op !== op) { last = { op, items: [] }; ops.push(last); }
    for (let i = lo; i < hi; i++) last.items.push(list[i]);
  };

  const solve = (alo, ahi, blo, bhi) => {
    let head = 0;
    while (alo + head < ahi && blo + head < bhi && A[alo + head] === B[blo + head]) head++;
    let tail = 0;
    while (alo + head + tail < ahi && blo + head + tail < bhi && A[ahi - 1 - tail] === B[bhi - 1 - tail]) tail++;
    emit("=", a, alo, alo + head);
    middle(alo + head, ahi - tail, blo + head, bhi - tail);
    emit("=", a, ahi - tail, ahi);
  };

  const middle = (alo, ahi, blo, bhi) => {
    if (alo === ahi) { emit("+", b, blo, bhi); return; }
    if (blo === bhi) { emit("-", a, alo, ahi); return; }
    const anchors = uniqueAnchors(A, alo, ahi, B, blo, bhi);
    if (anchors.length) {
      let ai = alo, bi = blo;
      for (const [x, y] of anchors) {
        solve(ai, x, bi, y);
        emit("=", a, x, x + 1);
        ai = x + 1; bi = y + 1;
      }
      solve(ai, ahi, bi, bhi);
    } else if ((ahi - alo) * (bhi - blo) <= LCS_CELLS) {
      lcs(alo, ahi, blo, bhi);
    } else {
      emit("-", a, alo, ahi);
      emit("+", b, blo, bhi);
    }
  };

  const lcs = (alo, ahi, blo, bhi) => {
    const n = ahi - alo, m = bhi - blo, width = m + 1;
    const table = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * width + j] = A[alo + i] === B[blo + j]
          ? table[(i + 1) * width + j + 1] + 1
          : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < n && j < m) {
      if (A[alo + i] === B[blo + j]) { emit("=", a, alo + i, alo + i + 1); i++; j++; }
      else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) { emit("-", a, alo + i, alo + i + 1); i++; }
      else { emit("+", b, blo + j, blo + j + 1); j++; }
    }
    emit("-", a, alo + i, ahi);
    emit("+", b, blo + j, bhi);
  };

  solve(0, A.length, 0, B.length);
  return ops;
}

// Pairs (i, j) of words occurring exactly once in each range, the longest run increasing on both sides.
function uniqueAnchors(A, alo, ahi, B, blo, bhi) {
  const seen = new Map(); // word -> [count in A, index in A, count in B, index in B]
  for (let i = alo; i < ahi; i++) {
    const entry = seen.get(A[i]);
    if (entry) entry[0]++; else seen.set(A[i], [1, i, 0, -1]);
  }
  for (let j = blo; j < bhi; j++) {
    const entry = seen.get(B[j]);
    if (entry) { entry[2]++; entry[3] = j; }
  }
  const pairs = [];
  for (const [countA, i, countB, j] of seen.values()) if (countA === 1 && countB === 1) pairs.push([i, j]);
  pairs.sort((p, q) => p[0] - q[0]);
  return longestIncreasing(pairs);
}

// Longest subsequence of pairs (already in increasing i) with increasing j (patience sorting).
function longestIncreasing(pairs) {
  const tails = [], previous = new Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < pairs[k][1]) lo = mid + 1; else hi = mid;
    }
    previous[k] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = k;
  }
  const run = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = previous[k]) run.push(pairs[k]);
  return run.reverse();
}

// Render an edit script into `container`: removed words as <del>, added words as <ins>.
export function render(ops, container) {
  const fragment = document.createDocumentFragment();
  for (const { op, items } of ops) {
    const text = join(items, op === "-");
    if (op === "=") fragment.append(text);
    else {
      const mark = document.createElement(op === "-" ? "del" : "ins");
      mark.textContent = text;
      fragment.append(mark);
    }
    if (!text.endsWith("\n")) fragment.append(" ");
  }
  container.replaceChildren(fragment);
}

function join(items, flatten) {
  let out = "";
  for (const item of items) {
    if (item === "\n") out += flatten ? " ¶ " : "\n";
    else out += (out && !out.endsWith("\n") ? " " : "") + item;
  }
  return out;
}
