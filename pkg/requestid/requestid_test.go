package requestid

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

var form = regexp.MustCompile(`^req-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewIsTheFormOpenStackAccepts(t *testing.T) {
	a, b := New(), New()
	if !form.MatchString(a) || !form.MatchString(b) {
		t.Fatalf("New() = %q, %q; want req-<uuid4>", a, b)
	}
	if a == b {
		t.Fatalf("New() returned %q twice", a)
	}
}

func TestTransportSendsTheIDOfTheContextOrAFreshOne(t *testing.T) {
	var got []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get(Header))
		w.Header().Set(Header, "req-0f0e0d0c-0b0a-4908-8706-050403020100")
	}))
	defer server.Close()
	client := &http.Client{Transport: Transport{Next: http.DefaultTransport}}

	ctx := NewContext(context.Background(), "req-of-the-reconcile")
	for _, c := range []context.Context{ctx, ctx, context.Background()} {
		req, _ := http.NewRequestWithContext(c, http.MethodGet, server.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if req.Header.Get(Header) != "" {
			t.Errorf("the caller's request was changed: %v", req.Header)
		}
		if Answered(resp.Header) != "req-0f0e0d0c-0b0a-4908-8706-050403020100" {
			t.Errorf("Answered = %q", Answered(resp.Header))
		}
	}
	if got[0] != "req-of-the-reconcile" || got[1] != "req-of-the-reconcile" {
		t.Errorf("requests of one context carried %q, %q; want its ID", got[0], got[1])
	}
	if !form.MatchString(got[2]) {
		t.Errorf("a request without an ID carried %q; want a fresh req-<uuid4>", got[2])
	}
}

func TestAnsweredTakesOnlyARequestID(t *testing.T) {
	for value, want := range map[string]string{
		"req-0f0e0d0c-0b0a-4908-8706-050403020100": "req-0f0e0d0c-0b0a-4908-8706-050403020100",
		"": "",
		"req-0f0e0d0c-0b0a-4908-8706-050403020100 and more": "",
		"<script>": "",
	} {
		h := http.Header{}
		h.Set(Header, value)
		if got := Answered(h); got != want {
			t.Errorf("Answered(%q) = %q, want %q", value, got, want)
		}
	}
}
