// Command usergen is a user's program: it builds a Telemetry message with
// the handles generated from telemetrypb/telemetry.proto in caller memory,
// reads it back from the bytes alone, and round-trips it through the
// protobuf wire format. It exits non-zero if any value does not read back.
package main

//go:generate protoc -I . --phaser-go_out=. --phaser-go_opt=paths=source_relative telemetrypb/telemetry.proto

import (
	"bytes"
	"fmt"
	"log"

	"example.com/usergen/telemetrypb/telemetrypbphaser"
)

func main() {
	mem := make([]byte, 4096)
	t, err := telemetrypbphaser.NewTelemetryIn(mem)
	if err != nil {
		log.Fatal(err)
	}
	t.SetDevice("imu-3")
	t.SetSequence(1 << 40)
	t.SetHealth(telemetrypbphaser.Health_HEALTH_DEGRADED)
	for i := range 3 {
		s := t.Samples().Append()
		s.MutableStamp().SetSeconds(1_700_000_000 + int64(i))
		s.MutableAcceleration().SetZ(-9.81)
		s.Temperatures().Append(20.5 + float32(i))
	}
	e := t.Counters().Append()
	e.SetKey("resets")
	e.SetValue(2)
	t.SetBatteryPercent(0) // proto3 optional: present although zero
	t.SetRadioChannel(11)
	t.SetFirmwareHash([]byte{0xde, 0xad, 0xbe, 0xef})
	if t.Failed() {
		log.Fatal(t.Err())
	}

	check := func(got telemetrypbphaser.Telemetry, how string) {
		var bad []string
		if got.Device() != "imu-3" || got.Sequence() != 1<<40 || got.Health() != telemetrypbphaser.Health_HEALTH_DEGRADED {
			bad = append(bad, "scalars")
		}
		if got.Samples().Len() != 3 || got.Samples().At(2).Stamp().Seconds() != 1_700_000_002 ||
			got.Samples().At(1).Acceleration().Z() != -9.81 || got.Samples().At(0).Temperatures().At(0) != 20.5 {
			bad = append(bad, "samples")
		}
		if got.Counters().Len() != 1 || got.Counters().At(0).Key() != "resets" || got.Counters().At(0).Value() != 2 {
			bad = append(bad, "counters")
		}
		if !got.HasBatteryPercent() || got.BatteryPercent() != 0 {
			bad = append(bad, "battery_percent")
		}
		if got.RadioChannel() != 11 || got.WifiSsid() != "" {
			bad = append(bad, "link")
		}
		if !bytes.Equal(got.FirmwareHash(), []byte{0xde, 0xad, 0xbe, 0xef}) {
			bad = append(bad, "firmware_hash")
		}
		if len(bad) > 0 || got.Err() != nil {
			log.Fatalf("%s: wrong %v (err %v)", how, bad, got.Err())
		}
	}

	payload := t.Bytes()
	got, err := telemetrypbphaser.ReadTelemetry(payload)
	if err != nil {
		log.Fatal(err)
	}
	check(got, "read from the payload")

	wire, err := got.MarshalProto()
	if err != nil {
		log.Fatal(err)
	}
	back := telemetrypbphaser.NewTelemetry()
	if err := back.UnmarshalProto(wire); err != nil {
		log.Fatal(err)
	}
	check(back, "unmarshalled from protobuf")
	fmt.Printf("usergen: ok (payload %d bytes, protobuf %d bytes)\n", len(payload), len(wire))
}
