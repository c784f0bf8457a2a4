package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components/i18n"
)

// shellVersion is the app's version (app.Handler.Version): it names the
// service worker's cache, tells an open app that an update is there, and
// is the ETag go-app gives every file it serves (the page, app.js, the
// manifest, web/'s files). So it covers all that a page receives:
// app.wasm, web/'s files, the settings pages carry, the patches to
// go-app's scripts and the handler's own fields. With app.wasm's hash
// alone, a deploy that changed only stepwise.css, boot.js or a server
// flag would answer 304 to browsers holding the old files, and installed
// apps would keep them until app.wasm changed.
func shellVersion(wasmHash, webDir string, h *app.Handler, loaderPatches []scriptPatch) (string, error) {
	sum := sha256.New()
	fmt.Fprintf(sum, "wasm %s\n", wasmHash)
	err := filepath.WalkDir(webDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), "app.wasm") {
			return err // app.wasm and its compressed copies: wasmHash
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(webDir, path)
		fmt.Fprintf(sum, "file %q %d\n", filepath.ToSlash(rel), len(b))
		sum.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("reading %s for the app's version: %w", webDir, err)
	}
	// The catalogs the app fetches (the server embeds them).
	err = fs.WalkDir(i18n.CatalogFiles(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(i18n.CatalogFiles(), path)
		fmt.Fprintf(sum, "catalog %q %d\n", path, len(b))
		sum.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	keys := make([]string, 0, len(h.Env))
	for k := range h.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(sum, "env %q %q\n", k, h.Env[k])
	}
	fmt.Fprintf(sum, "handler %q %q %q %q %q %q %q %q %+v %q %q %q %q\n", h.Name, h.ShortName, h.Title, h.Description, h.Lang,
		h.BackgroundColor, h.ThemeColor, h.LoadingLabel, h.Icon, h.Styles, h.Scripts, h.CacheableResources, h.RawHeaders)
	fmt.Fprintf(sum, "worker %q\npatches %q %q\n", h.ServiceWorkerTemplate, loaderPatches, wasmExecPatches)
	return hex.EncodeToString(sum.Sum(nil)[:6]), nil
}
