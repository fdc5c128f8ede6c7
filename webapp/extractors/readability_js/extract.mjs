// Goldtext's readability-js extractor: Mozilla Readability.js on jsdom, one page per request.
// Requests on standard input, answers on standard output, one JSON object per line each:
// {"html": "...", "url": "https://..." | null, "options": {"charThreshold": 500, ...}}
// -> {"content": "<article html>" | null, "title": ..., "byline": ..., "excerpt": ..., "lang": ..., "publishedTime": ...,
//     "siteName": ...} or {"error": "..."}
// jsdom is made with its defaults for scripts and resources: the page's scripts never run and nothing is
// fetched (no subresources, no iframes); its virtual console is silent so nothing else reaches stdout.
import { createInterface } from "node:readline";
import { Readability } from "@mozilla/readability";
import { JSDOM, VirtualConsole } from "jsdom";

function documentOf(html, url) {
  const options = { virtualConsole: new VirtualConsole() };
  try {
    if (url) options.url = new URL(url).href;
  } catch {
    // not an absolute URL: the document keeps about:blank
  }
  return new JSDOM(html, options).window.document;
}

function extract({ html, url, options }) {
  const article = new Readability(documentOf(html, url), options || {}).parse();
  if (!article) return { content: null };
  const { content, title, byline, excerpt, lang, publishedTime, siteName } = article;
  return { content, title, byline, excerpt, lang, publishedTime, siteName };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let answer;
  try {
    answer = extract(JSON.parse(line));
  } catch (error) {
    answer = { error: `${error.name}: ${error.message}` };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
