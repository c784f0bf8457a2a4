// Host tests (see runtime_patch_test.go).
//go:build !js

package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestComponentTestsRunPatchedGoApp proves that the component tests run
// the go-app the wasm ships: in go-app's test engine, as the components'
// tests use it, a page re-rendered with its rows' props unchanged (a
// slice of the same item pointers, sliced anew at each render as a
// chunk's items are, and a settings struct) allocates what the render
// makes and little more: go-app as released compares each row's props
// with reflect.DeepEqual, about nine allocations a row, where the patched
// one finds them unchanged without allocating (wasm/goapp-wasm.patch).
//
// Built with plain go test, outside the Makefile's GOFLAGS, the test binary
// has go-app as downloaded: the test says so and skips, except under CI,
// where make test must have built it with the patched copies.
func TestComponentTestsRunPatchedGoApp(t *testing.T) {
	if !builtWithPatchedCopies(t) {
		msg := "this test binary was built with the modules as downloaded, not the patched copies the wasm ships: run it through make (make unit), or in a shell given the Makefile's GOFLAGS by eval \"$(make -s env)\""
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	const rows, items = 10, 32
	p := &shippedPage{}
	for range rows {
		row := make([]*shippedItem, items)
		for j := range row {
			row[j] = &shippedItem{Text: "step"}
		}
		p.rows = append(p.rows, row)
	}
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if !p.hasCtx {
		t.Fatal("OnPreRender gave the page no context")
	}
	renders := p.renders
	allocs := testing.AllocsPerRun(20, func() {
		p.ctx.Dispatch(func(app.Context) {})
		e.ConsumeAll()
	})
	if p.renders <= renders {
		t.Fatal("the page was not rendered again")
	}
	// The render itself makes each row (the new value compared with the
	// mounted one), the list of them and a few more.
	t.Logf("allocations for a render of %d unchanged rows: %v", rows, allocs)
	if allocs >= 2*rows {
		t.Errorf("a render of %d rows whose props did not change made %v allocations, want under %d: go-app compared their props with reflect.DeepEqual, as released, not as wasm/goapp-wasm.patch does", rows, allocs, 2*rows)
	}
}

// builtWithPatchedCopies reports whether this binary's go-app and goldmark
// are tools/patchmod's copies (go.mod's replaces of bin/mod).
func builtWithPatchedCopies(t *testing.T) bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary has no build information")
	}
	patched := 0
	for _, dep := range info.Deps {
		switch dep.Path {
		case goAppModule, "github.com/yuin/goldmark":
			if dep.Replace != nil && strings.Contains(dep.Replace.Path, "bin/mod/") {
				patched++
			}
		}
	}
	return patched == 2
}

type shippedItem struct{ Text string }

type shippedSettings struct{ Lang, AgentName string }

type shippedRow struct {
	app.Compo
	Items    []*shippedItem
	Settings shippedSettings
}

func (r *shippedRow) Render() app.UI {
	return app.Div().Class("row").Text(r.Settings.Lang)
}

type shippedPage struct {
	app.Compo
	rows    [][]*shippedItem
	ctx     app.Context
	hasCtx  bool
	renders int
}

// OnPreRender runs in the test engine (it is the server side): it gives
// the test the page's context, to ask for renders with.
func (p *shippedPage) OnPreRender(ctx app.Context) { p.ctx, p.hasCtx = ctx, true }

func (p *shippedPage) Render() app.UI {
	p.renders++
	rows := make([]app.UI, len(p.rows))
	for i, items := range p.rows {
		rows[i] = &shippedRow{Items: items[:len(items):len(items)], Settings: shippedSettings{"en", "Agent"}}
	}
	return app.Div().Body(rows...)
}
