// Goldtext's dom-smoothie and rs-trafilatura extractors: one program, one page per request.
// Requests on standard input, answers on standard output, one JSON object per line each:
// {"extractor": "dom-smoothie" | "rs-trafilatura", "html": "...", "url": "https://..." | null, "options": {...}}
// -> {"html": "<content html>", "text": "...", "markdown": "...", "title": ..., ...} or {"error": "..."}
// (rs-trafilatura's answer also carries its metadata: "author", "date" as RFC 3339 and "sitename", null where none)
// Neither library fetches anything: the page is parsed from the HTML given, the URL only resolves its links.
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use dom_smoothie::{CandidateSelectMode, Config, Readability, TextMode};
use rs_trafilatura::page_type::PageType;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
struct Request {
    extractor: String,
    html: String,
    url: Option<String>,
    #[serde(default)]
    options: Value,
}

fn flag(options: &Value, name: &str, default: bool) -> bool {
    options.get(name).and_then(Value::as_bool).unwrap_or(default)
}

fn number(options: &Value, name: &str, default: usize) -> usize {
    options.get(name).and_then(Value::as_u64).map_or(default, |n| n as usize)
}

fn word(options: &Value, name: &str) -> String {
    options.get(name).and_then(Value::as_str).unwrap_or("").to_string()
}

/// An absolute http(s) URL, or nothing (a relative or broken one would make dom_smoothie refuse the page).
fn absolute(url: Option<String>) -> Option<String> {
    url.filter(|u| url::Url::parse(u).is_ok_and(|parsed| parsed.scheme().starts_with("http")))
}

/// Readability::parse's content HTML, its Markdown (the same content in TextMode::Markdown) and metadata.
fn dom_smoothie(html: &str, url: Option<String>, options: &Value) -> Result<Value, String> {
    let defaults = Config::default();
    let mode = match word(options, "candidate_select_mode").as_str() {
        "" | "readability" => CandidateSelectMode::Readability,
        "dom-smoothie" => CandidateSelectMode::DomSmoothie,
        other => return Err(format!("unknown candidate_select_mode {other:?} (readability or dom-smoothie)")),
    };
    let config = Config {
        char_threshold: number(options, "char_threshold", defaults.char_threshold),
        n_top_candidates: number(options, "n_top_candidates", defaults.n_top_candidates),
        candidate_select_mode: mode,
        text_mode: TextMode::Markdown,
        ..defaults
    };
    let url = absolute(url);
    let mut readability = Readability::new(html, url.as_deref(), Some(config)).map_err(|e| e.to_string())?;
    match readability.parse() {
        Ok(article) => Ok(json!({
            "html": article.content.to_string(),
            "markdown": article.text_content.to_string(),
            "title": article.title,
            "byline": article.byline,
        })),
        // Readability.js answers null where it finds no article; dom_smoothie says why.
        Err(error) => Ok(json!({"html": "", "markdown": "", "title": "", "empty": error.to_string()})),
    }
}

/// rs_trafilatura::extract_with_options's text, Markdown and metadata, with its predicted extraction quality.
fn rs_trafilatura(html: &str, url: Option<String>, options: &Value) -> Result<Value, String> {
    let defaults = rs_trafilatura::Options::default();
    let page_type = match word(options, "page_type").as_str() {
        "" => None,
        named => Some(named.parse::<PageType>().map_err(|e| format!("page_type {named:?}: {e}"))?),
    };
    let chosen = rs_trafilatura::Options {
        url: if flag(options, "use_url", false) { url } else { None },
        page_type,
        favor_precision: flag(options, "favor_precision", defaults.favor_precision),
        favor_recall: flag(options, "favor_recall", defaults.favor_recall),
        include_tables: flag(options, "include_tables", defaults.include_tables),
        include_comments: flag(options, "include_comments", defaults.include_comments),
        output_markdown: true,
        ..defaults
    };
    let result = rs_trafilatura::extract_with_options(html, &chosen).map_err(|e| e.to_string())?;
    Ok(json!({
        "text": result.content_text,
        "markdown": result.content_markdown.unwrap_or_default(),
        "title": result.metadata.title.unwrap_or_default(),
        "author": result.metadata.author,
        "date": result.metadata.date.map(|date| date.to_rfc3339()),
        "sitename": result.metadata.sitename,
        "page_type": result.metadata.page_type,
        "classification_confidence": result.classification_confidence,
        "extraction_quality": result.extraction_quality,
    }))
}

fn answer(line: &str) -> Value {
    let request: Request = match serde_json::from_str(line) {
        Ok(request) => request,
        Err(error) => return json!({"error": format!("bad request: {error}")}),
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| match request.extractor.as_str() {
        "dom-smoothie" => dom_smoothie(&request.html, request.url, &request.options),
        "rs-trafilatura" => rs_trafilatura(&request.html, request.url, &request.options),
        other => Err(format!("unknown extractor {other:?}")),
    }));
    match outcome {
        Ok(Ok(found)) => found,
        Ok(Err(error)) => json!({"error": error}),
        Err(panic) => {
            let reason = panic.downcast_ref::<String>().cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "no message".to_string());
            json!({"error": format!("{} panicked: {reason}", request.extractor)})
        }
    }
}

fn main() {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let found = answer(&line);
        if writeln!(stdout, "{found}").and_then(|()| stdout.flush()).is_err() {
            break;
        }
    }
}
