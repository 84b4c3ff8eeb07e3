package rawjson

// SpansOf returns where the literals k records are in its document, each
// from its opening quote to just past its closing one, for the package's
// external tests.
func SpansOf(k *KnownStrings) [][2]int {
	var out [][2]int
	for _, s := range k.spans {
		out = append(out, [2]int{s.start, s.end})
	}
	return out
}
