// go-extractors: go-trafilatura and go-domdistiller asked one page at a time, one JSON line each way.
//
// A request is {"extractor": "go-trafilatura" | "go-domdistiller", "html": "...", "options": {...}};
// the answer is {"text": "...", "html": "...", "title": "...", "author": "...", "date": "...", "sitename": "...",
// "language": "..."} or {"error": "..."} (go-trafilatura's metadata: date as RFC 3339, "" where none), "html" being
// the content as HTML: go-trafilatura's ContentNode (its ContentText runs every block into one line) and
// go-domdistiller's Node (the HTML its Text is written from). Where go-trafilatura
// finds too little text it answers {"text": "", "empty": "its reason"}: no content, not an error. The page is parsed with
// golang.org/x/net/html and nothing is fetched: no URL is given to either library, as in Zyte's
// article-extraction-benchmark (extractors/go_trafilatura/cli.go, extractors/go_domdistiller/cli.go).
// A panic while extracting one page is answered as that page's error; the program goes on.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	distiller "github.com/markusmobius/go-domdistiller"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

type request struct {
	Extractor string  `json:"extractor"`
	HTML      string  `json:"html"`
	Options   options `json:"options"`
}

// options: every option either extractor takes; the Python side sends each one explicitly.
type options struct {
	EnableFallback  bool   `json:"enable_fallback"`
	Focus           string `json:"focus"`
	ExcludeComments bool   `json:"exclude_comments"`
	ExcludeTables   bool   `json:"exclude_tables"`
	Deduplicate     bool   `json:"deduplicate"`
	TargetLanguage  string `json:"target_language"`
	SkipPagination  bool   `json:"skip_pagination"`
}

type answer struct {
	Text     string `json:"text"`
	HTML     string `json:"html,omitempty"`
	Title    string `json:"title"`
	Author   string `json:"author,omitempty"`
	Date     string `json:"date,omitempty"`
	Sitename string `json:"sitename,omitempty"`
	Language string `json:"language,omitempty"`
	Empty    string `json:"empty,omitempty"`
	Error    string `json:"error,omitempty"`
}

var focuses = map[string]trafilatura.ExtractionFocus{
	"balanced":        trafilatura.Balanced,
	"favor-recall":    trafilatura.FavorRecall,
	"favor-precision": trafilatura.FavorPrecision,
}

func runTrafilatura(doc *html.Node, o options) (answer, error) {
	focus, ok := focuses[o.Focus]
	if !ok {
		return answer{}, fmt.Errorf("unknown focus %q (balanced, favor-recall or favor-precision)", o.Focus)
	}
	result, err := trafilatura.ExtractDocument(doc, trafilatura.Options{
		EnableFallback:  o.EnableFallback,
		Focus:           focus,
		ExcludeComments: o.ExcludeComments,
		ExcludeTables:   o.ExcludeTables,
		Deduplicate:     o.Deduplicate,
		TargetLanguage:  o.TargetLanguage,
	})
	if err != nil { // found too little text: no content, as Python's trafilatura answers None
		return answer{Empty: err.Error()}, nil
	}
	content, err := rendered(result.ContentNode)
	if err != nil {
		return answer{}, err
	}
	found := answer{Text: result.ContentText, HTML: content, Title: result.Metadata.Title,
		Author: result.Metadata.Author, Sitename: result.Metadata.Sitename, Language: result.Metadata.Language}
	if !result.Metadata.Date.IsZero() {
		found.Date = result.Metadata.Date.Format(time.RFC3339)
	}
	return found, nil
}

func runDistiller(doc *html.Node, o options) (answer, error) {
	result, err := distiller.Apply(doc, &distiller.Options{SkipPagination: o.SkipPagination})
	if err != nil {
		return answer{}, err
	}
	content, err := rendered(result.Node)
	if err != nil {
		return answer{}, err
	}
	return answer{Text: result.Text, HTML: content, Title: result.Title}, nil
}

// rendered: the node as HTML ("" for none).
func rendered(node *html.Node) (string, error) {
	var content strings.Builder
	if node != nil {
		if err := html.Render(&content, node); err != nil {
			return "", err
		}
	}
	return content.String(), nil
}

func extract(r request) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			a = answer{Error: fmt.Sprintf("%s panicked: %v", r.Extractor, p)}
		}
	}()
	doc, err := html.Parse(strings.NewReader(r.HTML))
	if err != nil {
		return answer{Error: err.Error()}
	}
	switch r.Extractor {
	case "go-trafilatura":
		a, err = runTrafilatura(doc, r.Options)
	case "go-domdistiller":
		a, err = runDistiller(doc, r.Options)
	default:
		err = fmt.Errorf("unknown extractor %q", r.Extractor)
	}
	if err != nil {
		return answer{Error: err.Error()}
	}
	return a
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var r request
			var a answer
			if jsonErr := json.Unmarshal(line, &r); jsonErr != nil {
				a = answer{Error: "bad request: " + jsonErr.Error()}
			} else {
				a = extract(r)
			}
			if encodeErr := out.Encode(a); encodeErr != nil {
				os.Exit(1)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
