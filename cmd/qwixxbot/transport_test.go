package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestBaseURLTransport(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + "?" + r.URL.RawQuery
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	rt, err := newBaseURLTransport(srv.URL+"/prefix/", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: rt}
	resp, err := c.Get("https://discord.com/api/v10/gateway?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "/prefix/api/v10/gateway?x=1" {
		t.Fatalf("request reached %q", got)
	}
	for _, bad := range []string{"", "ftp://x", "not a url", "http://"} {
		if _, err := newBaseURLTransport(bad, nil); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
}
