package components

import (
	"fmt"
	"strings"
)

// Languages are the catalogs' languages, the default first.
var Languages = []string{"vi", "en", "fr"}

// catalogs hold every user-visible string. Keys name what the string is for.
var catalogs = map[string]map[string]string{
	"vi": {
		"app.tagline":                  "Trợ lý AI với công cụ",
		"group.working":                "Đang xử lý...",
		"group.done":                   "✓ Hoàn thành",
		"group.more":                   "+%d bước trước",
		"tool.request":                 "Yêu cầu",
		"tool.response":                "Kết quả",
		"tool.no_response":             "Chưa có kết quả",
		"status.active":                "Đang chạy",
		"status.awaiting":              "Chờ cho phép",
		"status.done":                  "Xong",
		"status.error":                 "Lỗi",
		"status.interrupted":           "Bị gián đoạn",
		"thinking.title":               "Suy nghĩ",
		"search.title":                 "🔍 Tìm kiếm web",
		"search.results":               "%d kết quả",
		"sources.button":               "Nguồn",
		"sources.title":                "Nguồn tham khảo",
		"sources.close":                "Đóng",
		"sources.resize":               "Đổi độ rộng bảng nguồn",
		"sources.empty":                "Chưa có nguồn nào.",
		"question.other":               "Khác",
		"question.other_input":         "Nhập câu trả lời của bạn",
		"question.skip":                "Bỏ qua",
		"question.unskip":              "Trả lời câu này",
		"question.skipped":             "Đã bỏ qua",
		"question.submit":              "Gửi câu trả lời",
		"question.sending":             "Đang gửi...",
		"question.time_left":           "Còn %s",
		"question.answered":            "Đã trả lời",
		"question.expired":             "Đã hết thời gian trả lời",
		"question.no_answer":           "Không có câu trả lời",
		"question.err.unanswered":      "Hãy chọn một câu trả lời cho câu %d, hoặc bỏ qua.",
		"question.err.empty_free_text": "Hãy nhập câu trả lời \"Khác\" cho câu %d.",
		"question.err.too_many":        "Câu %d chỉ nhận một lựa chọn.",
		"question.err.bad_option":      "Lựa chọn của câu %d không hợp lệ.",
		"approval.title":               "Cho phép %s thực hiện?",
		"approval.title_many":          "Cho phép %d thao tác thực hiện?",
		"approval.approve":             "Cho phép",
		"approval.edit":                "Sửa tham số",
		"approval.reject":              "Từ chối",
		"approval.respond":             "Trả lời thay",
		"approval.send":                "Gửi",
		"approval.cancel":              "Hủy",
		"approval.args":                "Tham số (JSON)",
		"approval.reason":              "Lý do (không bắt buộc)",
		"approval.response":            "Câu trả lời thay cho công cụ",
		"approval.invalid_json":        "JSON không hợp lệ: %s",
		"approval.choose":              "Hãy chọn quyết định cho mọi thao tác.",
		"approval.sending":             "Đang gửi...",
		"approval.state.approved":      "Đã cho phép",
		"approval.state.edited":        "Đã cho phép với tham số đã sửa",
		"approval.state.rejected":      "Đã từ chối",
		"approval.state.responded":     "Đã trả lời thay",
		"approval.state.expired":       "Đã hết thời gian",
		"stopped":                      "Bạn đã dừng tác vụ",
		"error.generic":                "Đã xảy ra lỗi",
		"unknown.title":                "Nội dung chưa hỗ trợ: %s",
		"composer.placeholder":         "Nhắn cho trợ lý…  (Enter để gửi, Shift+Enter xuống dòng)",
		"composer.label":               "Tin nhắn",
		"composer.send":                "Gửi",
		"composer.stop":                "Dừng",
		"empty.title":                  "Bắt đầu một cuộc trò chuyện",
		"empty.hint":                   "Hỏi điều bạn cần, hoặc thử một kịch bản mẫu:",
		"connection.connecting":        "Đang kết nối…",
		"connection.open":              "Đã kết nối",
		"connection.reconnecting":      "Mất kết nối, đang thử lại…",
		"connection.closed":            "Ngoại tuyến",
		"agent.running":                "Đang làm việc",
		"chart.title":                  "Biểu đồ",
		"artifact.title":               "Dữ liệu",
		"activity.details":             "Chi tiết",
		"send.failed":                  "Không gửi được: %s",
	},
	"en": {
		"app.tagline":                  "AI assistant with tools",
		"group.working":                "Working…",
		"group.done":                   "✓ Done",
		"group.more":                   "+%d earlier steps",
		"tool.request":                 "Request",
		"tool.response":                "Response",
		"tool.no_response":             "No response yet",
		"status.active":                "Running",
		"status.awaiting":              "Awaiting approval",
		"status.done":                  "Done",
		"status.error":                 "Failed",
		"status.interrupted":           "Interrupted",
		"thinking.title":               "Thinking",
		"search.title":                 "🔍 Web search",
		"search.results":               "%d results",
		"sources.button":               "Sources",
		"sources.title":                "Sources",
		"sources.close":                "Close",
		"sources.resize":               "Resize the sources panel",
		"sources.empty":                "No sources yet.",
		"question.other":               "Other",
		"question.other_input":         "Type your answer",
		"question.skip":                "Skip",
		"question.unskip":              "Answer this one",
		"question.skipped":             "Skipped",
		"question.submit":              "Submit answers",
		"question.sending":             "Sending…",
		"question.time_left":           "%s left",
		"question.answered":            "Answered",
		"question.expired":             "Time to answer ran out",
		"question.no_answer":           "No answer",
		"question.err.unanswered":      "Choose an answer for question %d, or skip it.",
		"question.err.empty_free_text": "Type your \"Other\" answer for question %d.",
		"question.err.too_many":        "Question %d takes one choice.",
		"question.err.bad_option":      "Question %d has an invalid choice.",
		"approval.title":               "Allow %s to run?",
		"approval.title_many":          "Allow %d actions to run?",
		"approval.approve":             "Approve",
		"approval.edit":                "Edit arguments",
		"approval.reject":              "Reject",
		"approval.respond":             "Respond instead",
		"approval.send":                "Send",
		"approval.cancel":              "Cancel",
		"approval.args":                "Arguments (JSON)",
		"approval.reason":              "Reason (optional)",
		"approval.response":            "Answer in place of the tool",
		"approval.invalid_json":        "Invalid JSON: %s",
		"approval.choose":              "Choose a decision for every action.",
		"approval.sending":             "Sending…",
		"approval.state.approved":      "Approved",
		"approval.state.edited":        "Approved with edited arguments",
		"approval.state.rejected":      "Rejected",
		"approval.state.responded":     "Answered in place of the tool",
		"approval.state.expired":       "Timed out",
		"stopped":                      "You stopped the agent",
		"error.generic":                "Something went wrong",
		"unknown.title":                "Unsupported content: %s",
		"composer.placeholder":         "Message the assistant…  (Enter to send, Shift+Enter for a new line)",
		"composer.label":               "Message",
		"composer.send":                "Send",
		"composer.stop":                "Stop",
		"empty.title":                  "Start a conversation",
		"empty.hint":                   "Ask for what you need, or try a sample scenario:",
		"connection.connecting":        "Connecting…",
		"connection.open":              "Connected",
		"connection.reconnecting":      "Connection lost, reconnecting…",
		"connection.closed":            "Offline",
		"agent.running":                "Working",
		"chart.title":                  "Chart",
		"artifact.title":               "Data",
		"activity.details":             "Details",
		"send.failed":                  "Could not send: %s",
	},
	"fr": {
		"app.tagline":                  "Assistant IA avec outils",
		"group.working":                "Traitement…",
		"group.done":                   "✓ Terminé",
		"group.more":                   "+%d étapes précédentes",
		"tool.request":                 "Requête",
		"tool.response":                "Réponse",
		"tool.no_response":             "Pas encore de réponse",
		"status.active":                "En cours",
		"status.awaiting":              "En attente d'autorisation",
		"status.done":                  "Terminé",
		"status.error":                 "Échec",
		"status.interrupted":           "Interrompu",
		"thinking.title":               "Réflexion",
		"search.title":                 "🔍 Recherche web",
		"search.results":               "%d résultats",
		"sources.button":               "Sources",
		"sources.title":                "Sources",
		"sources.close":                "Fermer",
		"sources.resize":               "Redimensionner le panneau des sources",
		"sources.empty":                "Aucune source pour l'instant.",
		"question.other":               "Autre",
		"question.other_input":         "Saisissez votre réponse",
		"question.skip":                "Passer",
		"question.unskip":              "Répondre à celle-ci",
		"question.skipped":             "Passée",
		"question.submit":              "Envoyer les réponses",
		"question.sending":             "Envoi…",
		"question.time_left":           "%s restantes",
		"question.answered":            "Répondu",
		"question.expired":             "Le délai de réponse est écoulé",
		"question.no_answer":           "Pas de réponse",
		"question.err.unanswered":      "Choisissez une réponse à la question %d, ou passez-la.",
		"question.err.empty_free_text": "Saisissez votre réponse « Autre » à la question %d.",
		"question.err.too_many":        "La question %d n'accepte qu'un choix.",
		"question.err.bad_option":      "La question %d a un choix invalide.",
		"approval.title":               "Autoriser %s ?",
		"approval.title_many":          "Autoriser %d actions ?",
		"approval.approve":             "Autoriser",
		"approval.edit":                "Modifier les arguments",
		"approval.reject":              "Refuser",
		"approval.respond":             "Répondre à la place",
		"approval.send":                "Envoyer",
		"approval.cancel":              "Annuler",
		"approval.args":                "Arguments (JSON)",
		"approval.reason":              "Motif (facultatif)",
		"approval.response":            "Réponse à la place de l'outil",
		"approval.invalid_json":        "JSON invalide : %s",
		"approval.choose":              "Choisissez une décision pour chaque action.",
		"approval.sending":             "Envoi…",
		"approval.state.approved":      "Autorisé",
		"approval.state.edited":        "Autorisé avec des arguments modifiés",
		"approval.state.rejected":      "Refusé",
		"approval.state.responded":     "Réponse donnée à la place de l'outil",
		"approval.state.expired":       "Délai écoulé",
		"stopped":                      "Vous avez arrêté l'agent",
		"error.generic":                "Une erreur s'est produite",
		"unknown.title":                "Contenu non pris en charge : %s",
		"composer.placeholder":         "Écrivez à l'assistant…  (Entrée pour envoyer, Maj+Entrée pour une nouvelle ligne)",
		"composer.label":               "Message",
		"composer.send":                "Envoyer",
		"composer.stop":                "Arrêter",
		"empty.title":                  "Commencer une conversation",
		"empty.hint":                   "Demandez ce dont vous avez besoin, ou essayez un scénario :",
		"connection.connecting":        "Connexion…",
		"connection.open":              "Connecté",
		"connection.reconnecting":      "Connexion perdue, reconnexion…",
		"connection.closed":            "Hors ligne",
		"agent.running":                "En cours",
		"chart.title":                  "Graphique",
		"artifact.title":               "Données",
		"activity.details":             "Détails",
		"send.failed":                  "Envoi impossible : %s",
	},
}

// lang is the UI language, set once at start-up.
var lang = "vi"

// SetLanguage picks the catalog: an exact match, else the base language of
// a tag like "fr-CA", else the default (vi).
func SetLanguage(tag string) string {
	lang = MatchLanguage(tag)
	return lang
}

// Language returns the UI language.
func Language() string { return lang }

// MatchLanguage maps a language tag to a catalog.
func MatchLanguage(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if _, ok := catalogs[tag]; ok {
		return tag
	}
	base, _, _ := strings.Cut(tag, "-")
	if _, ok := catalogs[base]; ok {
		return base
	}
	return Languages[0]
}

// T returns the string for key in the UI language, formatted with args.
// A key missing from a catalog falls back to English, then to the key.
func T(key string, args ...any) string {
	s, ok := catalogs[lang][key]
	if !ok {
		if s, ok = catalogs["en"][key]; !ok {
			s = key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}
