// Package browser is the platform code the client's packages share: the
// calls into the browser through syscall/js (fetch, promises and their
// errors, the WebSocket, a task of the browser's own between slices of
// long work, the storages read so that a refusal is an error rather than
// the end of the program). The rest of the client is plain Go over it, as
// coder/websocket keeps its JavaScript binding in internal/wsjs; files
// built for the browser end in _js.go, and what also runs natively (the
// pacer's decisions) is tested natively.
package browser
