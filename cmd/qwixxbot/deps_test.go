package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// packageDeps lists the packages pkg imports, directly or not (go list
// -deps, from this package's directory).
func packageDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command(goTool(), "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// The release binary links no test code: the fake Discord it runs for the
// sandbox and the load harness takes its test helpers' testing.TB as an
// interface of its own, and the test clock is plain code.
func TestReleaseBinaryLinksNoTesting(t *testing.T) {
	deps := packageDeps(t, ".")
	for _, bad := range []string{"testing", "testing/internal/testdeps", "net/http/httptest"} {
		if slices.Contains(deps, bad) {
			t.Errorf("the qwixxbot binary links %s", bad)
		}
	}
}
