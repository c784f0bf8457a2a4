package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// The container image cannot be built here (docker build needs an engine
// the test machines lack): these tests hold the Dockerfile, .dockerignore
// and compose.yaml to what the repository builds and the server reads,
// and run the compose example's configuration natively.

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	cmd, args string
}

// stage is a Dockerfile stage: FROM's image, its name, its instructions.
type stage struct {
	from, name string
	body       []instruction
}

func readDockerfile(t *testing.T) (args map[string]string, stages []stage) {
	t.Helper()
	b, err := os.ReadFile("../Dockerfile")
	require.NoError(t, err)
	args = map[string]string{}
	var logical []string
	var cur strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur.Len() == 0) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		logical = append(logical, cur.String())
		cur.Reset()
	}
	for _, l := range logical {
		cmd, rest, _ := strings.Cut(l, " ")
		cmd, rest = strings.ToUpper(cmd), strings.TrimSpace(rest)
		switch {
		case cmd == "ARG" && len(stages) == 0:
			k, v, _ := strings.Cut(rest, "=")
			args[k] = v
		case cmd == "FROM":
			f := strings.Fields(rest)
			st := stage{from: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				st.name = f[2]
			}
			stages = append(stages, st)
		default:
			require.NotEmpty(t, stages, "%s before FROM", cmd)
			stages[len(stages)-1].body = append(stages[len(stages)-1].body, instruction{cmd, rest})
		}
	}
	return args, stages
}

func (s stage) all(cmd string) []string {
	var out []string
	for _, in := range s.body {
		if in.cmd == cmd {
			out = append(out, in.args)
		}
	}
	return out
}

// makeTarget returns a Makefile target's prerequisites and recipe lines.
func makeTarget(t *testing.T, makefile, target string) (prereqs []string, recipe []string) {
	t.Helper()
	lines := strings.Split(makefile, "\n")
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, target+":"); ok && !strings.HasPrefix(rest, "=") {
			prereqs = strings.Fields(rest)
			for _, r := range lines[i+1:] {
				if !strings.HasPrefix(r, "\t") {
					break
				}
				recipe = append(recipe, strings.TrimSpace(r))
			}
			return prereqs, recipe
		}
	}
	t.Fatalf("the Makefile has no target %s", target)
	return nil, nil
}

// buildRecipes returns the recipe lines target runs, with those of the
// targets it depends on or makes with $(MAKE), recursively.
func buildRecipes(makefile, target string, seen map[string]bool) []string {
	if seen[target] {
		return nil
	}
	seen[target] = true
	var out []string
	lines := strings.Split(makefile, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, target+":")
		if !ok || strings.HasPrefix(rest, "=") {
			continue
		}
		var recipe []string
		for _, r := range lines[i+1:] {
			if !strings.HasPrefix(r, "\t") {
				break
			}
			recipe = append(recipe, strings.TrimSpace(r))
		}
		out = append(out, recipe...)
		deps := strings.Fields(rest)
		for _, r := range recipe {
			if _, after, ok := strings.Cut(r, "$(MAKE)"); ok {
				deps = append(deps, strings.Fields(after)...)
			}
		}
		for _, d := range deps {
			out = append(out, buildRecipes(makefile, d, seen)...)
		}
	}
	return out
}

// serverFlags are the server's flag names, from its own usage.
func serverFlags(t *testing.T) map[string]bool {
	t.Helper()
	raw, _ := json.Marshal([]string{"-h"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STEPWISE_TEST_SERVE="+string(raw))
	out, _ := cmd.CombinedOutput()
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(string(out), -1) {
		flags[m[1]] = true
	}
	require.Contains(t, flags, "backend", "usage: %s", out)
	return flags
}

// envFlag is the flag a STEPWISE_ variable sets ("" when it names none).
func envFlag(flags map[string]bool, name string) string {
	f := strings.ToLower(strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(name, envPrefix), "_FILE"), "_", "-"))
	if flags[f] && strings.HasPrefix(name, envPrefix) {
		return f
	}
	return ""
}

