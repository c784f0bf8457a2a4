package wire

// MaxSessionIDLen is the longest session id ValidSessionID accepts.
const MaxSessionIDLen = 64

// ValidSessionID reports whether id can name a session: 1 to
// MaxSessionIDLen characters of [A-Za-z0-9_-]. Ids go into URL paths and
// file names, so this is the one check both the client and the server use.
func ValidSessionID(id string) bool {
	if id == "" || len(id) > MaxSessionIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}
