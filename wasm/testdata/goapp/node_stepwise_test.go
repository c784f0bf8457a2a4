package app

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// The fast paths of Stepwise's patch (the same pointer, map or slice)
// answer as reflect.DeepEqual does, for props of every kind.
func TestCanUpdateValueAsDeepEqual(t *testing.T) {
	type locale struct{ lang string }
	type settings struct {
		Locale    locale
		AgentName string
		Count     int
		Ratio     float64
		Codes     [2]uint8
	}
	type withPointer struct {
		Name string
		Next *int
	}
	type withTime struct {
		Shown time.Time
		Error string
	}
	one, other := 1, 1
	shared := []int{1, 2, 3}
	m := map[string]int{"a": 1}
	at := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	pairs := [][2]any{
		{settings{Locale: locale{"en"}, AgentName: "A"}, settings{Locale: locale{"en"}, AgentName: "A"}},
		{settings{Locale: locale{"en"}}, settings{Locale: locale{"fr"}}},
		{settings{Codes: [2]uint8{1, 2}}, settings{Codes: [2]uint8{1, 3}}},
		{settings{Ratio: math.NaN()}, settings{Ratio: math.NaN()}},
		{settings{Ratio: 0}, settings{Ratio: math.Copysign(0, -1)}},
		{[3]string{"a", "b"}, [3]string{"a", "b"}},
		{[3]string{"a", "b"}, [3]string{"a", "c"}},
		{withPointer{"x", &one}, withPointer{"x", &other}},
		{withPointer{"x", &one}, withPointer{"x", nil}},
		{withTime{at, ""}, withTime{at.In(time.FixedZone("x", 0)), ""}},
		{withTime{at, ""}, withTime{at, "e"}},
		{shared, shared},
		{shared, shared[:2]},
		{shared, []int{1, 2, 3}},
		{[]int(nil), []int{}},
		{[]*int{&one, &other}, append([]*int(nil), &one, &other)},
		{[]*int{&one, &other}, []*int{&other, &one}},
		{[]*int{&one}, []*int{nil}},
		{[]*int{&one, &one}, []*int{&one}},
		{[]withPointer{{"x", &one}}, []withPointer{{"x", &other}}},
		{m, m},
		{&one, &one},
		{&one, &other},
		{"a", "a"},
		{struct{}{}, struct{}{}},
		{struct{ V any }{[]int{1}}, struct{ V any }{[]int{1}}},
		{struct{ V any }{[]int{1}}, struct{ V any }{[]int{2}}},
		{struct{ V any }{"a"}, struct{ V any }{"a"}},
		{struct{ V any }{"a"}, struct{ V any }{1}},
	}
	for _, p := range pairs {
		got := canUpdateValue(reflect.ValueOf(p[0]), reflect.ValueOf(p[1]))
		if want := !reflect.DeepEqual(p[0], p[1]); got != want {
			t.Errorf("canUpdateValue(%#v, %#v) = %v, want %v", p[0], p[1], got, want)
		}
	}

	// A time.Time stays compared by value, as go-app compares it: two
	// locations made alike are not the same location.
	t1, t2 := at.In(time.FixedZone("x", 0)), at.In(time.FixedZone("x", 0))
	if !canUpdateValue(reflect.ValueOf(t1), reflect.ValueOf(t2)) {
		t.Errorf("canUpdateValue of times in two locations made alike = false, want true")
	}
	if canUpdateValue(reflect.ValueOf(t1), reflect.ValueOf(t1)) {
		t.Errorf("canUpdateValue of a time and itself = true, want false")
	}
}

// Settings equal by value, and a chunk's items sliced again from a grown
// array, are found unchanged without DeepEqual (which allocates).
func TestCanUpdateValueWithoutDeepEqual(t *testing.T) {
	type settings struct {
		Lang, AgentName string
		Shown           time.Time
	}
	// Props as go-app reads them: fields of a component it holds by
	// pointer.
	type props struct {
		Settings      settings
		Items, Grown  []*int
		Shorter, Nils []*int
	}
	one, two := 1, 2
	items := []*int{&one, &two}
	grown := append(make([]*int, 0, 4), items...)
	old := &props{Settings: settings{Lang: "en", AgentName: "A"}, Items: items, Shorter: items, Nils: items}
	new := &props{Settings: settings{Lang: "en", AgentName: "A"}, Items: grown, Shorter: grown[:1]}
	o, n := reflect.ValueOf(old).Elem(), reflect.ValueOf(new).Elem()
	pairs := [][2]reflect.Value{
		{o.Field(0), n.Field(0)},
		{o.Field(1), n.Field(1)},
		{o.Field(3), n.Field(3)},
		{o.Field(4), n.Field(4)},
	}
	for _, p := range pairs {
		if n := testing.AllocsPerRun(10, func() { canUpdateValue(p[0], p[1]) }); n != 0 {
			t.Errorf("comparing %v: %v allocations", p[0].Type(), n)
		}
	}
}

