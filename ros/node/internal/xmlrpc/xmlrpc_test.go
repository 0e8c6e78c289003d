package xmlrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

// pythonRequestTopic is what Python's xmlrpc.client (rospy, rostopic, the
// master) sends for requestTopic, byte for byte.
const pythonRequestTopic = "<?xml version='1.0'?>\n<methodCall>\n<methodName>requestTopic</methodName>\n<params>\n<param>\n<value><string>/rostopic_1</string></value>\n</param>\n<param>\n<value><string>/imu</string></value>\n</param>\n<param>\n<value><array><data>\n<value><array><data>\n<value><string>TCPROS</string></value>\n</data></array></value>\n</data></array></value>\n</param>\n</params>\n</methodCall>\n"

func TestDecodeRequest(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		method   string
		params   []any
	}{
		{"python requestTopic", pythonRequestTopic, "requestTopic",
			[]any{"/rostopic_1", "/imu", []any{[]any{"TCPROS"}}}},
		{"untyped strings and no declaration", "<methodCall><methodName> getPid </methodName><params><param><value>/x y</value></param><param><value></value></param></params></methodCall>",
			"getPid", []any{"/x y", ""}},
		{"no params", "<methodCall><methodName>getPid</methodName></methodCall>", "getPid", nil},
		{"every type", `<?xml version="1.0"?><methodCall><methodName>m</methodName><params>
			<param><value><i4>-7</i4></value></param>
			<param><value><int>2147483647</int></value></param>
			<param><value><i8>-9000000000</i8></value></param>
			<param><value><boolean>1</boolean></value></param>
			<param><value><double>-1.5e3</double></value></param>
			<param><value><base64>eHk=</base64></value></param>
			<param><value><string>a&lt;b&amp;c</string></value></param>
			<param><value><string/></value></param>
			<param><value><nil/></value></param>
			<param><value><dateTime.iso8601>19980717T14:08:55</dateTime.iso8601></value></param>
			<param><value><struct><member><name>k</name><value><array><data/></array></value></member></struct></value></param>
			</params></methodCall>`, "m",
			[]any{-7, 2147483647, -9000000000, true, -1500.0, []byte("xy"), "a<b&c", "", nil, "19980717T14:08:55", map[string]any{"k": []any{}}}},
	} {
		method, params, err := DecodeRequest(strings.NewReader(tc.in), Limits{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if method != tc.method || !reflect.DeepEqual(params, tc.params) {
			t.Errorf("%s: %q %#v, want %q %#v", tc.name, method, params, tc.method, tc.params)
		}
	}
}

func TestDecodeRequestRefuses(t *testing.T) {
	deep := func(n int) string {
		return "<methodCall><methodName>m</methodName><params><param><value>" +
			strings.Repeat("<array><data><value>", n) + "x" + strings.Repeat("</value></data></array>", n) +
			"</value></param></params></methodCall>"
	}
	many := "<methodCall><methodName>m</methodName><params><param><value><array><data>" +
		strings.Repeat("<value>x</value>", 100) + "</data></array></value></param></params></methodCall>"
	for _, tc := range []struct {
		name, in string
		lim      Limits
	}{
		{"empty", "", Limits{}},
		{"not XML", "GET / HTTP/1.0", Limits{}},
		{"a response", "<methodResponse><params/></methodResponse>", Limits{}},
		{"unclosed", "<methodCall><methodName>m</methodName><params>", Limits{}},
		{"mismatched", "<methodCall><methodName>m</methodCall>", Limits{}},
		{"int out of range", "<methodCall><methodName>m</methodName><params><param><value><i4>2147483648</i4></value></param></params></methodCall>", Limits{}},
		{"bad boolean", "<methodCall><methodName>m</methodName><params><param><value><boolean>yes</boolean></value></param></params></methodCall>", Limits{}},
		{"bad base64", "<methodCall><methodName>m</methodName><params><param><value><base64>@@</base64></value></param></params></methodCall>", Limits{}},
		{"unknown type", "<methodCall><methodName>m</methodName><params><param><value><blob>1</blob></value></param></params></methodCall>", Limits{}},
		{"text beside a type", "<methodCall><methodName>m</methodName><params><param><value>x<i4>1</i4></value></param></params></methodCall>", Limits{}},
		{"trailing element", "<methodCall><methodName>m</methodName></methodCall><x/>", Limits{}},
		{"external entity", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><methodCall><methodName>&e;</methodName></methodCall>`, Limits{}},
		{"too deep", deep(33), Limits{}},
		{"too many values", many, Limits{MaxValues: 50}},
		{"too long", deep(2), Limits{MaxBody: 64}},
		{"declared charset", `<?xml version="1.0" encoding="ISO-8859-1"?><methodCall><methodName>m</methodName></methodCall>`, Limits{}},
	} {
		if _, _, err := DecodeRequest(strings.NewReader(tc.in), tc.lim); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", tc.name, err)
		}
	}
	if _, _, err := DecodeRequest(strings.NewReader(deep(32)), Limits{}); err != nil {
		t.Errorf("32 levels, the limit: %v", err)
	}
}

// TestEncodeDecode: what AppendCall writes decodes to the same values,
// including text a peer made up (markup, control characters, bad UTF-8,
// which come back replaced).
func TestEncodeDecode(t *testing.T) {
	params := []any{"plain", "<a href='x'>&amp;</a>\r\n\t", 0, -1 << 31, 1<<31 - 1, 1 << 40, true, false, 0.25,
		[]byte{0, 1, 255}, []any{[]any{"TCPROS", "127.0.0.1", 1234}}, map[string]any{"z": 1, "a": "b"}, nil}
	b, err := AppendCall(nil, "m&<", params...)
	if err != nil {
		t.Fatal(err)
	}
	method, got, err := DecodeRequest(bytes.NewReader(b), Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if method != "m&<" || !reflect.DeepEqual(got, params) {
		t.Fatalf("%q %#v\nwant %#v", method, got, params)
	}
	b, _ = AppendCall(nil, "m", "nul\x00 bell\a bad\xff ok")
	_, got, err = DecodeRequest(bytes.NewReader(b), Limits{})
	if err != nil || got[0] != "nul\uFFFD bell\uFFFD bad\uFFFD ok" {
		t.Fatalf("control characters: %q (%v)", got, err)
	}
	for _, v := range []any{struct{}{}, []int{1}, math.NaN(), math.Inf(1)} {
		if _, err := AppendResponse(nil, v); err == nil {
			t.Errorf("AppendResponse(%#v) encoded", v)
		}
	}
}

// TestPythonReadsResponses: Python's xmlrpc.client, what rospy and the
// ROS tools parse replies with, reads the responses and faults written
// here with the same values.
func TestPythonReadsResponses(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	resp, err := AppendResponse(nil, []any{1, "ready on <host> & port", []any{"TCPROS", "127.0.0.1", 40000, true, 1.5, []string{"a", "b"}, map[string]any{"k": 1 << 40}}})
	if err != nil {
		t.Fatal(err)
	}
	fault := AppendFault(nil, FaultMethodNotFound, "no method \"x<y>\"")
	script := `
import sys, xmlrpc.client
data = sys.stdin.buffer.read().split(b"\0SPLIT\0")
print(repr(xmlrpc.client.loads(data[0])[0]))
try:
    xmlrpc.client.loads(data[1])
except xmlrpc.client.Fault as f:
    print(f.faultCode, repr(f.faultString))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(append(append(resp, "\x00SPLIT\x00"...), fault...))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want := "([1, 'ready on <host> & port', ['TCPROS', '127.0.0.1', 40000, True, 1.5, ['a', 'b'], {'k': 1099511627776}]],)\n-32601 'no method \"x<y>\"'\n"
	if string(out) != want {
		t.Fatalf("python read\n%s\nwant\n%s", out, want)
	}
}

func TestServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := Serve(ln, func(method string, params []any) (any, error) {
		switch method {
		case "echo":
			return []any{1, "", params}, nil
		case "fault":
			return nil, &Fault{Code: 7, Msg: "seven"}
		}
		return nil, &Fault{Code: FaultMethodNotFound, Msg: "no method " + method}
	}, ServerLimits{Limits: Limits{MaxBody: 4096}, MaxConns: 2, ReadHeaderTimeout: time.Second})
	defer s.Close()
	url := "http://" + ln.Addr().String() + "/RPC2"
	client := &http.Client{Timeout: 8 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	post := func(body string) (int, string) {
		t.Helper()
		res, err := client.Post(url, "text/xml", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	call, _ := AppendCall(nil, "echo", "a", 2)
	if code, body := post(string(call)); code != 200 || !strings.Contains(body, "<string>a</string></value><value><i4>2</i4>") {
		t.Errorf("echo: %d %s", code, body)
	}
	call, _ = AppendCall(nil, "fault")
	if code, body := post(string(call)); code != 200 || !strings.Contains(body, "<int>7</int>") || !strings.Contains(body, "seven") {
		t.Errorf("fault: %d %s", code, body)
	}
	if code, body := post("<methodCall>"); code != 200 || !strings.Contains(body, fmt.Sprint(FaultParse)) {
		t.Errorf("garbage: %d %s", code, body)
	}
	if code, _ := post(strings.Repeat("x", 5000)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("5000-byte body with a 4096 limit: status %d", code)
	}
	if res, err := client.Get(url); err != nil || res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v", res.StatusCode, err)
	}

	// A peer that opens connections and sends nothing holds them only until
	// the header timeout; meanwhile calls wait for a free slot, not forever.
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	start := time.Now()
	call, _ = AppendCall(nil, "echo")
	if code, _ := post(string(call)); code != 200 {
		t.Errorf("echo behind idle connections: %d", code)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("a call behind two idle connections waited %v", d)
	}
}

// FuzzDecodeRequest: any bytes decode or fail with ErrMalformed; what
// decodes encodes again and decodes to the same values.
func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(pythonRequestTopic))
	b, _ := AppendCall(nil, "publisherUpdate", "/master", "/imu", []string{"http://127.0.0.1:1/", "http://h:2/"})
	f.Add(b)
	b, _ = AppendCall(nil, "m", map[string]any{"a": []any{1, true, 2.5, []byte("z"), nil}})
	f.Add(b)
	f.Add([]byte("<methodCall><methodName>m</methodName><params><param><value><array><data><value><array><data><value>x</value></data></array></value></data></array></value></param></params></methodCall>"))
	f.Fuzz(func(t *testing.T, in []byte) {
		method, params, err := DecodeRequest(bytes.NewReader(in), Limits{MaxBody: 1 << 16, MaxDepth: 8, MaxValues: 512})
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		again, err := AppendCall(nil, method, params...)
		if err != nil {
			t.Fatalf("decoded %#v does not encode: %v", params, err)
		}
		m2, p2, err := DecodeRequest(bytes.NewReader(again), Limits{MaxBody: 1 << 20, MaxDepth: 8, MaxValues: 512})
		if err != nil {
			t.Fatalf("re-encoded request does not decode: %v\n%s", err, again)
		}
		if !sameText(m2, method) || !reflect.DeepEqual(normalize(p2), normalize(params)) {
			t.Fatalf("round trip %q %#v -> %q %#v", method, params, m2, p2)
		}
	})
}

// sameText compares strings as the encoder preserves them (characters XML
// cannot hold become U+FFFD; the decoder trims a method name).
func sameText(a, b string) bool {
	return strings.TrimSpace(string(appendEscaped(nil, a))) == strings.TrimSpace(string(appendEscaped(nil, b)))
}

func normalize(v any) any {
	switch v := v.(type) {
	case string:
		return string(appendEscaped(nil, v))
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[string(appendEscaped(nil, k))] = normalize(e)
		}
		return out
	case float64:
		if v == 0 {
			return 0.0 // -0 encodes as "-0" and decodes as -0: equal anyway
		}
	}
	return v
}
