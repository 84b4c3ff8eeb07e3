package fakemodel_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// A scripted turn answers a Messages API request that offers tools; a
// request without tools is a side request and gets a short text.
func Example() {
	srv, err := fakemodel.Start(fakemodel.Options{Script: fakemodel.Script{Steps: []fakemodel.Step{
		fakemodel.Text("Hello from the script."),
	}}})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	body := `{"model":"m","stream":false,"tools":[{"name":"Read"}],"messages":[{"role":"user","content":"hi"}]}`
	resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(strings.Contains(string(b), `"text":"Hello from the script."`))
	r := srv.Requests()[0]
	fmt.Println(r.Kind, r.Step)
	// Output:
	// true
	// main 0
}

func ExampleCountTokens() {
	fmt.Println(fakemodel.CountTokens("hello world"))
	// Output: 2
}
