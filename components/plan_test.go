package components

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

func writeTodosEvent(i, id, label, todos string) string {
	return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"write_todos","input":` + todos + `,"tool_content_message":"` + label + `"}}`
}

const (
	planV1 = `{"todos":[{"content":"Get prices","status":"in_progress"},{"content":"Compare","status":"pending"},{"content":"Answer","status":"pending"}]}`
	planV2 = `{"todos":[{"content":"Get prices","status":"completed"},{"content":"Compare","status":"in_progress"},{"content":"Answer","status":"pending"}]}`
)

// openTag is the opening tag of the element carrying attr, whatever the
// order go-app writes attributes in ("" when none).
func openTag(html, attr string) string {
	return regexp.MustCompile(`<[a-z0-9]+ [^>]*` + regexp.QuoteMeta(attr) + `[^>]*>`).FindString(html)
}

// todoStatuses are the data-status of each checklist entry, in order.
func todoStatuses(html string) []string {
	var out []string
	for _, tag := range regexp.MustCompile(`<li [^>]*data-testid="plan-todo"[^>]*>`).FindAllString(html, -1) {
		out = append(out, regexp.MustCompile(`data-status="([a-z_]+)"`).FindStringSubmatch(tag)[1])
	}
	return out
}

// Each write_todos step is a checklist of its own input: a list, each
// entry's state shown by its icon and class and said in words.
func TestPlanStepIsAChecklistOfItsOwnInput(t *testing.T) {
	s := storeOf(t, start, gs,
		writeTodosEvent("1", "p1", "", planV1), `{"type":"content_block_stop","index":1}`,
		writeTodosEvent("2", "p2", "Update the plan", planV2), `{"type":"content_block_stop","index":2}`)
	steps := s.Items()[0].Group.Steps
	first := itemHTML(t, in("en"), steps[0])
	assert.Equal(t, []string{"in_progress", "pending", "pending"}, todoStatuses(first), "the first call keeps its own statuses")
	assert.NotEmpty(t, openTag(first, `data-testid="plan-list"`))
	assert.Contains(t, openTag(first, `data-testid="plan-list"`), `role="list"`)
	assert.Contains(t, first, "<ul ")
	assert.Equal(t, 3, strings.Count(first, "<li "))
	assert.Contains(t, first, ">Plan</span>", "no label from the backend: the UI's own word")
	assert.Contains(t, first, ">0/3</span>")
	assert.Contains(t, first, "0 of 3 done")
	assert.Contains(t, first, ", In progress</span>")
	assert.Contains(t, first, ", To do</span>")
	assert.Contains(t, openTag(first, `data-status="in_progress"`), "todo-in_progress")
	assert.Equal(t, 3, strings.Count(first, `class="todo-icon"`), "a shape per state")

	second := itemHTML(t, in("en"), steps[1])
	assert.Equal(t, []string{"completed", "in_progress", "pending"}, todoStatuses(second))
	assert.Contains(t, second, ">Update the plan</span>", "the backend's label wins")
	assert.Contains(t, second, "1 of 3 done")
	assert.Contains(t, second, ", Done</span>")
	assert.Contains(t, second, `class="todo-tick"`)
}

func TestPlanStepLanguagesAndPlurals(t *testing.T) {
	s := storeOf(t, start, writeTodosEvent("0", "p1", "", planV2), `{"type":"content_block_stop","index":0}`)
	it := s.Items()[0]
	vi := itemHTML(t, in("vi"), it)
	assert.Contains(t, vi, ">Kế hoạch</span>")
	assert.Contains(t, vi, ", Đã xong</span>")
	assert.Contains(t, vi, ", Đang làm</span>")
	assert.Contains(t, vi, "Xong 1/3 việc")
	fr := itemHTML(t, in("fr"), it)
	assert.Contains(t, fr, ", En cours</span>")
	assert.Contains(t, fr, ", À faire</span>")
	assert.Contains(t, fr, "1 sur 3 terminée<", "French: singular for 0 and 1")
	assert.Equal(t, "2 sur 3 terminées", in("fr").N("plan.progress", 2, 3))
	assert.Equal(t, "1 of 1 done", in("en").N("plan.progress", 1, 1))
}

// Input that holds no todo list shows as an ordinary tool row; an empty
// list says so; junk entries are left out.
func TestPlanStepBadInput(t *testing.T) {
	s := storeOf(t, start,
		writeTodosEvent("0", "p1", "", `{"oops":1}`), `{"type":"content_block_stop","index":0}`,
		writeTodosEvent("1", "p2", "", `{"todos":[]}`), `{"type":"content_block_stop","index":1}`,
		writeTodosEvent("2", "p3", "", `{"todos":[null,{"content":""},7,"Only this"]}`), `{"type":"content_block_stop","index":2}`)
	items := s.Items()
	require.Len(t, items, 3)
	bad := itemHTML(t, in("en"), items[0])
	assert.NotContains(t, bad, "plan-list")
	assert.Contains(t, bad, `class="tool-row"`)
	empty := itemHTML(t, in("en"), items[1])
	assert.Contains(t, empty, "The plan is empty.")
	assert.NotContains(t, empty, "plan-list")
	junk := itemHTML(t, in("en"), items[2])
	assert.Equal(t, []string{"pending"}, todoStatuses(junk))
	assert.Contains(t, junk, ">Only this</span>")
}

// The header's Plan button: absent without a plan; with one, its progress
// and a closed disclosure; open, the newest plan's checklist under it.
func TestPlanControl(t *testing.T) {
	none := render(t, &PlanControl{Settings: in("en")})
	assert.NotContains(t, none, "plan-button")

	p := &state.Plan{ToolID: "p2", Todos: []state.Todo{
		{Content: "Get prices", Status: state.TodoCompleted},
		{Content: "Compare", Status: state.TodoInProgress},
		{Content: "Answer", Status: state.TodoPending},
	}}
	c := &PlanControl{Settings: in("en"), Plan: p}
	html := render(t, c)
	button := openTag(html, `data-testid="plan-button"`)
	require.NotEmpty(t, button)
	assert.Contains(t, button, `aria-expanded="false"`)
	assert.Contains(t, button, `aria-controls="plan-popover"`)
	assert.Contains(t, button, `type="button"`)
	assert.Contains(t, html, ">Plan</span>")
	assert.Contains(t, html, ">1/3</span>")
	assert.Contains(t, html, "1 of 3 done", "the progress in words for screen readers")
	assert.NotContains(t, html, `data-testid="plan-popover"`, "closed")

	html = render(t, &PlanControl{Settings: in("en"), Plan: p, open: true})
	assert.True(t, expandedTrue(openTag(html, `data-testid="plan-button"`)))
	pop := openTag(html, `data-testid="plan-popover"`)
	require.NotEmpty(t, pop)
	assert.Contains(t, pop, `id="plan-popover"`)
	assert.Contains(t, pop, `aria-labelledby="plan-popover-title"`)
	assert.Contains(t, html, `<h2 id="plan-popover-title">Plan</h2>`)
	assert.Equal(t, []string{"completed", "in_progress", "pending"}, todoStatuses(html))

	// A plan with nothing in it shows no button.
	empty := render(t, &PlanControl{Settings: in("en"), Plan: &state.Plan{}})
	assert.NotContains(t, empty, "plan-button")
}

// The page's header carries the newest plan the controller passes.
func TestPageHeaderShowsTheNewestPlan(t *testing.T) {
	s := storeOf(t, start, gs,
		writeTodosEvent("1", "p1", "", planV1), `{"type":"content_block_stop","index":1}`,
		writeTodosEvent("2", "p2", "", planV2), `{"type":"content_block_stop","index":2}`)
	plan, ok := s.Plan()
	require.True(t, ok)
	props := PageProps{Settings: in("vi"), Items: s.Items(), Status: s.Status(), Plan: &plan}
	e := app.NewTestEngine()
	page := &pageCompo{props: props}
	require.NoError(t, e.Load(page))
	e.ConsumeAll()
	html := app.HTMLString(page)
	header := html[strings.Index(html, "<header"):strings.Index(html, "</header>")]
	assert.Contains(t, header, `data-testid="plan-button"`)
	assert.Contains(t, header, ">1/3</span>")
	assert.Contains(t, header, "Xong 1/3 việc")

	props.Plan = nil
	page = &pageCompo{props: props}
	require.NoError(t, app.NewTestEngine().Load(page))
	html = app.HTMLString(page)
	assert.NotContains(t, html, `data-testid="plan-button"`)
}

// pageCompo renders Page as a component, so its child components render.
type pageCompo struct {
	app.Compo
	props PageProps
}

func (p *pageCompo) Render() app.UI { return Page(p.props) }
