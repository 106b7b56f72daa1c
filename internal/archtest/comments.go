package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// outsideRefs are what a code comment cannot lean on: the requirement
// documents, the shared benchmark folders and the issue tracker live outside
// the repository, so a comment says what it means itself.
var outsideRefs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bseeds?\s*(§|\d{3}\b)`),
	regexp.MustCompile(`(?i)\bissue\s+#?\d+`),
	regexp.MustCompile(`\.\./shared/`),
}

// OutsideRefs returns the references to documents outside the repository in
// the comments of the Go source src (named name in the result), with their
// lines. String literals are not comments: a test may quote anything.
func OutsideRefs(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			for i, line := range strings.Split(c.Text, "\n") {
				for _, re := range outsideRefs {
					for _, m := range re.FindAllString(line, -1) {
						found = append(found, fmt.Sprintf("%s:%d: %q", name, fset.Position(c.Slash).Line+i, m))
					}
				}
			}
		}
	}
	return found, nil
}
