package ros

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
)

var md5s sync.Map // protoreflect.MessageDescriptor -> string

// MD5 returns the ROS1 md5sum of message md, computed as genmsg computes it: the md5
// of the text made of the constants ("type NAME=value"), then one line per
// field, "type name" for builtin types (arrays keep their [] or [N]) and
// "<md5 of the nested type> name" for nested messages (arrays of messages
// too, without a suffix), with no trailing newline. A field with
// phaser.ros_field.nested_md5_text uses the md5 of that text.
func MD5(md protoreflect.MessageDescriptor) (string, error) {
	if v, ok := md5s.Load(md); ok {
		return v.(string), nil
	}
	dt, err := notBuiltin(md)
	if err != nil {
		return "", err
	}
	sum, err := md5Of(md, dt, map[protoreflect.FullName]bool{})
	if err != nil {
		return "", err
	}
	md5s.Store(md, sum)
	return sum, nil
}

func md5Hex(text string) string {
	sum := md5.Sum([]byte(text))
	return hex.EncodeToString(sum[:])
}

func md5Of(md protoreflect.MessageDescriptor, dt string, visiting map[protoreflect.FullName]bool) (string, error) {
	text, err := md5Text(md, dt, visiting)
	if err != nil {
		return "", err
	}
	return md5Hex(text), nil
}

// md5Text returns the text whose md5 is the md5sum of md.
func md5Text(md protoreflect.MessageDescriptor, dt string, visiting map[protoreflect.FullName]bool) (string, error) {
	if visiting[md.FullName()] {
		return "", fmt.Errorf("ros: %s contains itself: ROS1 has no recursive messages", md.FullName())
	}
	visiting[md.FullName()] = true
	defer delete(visiting, md.FullName())
	s, err := specOf(md, dt)
	if err != nil {
		return "", err
	}
	var lines []string
	lines = append(lines, s.constants...)
	for _, f := range s.fields {
		switch {
		case f.builtin:
			lines = append(lines, f.md5Type+" "+f.name)
		case f.dep == nil:
			lines = append(lines, md5Hex(f.md5Text)+" "+f.name)
		default:
			sum, err := md5Of(f.dep, f.depType, visiting)
			if err != nil {
				return "", err
			}
			lines = append(lines, sum+" "+f.name)
		}
	}
	return strings.Join(lines, "\n"), nil
}
