// Package components holds Stepwise's views: the page (Page) and one go-app
// component per item kind of the state store's view model. They render
// the props they are given (items, Settings, Forms, ...) and raise actions
// (actions.go) for the controller in package app; they hold only what the
// user is doing in them (an open disclosure, choices not yet sent), never
// the session, and they import neither package app nor a transport.
// Their strings come from the catalogs of components/i18n.
package components
