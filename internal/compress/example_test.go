package compress_test

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/compress"
)

func ExampleClassify() {
	for _, used := range []int64{10000, 60000, 120000, 160000, 180000} {
		fmt.Println(used, compress.Classify(used, 200000))
	}
	// Output:
	// 10000 GREEN
	// 60000 YELLOW
	// 120000 ORANGE
	// 160000 RED
	// 180000 CRITICAL
}

func ExampleVerify() {
	summary := "## Session Summary\n### Session Intent\n> Add a CSV exporter\n### Artifacts Created\n| exporter | /repo/export/csv.go | Complete |\n"
	fmt.Println(compress.Verify(summary, 50000, "Add a CSV exporter", []string{"/repo/export/csv.go"}))
	fmt.Println(compress.Verify(summary, 50000, "Add a CSV exporter", []string{"/repo/export/json.go"}))
	fmt.Println(compress.Verify(summary, 20, "Add a CSV exporter", nil))
	// Output:
	// <nil>
	// summary does not name every edited path: /repo/export/json.go
	// summary is not smaller than what it replaces (31 tokens against 20)
}
