// Goldtext's defuddle extractor: Defuddle (the extractor behind Obsidian's web clipper) on jsdom, one page per
// request. Requests on standard input, answers on standard output, one JSON object per line each:
// {"html": "...", "url": "https://..." | null, "options": {...Defuddle's options}}
// -> {"content": "<content html>", "markdown": "...", "title": ..., "author": ..., ...} or {"error": "..."}
// A page's extraction depends on its HTML alone: Defuddle's asynchronous extractors (third-party APIs it asks
// when a page has no content of its own, YouTube transcripts) are off (useAsync: false), and every fetch is
// refused all the same, Defuddle's own and the global one. jsdom is made with its defaults for scripts and
// resources, as for readability-js: the page's scripts never run and nothing is loaded. What
// Defuddle logs goes to standard error, so that nothing else reaches standard output.
import { createInterface } from "node:readline";
import { JSDOM, VirtualConsole } from "jsdom";
import { Defuddle } from "defuddle/node";

function refuse(resource) {
  return Promise.reject(new Error(`fetching is off in Goldtext (asked for ${resource})`));
}
globalThis.fetch = refuse;
for (const level of ["log", "info", "debug", "warn"]) console[level] = console.error;

function documentOf(html, url) {
  const options = { virtualConsole: new VirtualConsole() };
  try {
    if (url) options.url = new URL(url).href;
  } catch {
    // not an absolute URL: the document keeps about:blank
  }
  return new JSDOM(html, options).window.document;
}

async function extract({ html, url, options }) {
  const document = documentOf(html, url);
  const found = await Defuddle(document, document.URL, {
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
