package state

import (
	"encoding/json"
	"strconv"

	"stepwise/state/wire"
)

// Citations (BACKENDS.md section 1). Anthropic sends a cited passage as a
// text block of its own, between the uncited blocks of the same answer; the
// store joins them into one text item and keeps, for each citation, the
// byte offset where its passage ends.

// startText starts a text block. It continues prev, the text item of the
// block that ended just before in the same message, when either block
// carries citations; otherwise it is a new item.
func (s *Store) startText(ob *openBlock, b *wire.Block, prev *Item, prevCited bool) {
	cited := !wire.IsNull(b.Citations)
	ob.cited = cited
	if prev != nil && (cited || prevCited) {
		ob.item = prev
		ob.firstCitation = len(prev.Citations)
		ob.text.WriteString(prev.Text)
		prev.Final = prev.Final || b.IsFinal
		s.appendText(ob, b.Text)
	} else {
		it := s.newItem(KindText)
		it.Cut = growText(&ob.text, b.Text)
		it.Text, it.Final = ob.text.String(), b.IsFinal
		if b.IsPart {
			s.place(it)
		} else {
			s.standalone(it)
		}
		ob.item = it
		ob.firstCitation = 0
	}
	// A block may start with its citations (history always does).
	var list []json.RawMessage
	if cited && json.Unmarshal(b.Citations, &list) == nil {
		for _, raw := range list {
			s.citationDelta(ob, raw)
		}
	}
}

// citationDelta attaches a citation to the passage of its text block, at
// the passage's end. A citation on a block that is not text has no passage
// to mark: its page still joins the sources panel. It reports false for a
// citation that is not an object.
func (s *Store) citationDelta(ob *openBlock, raw json.RawMessage) bool {
	c, ok := wire.DecodeCitation(raw)
	if !ok {
		return false
	}
	key, url, title := citationSource(c)
	if url != "" {
		src := Source{URL: url, Title: title, Snippet: c.CitedText}
		s.citedSources = append(s.citedSources, src)
		s.addCitedSource(src)
	}
	if ob.kind != "text" || ob.item == nil {
		return true
	}
	n, seen := s.citeNumber[key]
	if !seen || key == "" {
		n = len(s.citeNumber) + s.unkeyedCitations + 1
		if key != "" {
			s.citeNumber[key] = n
		} else {
			s.unkeyedCitations++ // nothing to recognise it by: a number of its own
		}
	}
	it := ob.item
	it.Citations = append(it.Citations, Citation{N: n, URL: url, Title: title, CitedText: c.CitedText, At: len(it.Text)})
	ob.cited = true
	s.touch(it)
	return true
}

// citationSource says what a citation points at: the key that gives it its
// number (one per URL, or per document), its URL ("" for a document without
// one) and its title.
func citationSource(c wire.Citation) (key, url, title string) {
	url = c.URL
	if url == "" && IsWebURL(c.Source) {
		url = c.Source // a search_result_location whose source is a page
	}
	title = c.Title
	if title == "" {
		title = c.DocumentTitle
	}
	switch {
	case url != "":
		key = "url:" + url
	case c.DocumentIndex != nil:
		key = "doc:" + strconv.Itoa(*c.DocumentIndex) + ":" + title
	case c.Source != "":
		key = "source:" + c.Source
	case title != "":
		key = "title:" + title
	}
	return key, url, title
}

// movePassageEnd moves the end of the open block's passage to the end of
// the text so far: the block's citations are the item's last ones.
func (s *Store) movePassageEnd(ob *openBlock) {
	it := ob.item
	for i := ob.firstCitation; i < len(it.Citations); i++ {
		it.Citations[i].At = len(it.Text)
	}
}
