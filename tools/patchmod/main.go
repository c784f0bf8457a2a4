// Command patchmod prepares the patched dependencies every go command of
// the Makefile builds with: copies of the modules go.mod pins with
// Stepwise's patches applied, a module file that replaces those modules
// with the copies, and an overlay of the patched Go standard library
// files. The Makefile runs it before any go command and then sets
//
//	GOFLAGS=-modfile=$(CURDIR)/bin/mod/go.mod -overlay=$(CURDIR)/bin/mod/overlay.json
//
// so that vet, the tests, the server and the wasm all build the same
// code. Usage, from the module's root:
//
//	go run ./tools/patchmod [-patches wasm/patches.txt] [-out bin/mod]
//
// The patches file lists one patch a line: a module path (a module go.mod
// requires) or GOROOT, then the patch file, relative to the patches file.
// Module patches apply to the version go.mod requires, as downloaded
// (go mod download checks it against go.sum); GOROOT patches to the
// source of the Go running patchmod. A patch applies exactly (no fuzz,
// at any offset): one that no longer does stops patchmod with the patch,
// the file, the hunk and the version it failed on, never a build without
// it.
//
// It is idempotent and content-addressed: each copy is remade only when
// what it is made from changed (the module's go.sum hash, the Go release
// and the standard library files the patches touch, the patch's bytes) or
// when the copy no longer hashes as it did when made. It writes a file
// only when its content changes, so make's mtime checks see only real
// changes; out/patches.sum lists what each copy was made from, and
// changes whenever any of them does.
//
// It needs the standard library only, as Gio's gogio needs nothing but Go
// to build an app.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	patches := flag.String("patches", "wasm/patches.txt", "the list of patches")
	out := flag.String("out", "bin/mod", "where to write the module file, the overlay and the patched copies")
	flag.Parse()
	if err := run(*patches, *out); err != nil {
		fmt.Fprintln(os.Stderr, "patchmod:", err)
		os.Exit(1)
	}
}

func run(patchesFile, outDir string) error {
	env, err := goEnv()
	if err != nil {
		return err
	}
	if env.GOMOD == "" || env.GOMOD == os.DevNull {
		return errors.New("run it in the module (no go.mod here)")
	}
	root := filepath.Dir(env.GOMOD)
	patches, err := readPatches(patchesFile)
	if err != nil {
		return err
	}
	var mods []moduleSource
	var gorootPatches []patchFile
	for _, p := range patches {
		if p.target == "GOROOT" {
			gorootPatches = append(gorootPatches, p)
			continue
		}
		src, err := downloadModule(root, p.target)
		if err != nil {
			return err
		}
		src.patch = p
		mods = append(mods, src)
	}
	p := preparation{
		root:          root,
		out:           outDir,
		goroot:        env.GOROOT,
		goVersion:     env.GOVERSION,
		toolchain:     goModToolchain(env.GOMOD),
		modules:       mods,
		gorootPatches: gorootPatches,
		log:           func(s string) { fmt.Fprintln(os.Stderr, "patchmod:", s) },
	}
	return p.prepare()
}

// A patchFile is one line of the patches file.
type patchFile struct {
	target string // module path, or GOROOT
	path   string // the patch, as found from the working directory
	name   string // its path, for messages
	text   []byte
}

func readPatches(file string) ([]patchFile, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var patches []patchFile
	for n, line := range strings.Split(string(text), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want a module path (or GOROOT) and a patch file", file, n+1)
		}
		p := patchFile{target: fields[0], path: fields[1]}
		if !filepath.IsAbs(p.path) {
			p.path = filepath.Join(filepath.Dir(file), p.path)
		}
		p.name = filepath.ToSlash(p.path)
		if p.text, err = os.ReadFile(p.path); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, n+1, err)
		}
		patches = append(patches, p)
	}
	return patches, nil
}

type goEnvVars struct{ GOROOT, GOVERSION, GOMOD string }

