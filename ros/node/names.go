package node

import (
	"fmt"
	"net"
	"os"
	"strings"
)

// config is what a node takes from its options, command line and
// environment, resolved as rospy resolves them.
type config struct {
	name      string // the resolved node name, "/ns/name"
	namespace string // "/ns/" (always ending in '/')
	masterURI string
	host      string
	remap     map[string]string // resolved name -> resolved name
}

// The special keys of ROS command-line remappings.
const (
	argName     = "__name"
	argNS       = "__ns"
	argMaster   = "__master"
	argHostname = "__hostname"
	argIP       = "__ip"
)

// resolveConfig applies, in rospy's order, the command-line remappings in
// args, then opts, then the ROS_* environment variables, then the
// defaults.
func resolveConfig(name string, opts Options, args []string, env func(string) string) (config, error) {
	special := map[string]string{}
	var remaps [][2]string
	for _, a := range args {
		from, to, ok := strings.Cut(a, ":=")
		if !ok {
			continue
		}
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if from == "" || to == "" {
			continue
		}
		switch {
		case strings.HasPrefix(from, "__"):
			special[from] = to
		case from[0] == '_':
			// a private parameter assignment (_param:=value): not a name
		default:
			remaps = append(remaps, [2]string{from, to})
		}
	}
	if v := special[argName]; v != "" {
		name = v
	}
	if name == "" || strings.Contains(name, "/") || !legalBaseName(strings.TrimPrefix(name, "~")) {
		return config{}, fmt.Errorf("node: invalid node name %q (a letter, then letters, digits or '_')", name)
	}
	name = strings.TrimPrefix(name, "~")

	ns := first(special[argNS], opts.Namespace, env("ROS_NAMESPACE"), "/")
	if !legalName(ns) {
		return config{}, fmt.Errorf("node: invalid namespace %q", ns)
	}
	ns = "/" + strings.Trim(ns, "/")
	if ns != "/" {
		ns += "/"
	}
	c := config{
		name:      ns + name,
		namespace: ns,
		masterURI: first(special[argMaster], opts.MasterURI, env("ROS_MASTER_URI"), "http://localhost:11311/"),
		remap:     map[string]string{},
	}
	c.host = first(special[argHostname], special[argIP], opts.Host, env("ROS_HOSTNAME"), env("ROS_IP"))
	if c.host == "" {
		h, err := os.Hostname()
		if err != nil || h == "" || h == "localhost" || strings.HasPrefix(h, "127.") {
			h = "127.0.0.1"
		}
		c.host = h
	}
	for _, r := range remaps {
		from, err := c.resolveRaw(r[0])
		if err != nil {
			return config{}, fmt.Errorf("node: remapping %s:=%s: %w", r[0], r[1], err)
		}
		to, err := c.resolveRaw(r[1])
		if err != nil {
			return config{}, fmt.Errorf("node: remapping %s:=%s: %w", r[0], r[1], err)
		}
		c.remap[from] = to
	}
	return c, nil
}

// resolve returns the global name of a topic name as the node sees it:
// "/a" is global, "~a" private to the node, "a" in the node's namespace;
// then the command line's remappings apply.
func (c *config) resolve(name string) (string, error) {
	r, err := c.resolveRaw(name)
	if err != nil {
		return "", err
	}
	if to, ok := c.remap[r]; ok {
		return to, nil
	}
	return r, nil
}

func (c *config) resolveRaw(name string) (string, error) {
	if name == "" || !legalName(name) {
		return "", fmt.Errorf("invalid ROS name %q", name)
	}
	var r string
	switch name[0] {
	case '/':
		r = name
	case '~':
		r = c.name + "/" + strings.TrimPrefix(name[1:], "/")
	default:
		r = c.namespace + name
	}
	if len(r) > 1 {
		r = strings.TrimRight(r, "/")
	}
	return r, nil
}

// legalName reports whether s is a legal ROS graph name: an optional '/'
// or '~', then a letter and letters, digits, '_' or '/', without "//".
func legalName(s string) bool {
	if s == "/" {
		return true
	}
	if s != "" && (s[0] == '/' || s[0] == '~') {
		s = s[1:]
	}
	if s == "" || !isLetter(s[0]) || strings.Contains(s, "//") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; !isLetter(b) && !isDigit(b) && b != '_' && b != '/' {
			return false
		}
	}
	return true
}

func legalBaseName(s string) bool {
	return legalName(s) && !strings.ContainsAny(s, "/~")
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// bindHost is the address the node's servers listen on, as rospy chooses
// it: the loopback address when the advertised host is a loopback one,
// every interface otherwise.
func bindHost(host string) string {
	switch {
	case host == "localhost":
		return "127.0.0.1"
	case host == "::1" || strings.HasPrefix(host, "127."):
		return host
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return host
	}
	return ""
}
