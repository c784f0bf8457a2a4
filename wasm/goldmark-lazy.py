# Makes goldmark's package-level regexps and its case-folding table lazy,
# in place, in a copy of goldmark (wasm/goldmark-wasm.patch is its diff):
#   cp -R "$(go list -m -f '{{.Dir}}' github.com/yuin/goldmark)" b
#   chmod -R u+w b && python3 wasm/goldmark-lazy.py b && gofmt -w <changed files>
import re, sys, os, glob
root = sys.argv[1]
HELPER = '''
// lazyRegexp returns a function that compiles expr on its first call and
// returns that: nothing is compiled as the program starts (Stepwise's
// browser build, wasm/goldmark-wasm.patch). Not inlined, so that its
// closures are one copy, not one per variable.
//
//go:noinline
func lazyRegexp(expr string) func() *regexp.Regexp {
	var (
		once sync.Once
		re   *regexp.Regexp
	)
	return func() *regexp.Regexp {
		once.Do(func() { re = regexp.MustCompile(expr) })
		return re
	}
}
'''
decl = re.compile(r'^var ([A-Za-z0-9_]+) = regexp\.MustCompile\((.*)\)( //nolint:lll)?$', re.M)
for pkg in ['parser', 'extension', 'util']:
    files = [f for f in glob.glob(os.path.join(root, pkg, '*.go')) if not f.endswith('_test.go')]
    names = []
    texts = {f: open(f).read() for f in files}
    for f, s in texts.items():
        for m in decl.finditer(s):
            names.append(m.group(1))
    for f, s in texts.items():
        orig = s
        s = decl.sub(lambda m: 'var %s = lazyRegexp(%s)%s' % (m.group(1), m.group(2), m.group(3) or ''), s)
        for n in names:
            # every use but the declaration: n -> n()
            s = re.sub(r'(?<!var )\b%s\b(?!\()' % n, '%s()' % n, s)
        if s != orig:
            texts[f] = s
            open(f, 'w').write(s)
    # the helper, once per package, beside its first lazy regexp
    for f in sorted(texts):
        s = texts[f]
        if '= lazyRegexp(' in s:
            if '"sync"' not in s:
                s = s.replace('import (\n', 'import (\n\t"sync"\n', 1)
            s += HELPER
            texts[f] = s
            open(f, 'w').write(s)
            break
    # an import of regexp left unused
    for f in texts:
        s = texts[f]
        if '= lazyRegexp(' in s and 'regexp.' not in s:
            s = s.replace('\t"regexp"\n', '', 1)
            texts[f] = s
            open(f, 'w').write(s)
p = os.path.join(root, 'util', 'unicode_case_folding.go')
s = open(p).read()
s = s.replace('var unicodeCaseFoldings map[rune][]rune\n\nfunc init() {', 'var unicodeCaseFoldings map[rune][]rune\n\n// buildUnicodeCaseFoldings fills unicodeCaseFoldings on first use.\nvar buildUnicodeCaseFoldings = sync.OnceFunc(func() {')
assert s.rstrip().endswith('}')
s = s.rstrip()[:-1] + '})\n'
s = s.replace('package util\n', 'package util\n\nimport "sync"\n', 1)
open(p, 'w').write(s)
p = os.path.join(root, 'util', 'util.go')
s = open(p).read()
old = '\t\tfolded, ok := unicodeCaseFoldings[r]\n'
assert s.count(old) == 1
s = s.replace(old, '\t\tbuildUnicodeCaseFoldings()\n' + old)
open(p, 'w').write(s)
# linkify's default patterns are compiled only where no option replaced
# them: Stepwise passes its own (components/markdown.go), and goldmark's,
# each with a 256-fold repetition, cost more to compile than the rest of
# the parser's start.
p = os.path.join(root, 'extension', 'linkify.go')
s = open(p).read()
old = '''			AllowedProtocols: nil,
			URLRegexp:        urlRegexp(),
			WWWRegexp:        wwwURLRegxp(),
		},
	}
	for _, o := range opts {
		o.SetLinkifyOption(&p.LinkifyConfig)
	}
	return p
'''
new = '''			AllowedProtocols: nil,
		},
	}
	for _, o := range opts {
		o.SetLinkifyOption(&p.LinkifyConfig)
	}
	if p.URLRegexp == nil {
		p.URLRegexp = urlRegexp()
	}
	if p.WWWRegexp == nil {
		p.WWWRegexp = wwwURLRegxp()
	}
	return p
'''
assert s.count(old) == 1
s = s.replace(old, new)
open(p, 'w').write(s)
