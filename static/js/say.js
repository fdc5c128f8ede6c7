// How the notices put things: a long text shortened, a count with its noun.
export const short = (text) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);
export const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
