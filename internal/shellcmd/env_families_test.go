package shellcmd

import "testing"

// TestClassifyEnvFamilies: the C library's loaders, the variables that
// name a file a program writes, and the families of readers that take code
// from their variables are not plain; the families' formatting and
// identity settings are.
// Its rows are in testdata/cases/env_families.txt.
func TestClassifyEnvFamilies(t *testing.T) {
	checkClassifyEnv(t, "env_families.txt")
}
