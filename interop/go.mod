module github.com/phaser-go/phaser/interop

go 1.26.0

replace github.com/phaser-go/phaser => ../

require (
	github.com/bluenviron/goroslib/v2 v2.1.5
	github.com/phaser-go/phaser v0.0.0
	google.golang.org/protobuf v1.36.12
)
