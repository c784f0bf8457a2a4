package dom

import (
	"slices"
	"testing"
)

// Steps run each once, in order (outside a browser, at once).
func TestWhenIdleInTurnRunsEachInOrder(t *testing.T) {
	var ran []int
	WhenIdleInTurn([]func(){
		func() { ran = append(ran, 1) },
		func() { ran = append(ran, 2) },
		func() { ran = append(ran, 3) },
	})
	if !slices.Equal(ran, []int{1, 2, 3}) {
		t.Fatalf("ran %v, want [1 2 3]", ran)
	}
	WhenIdleInTurn(nil)
}
