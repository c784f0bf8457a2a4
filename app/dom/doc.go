// Package dom is what the page does to the document beside go-app's
// rendering: chunks frozen as copies of their DOM, drawn a few per task,
// and followed to the end (Chunks); work in the browser's idle time; the
// fonts resolved before the first answer; the clipboard; the scroll to
// the newest content; the pace of renders of a stream without bound. The
// decisions are plain Go, tested natively; the browser's side is in the
// _js.go files.
package dom
