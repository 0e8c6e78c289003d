module github.com/phaser-go/phaser

go 1.26
