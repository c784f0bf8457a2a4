package components

import (
	"sync"
	"time"

	"stepwise/state/wire"
)

// The actions components raise for the session controller; their values
// are the command types below.
const (
	ActionSendMessage = "stepwise.send"   // string: the text typed
	ActionStop        = "stepwise.stop"   // no value
	ActionAnswer      = "stepwise.answer" // AnswerCommand
	ActionDecide      = "stepwise.decide" // DecideCommand
)

// AnswerCommand answers a question form.
type AnswerCommand struct {
	Key     string
	Answers map[string]string
}

// DecideCommand answers a tool approval.
type DecideCommand struct {
	Key       string
	Decisions []wire.Decision
}

// firstSeen remembers when this page first showed each approval, for the
// countdown of those that carry no created_at.
var firstSeen = struct {
	sync.Mutex
	at map[string]time.Time
}{at: map[string]time.Time{}}

// deadline is when an approval expires.
func deadline(key, createdAt string, timeoutSeconds float64) time.Time {
	start, err := time.Parse(time.RFC3339, createdAt)
	if err != nil {
		firstSeen.Lock()
		t, ok := firstSeen.at[key]
		if !ok {
			t = time.Now()
			firstSeen.at[key] = t
		}
		firstSeen.Unlock()
		start = t
	}
	return start.Add(time.Duration(timeoutSeconds * float64(time.Second)))
}

// formatRemaining shows a countdown as m:ss.
func formatRemaining(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Round(time.Second) / time.Second)
	return itoa(s/60) + ":" + pad2(s%60)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

func pad2(i int) string {
	if i < 10 {
		return "0" + itoa(i)
	}
	return itoa(i)
}
