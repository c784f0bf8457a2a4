package i18n

// The built-in renderers' strings in en and vi (components/coderun.go,
// toolimage.go, mermaid.go), merged into those catalogs. Tables of values rather than map
// literals: in app.wasm a map literal is code, entry by entry; these are
// data.
var rendererText = [...]struct{ key, en, vi string }{
	{"code.exit", "exit %d", "mã thoát %d"},
	{"code.stdout", "Output", "Đầu ra"},
	{"code.stderr", "Errors (stderr)", "Lỗi (stderr)"},
	{"code.no_output", "No output.", "Không có đầu ra."},
	{"code.terminal", "Terminal", "Terminal"},
	{"code.python", "Python code", "Mã Python"},
	{"code.files", "Files made:", "Tệp đã tạo:"},
	{"code.viewed", "Viewed", "Đã xem"},
	{"code.created", "Created", "Đã tạo"},
	{"code.replaced", "Overwritten", "Đã ghi đè"},
	{"code.not_text", "This file is not text (%s): nothing to show here.", "Tệp này không phải văn bản (%s): không có gì để hiển thị ở đây."},
	{"code.empty_file", "The file is empty.", "Tệp trống."},
	{"code.lines_of", "lines %d–%d of %d", "dòng %d–%d trên %d"},
	{"code.diff", "Changes to %s: %d lines added, %d removed", "Thay đổi trong %s: thêm %d dòng, xóa %d dòng"},
	{"code.no_tools", "No tools found.", "Không tìm thấy công cụ nào."},
	{"code.searched", "Searched for: %s", "Đã tìm: %s"},
	{"code.tools_found", "Tools found", "Công cụ tìm thấy"},
	{"image.alt", "Image %d returned by %s", "Hình %d do %s trả về"},
	{"image.open", "Open full size: %s", "Mở cỡ đầy đủ: %s"},
	{"image.close", "Close", "Đóng"},
	{"mermaid.title", "Diagram", "Sơ đồ"},
	{"mermaid.source", "Source", "Mã nguồn"},
	{"image.external", "%s, on %s (opens in a new tab)", "%s, trên %s (mở trong thẻ mới)"},
}

var rendererPlurals = [...]struct {
	key    string
	en, vi Forms
}{
	{"code.lines", Forms{One: "%d line", Other: "%d lines"}, Forms{Other: "%d dòng"}},
	{"code.more_lines", Forms{One: "%d more line not shown.", Other: "%d more lines not shown."}, Forms{Other: "Còn %d dòng nữa không hiển thị."}},
	{"code.tools_count", Forms{One: "%d tool found", Other: "%d tools found"}, Forms{Other: "Tìm thấy %d công cụ"}},
}

// The other languages have these keys in their JSON catalogs.
func init() {
	for _, t := range rendererText {
		en.text[t.key], vi.text[t.key] = t.en, t.vi
	}
	for _, p := range rendererPlurals {
		en.plurals[p.key], vi.plurals[p.key] = p.en, p.vi
	}
}
