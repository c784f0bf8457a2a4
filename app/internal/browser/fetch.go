package browser

// trimBOM drops a UTF-8 byte order mark from the start of b, as a
// browser's Response.text() does (FetchBody reads bytes).
func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