// The build stage runs the Makefile's own build (the wasm's patches and
// all) with the tools its recipes call, on the Go release of go.mod; the
// final stage takes what `make build` makes, runs as a non-root user, and
// is configured by variables the server reads.
func TestDockerfileBuildsWhatMakeBuilds(t *testing.T) {
	args, stages := readDockerfile(t)
	require.Len(t, stages, 2, "a build stage and a final one")
	build, final := stages[0], stages[1]
	require.Equal(t, "build", build.name)

	makefile, err := os.ReadFile("../Makefile")
	require.NoError(t, err)
	mk := string(makefile)
	runs := strings.Join(build.all("RUN"), "\n")
	assert.Regexp(t, `(?m)(^|&& )make build( |$)`, runs, "the build stage runs make build")
	for _, step := range []string{"GOOS=js", "patch --batch", "brotli -q", "-overlay"} {
		assert.NotContains(t, runs, step, "the Makefile's steps are not copied into the Dockerfile")
	}
	// The tools the build's recipes call that the golang image lacks.
	used := strings.Join(buildRecipes(mk, "build", map[string]bool{}), "\n")
	require.Contains(t, used, "-o $@ ./wasm", "the recipes of make build, through its prerequisites")
	for _, tool := range []string{"patch", "brotli", "npm"} {
		if regexp.MustCompile(`(^|[\s;(|&])` + tool + `\s`).MatchString(used) {
			assert.Regexp(t, `apt-get install [^&]*\b`+tool+`\b`, runs, "the build stage installs %s, which make build calls", tool)
		}
	}

	// make build's outputs are what the final stage copies.
	prereqs, _ := makeTarget(t, mk, "build")
	workdir := build.all("WORKDIR")
	require.NotEmpty(t, workdir)
	var copied []string
	copiedTo := map[string]string{} // destination -> source, relative to WORKDIR
	for _, c := range final.all("COPY") {
		f := strings.Fields(c)
		require.True(t, strings.HasPrefix(f[0], "--from=build"), "the final stage copies from the build only: %s", c)
		src := f[len(f)-2]
		if rel, ok := strings.CutPrefix(src, workdir[len(workdir)-1]+"/"); ok {
			copied = append(copied, rel)
			copiedTo[f[len(f)-1]] = rel
		}
	}
	// The static assets beside app.wasm: the -web directory is web/, whole.
	var webEnv string
	for _, env := range final.all("ENV") {
		if m := regexp.MustCompile(`STEPWISE_WEB=(\S+)`).FindStringSubmatch(env); m != nil {
			webEnv = m[1]
		}
	}
	assert.Equal(t, "web", copiedTo[webEnv], "STEPWISE_WEB (%s) is the repository's web/ directory", webEnv)
	for _, out := range prereqs {
		ok := false
		for _, c := range copied {
			ok = ok || out == c || strings.HasPrefix(out, c+"/")
		}
		assert.True(t, ok, "make build makes %s; the final stage does not copy it (copies %q)", out, copied)
	}

	// The Go release: go.mod's (its toolchain line when it has one).
	gomod, err := os.ReadFile("../go.mod")
	require.NoError(t, err)
	goLine := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(gomod)
	require.NotNil(t, goLine)
	assert.True(t, strings.HasPrefix(args["GO_VERSION"]+".", string(goLine[1])+"."), "GO_VERSION %s is not go.mod's go %s", args["GO_VERSION"], goLine[1])
	if tc := regexp.MustCompile(`(?m)^toolchain go(\S+)`).FindSubmatch(gomod); tc != nil {
		assert.Equal(t, string(tc[1]), args["GO_VERSION"], "go.mod's toolchain")
	}
	assert.Contains(t, build.from, "${GO_VERSION}")

	// Not root; run by its own health check; configured by real flags.
	users := final.all("USER")
	require.NotEmpty(t, users, "the final stage sets a user")
	user := users[len(users)-1]
	assert.NotRegexp(t, `^(root|0)(:|$)`, user)
	assert.Contains(t, strings.Join(final.all("HEALTHCHECK"), " "), `"/stepwise", "healthcheck"`)
	assert.Equal(t, []string{`["/stepwise"]`}, final.all("ENTRYPOINT"))
	flags := serverFlags(t)
	for _, env := range final.all("ENV") {
		for _, kv := range strings.Fields(env) {
			name, _, _ := strings.Cut(kv, "=")
			assert.NotEmpty(t, envFlag(flags, name), "ENV %s names no flag", name)
		}
	}
}

// dockerignored reports whether .dockerignore's patterns exclude the
// path (its patterns here are plain: a name or glob matched against the
// path or one of its parents; **/ matches any depth).
func dockerignored(patterns []string, p string) bool {
	parts := strings.Split(p, "/")
	for _, pat := range patterns {
		for i := 1; i <= len(parts); i++ {
			prefix := strings.Join(parts[:i], "/")
			if ok, _ := path.Match(pat, prefix); ok {
				return true
			}
			if sub, ok := strings.CutPrefix(pat, "**/"); ok {
				if ok, _ := path.Match(sub, parts[i-1]); ok {
					return true
				}
			}
		}
	}
	return false
}

// The build context leaves out built files and data, never a file the
// build reads.
func TestDockerignoreKeepsWhatTheBuildNeeds(t *testing.T) {
	b, err := os.ReadFile("../.dockerignore")
	require.NoError(t, err)
	var patterns []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			require.False(t, strings.HasPrefix(l, "!"), "exceptions are not read by this test: %s", l)
			patterns = append(patterns, strings.TrimPrefix(l, "/"))
		}
	}
	for _, out := range []string{".git", "bin/stepwise", "web/app.wasm", "web/app.wasm.br", "stepwise.db", "server/browsertest/testdata/agents/node_modules/ai/index.js",
		"web/mermaid/mermaid.min.js", "tools/mermaid/node_modules/mermaid/dist/mermaid.min.js"} {
		assert.True(t, dockerignored(patterns, out), "%s goes into the build context", out)
	}
	files, err := exec.Command("git", "-C", "..", "ls-files").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	n := 0
	for _, f := range strings.Split(strings.TrimSpace(string(files)), "\n") {
		top, _, _ := strings.Cut(f, "/")
		needed := f == "go.mod" || f == "go.sum" || f == "Makefile" ||
			top == "app" || top == "components" || top == "state" || top == "wasm" || top == "web" || top == "tools" ||
			(top == "server" && !strings.Contains(f, "testdata/") && !strings.HasSuffix(f, "_test.go"))
		if needed {
			n++
			assert.False(t, dockerignored(patterns, f), "%s is left out of the build context", f)
		}
	}
	assert.Greater(t, n, 50)
}

