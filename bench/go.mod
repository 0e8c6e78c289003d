module github.com/phaser-go/phaser/bench

go 1.26.0

require (
	capnproto.org/go/capnp/v3 v3.1.0-alpha.2
	github.com/bluenviron/goroslib/v2 v2.1.5
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/phaser-go/phaser v0.0.0
	github.com/planetscale/vtprotobuf v0.6.0
	golang.org/x/sys v0.50.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/colega/zeropool v0.0.0-20230505084239-6fb4a4f75381 // indirect
	github.com/gookit/color v1.5.4 // indirect
	github.com/xo/terminfo v0.0.0-20210125001918-ca9a967f8778 // indirect
	golang.org/x/sync v0.23.0 // indirect
)

replace github.com/phaser-go/phaser => ../
