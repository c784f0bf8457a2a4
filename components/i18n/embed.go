//go:build !(js && wasm)

package i18n

import (
	"embed"
	"io/fs"
	"strings"
)

// files are the catalogs beyond vi and en. Only builds outside the browser
// embed them (the server, which prerenders pages in every language and
// serves them to the app, and the tests): app.wasm fetches the one its
// page needs.
//
//go:embed catalogs/*.json
var files embed.FS

func init() {
	entries, err := fs.ReadDir(files, "catalogs")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := files.ReadFile("catalogs/" + e.Name())
		if err == nil {
			err = Register(strings.TrimSuffix(e.Name(), ".json"), data)
		}
		if err != nil {
			panic(err) // the tests load every file: a bad one fails them first
		}
	}
}

// CatalogFiles are the catalogs as JSON files, LANG.json, for the browser.
func CatalogFiles() fs.FS {
	sub, err := fs.Sub(files, "catalogs")
	if err != nil {
		panic(err)
	}
	return sub
}
