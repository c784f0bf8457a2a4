package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"regexp"
	"time"
)

// The demo agent's MCP App (docs/mcp-apps.md): the /app scenario's tool,
// show_stock, points at a stock card (ui://stepwise-demo/stock-card) whose
// range picker calls show_stock back. The agent plays the MCP server's
// part itself: it serves the resource and runs the tool for the page, on
// the native protocol's two endpoints (docs/protocol-extensions.md).

// StockCardURI is the stock card's resource.
const StockCardURI = "ui://stepwise-demo/stock-card"

//go:embed mcpapp_stock.html
var stockCardHTML string

const appMimeType = "text/html;profile=mcp-app"

// serveUIResource answers GET /api/sessions/{id}/ui-resource?uri=: the
// resource as MCP's resources/read result.
func (h *Handler) serveUIResource(w http.ResponseWriter, r *http.Request) {
	uri := r.URL.Query().Get("uri")
	if uri != StockCardURI {
		apiError(w, http.StatusNotFound, "not_found", "no such resource: "+uri)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{"contents": []any{map[string]any{
		"uri":      StockCardURI,
		"mimeType": appMimeType,
		"text":     stockCardHTML,
		"_meta":    map[string]any{"ui": map[string]any{"prefersBorder": true}},
	}}})
}

// appTools are the tools the page may call for an app, with their MCP
// visibility: only those with "app".
var appTools = map[string][]string{"show_stock": {"model", "app"}}

// serveToolCall answers POST /api/sessions/{id}/tool-calls: a tool an app
// calls, run as the MCP server would, answered with its CallToolResult.
func (h *Handler) serveToolCall(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readJSONPost(w, r, "tool call")
	if !ok {
		return
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(body, &call) != nil || call.Name == "" {
		apiError(w, http.StatusBadRequest, "invalid_request", "a tool call is {\"name\": ..., \"arguments\": {...}}")
		return
	}
	vis, ok := appTools[call.Name]
	if !ok {
		apiError(w, http.StatusNotFound, "not_found", "no such tool: "+call.Name)
		return
	}
	if !contains(vis, "app") {
		apiError(w, http.StatusForbidden, "forbidden", call.Name+" is not callable by apps")
		return
	}
	var args struct {
		Symbol string `json:"symbol"`
		Range  string `json:"range"`
	}
	if len(call.Arguments) > 0 && json.Unmarshal(call.Arguments, &args) != nil {
		apiError(w, http.StatusBadRequest, "invalid_request", "the arguments must be an object")
		return
	}
	card, err := StockCard(args.Symbol, args.Range)
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		json.NewEncoder(w).Encode(map[string]any{"content": []any{map[string]string{"type": "text", "text": err.Error()}}, "isError": true})
		return
	}
	json.NewEncoder(w).Encode(card.Result())
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Card is show_stock's structured content: what the stock card draws.
type Card struct {
	Symbol   string    `json:"symbol"`
	Name     string    `json:"name"`
	Currency string    `json:"currency"`
	Range    string    `json:"range"`
	From     string    `json:"from"`
	To       string    `json:"to"`
	Prices   []float64 `json:"prices"`
}

var symbolPattern = regexp.MustCompile(`^[A-Z]{1,6}$`)

// stockRanges are the ranges and how many prices each has (trading days
// or weeks).
var stockRanges = map[string]struct {
	points int
	step   time.Duration
}{
	"1W": {5, 24 * time.Hour}, "1M": {22, 24 * time.Hour}, "6M": {26, 7 * 24 * time.Hour}, "1Y": {52, 7 * 24 * time.Hour},
}

// cardEnd is the demo's "today": fixed, so that a range always draws the
// same card.
var cardEnd = time.Date(2026, 1, 30, 0, 0, 0, 0, time.UTC)

// StockCard makes the demo's (invented) prices of symbol over rng: a
// random walk seeded by both, the same every time.
func StockCard(symbol, rng string) (Card, error) {
	if symbol == "" {
		symbol = "ACME"
	}
	if rng == "" {
		rng = "1M"
	}
	if !symbolPattern.MatchString(symbol) {
		return Card{}, fmt.Errorf("%q is not a ticker symbol", symbol)
	}
	r, ok := stockRanges[rng]
	if !ok {
		return Card{}, fmt.Errorf("%q is not a range (1W, 1M, 6M or 1Y)", rng)
	}
	f := fnv.New64a()
	f.Write([]byte(symbol + "/" + rng))
	seed := f.Sum64()
	price := 80 + float64(seed%9000)/100
	prices := make([]float64, r.points)
	for i := range prices {
		seed = seed*6364136223846793005 + 1442695040888963407
		step := (float64(seed>>33)/float64(1<<31) - 0.48) * 0.035
		price *= 1 + step
		prices[i] = math.Round(price*100) / 100
	}
	from := cardEnd.Add(-time.Duration(r.points-1) * r.step)
	return Card{Symbol: symbol, Name: symbol + " Corp.", Currency: "USD", Range: rng,
		From: from.Format("2006-01-02"), To: cardEnd.Format("2006-01-02"), Prices: prices}, nil
}

// Result is the card as an MCP CallToolResult: text for the model, the
// card for the app.
func (c Card) Result() map[string]any {
	last := c.Prices[len(c.Prices)-1]
	text := fmt.Sprintf("%s closed at %.2f %s on %s (%s range, %d prices).", c.Symbol, last, c.Currency, c.To, c.Range, len(c.Prices))
	return map[string]any{"content": []any{map[string]string{"type": "text", "text": text}}, "structuredContent": c}
}
