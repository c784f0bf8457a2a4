// Package persist is what the browser keeps: the conversations list
// (localStorage, or memory where the browser refuses storage) and the
// conversations the AG-UI and AI SDK modes keep themselves (IndexedDB).
// The methods block on the browser: the controller calls them on a
// goroutine of its own and hands the result to the page's update.
package persist
