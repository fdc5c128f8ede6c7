// Keys for every candidate tab: 1 to 9 the first nine, 0 the tenth, and two digits typed within WINDOW_MS
// the others (1 then 2: the twelfth). The first digit selects its own tab at once, so that a single digit
// works as it always did; a second digit in time that makes a tab's number moves on to that tab.
export const WINDOW_MS = 800;

// What a digit key picks: {index: the tab's index from 0, or -1 for none; paired: whether it completed a
// two-digit number}. `last`: {digit, at} of the digit before it (null for none); `count`: how many tabs.
export function pick(key, at, last, count) {
  const digit = Number(key);
  if (last && last.digit > 0 && at - last.at <= WINDOW_MS && last.digit * 10 + digit <= count) {
    return { index: last.digit * 10 + digit - 1, paired: true };
  }
  const number = digit === 0 ? 10 : digit;
  return { index: number <= count ? number - 1 : -1, paired: false };
}

// The key a tab is shown with: its number, 0 for the tenth.
export const tabKey = (index) => (index === 9 ? "0" : String(index + 1));

// A handler of the digit keys: `select(index)` for each tab a key picks; `count()`: how many tabs there are.
export function tabKeys(count, select, now = () => Date.now()) {
  let last = null;
  return (key) => {
    const at = now();
    const { index, paired } = pick(key, at, last, count());
    last = paired ? null : { digit: Number(key), at };
    if (index >= 0) select(index);
    return index;
  };
}
