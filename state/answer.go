package state

// markAnswer marks the answer of the turn that just ended: its last
// top-level text. The turn's earlier texts (what the agent said between
// its steps) are not answers, and a turn that goes on after it ended once
// (an interrupt answered) moves the mark to its new last text. A turn is
// the items after the last user message, or from the turn's first item
// when the store keeps one.
func (s *Store) markAnswer() {
	first := -1
	if s.turn != nil {
		first = s.turn.first
	} else {
		for i := len(s.items) - 1; i >= 0; i-- {
			if s.items[i].Kind == KindUser {
				first = i + 1
				break
			}
		}
		first = max(first, 0)
	}
	if first >= len(s.items) {
		return
	}
	var answer *Item
	for i := len(s.items) - 1; i >= first; i-- {
		if it := s.items[i]; it.Kind == KindText && it.Text != "" {
			answer = it
			break
		}
	}
	for _, it := range s.items[first:] {
		if it.Kind == KindText && it.Answer != (it == answer) {
			it.Answer = it == answer
			s.touch(it)
		}
	}
}
