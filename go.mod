module github.com/phaser-go/phaser

go 1.26.0

require (
	github.com/bluenviron/goroslib/v2 v2.1.5
	github.com/bufbuild/protocompile v0.14.1
	github.com/google/go-cmp v0.7.0
	golang.org/x/sys v0.50.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)
