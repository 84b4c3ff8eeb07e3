package rawjson

import "golang.org/x/sys/cpu"

// The tables that check stringRun check each of its vector scans: the
// SSE2 one, and the AVX2 one where the processor has AVX2 (it cannot run
// elsewhere).
func init() {
	stringRunScan.fast = append(stringRunScan.fast, runFast{"stringRun (SSE2)", func(b []byte, i int) (int, uint64) { return stringRunOn(b, i, false) }, true})
	if cpu.X86.HasAVX2 {
		stringRunScan.fast = append(stringRunScan.fast, runFast{"stringRun (AVX2)", func(b []byte, i int) (int, uint64) { return stringRunOn(b, i, true) }, true})
	}
}