// A component whose props did not change is left as it was without an
// allocation: its embedded Compo is told by type, not by making an
// interface of each field.
func TestUpdateComponentUnchangedWithoutAllocation(t *testing.T) {
	type settings struct{ Lang, AgentName string }
	type view struct {
		Compo
		Text     string
		Rev      uint64
		Settings settings
		Item     *int
		Shown    bool
	}
	one := 1
	v := &view{Text: "a", Rev: 3, Settings: settings{"en", "A"}, Item: &one}
	same := &view{Text: "a", Rev: 3, Settings: settings{"en", "A"}, Item: &one}
	var m nodeManager
	if n := testing.AllocsPerRun(10, func() {
		if got, err := m.updateComponent(Context{}, v, same); err != nil || got != UI(v) {
			t.Fatalf("updateComponent = %v, %v", got, err)
		}
	}); n != 0 {
		t.Errorf("updateComponent of unchanged props: %v allocations", n)
	}

	// isCompo answers as the type assertion did, for fields of every kind.
	type fields struct {
		C   Compo
		P   *Compo
		S   string
		A   any
		B   any
		U   UI
		Nil any
	}
	f := reflect.ValueOf(&fields{A: Compo{}, B: 1, U: &Compo{}}).Elem()
	for i := 0; i < f.NumField(); i++ {
		_, want := f.Field(i).Interface().(Compo)
		if got := isCompo(f.Field(i)); got != want {
			t.Errorf("isCompo(%s) = %v, want %v", f.Type().Field(i).Name, got, want)
		}
	}
}

