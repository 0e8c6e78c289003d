// Package interop checks phaser-go's ROS1 support against ROS encoders that
// were written elsewhere: genpy (ROS's Python message code, from Debian's
// python3-genpy and the python3-*-msgs packages) and goroslib
// (github.com/bluenviron/goroslib/v2). Its tests build the ROS messages that
// github.com/phaser-go/phaser/ros/msgs mirrors, serialize them in each
// direction and compare the bytes, the md5sums, the data types and the
// message definitions.
//
// Run them with (cd interop && go test ./...). They need protoc (with the
// well-known .proto files of libprotobuf-dev) and, for genpy, Debian's
// /usr/bin/python3 with python3-genpy, python3-std-msgs,
// python3-geometry-msgs and python3-sensor-msgs; what is missing makes the
// tests skip, or fail when PHASER_REQUIRE_INTEROP=1.
package interop