// goCommand runs go with the module's own go.mod: the GOFLAGS the Makefile
// sets name what patchmod makes.
func goCommand(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

func goEnv() (goEnvVars, error) {
	var env goEnvVars
	out, err := goCommand("", "env", "-json", "GOROOT", "GOVERSION", "GOMOD")
	if err == nil {
		err = json.Unmarshal(out, &env)
	}
	return env, err
}

// goModToolchain is go.mod's toolchain line's version ("go1.26.8"), or "".
func goModToolchain(goMod string) string {
	text, _ := os.ReadFile(goMod)
	for _, line := range strings.Split(string(text), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "toolchain" {
			return f[1]
		}
	}
	return ""
}

// A moduleSource is a module as go.mod pins it, in the module cache.
type moduleSource struct {
	Path, Version, Dir, Sum string
	patch                   patchFile
}

// downloadModule finds (downloading it if need be, checked against
// go.sum) the version of modulePath that the module in root requires.
func downloadModule(root, modulePath string) (moduleSource, error) {
	var m struct {
		moduleSource
		Error string
	}
	out, err := goCommand(root, "mod", "download", "-json", modulePath)
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	if err == nil && m.Error != "" {
		err = errors.New(m.Error)
	}
	if err == nil && (m.Dir == "" || m.Sum == "") {
		err = fmt.Errorf("go mod download gave no directory or hash for %s", modulePath)
	}
	if err != nil {
		return moduleSource{}, fmt.Errorf("%s: %w", modulePath, err)
	}
	return m.moduleSource, nil
}

// A preparation is one run of patchmod, its inputs resolved.
type preparation struct {
	root, out     string // the main module's directory; the output directory
	goroot        string
	goVersion     string // go env GOVERSION
	toolchain     string // go.mod's toolchain line, for messages
	modules       []moduleSource
	gorootPatches []patchFile
	log           func(string)
}

// stampVersion changes when what patchmod writes changes shape, so that
// copies made by an older patchmod are made again.
const stampVersion = "patchmod 1"

func (p preparation) prepare() error {
	if strings.ContainsAny(p.absOut(), " \t\n") {
		return fmt.Errorf("%s: GOFLAGS cannot name a path with spaces; check the project out elsewhere", p.absOut())
	}
	if err := os.MkdirAll(p.out, 0o755); err != nil {
		return err
	}
	sumFile := filepath.Join(p.out, "patches.sum")
	previous := readSums(sumFile)
	var sums []string
	var replaces []string
	for _, m := range p.modules {
		dir := filepath.Join(p.out, filepath.FromSlash(m.Path)+"@"+m.Version)
		in := hashOf(stampVersion, m.Path, m.Version, m.Sum, m.patch.name, string(m.patch.text))
		what := fmt.Sprintf("%s %s + %s", m.Path, m.Version, m.patch.name)
		outHash, err := p.ensure(dir, in, previous, what, func(tmp string) error {
			if err := os.CopyFS(tmp, os.DirFS(m.Dir)); err != nil {
				return err
			}
			return applyPatch(tmp, m.patch, fmt.Sprintf("%s %s", m.Path, m.Version), "")
		})
		if err != nil {
			return err
		}
		sums = append(sums, sumLine(dir, in, outHash))
		replaces = append(replaces, fmt.Sprintf("replace %s => %s", m.Path, p.modulePath(dir)))
	}

	overlay := map[string]string{}
	if len(p.gorootPatches) > 0 {
		dir := filepath.Join(p.out, "goroot")
		files, err := gorootFiles(p.gorootPatches)
		if err != nil {
			return err
		}
		parts := []string{stampVersion, p.goVersion, p.goroot}
		for _, f := range files {
			text, err := os.ReadFile(filepath.Join(p.goroot, "src", filepath.FromSlash(f)))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			parts = append(parts, f, string(text))
		}
		for _, patch := range p.gorootPatches {
			parts = append(parts, patch.name, string(patch.text))
		}
		in := hashOf(parts...)
		var names []string
		for _, patch := range p.gorootPatches {
			names = append(names, patch.name)
		}
		what := fmt.Sprintf("%s's standard library + %s", p.goVersion, strings.Join(names, ", "))
		outHash, err := p.ensure(dir, in, previous, what, func(tmp string) error {
			for _, f := range files {
				text, err := os.ReadFile(filepath.Join(p.goroot, "src", filepath.FromSlash(f)))
				if errors.Is(err, fs.ErrNotExist) {
					continue // a file a patch adds
				}
				if err != nil {
					return err
				}
				if err := writeFile(filepath.Join(tmp, "src", filepath.FromSlash(f)), text); err != nil {
					return err
				}
			}
			for _, patch := range p.gorootPatches {
				hint := ""
				if p.toolchain != "" && p.toolchain != p.goVersion {
					hint = fmt.Sprintf("it is made for go.mod's toolchain, %s: build with that (make sets GOTOOLCHAIN to it) or redo the patch for %s (docs/patches.md)", p.toolchain, p.goVersion)
				}
				if err := applyPatch(filepath.Join(tmp, "src"), patch, p.goVersion+"'s standard library ("+p.goroot+")", hint); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		sums = append(sums, sumLine(dir, in, outHash))
		absDir, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		for _, f := range files {
			copyPath := filepath.Join(absDir, "src", filepath.FromSlash(f))
			if _, err := os.Stat(copyPath); errors.Is(err, fs.ErrNotExist) {
				copyPath = "" // a file a patch removes
			}
			overlay[filepath.Join(p.goroot, "src", filepath.FromSlash(f))] = copyPath
		}
	}

	// The module file: go.mod and its replacements. The go.sum is the
	// module's own (a directory replacement has no hash of its own).
	goMod, err := os.ReadFile(filepath.Join(p.root, "go.mod"))
	if err != nil {
		return err
	}
	for _, m := range p.modules {
		if bytes.Contains(goMod, []byte("replace "+m.Path+" ")) || bytes.Contains(goMod, []byte("\t"+m.Path+" =>")) {
			return fmt.Errorf("go.mod replaces %s already: patch the replacement instead", m.Path)
		}
	}
	modFile := append(bytes.TrimRight(goMod, "\n"), "\n\n// The patched copies (tools/patchmod, wasm/patches.txt).\n"...)
	for _, r := range replaces {
		modFile = append(modFile, r+"\n"...)
	}
	goSum, err := os.ReadFile(filepath.Join(p.root, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	overlayJSON, err := json.MarshalIndent(map[string]any{"Replace": overlay}, "", "\t")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		text []byte
	}{{"go.mod", modFile}, {"go.sum", goSum}, {"overlay.json", append(overlayJSON, '\n')}} {
		if err := writeIfChanged(filepath.Join(p.out, f.name), f.text); err != nil {
			return err
		}
		sums = append(sums, f.name+" "+hashOf(string(f.text)))
	}
	return writeIfChanged(sumFile, []byte("# What tools/patchmod made each copy from, and the copy's content hash.\n"+strings.Join(sums, "\n")+"\n"))
}

// ensure makes dir with make unless the record of a previous run says it
// was made from in and dir still hashes as it did then. It returns dir's
// content hash.
func (p preparation) ensure(dir, in string, previous map[string][2]string, what string, build func(tmp string) error) (string, error) {
	if prev, ok := previous[filepath.ToSlash(dir)]; ok && prev[0] == in {
		if h, err := hashTree(dir); err == nil && h == prev[1] {
			return h, nil
		}
	}
	p.log("making " + filepath.ToSlash(dir) + " (" + what + ")")
	tmp := dir + ".tmp"
	if err := removeAll(tmp); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		return "", err
	}
	if err := build(tmp); err != nil {
		removeAll(tmp)
		return "", err
	}
	if err := removeAll(dir); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return hashTree(dir)
}

// applyPatch applies patch to the tree in dir, which holds what.
func applyPatch(dir string, patch patchFile, what, hint string) error {
	files, err := parseDiff(string(patch.text))
	if err != nil {
		return fmt.Errorf("%s: %w", patch.name, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s changes no file", patch.name)
	}
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.name))
		var text []byte
		if !f.create {
			if text, err = os.ReadFile(path); err != nil {
				return fmt.Errorf("%s does not apply to %s: %w", patch.name, what, err)
			}
		} else if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s does not apply to %s: %s, which it adds, exists", patch.name, what, f.name)
		}
		patched, err := f.apply(string(text))
		if err != nil {
			msg := fmt.Sprintf("%s does not apply to %s: %s: %v", patch.name, what, f.name, err)
			if hint != "" {
				msg += "; " + hint
			} else {
				msg += "; redo it for this version (docs/patches.md)"
			}
			return errors.New(msg)
		}
		if f.remove {
			if err := os.Remove(path); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(path, []byte(patched)); err != nil {
			return err
		}
	}
	return nil
}

// gorootFiles lists the files (paths under GOROOT/src) the patches touch.
func gorootFiles(patches []patchFile) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	for _, patch := range patches {
		fps, err := parseDiff(string(patch.text))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", patch.name, err)
		}
		for _, f := range fps {
			if !seen[f.name] {
				seen[f.name] = true
				files = append(files, f.name)
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

// modulePath is dir as go.mod's replace names it: relative to the module
// root (./bin/mod/...) when inside it, so that nothing in the build
// depends on where the project is checked out.
func (p preparation) modulePath(dir string) string {
	abs, _ := filepath.Abs(dir)
	root, _ := filepath.Abs(p.root)
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return "./" + filepath.ToSlash(rel)
	}
	return abs
}

func (p preparation) absOut() string {
	abs, _ := filepath.Abs(p.out)
	return abs
}

// hashOf hashes its parts, each length-prefixed.
func hashOf(parts ...string) string {
	h := sha256.New()
	for _, s := range parts {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashTree hashes the names, modes and contents of the files under dir.
func hashTree(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %o %d\n", filepath.ToSlash(rel), info.Mode().Perm()&0o111, len(text))
		h.Write(text)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

func sumLine(dir, in, out string) string {
	return filepath.ToSlash(dir) + " " + in + " " + out
}

// readSums reads a previous run's patches.sum: directory -> {in, out}.
func readSums(file string) map[string][2]string {
	sums := map[string][2]string{}
	text, _ := os.ReadFile(file)
	for _, line := range strings.Split(string(text), "\n") {
		if f := strings.Fields(line); len(f) == 3 && !strings.HasPrefix(line, "#") {
			sums[f[0]] = [2]string{f[1], f[2]}
		}
	}
	return sums
}

func writeFile(path string, text []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, text, 0o644)
}

// writeIfChanged writes text to path unless path holds it already, so
// that its mtime changes only with its content.
func writeIfChanged(path string, text []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, text) {
		return nil
	}
	tmp := path + ".tmp"
	if err := writeFile(tmp, text); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// removeAll removes dir, making it writable first (copies of the module
// cache's files made by an older tool may be read-only).
func removeAll(dir string) error {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
