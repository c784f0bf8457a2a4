package browser

import "errors"

// ErrStorageRefused: the browser refuses to store data for this site
// (blocked site data, a private window, a full quota).
var ErrStorageRefused = errors.New("the browser refuses to store data for this site")
