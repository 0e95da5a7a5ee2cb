// Package scenarios embeds the built-in example scenarios so that
// `simctl run d20/duel` works from any directory.
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed */*.yaml
var files embed.FS

// Read returns the built-in scenario called name ("d20/duel") and its
// display path.
func Read(name string) ([]byte, string, bool) {
	name = strings.TrimSuffix(name, ".yaml")
	data, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, "", false
	}
	return data, "builtin:" + name + ".yaml", true
}

// Names lists the built-in scenarios, sorted.
func Names() []string {
	var out []string
	fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			out = append(out, strings.TrimSuffix(p, ".yaml"))
		}
		return nil
	})
	sort.Strings(out)
	return out
}
