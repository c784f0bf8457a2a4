package i18n

// The built-in renderers' strings (components/coderun.go, toolimage.go,
// mermaid.go), merged into the catalogs. Tables of values rather than map
// literals: in app.wasm a map literal is code, entry by entry; these are
// data.
var rendererText = [...]struct{ key, en, fr, vi string }{
	{"code.exit", "exit %d", "code de sortie %d", "mã thoát %d"},
	{"code.stdout", "Output", "Sortie", "Đầu ra"},
	{"code.stderr", "Errors (stderr)", "Erreurs (stderr)", "Lỗi (stderr)"},
	{"code.no_output", "No output.", "Aucune sortie.", "Không có đầu ra."},
	{"code.terminal", "Terminal", "Terminal", "Terminal"},
	{"code.python", "Python code", "Code Python", "Mã Python"},
	{"code.files", "Files made:", "Fichiers créés :", "Tệp đã tạo:"},
	{"code.viewed", "Viewed", "Consulté", "Đã xem"},
	{"code.created", "Created", "Créé", "Đã tạo"},
	{"code.replaced", "Overwritten", "Remplacé", "Đã ghi đè"},
	{"code.not_text", "This file is not text (%s): nothing to show here.", "Ce fichier n’est pas du texte (%s) : rien à afficher ici.", "Tệp này không phải văn bản (%s): không có gì để hiển thị ở đây."},
	{"code.empty_file", "The file is empty.", "Le fichier est vide.", "Tệp trống."},
	{"code.lines_of", "lines %d–%d of %d", "lignes %d à %d sur %d", "dòng %d–%d trên %d"},
	{"code.diff", "Changes to %s: %d lines added, %d removed", "Modifications de %s : %d lignes ajoutées, %d supprimées", "Thay đổi trong %s: thêm %d dòng, xóa %d dòng"},
	{"code.no_tools", "No tools found.", "Aucun outil trouvé.", "Không tìm thấy công cụ nào."},
	{"code.searched", "Searched for: %s", "Recherche : %s", "Đã tìm: %s"},
	{"code.tools_found", "Tools found", "Outils trouvés", "Công cụ tìm thấy"},
	{"image.alt", "Image %d returned by %s", "Image %d renvoyée par %s", "Hình %d do %s trả về"},
	{"image.open", "Open full size: %s", "Ouvrir en taille réelle : %s", "Mở cỡ đầy đủ: %s"},
	{"image.close", "Close", "Fermer", "Đóng"},
	{"mermaid.title", "Diagram", "Diagramme", "Sơ đồ"},
	{"mermaid.source", "Source", "Source", "Mã nguồn"},
	{"image.external", "%s, on %s (opens in a new tab)", "%s, sur %s (s’ouvre dans un nouvel onglet)", "%s, trên %s (mở trong thẻ mới)"},
}

var rendererPlurals = [...]struct {
	key        string
	en, fr, vi Forms
}{
	{"code.lines", Forms{One: "%d line", Other: "%d lines"},
		Forms{One: "%d ligne", Many: "%d de lignes", Other: "%d lignes"},
		Forms{Other: "%d dòng"}},
	{"code.more_lines", Forms{One: "%d more line not shown.", Other: "%d more lines not shown."},
		Forms{One: "%d ligne de plus non affichée.", Many: "%d de lignes de plus non affichées.", Other: "%d lignes de plus non affichées."},
		Forms{Other: "Còn %d dòng nữa không hiển thị."}},
	{"code.tools_count", Forms{One: "%d tool found", Other: "%d tools found"},
		Forms{One: "%d outil trouvé", Many: "%d d’outils trouvés", Other: "%d outils trouvés"},
		Forms{Other: "Tìm thấy %d công cụ"}},
}

func init() {
	for _, t := range rendererText {
		en.text[t.key], fr.text[t.key], vi.text[t.key] = t.en, t.fr, t.vi
	}
	for _, p := range rendererPlurals {
		en.plurals[p.key], fr.plurals[p.key], vi.plurals[p.key] = p.en, p.fr, p.vi
	}
}
