package i18n

// The MCP Apps host's strings (components/mcpapp.go), kept apart from the
// main catalogs and merged into them.
var mcpAppText = map[string]map[string]string{
	"en": {
		"mcpapp.region":         "App: %s",
		"mcpapp.badge":          "App",
		"mcpapp.loading":        "Loading the app…",
		"mcpapp.failed":         "The app could not be shown: %s",
		"mcpapp.no_sandbox":     "This app cannot be shown here: no sandbox is set up for apps.",
		"mcpapp.fullscreen":     "Full screen",
		"mcpapp.pip":            "Picture in picture",
		"mcpapp.inline":         "Back to the conversation",
		"mcpapp.link.title":     "The app wants to open a link:",
		"mcpapp.link.open":      "Open link",
		"mcpapp.message.title":  "The app wants to send this message as you:",
		"mcpapp.message.send":   "Send message",
		"mcpapp.cancel":         "Cancel",
		"mcpapp.context":        "The app updated what the agent will know on your next message.",
		"mcpapp.cancelled":      "The tool was cancelled.",
		"mcpapp.err.network":    "its backend did not answer (%s)",
		"mcpapp.err.not_html":   "it is not an MCP App page",
		"mcpapp.err.too_large":  "it is too large",
		"mcpapp.err.no_content": "the backend sent no page",
	},
	"fr": {
		"mcpapp.region":         "Application : %s",
		"mcpapp.badge":          "Application",
		"mcpapp.loading":        "Chargement de l’application…",
		"mcpapp.failed":         "L’application n’a pas pu être affichée : %s",
		"mcpapp.no_sandbox":     "Cette application ne peut pas être affichée ici : aucun bac à sable n’est configuré pour les applications.",
		"mcpapp.fullscreen":     "Plein écran",
		"mcpapp.pip":            "Incrustation",
		"mcpapp.inline":         "Revenir à la conversation",
		"mcpapp.link.title":     "L’application veut ouvrir un lien :",
		"mcpapp.link.open":      "Ouvrir le lien",
		"mcpapp.message.title":  "L’application veut envoyer ce message en votre nom :",
		"mcpapp.message.send":   "Envoyer le message",
		"mcpapp.cancel":         "Annuler",
		"mcpapp.context":        "L’application a mis à jour ce que l’agent saura à votre prochain message.",
		"mcpapp.cancelled":      "L’outil a été annulé.",
		"mcpapp.err.network":    "son serveur n’a pas répondu (%s)",
		"mcpapp.err.not_html":   "ce n’est pas une page d’application MCP",
		"mcpapp.err.too_large":  "elle est trop volumineuse",
		"mcpapp.err.no_content": "le serveur n’a envoyé aucune page",
	},
	"vi": {
		"mcpapp.region":         "Ứng dụng: %s",
		"mcpapp.badge":          "Ứng dụng",
		"mcpapp.loading":        "Đang tải ứng dụng…",
		"mcpapp.failed":         "Không thể hiển thị ứng dụng: %s",
		"mcpapp.no_sandbox":     "Không thể hiển thị ứng dụng này ở đây: chưa thiết lập hộp cát cho ứng dụng.",
		"mcpapp.fullscreen":     "Toàn màn hình",
		"mcpapp.pip":            "Hình trong hình",
		"mcpapp.inline":         "Quay lại cuộc trò chuyện",
		"mcpapp.link.title":     "Ứng dụng muốn mở một liên kết:",
		"mcpapp.link.open":      "Mở liên kết",
		"mcpapp.message.title":  "Ứng dụng muốn gửi tin nhắn này thay bạn:",
		"mcpapp.message.send":   "Gửi tin nhắn",
		"mcpapp.cancel":         "Hủy",
		"mcpapp.context":        "Ứng dụng đã cập nhật những gì tác tử sẽ biết ở tin nhắn tiếp theo của bạn.",
		"mcpapp.cancelled":      "Công cụ đã bị hủy.",
		"mcpapp.err.network":    "máy chủ của nó không phản hồi (%s)",
		"mcpapp.err.not_html":   "đây không phải là trang ứng dụng MCP",
		"mcpapp.err.too_large":  "nó quá lớn",
		"mcpapp.err.no_content": "máy chủ không gửi trang nào",
	},
}

func init() {
	for lang, text := range mcpAppText {
		for k, v := range text {
			catalogs[lang].text[k] = v
		}
	}
}
