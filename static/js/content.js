// Content compared as content, whatever its form: webapp/scoring/content_tokens.py's definition (the same
// cases test both: tests/data/content_cases.json). A text's tokens leave out list markers (`- `, `* `,
// `1.`), Markdown's decoration (| * _ # ` >), full stops, commas, colons and semicolons, the spacing around
// punctuation, case and line splits, so a
// line the gold holds in another form (split, joined, bulleted, spaced otherwise) is found there.
const MARKER = /^\s*(?:[-*+•‣◦▪–—]|\(?\d{1,3}[.)])\s+/u;
// A run of letters and digits, or a punctuation mark other than Markdown's decoration and . , ; : (which
// come and go where a text is split or joined otherwise: they separate tokens).
const TOKEN = /[\p{L}\p{N}]+|[^\p{L}\p{N}_\s|*#`>.,;:]/gu;
const WORD = /^[\p{L}\p{N}]/u;

// The content tokens of one line (none for a line without a letter or digit).
export function lineTokens(line) {
  const found = line.normalize("NFKC").toLowerCase().replace(MARKER, "").match(TOKEN) || [];
  return found.some((token) => WORD.test(token)) ? found : [];
}

// The content tokens of a text, its lines one after the other.
export const tokens = (text) => text.split("\n").flatMap(lineTokens);

export const contentKey = (line) => lineTokens(line).join(" ");

// For a text (its tokens joined once), whether a line's content is in it, in whatever form: a line of at
// least `least` tokens (a shorter one, such as "Home", is in most texts by chance).
export function within(text, least = 1) {
  const joined = ` ${tokens(text).join(" ")} `;
  return (line) => {
    const part = lineTokens(line);
    return part.length >= Math.max(least, 1) && joined.includes(` ${part.join(" ")} `);
  };
}