// composeFile is the part of compose.yaml the test reads.
type composeFile struct {
	Services map[string]struct {
		Build       any               `yaml:"build"`
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
		DependsOn   []string          `yaml:"depends_on"`
	} `yaml:"services"`
}

// The compose example: Stepwise built from this repository, configured by
// variables that name its flags, in front of the AG-UI test agent, which
// listens where STEPWISE_BACKEND points. Then the same configuration runs
// here, natively: the agent under Node, the server with the compose file's
// environment (hosts and ports made local), and a run goes through.
func TestComposeExample(t *testing.T) {
	raw, err := os.ReadFile("../compose.yaml")
	require.NoError(t, err)
	var c composeFile
	require.NoError(t, yaml.Unmarshal(raw, &c))
	sw, ok := c.Services["stepwise"]
	require.True(t, ok)
	agent, ok := c.Services["agent"]
	require.True(t, ok)
	assert.Equal(t, ".", sw.Build)
	assert.Contains(t, sw.DependsOn, "agent")
	flags := serverFlags(t)
	for name := range sw.Environment {
		assert.NotEmpty(t, envFlag(flags, name), "%s names no flag", name)
	}
	// The agent's image: its build context, the script and its flags.
	build, _ := agent.Build.(map[string]any)
	require.NotNil(t, build, "the agent is built")
	buildContext, _ := build["context"].(string)
	inline, _ := build["dockerfile_inline"].(string)
	cmdLine := regexp.MustCompile(`CMD \[(.*)\]`).FindStringSubmatch(inline)
	require.NotNil(t, cmdLine, "the agent's CMD")
	var cmd []string
	require.NoError(t, json.Unmarshal([]byte("["+cmdLine[1]+"]"), &cmd))
	require.Equal(t, "node", cmd[0])
	script := filepath.Join("..", buildContext, cmd[1])
	_, err = os.Stat(script)
	require.NoError(t, err, "the agent's script")
	for _, f := range regexp.MustCompile(`COPY (\S+)`).FindAllStringSubmatch(inline, -1) {
		_, err := os.Stat(filepath.Join("..", buildContext, f[1]))
		assert.NoError(t, err, "the agent's image copies %s", f[1])
	}
	argOf := func(name string) string {
		for i, a := range cmd {
			if a == name && i+1 < len(cmd) {
				return cmd[i+1]
			}
		}
		return ""
	}
	backend := sw.Environment["STEPWISE_BACKEND"]
	assert.Equal(t, "http://agent:"+argOf("--port")+"/agent", backend, "STEPWISE_BACKEND points at the agent's port")
	assert.Equal(t, "0.0.0.0", argOf("--host"), "the agent listens beyond its container's loopback")

	// Natively.
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("..", buildContext, "node_modules", "@ag-ui"))
	}
	if err != nil {
		msg := "the compose example's agent needs node and its packages: (cd server/browsertest/testdata/agents && npm ci)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	local := append([]string(nil), cmd[1:]...)
	for i := range local {
		switch {
		case i > 0 && local[i-1] == "--port":
			local[i] = "0"
		case i > 0 && local[i-1] == "--host":
			local[i] = "127.0.0.1"
		}
	}
	agentCmd := exec.CommandContext(ctx, node, local...)
	agentCmd.Dir = filepath.Join("..", buildContext)
	out, err := agentCmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, agentCmd.Start())
	t.Cleanup(func() {
		cancel()
		agentCmd.Wait()
	})
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				port <- p
			}
		}
	}()
	var agentPort string
	select {
	case agentPort = <-port:
	case <-time.After(60 * time.Second):
		t.Fatal("the agent did not start")
	}
	var env []string
	for k, v := range sw.Environment {
		v = strings.ReplaceAll(v, "http://agent:"+argOf("--port"), "http://127.0.0.1:"+agentPort)
		v = regexp.MustCompile(`\$\{(\w+):-([^}]*)\}`).ReplaceAllString(v, "$2") // compose's ${VAR:-default}
		env = append(env, k+"="+v)
	}
	s := startServerEnv(t, env, "-addr", "127.0.0.1:0", "-web", fakeWeb(t))
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/agent", strings.NewReader(
		`{"threadId":"t1","runId":"r1","state":{},"messages":[{"id":"u1","role":"user","content":"What is the weather?"}],"tools":[],"context":[],"forwardedProps":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", s.URL)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), "RUN_STARTED")
	assert.Contains(t, string(body), "RUN_FINISHED")
	for _, l := range s.lines() {
		var m map[string]any
		assert.NoError(t, json.Unmarshal([]byte(l), &m), "STEPWISE_LOG_FORMAT json: %s", l)
	}
}