// The base context is made once, not for each component a frame updates,
// and made again when the engine's context changes; a component's
// context takes no allocation either.
func TestBaseContextMadeOnce(t *testing.T) {
	e := &engineX{ctx: context.Background(), localStorage: newMemoryStorage(), sessionStorage: newMemoryStorage()}
	first := e.baseContext()
	if n := testing.AllocsPerRun(10, func() { e.baseContext() }); n != 0 {
		t.Errorf("baseContext: %v allocations after the first", n)
	}
	if again := e.baseContext(); again.dispatch == nil || again.Context != first.Context {
		t.Errorf("baseContext changed: %+v", again)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.ctx = ctx
	if got := e.baseContext(); got.Context != ctx {
		t.Errorf("baseContext kept the engine's former context")
	}
	var m nodeManager
	v := Div()
	if n := testing.AllocsPerRun(10, func() { m.context(first, v) }); n != 0 {
		t.Errorf("nodeManager.context: %v allocations", n)
	}
	if m.context(first, v).notifyComponentEvent == nil {
		t.Error("nodeManager.context gives no notifyComponentEvent")
	}
}

// FormatString's "%v" without fmt answers as fmt does, for every value.
func TestFormatStringAsFmt(t *testing.T) {
	type label string
	values := []any{"", " a b ", true, false, 0, -42, 1 << 40, label("x"), int64(7), 1.5, nil, []int{1}}
	for _, v := range values {
		if got, want := FormatString("%v", v), fmt.Sprintf("%v", v); got != want {
			t.Errorf("FormatString(%%v, %#v) = %q, want %q", v, got, want)
		}
	}
	if got := FormatString("%v-%v", "a", 1); got != "a-1" {
		t.Errorf(`FormatString("%%v-%%v", "a", 1) = %q`, got)
	}
	if got := FormatString("%q", "a"); got != `"a"` {
		t.Errorf(`FormatString("%%q", "a") = %q`, got)
	}
}

// Short strings go to JavaScript once and are shared after; long ones and
// other values are converted as before; the cache stays bounded.
func TestSyscallJSArgSharesShortStrings(t *testing.T) {
	clear(jsStrings)
	if got := syscallJSArg("class"); got.String() != "class" {
		t.Fatalf(`syscallJSArg("class") = %q`, got.String())
	}
	if _, ok := jsStrings["class"]; !ok || len(jsStrings) != 1 {
		t.Fatalf("jsStrings after one short string: %v", jsStrings)
	}
	if got := syscallJSArg("class"); got.String() != "class" || len(jsStrings) != 1 {
		t.Fatalf("the same string again: %q, %d kept", got.String(), len(jsStrings))
	}
	long := strings.Repeat("é", maxJSStringLen)
	if got := syscallJSArg(long); got.String() != long || len(jsStrings) != 1 {
		t.Fatalf("a long string: %d kept", len(jsStrings))
	}
	if got := syscallJSArg(42); got.Int() != 42 {
		t.Fatalf("syscallJSArg(42) = %v", got)
	}
	if got := syscallJSArg(map[string]any{"a": "b"}); got.Get("a").String() != "b" {
		t.Fatalf("a map: %v", got)
	}
	for i := range maxJSStrings + 10 {
		s := fmt.Sprintf("s%d", i)
		if got := syscallJSArg(s); got.String() != s {
			t.Fatalf("syscallJSArg(%q) = %q", s, got.String())
		}
	}
	if n := len(jsStrings); n > maxJSStrings {
		t.Fatalf("%d strings kept, at most %d", n, maxJSStrings)
	}

	// Through go-app's values, as the DOM gets them.
	obj := Window().Get("Object").New()
	obj.Set("label", "été")
	if got := obj.Get("label").String(); got != "été" {
		t.Fatalf("Set then Get: %q", got)
	}
	list := Window().Get("Array").New()
	list.Call("push", "a", long, "a")
	if got := list.Call("join", "|").String(); got != "a|"+long+"|a" {
		t.Fatalf("Call with strings: %q", got)
	}
}

// Creating a node and adding it to its parent hands Go a reference to the
// node only: not one to the document for each node, nor a second one to
// the child (appendChild's result). Each reference costs Go an allocation
// and a finalizer, and JavaScript a count to keep.
func TestNodesTakeNoExtraReferences(t *testing.T) {
	js.Global().Call("eval", `(() => {
		const node = (props) => Object.assign({
			kids: [],
			append(...n) { this.kids.push(...n) },
			appendChild(n) { this.kids.push(n); return n },
		}, props);
		const doc = {
			createElement: (tag) => node({ tag }),
			createTextNode: (text) => node({ text }),
		};
		globalThis.documentReads = 0;
		Object.defineProperty(globalThis, "document", {
			configurable: true,
			get() { globalThis.documentReads++; return doc },
		});
	})()`)
	jsDocument = nil
	defer func() {
		js.Global().Delete("document")
		jsDocument = nil // the stand-in is gone: read the next one again
	}()
	w := window

	parent, err := w.createElement("div", "")
	if err != nil {
		t.Fatal(err)
	}
	const runs = 200
	js.Global().Set("documentReads", 0)
	now := testing.AllocsPerRun(runs, func() {
		p, _ := w.createElement("p", "")
		parent.appendChild(p)
		p.appendChild(w.createTextNode("a"))
	})
	if reads := js.Global().Get("documentReads").Int(); reads != 0 {
		t.Errorf("document read %d times for %d nodes, want once for all", reads, 2*(runs+1))
	}
	kids := parent.Get("kids")
	if n := kids.Length(); n != runs+1 {
		t.Fatalf("parent has %d children, want %d", n, runs+1)
	}
	if got := kids.Index(0).Get("kids").Index(0).Get("text").String(); got != "a" {
		t.Fatalf("the first child's text %q, want %q", got, "a")
	}

	// The same nodes made as go-app does without the patch.
	before := testing.AllocsPerRun(runs, func() {
		p := w.Get("document").Call("createElement", "p")
		parent.Call("appendChild", p)
		p.Call("appendChild", w.Get("document").Call("createTextNode", "a"))
	})
	// Two document references and two appended children fewer, each a
	// Go object holding the reference and a go-app value wrapping it.
	t.Logf("allocations per paragraph and text: %.0f, %.0f as go-app made them", now, before)
	if now > before-4 {
		t.Fatalf("%.0f allocations per paragraph and text, %.0f as go-app made them: want at least 4 fewer", now, before)
	}
}

// A text that grows is given only what it gained (appendData, as a
// streamed answer grows); any other change sets the whole text.
func TestTextGrowsByAppending(t *testing.T) {
	node := js.Global().Call("eval", `({
		nodeValue: "Hello", appended: [],
		appendData(s) { this.nodeValue += s; this.appended.push(s) },
	})`)
	v := &text{jsvalue: ValueOf(node), value: "Hello"}
	var m nodeManager
	for _, step := range []struct {
		text, appended string // appended: the last piece appended, "" for none
		pieces         int
	}{
		{"Hello, world", ", world", 1},
		{"Hello, world", ", world", 1},
		{"Hello, world, été", ", été", 2},
		{"Hello", ", été", 2},
		{"Help", ", été", 2},
		{"", ", été", 2},
		{"x", "x", 3},
	} {
		if _, err := m.updateText(v, &text{value: step.text}); err != nil {
			t.Fatal(err)
		}
		if got := node.Get("nodeValue").String(); got != step.text || v.value != step.text {
			t.Fatalf("after %q: the node holds %q, go-app %q", step.text, got, v.value)
		}
		pieces := node.Get("appended")
		if n := pieces.Length(); n != step.pieces || n > 0 && pieces.Index(n-1).String() != step.appended {
			t.Fatalf("after %q: %d pieces appended, the last %q; want %d, %q", step.text, n, pieces.Index(max(n-1, 0)), step.pieces, step.appended)
		}
	}
}
