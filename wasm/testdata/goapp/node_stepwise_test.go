package app

import (
	"math"
	"reflect"
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
		{m, m},
		{&one, &one},
		{&one, &other},
		{"a", "a"},
		{struct{}{}, struct{}{}},
	}
	for _, p := range pairs {
		got := canUpdateValue(reflect.ValueOf(p[0]), reflect.ValueOf(p[1]))
		if want := !reflect.DeepEqual(p[0], p[1]); got != want {
			t.Errorf("canUpdateValue(%#v, %#v) = %v, want %v", p[0], p[1], got, want)
		}
	}
}
