// examples/bazel is built by Bazel only: its Go code imports the packages
// that Bazel generates from telemetry.proto (BUILD.bazel). This go.mod keeps
// the go command of phaser-go's module (go build ./..., go vet ./...) out
// of it.
module github.com/phaser-go/phaser/examples/bazel

go 1.26
