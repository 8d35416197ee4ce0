package bolt

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDocNamesEveryBucketAndVersion keeps doc.go true to the schema: it names every
// bucket and every schema version.
func TestDocNamesEveryBucketAndVersion(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "bolt.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var buckets []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "bucket") {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			name, _ := strconv.Unquote(lit.Value)
			buckets = append(buckets, name)
		}
		return true
	})
	if len(buckets) != 27 {
		t.Errorf("bolt.go declares %d buckets; doc.go says 27", len(buckets))
	}
	for _, b := range buckets {
		if !strings.Contains(string(doc), "//\t"+b+" ") {
			t.Errorf("doc.go does not list bucket %s", b)
		}
	}
	for v := 1; v <= SchemaVersion; v++ {
		if !strings.Contains(string(doc), fmt.Sprintf("//\tversion %d: ", v)) {
			t.Errorf("doc.go has no section for schema version %d", v)
		}
	}
	if !strings.Contains(string(doc), fmt.Sprintf("(SchemaVersion, %d)", SchemaVersion)) {
		t.Errorf("doc.go does not give the schema version as %d", SchemaVersion)
	}
	if len(migrations) != SchemaVersion {
		t.Errorf("%d migrations for schema version %d", len(migrations), SchemaVersion)
	}
}
