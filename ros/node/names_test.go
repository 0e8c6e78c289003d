package node

import (
	"strings"
	"testing"
)

// TestResolveConfig: the node's name, namespace, master and host come
// from the command line, then Options, then the environment, as in rospy;
// names resolve as rosgraph.names.resolve_name does.
func TestResolveConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := resolveConfig("talker", Options{}, nil, env(nil))
	if err != nil || c.name != "/talker" || c.namespace != "/" || c.masterURI != "http://localhost:11311/" || c.host == "" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = resolveConfig("talker", Options{MasterURI: "http://opt:1/", Host: "opthost"},
		[]string{"-v", "__name:=bridge", "__ns:=/robot1", "__master:=http://arg:2/", "__ip:=10.0.0.5", "_rate:=5", "imu:=/sensors/imu", "~out:=raw"},
		env(map[string]string{"ROS_MASTER_URI": "http://env:3/", "ROS_HOSTNAME": "envhost", "ROS_NAMESPACE": "/envns"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.name != "/robot1/bridge" || c.masterURI != "http://arg:2/" || c.host != "10.0.0.5" {
		t.Fatalf("command line: %+v", c)
	}
	for in, want := range map[string]string{
		"imu":     "/sensors/imu",
		"/imu":    "/imu",
		"cam/raw": "/robot1/cam/raw",
		"~out":    "/robot1/raw",
		"~in":     "/robot1/bridge/in",
		"/a/b/":   "/a/b",
	} {
		if got, err := c.resolve(in); err != nil || got != want {
			t.Errorf("resolve(%q) = %q (%v), want %q", in, got, err, want)
		}
	}
	c, err = resolveConfig("talker", Options{Host: "opthost"}, nil, env(map[string]string{"ROS_MASTER_URI": "http://env:3/", "ROS_IP": "192.168.1.2", "ROS_NAMESPACE": "envns"}))
	if err != nil || c.masterURI != "http://env:3/" || c.host != "opthost" || c.name != "/envns/talker" {
		t.Fatalf("options over environment: %+v %v", c, err)
	}
	c, err = resolveConfig("talker", Options{}, nil, env(map[string]string{"ROS_IP": "192.168.1.2"}))
	if err != nil || c.host != "192.168.1.2" {
		t.Fatalf("ROS_IP: %+v %v", c, err)
	}
	for _, bad := range []string{"", "a/b", "1abc", "a b", "a-b"} {
		if _, err := resolveConfig(bad, Options{}, nil, env(nil)); err == nil || !strings.Contains(err.Error(), "invalid node name") {
			t.Errorf("node name %q: %v", bad, err)
		}
	}
	c, _ = resolveConfig("n", Options{}, nil, env(nil))
	for _, bad := range []string{"", "a//b", "9x", "a b", "~", "/a-b", "a\x00"} {
		if _, err := c.resolve(bad); err == nil {
			t.Errorf("resolve(%q) accepted", bad)
		}
	}
}

func TestBindHost(t *testing.T) {
	for host, want := range map[string]string{
		"127.0.0.1": "127.0.0.1", "127.0.1.1": "127.0.1.1", "localhost": "127.0.0.1", "::1": "::1",
		"10.0.0.5": "", "robot.local": "",
	} {
		if got := bindHost(host); got != want {
			t.Errorf("bindHost(%q) = %q, want %q", host, got, want)
		}
	}
}
