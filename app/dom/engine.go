package dom

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// go-app's Context methods that take a function (Dispatch, Update, Defer,
// After) are inlined where they are called, and each copy is a closure of
// its own holding a copy of the whole Context: the app calls them through
// these, so that app.wasm holds each once.

// Dispatch is ctx.Dispatch(fn).
//
//go:noinline
func Dispatch(ctx app.Context, fn func(app.Context)) { ctx.Dispatch(fn) }

// Update is ctx.Update().
func Update(ctx app.Context) { Dispatch(ctx, nil) }

// Defer is ctx.Defer(fn).
//
//go:noinline
func Defer(ctx app.Context, fn func(app.Context)) { ctx.Defer(fn) }

// After is ctx.After(d, fn).
//
//go:noinline
func After(ctx app.Context, d time.Duration, fn func(app.Context)) { ctx.After(d, fn) }
