package shellcmd

import "testing"

// TestClassifyEnvProgramOptions: a variable a program reads as part of its
// command line is not plain. TAR_OPTIONS='--to-command=rm x' tar -xf a.tar
// runs rm and ZIP='-T -TT cmd' zip b.zip f runs cmd (checked with GNU tar
// 1.34 and Info-ZIP zip 3.0), so they are denied as code;
// UNZIP='-d /elsewhere' unzip a.zip and TAPE=/elsewhere/t.tar tar c f
// write outside the workspace, and a name ending as option variables do
// (MAVEN_OPTS, PYTEST_ADDOPTS) is asked about.
// Its rows are in testdata/cases/env_options.txt.
func TestClassifyEnvProgramOptions(t *testing.T) {
	checkClassifyEnv(t, "env_options.txt")
}
