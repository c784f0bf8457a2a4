package dom

// WhenIdleInTurn runs each of steps when the browser is idle, one at a
// time, in order: a long piece of work split so that a person's input
// waits for one step at most.
func WhenIdleInTurn(steps []func()) {
	if len(steps) == 0 {
		return
	}
	WhenIdle(func() {
		steps[0]()
		WhenIdleInTurn(steps[1:])
	})
}
