package i18n

// Category is a CLDR plural category.
type Category int

// The CLDR plural categories; Other is every language's last resort.
const (
	Other Category = iota
	Zero
	One
	Two
	Few
	Many
)

// Categories lists every category.
var Categories = []Category{Zero, One, Two, Few, Many, Other}

func (c Category) String() string {
	switch c {
	case Zero:
		return "zero"
	case One:
		return "one"
	case Two:
		return "two"
	case Few:
		return "few"
	case Many:
		return "many"
	}
	return "other"
}

// Forms are a plural message's forms; a language fills the categories its
// plural rule returns and leaves the others empty.
type Forms struct {
	Zero  string `json:"zero,omitempty"`
	One   string `json:"one,omitempty"`
	Two   string `json:"two,omitempty"`
	Few   string `json:"few,omitempty"`
	Many  string `json:"many,omitempty"`
	Other string `json:"other,omitempty"`
}

func (f Forms) get(c Category) string {
	switch c {
	case Zero:
		return f.Zero
	case One:
		return f.One
	case Two:
		return f.Two
	case Few:
		return f.Few
	case Many:
		return f.Many
	}
	return f.Other
}

// pluralRule is lang's CLDR rule for whole numbers (Stepwise counts
// things: the rules' branches for fractions are left out, so a language
// such as Russian never returns Other).
func pluralRule(lang string) func(n int) Category {
	switch lang {
	case "en", "de", "nl", "tr":
		return pluralOneOther
	case "fr", "pt-BR":
		return pluralFR
	case "es", "it":
		return pluralES
	case "hi":
		return pluralHI
	case "ru", "uk":
		return pluralRU
	case "pl":
		return pluralPL
	case "ar":
		return pluralAR
	case "he":
		return pluralHE
	}
	// vi, zh-Hans, zh-Hant, ja, ko, th, id: one form.
	return pluralOther
}

// pluralOther is the rule of languages without plural forms.
func pluralOther(int) Category { return Other }

// pluralOneOther: one for 1, other for the rest.
func pluralOneOther(n int) Category {
	if n == 1 {
		return One
	}
	return Other
}

// millions is CLDR's "many" of French, Spanish, Italian and Portuguese:
// non-zero multiples of a million ("1 000 000 de résultats").
func millions(n int) bool { return n != 0 && n%1_000_000 == 0 }

// pluralFR (fr, pt): one for 0 and 1, many for millions, other for the rest.
func pluralFR(n int) Category {
	switch {
	case n == 0 || n == 1:
		return One
	case millions(n):
		return Many
	}
	return Other
}

// pluralES (es, it): one for 1, many for millions, other for the rest.
func pluralES(n int) Category {
	switch {
	case n == 1:
		return One
	case millions(n):
		return Many
	}
	return Other
}

// pluralHI: one for 0 and 1.
func pluralHI(n int) Category {
	if n == 0 || n == 1 {
		return One
	}
	return Other
}

// pluralRU (ru, uk): one for 1, 21, 31... (not 11); few for 2-4, 22-24...
// (not 12-14); many for the rest.
func pluralRU(n int) Category {
	n10, n100 := n%10, n%100
	switch {
	case n10 == 1 && n100 != 11:
		return One
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		return Few
	}
	return Many
}

// pluralPL: one for 1 only; few for 2-4, 22-24... (not 12-14); many for
// the rest (0, 5-21, 25-31...).
func pluralPL(n int) Category {
	n10, n100 := n%10, n%100
	switch {
	case n == 1:
		return One
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		return Few
	}
	return Many
}

// pluralAR: zero, one, two; few for 3-10 (and 103-110...), many for 11-99
// (111-199...), other for 100-102, 200-202...
func pluralAR(n int) Category {
	n100 := n % 100
	switch {
	case n == 0:
		return Zero
	case n == 1:
		return One
	case n == 2:
		return Two
	case n100 >= 3 && n100 <= 10:
		return Few
	case n100 >= 11:
		return Many
	}
	return Other
}

// pluralHE: one for 1, two for 2, other for the rest (CLDR 42 and later
// have no "many" in Hebrew).
func pluralHE(n int) Category {
	switch n {
	case 1:
		return One
	case 2:
		return Two
	}
	return Other
}
