package report

import (
	"fmt"
	"strings"
)

// Count writes n and a noun, in the plural unless n is 1: "1 row",
// "2 rows", "3 classes".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
