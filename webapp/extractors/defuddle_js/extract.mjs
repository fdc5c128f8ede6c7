// Goldtext's defuddle extractor: Defuddle (the extractor behind Obsidian's web clipper) on linkedom, one page per
// request, as Defuddle's own Node.js command line runs it. Requests on standard input, answers on standard output,
// one JSON object per line each:
// {"html": "...", "url": "https://..." | null, "options": {...Defuddle's options}}
// -> {"content": "<content html>", "markdown": "...", "title": ..., "author": ..., ...} or {"error": "..."}
// A page's extraction depends on its HTML alone: Defuddle's asynchronous extractors (third-party APIs it asks
// when a page has no content of its own, YouTube transcripts) are off (useAsync: false), and every fetch is
// refused all the same, Defuddle's own and the global one. linkedom runs no script and loads nothing. What
// Defuddle logs goes to standard error, so that nothing else reaches standard output.
import { createInterface } from "node:readline";
import { parseHTML } from "linkedom";
import { Defuddle } from "defuddle/node";

function refuse(resource) {
  return Promise.reject(new Error(`fetching is off in Goldtext (asked for ${resource})`));
}
globalThis.fetch = refuse;
for (const level of ["log", "info", "debug", "warn"]) console[level] = console.error;

// The page's document, with what Defuddle's command line gives linkedom's (no style sheets, no computed style
// beyond an empty display) and its URL. linkedom builds no <html> or <body> around a fragment: a page without
// them is read inside a blank document's body.
function documentOf(html, url) {
  let { document } = parseHTML(html);
  if (!document.documentElement || !document.body) {
    ({ document } = parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`));
  }
  if (!document.styleSheets) document.styleSheets = [];
  if (document.defaultView && !document.defaultView.getComputedStyle) {
    document.defaultView.getComputedStyle = () => ({ display: "" });
  }
  try {
    if (url) document.URL = new URL(url).href;
  } catch {
    // not an absolute URL: the document keeps its own
  }
  return document;
}

async function extract({ html, url, options }) {
  const document = documentOf(html, url);
  const found = await Defuddle(document, document.URL || undefined, {
    ...(options || {}), separateMarkdown: true, useAsync: false, fetch: refuse,
  });
  return {
    content: found.content, markdown: found.contentMarkdown ?? "", title: found.title, author: found.author,
    published: found.published, site: found.site, description: found.description, language: found.language,
    extractor_type: found.extractorType ?? null, word_count: found.wordCount,
  };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let answer;
  try {
    answer = await extract(JSON.parse(line));
  } catch (error) {
    answer = { error: `${error.name}: ${error.message}` };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
