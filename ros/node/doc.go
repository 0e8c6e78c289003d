// Package node is a ROS1 node: it joins a ROS graph run by a ROS master
// (rosmaster, roscore), and publishes and subscribes to topics over TCPROS
// with rospy, roscpp and the ROS tools (rostopic, rosnode) as peers, for
// any message type generated with ros_metadata=true.
//
//	n, err := node.New("bridge") // ROS_MASTER_URI, ROS_HOSTNAME, __name:=... as rospy reads them
//	defer n.Close()
//	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/imu")
//	err = pub.Publish(imu) // ROS1 bytes straight from the payload
//	sub, err := node.Subscribe(n, "/imu", sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) {
//		// m is decoded into one reused payload: no allocation per message
//	})
//
// # What the node does
//
// It registers with the master over XML-RPC (registerPublisher,
// registerSubscriber, their unregister calls, lookupNode) and serves the
// slave API (requestTopic, publisherUpdate, getBusStats, getBusInfo,
// getPid, getMasterUri, getPublications, getSubscriptions, paramUpdate,
// shutdown), so that rostopic info lists it and rosnode kill stops it
// (Done, Err). Every second it asks the master whether it still knows the
// node, and registers everything again with a master that restarted.
//
// Publishing serializes each message once, from its payload into a reused
// frame that the queues of all subscribers share; each subscriber's queue
// is bounded (PublishOptions.Queue, oldest dropped and counted) and
// written by its own goroutine with a write deadline, so a slow or dead
// subscriber never blocks Publish or grows memory. A subscription keeps
// one connection per publisher the master lists, reconnects with back-off
// when one is lost, and decodes each frame into the one message the caller
// gave; SubscribeRaw hands over the ROS1 bytes instead, for any type
// (the "*" md5sum rostopic echo uses).
//
// Connection headers are those rospy and roscpp send (callerid, topic,
// type, md5sum, message_definition, latching, tcp_nodelay), and a
// subscriber of the wrong md5sum or type gets rospy's error header.
//
// # Bounds on what peers send
//
// Every peer is treated as possibly hostile. TCPROS headers are bounded
// by tcpros.MaxHeader and frames by SubscribeOptions.MaxMessage (a 2^31
// length prefix is refused unread), and buffers grow only with bytes that
// arrive; handshakes have a deadline. The slave API server bounds request
// bodies (MaxXMLRPC), nesting depth, value count, header size, concurrent
// connections and the time each may take. XML-RPC calls the node makes
// are bounded in time and response size and never follow redirects.
//
// # Dependencies, and why
//
// XML-RPC calls to the master and to other nodes go through goroslib v2's
// pkg/apimaster and pkg/apislave clients (over its pkg/xmlrpc client): a
// maintained implementation of exactly these APIs, tested against real
// masters, with the master's and rospy's reply quirks handled. goroslib
// does not bound what it reads, so the node gives it an HTTP client that
// does (a deadline per call, capped headers and bodies, no redirects); its
// decoder then only ever sees a bounded reply, and decodes into fixed
// structs, which bounds nesting too.
//
// goroslib's server side (pkg/xmlrpc's Server, pkg/apislave's Server) is
// not used: it reads request bodies without a size limit or read timeout
// and cannot be given either from outside, and its encoder does not
// escape strings. The slave API is served by the bounded server in
// internal/xmlrpc instead. pkg/prototcp is not used either: it encodes
// and decodes goroslib's own message structs through reflection, while
// this node writes and reads the ROS1 bytes of Phaser payloads directly
// (package ros) over its own framing (package ros/tcpros), which is what
// makes publishing and subscribing allocation-free.
//
// Only this package imports goroslib; the core packages (runtime, ros,
// ros/tcpros, the generated handles) do not.
package node
