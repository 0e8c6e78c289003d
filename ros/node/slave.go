package node

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/phaser-go/phaser/ros/node/internal/xmlrpc"
)

// The status codes of ROS XML-RPC replies.
const (
	codeError   = -1 // the caller's error
	codeFailure = 0  // the callee's failure
	codeSuccess = 1
)

// slaveAPI answers the calls of the ROS slave API
// (https://wiki.ros.org/ROS/Slave_API) the way rospy does: every reply is
// [code, status message, value]. Parameters of the wrong type or number
// get code -1, unknown methods a fault.
func (n *Node) slaveAPI(method string, params []any) (any, error) {
	want := map[string]int{
		"getBusStats": 1, "getBusInfo": 1, "getMasterUri": 1, "shutdown": 1, "getPid": 1,
		"getSubscriptions": 1, "getPublications": 1, "paramUpdate": 3,
		"publisherUpdate": 3, "requestTopic": 3,
	}
	arity, ok := want[method]
	if !ok {
		return nil, &xmlrpc.Fault{Code: xmlrpc.FaultMethodNotFound, Msg: fmt.Sprintf("method %q is not supported", method)}
	}
	if method == "shutdown" && len(params) == 2 {
		arity = 2 // shutdown(caller_id, msg): msg is optional
	}
	if len(params) != arity {
		return reply(codeError, "Error: bad call arity", 0), nil
	}
	caller, ok := params[0].(string)
	if !ok {
		return reply(codeError, "caller_id must be a string", 0), nil
	}
	switch method {
	case "getPid":
		return reply(codeSuccess, "", os.Getpid()), nil
	case "getMasterUri":
		return reply(codeSuccess, n.cfg.masterURI, n.cfg.masterURI), nil
	case "shutdown":
		reason := ""
		if len(params) == 2 {
			reason, _ = params[1].(string)
		}
		n.logf("node %s: shutdown requested by %s: %s", n.cfg.name, caller, reason)
		// Reply first: the node closes its XML-RPC server on the way out.
		go n.shutdown(fmt.Errorf("%w: %s: %s", ErrShutdown, caller, reason))
		return reply(codeSuccess, "shutdown", 0), nil
	case "getSubscriptions", "getPublications":
		return reply(codeSuccess, method[3:], n.topicList(method == "getPublications")), nil
	case "paramUpdate":
		return reply(codeSuccess, "", 0), nil // the node subscribes to no parameters
	case "getBusInfo":
		return reply(codeSuccess, "bus info", n.busInfo()), nil
	case "getBusStats":
		pubs, subs := n.busStats()
		return reply(codeSuccess, "", []any{pubs, subs, []any{}}), nil
	case "publisherUpdate":
		topic, ok1 := params[1].(string)
		list, ok2 := params[2].([]any)
		if !ok1 || !ok2 {
			return reply(codeError, "publisherUpdate(caller_id, topic, publishers): wrong parameter types", 0), nil
		}
		uris := make([]string, 0, len(list))
		for _, u := range list {
			s, ok := u.(string)
			if !ok {
				return reply(codeError, "publishers must be strings", 0), nil
			}
			uris = append(uris, s)
		}
		n.mu.Lock()
		t := n.subs[topic]
		n.mu.Unlock()
		if t == nil {
			return reply(codeError, "not subscribed", 0), nil
		}
		t.update(uris)
		return reply(codeSuccess, "", 0), nil
	case "requestTopic":
		topic, ok1 := params[1].(string)
		protocols, ok2 := params[2].([]any)
		if !ok1 || !ok2 {
			return reply(codeError, "requestTopic(caller_id, topic, protocols): wrong parameter types", []any{}), nil
		}
		n.mu.Lock()
		_, published := n.pubs[topic]
		n.mu.Unlock()
		if !published {
			return reply(codeError, fmt.Sprintf("Not a publisher of [%s]", topic), []any{}), nil
		}
		for _, p := range protocols {
			if p, ok := p.([]any); ok && len(p) > 0 && p[0] == "TCPROS" {
				return reply(codeSuccess, fmt.Sprintf("ready on %s:%d", n.tcpURI.host, n.tcpURI.port),
					[]any{"TCPROS", n.tcpURI.host, n.tcpURI.port}), nil
			}
		}
		return reply(codeFailure, "no supported protocol implementations", []any{}), nil
	}
	return nil, &xmlrpc.Fault{Code: xmlrpc.FaultInternal, Msg: "unreachable"}
}

func reply(code int, msg string, v any) []any { return []any{code, msg, v} }

// topicList returns [[topic, type]...] of the node's publications or
// subscriptions.
func (n *Node) topicList(pubs bool) []any {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []any
	if pubs {
		for name, t := range n.pubs {
			out = append(out, []any{name, t.typ.Name})
		}
	} else {
		for name, t := range n.subs {
			out = append(out, []any{name, t.typ.Name})
		}
	}
	sortByFirst(out)
	return out
}

// busInfo is getBusInfo's list: [connectionId, destinationId, direction,
// transport, topic, connected, info] for each connection.
func (n *Node) busInfo() []any {
	n.mu.Lock()
	pubs := mapValues(n.pubs)
	subs := mapValues(n.subs)
	n.mu.Unlock()
	out := []any{}
	for _, t := range pubs {
		out = append(out, t.busInfo()...)
	}
	for _, t := range subs {
		out = append(out, t.busInfo()...)
	}
	return out
}

// busStats is getBusStats' publish and subscribe statistics.
func (n *Node) busStats() (pubs, subs []any) {
	n.mu.Lock()
	pt := mapValues(n.pubs)
	st := mapValues(n.subs)
	n.mu.Unlock()
	pubs, subs = []any{}, []any{}
	for _, t := range pt {
		pubs = append(pubs, t.busStats())
	}
	for _, t := range st {
		subs = append(subs, t.busStats())
	}
	return pubs, subs
}

// mapValues returns m's values in the order of their keys.
func mapValues[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

func sortByFirst(l []any) {
	slices.SortFunc(l, func(a, b any) int {
		x, _ := a.([]any)[0].(string)
		y, _ := b.([]any)[0].(string)
		return strings.Compare(x, y)
	})
}
