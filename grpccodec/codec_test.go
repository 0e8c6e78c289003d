package grpccodec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/grpccodec"
	"github.com/phaser-go/phaser/grpccodec/internal/echopb"
	"github.com/phaser-go/phaser/grpccodec/internal/echopb/echopbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// The codec between gRPC peers on loopback TCP: phaser-go handles on one
// side, plain protobuf-go (protoc-gen-go and protoc-gen-go-grpc output,
// grpc-go's own codec) on the other, both ways, unary and streaming.

// pbEcho is the protobuf-go implementation of the service.
type pbEcho struct{ echopb.UnimplementedEchoServer }

func pbReply(r *echopb.EchoRequest) *echopb.EchoReply {
	out := &echopb.EchoReply{Text: "echo: " + r.Text, Seq: r.Seq, Entries: int32(len(r.Counts)), Blob: r.Blob}
	for _, v := range r.Values {
		out.Sum += v
	}
	for _, v := range r.Counts {
		out.Sum += int64(v)
	}
	out.Sum += r.At.GetSeconds()
	for _, p := range slices.Backward(r.Path) {
		out.Path = append(out.Path, p)
	}
	if r.Point != nil {
		out.Path = append(out.Path, r.Point)
	}
	return out
}

func (pbEcho) Echo(_ context.Context, r *echopb.EchoRequest) (*echopb.EchoReply, error) {
	return pbReply(r), nil
}

func (pbEcho) Stream(s grpc.BidiStreamingServer[echopb.EchoRequest, echopb.EchoReply]) error {
	for {
		r, err := s.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.Send(pbReply(r)); err != nil {
			return err
		}
	}
}

// phaserReply answers r in out, reusing out's payload.
func phaserReply(r echopbphaser.EchoRequest, out echopbphaser.EchoReply) {
	out.Clear()
	out.SetText("echo: " + r.Text())
	out.SetSeq(r.Seq())
	out.SetEntries(int32(r.Counts().Len()))
	out.SetBlob(r.Blob())
	var sum int64
	for _, v := range r.Values().All() {
		sum += v
	}
	for _, e := range r.Counts().All() {
		sum += int64(e.Value())
	}
	sum += r.At().Seconds()
	out.SetSum(sum)
	path := r.Path()
	for i := path.Len() - 1; i >= 0; i-- {
		out.Path().Append().CopyFrom(path.At(i))
	}
	if r.HasPoint() {
		out.Path().Append().CopyFrom(r.Point())
	}
}

// phaserEchoDesc is the service for phaser-go handles, as a program
// writes it without generated gRPC code: handlers decode into handles.
var phaserEchoDesc = grpc.ServiceDesc{
	ServiceName: "phaser.grpctest.Echo",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Echo",
		Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			in := echopbphaser.NewEchoRequest()
			if err := dec(in); err != nil {
				return nil, err
			}
			out := echopbphaser.NewEchoReply()
			phaserReply(in, out)
			return out, nil
		},
	}},
	Streams: []grpc.StreamDesc{{
		StreamName:    "Stream",
		ServerStreams: true,
		ClientStreams: true,
		Handler: func(_ any, s grpc.ServerStream) error {
			in, out := echopbphaser.NewEchoRequest(), echopbphaser.NewEchoReply() // reused for every message
			for {
				if err := s.RecvMsg(in); err == io.EOF {
					return nil
				} else if err != nil {
					return err
				}
				phaserReply(in, out)
				if err := s.SendMsg(out); err != nil {
					return err
				}
			}
		},
	}},
}

// serve starts a server on loopback TCP and returns its address.
func serve(t *testing.T, srv *grpc.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func dial(t *testing.T, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// pbRequest is request i of a test, as protobuf-go builds it.
func pbRequest(i int) *echopb.EchoRequest {
	r := &echopb.EchoRequest{
		Text:   fmt.Sprintf("request %d é", i),
		Values: []int64{int64(i), -3, 1 << 40},
		Counts: map[string]int32{"a": int32(i), "b": -1},
		At:     &timestamppb.Timestamp{Seconds: int64(i) * 1000, Nanos: 5},
		Seq:    int32(i),
		Blob:   bytes.Repeat([]byte{byte(i)}, i%3*700), // some above grpc-go's pooling threshold
	}
	for j := range i % 4 {
		r.Path = append(r.Path, &echopb.Point{X: float64(j), Y: -float64(i)})
	}
	if i%2 == 0 {
		r.Point = &echopb.Point{X: 0.5, Y: float64(i)}
	}
	return r
}

// phaserRequest writes request i into r, reusing its payload.
func phaserRequest(t *testing.T, i int, r echopbphaser.EchoRequest) {
	t.Helper()
	b, err := gproto.Marshal(pbRequest(i))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UnmarshalProto(b); err != nil {
		t.Fatal(err)
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

const calls = 50

func TestPhaserClientProtobufServer(t *testing.T) {
	srv := grpc.NewServer() // grpc-go's own codec
	echopb.RegisterEchoServer(srv, pbEcho{})
	conn := dial(t, serve(t, srv), grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.Codec{})))

	req, reply := echopbphaser.NewEchoRequest(), echopbphaser.NewEchoReply()
	payload := reply.Msg().Payload()
	for i := range calls {
		phaserRequest(t, i, req)
		if err := conn.Invoke(ctx(t), echopb.Echo_Echo_FullMethodName, req, reply); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if !gproto.Equal(reply, pbReply(pbRequest(i))) {
			t.Fatalf("call %d: reply %v, want %v", i, reply, pbReply(pbRequest(i)))
		}
	}
	if reply.Msg().Payload() != payload {
		t.Error("the reply handle's payload was replaced, not reused")
	}

	// A pointer to an absent handle gets a message on the first receive.
	var fresh echopbphaser.EchoReply
	phaserRequest(t, 7, req)
	if err := conn.Invoke(ctx(t), echopb.Echo_Echo_FullMethodName, req, &fresh); err != nil {
		t.Fatal(err)
	}
	if !gproto.Equal(fresh, pbReply(pbRequest(7))) {
		t.Errorf("reply into new(EchoReply): %v", fresh)
	}

	// Streaming, one request and one reply handle for the whole stream.
	s, err := conn.NewStream(ctx(t), &echopb.Echo_ServiceDesc.Streams[0], echopb.Echo_Stream_FullMethodName)
	if err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		phaserRequest(t, i, req)
		if err := s.SendMsg(req); err != nil {
			t.Fatal(err)
		}
		if err := s.RecvMsg(reply); err != nil {
			t.Fatal(err)
		}
		if !gproto.Equal(reply, pbReply(pbRequest(i))) {
			t.Fatalf("stream message %d: reply %v", i, reply)
		}
	}
	if err := s.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if err := s.RecvMsg(reply); err != io.EOF {
		t.Errorf("end of stream: %v", err)
	}
}

func TestProtobufClientPhaserServer(t *testing.T) {
	srv := grpc.NewServer(grpc.ForceServerCodecV2(grpccodec.Codec{}))
	srv.RegisterService(&phaserEchoDesc, nil)
	client := echopb.NewEchoClient(dial(t, serve(t, srv))) // plain protobuf-go

	for i := range calls {
		got, err := client.Echo(ctx(t), pbRequest(i))
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if want := pbReply(pbRequest(i)); !gproto.Equal(got, want) {
			t.Fatalf("call %d: reply %v, want %v", i, got, want)
		}
	}
	s, err := client.Stream(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if err := s.Send(pbRequest(i)); err != nil {
			t.Fatal(err)
		}
		got, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if want := pbReply(pbRequest(i)); !gproto.Equal(got, want) {
			t.Fatalf("stream message %d: reply %v, want %v", i, got, want)
		}
	}
	s.CloseSend()
}

// TestCodecAllocs checks the budget: a receive into a reused handle
// allocates nothing, and a send what grpc-go's codec allocates for the
// same protobuf-go message, or less.
func TestCodecAllocs(t *testing.T) {
	c := grpccodec.Codec{}
	for _, i := range []int{1, 2} { // below and above grpc-go's pooling threshold
		ref := pbRequest(i)
		req := echopbphaser.NewEchoRequest()
		phaserRequest(t, i, req)
		data, err := c.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		wire := data.Materialize()
		data.Free()
		if want, _ := (gproto.MarshalOptions{Deterministic: true}).Marshal(ref); !bytes.Equal(wire, want) {
			t.Fatalf("request %d: Marshal wrote\n% x\nwant\n% x", i, wire, want)
		}

		// Boxed once, as a loop that receives into one handle passes it:
		// converting a handle (a two-word value) to an interface allocates.
		var target any = echopbphaser.NewEchoRequest()
		in := mem.BufferSlice{mem.SliceBuffer(wire)}
		if err := c.Unmarshal(in, target); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := c.Unmarshal(in, target); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("request %d: Unmarshal into a reused handle allocates %v times", i, n)
		}
		if !gproto.Equal(target.(echopbphaser.EchoRequest), ref) {
			t.Errorf("request %d: received %v", i, target)
		}

		var boxed any = req
		ours := testing.AllocsPerRun(100, func() {
			d, err := c.Marshal(boxed)
			if err != nil {
				t.Fatal(err)
			}
			d.Free()
		})
		pb := encoding.GetCodecV2("proto") // grpc-go's: Register is not called in these tests
		theirs := testing.AllocsPerRun(100, func() {
			d, err := pb.Marshal(ref)
			if err != nil {
				t.Fatal(err)
			}
			d.Free()
		})
		t.Logf("request %d (%d bytes): Marshal allocates %v times, grpc-go's codec %v", i, len(wire), ours, theirs)
		if ours > theirs {
			t.Errorf("request %d: Marshal allocates %v times, grpc-go's codec %v", i, ours, theirs)
		}
	}
}

func TestCodecTargets(t *testing.T) {
	c := grpccodec.Codec{}
	data, err := c.Marshal(echopbphaser.NewPoint())
	if err != nil {
		t.Fatal(err)
	}
	req := echopbphaser.NewEchoRequest()
	phaserRequest(t, 3, req)
	wire, _ := req.MarshalProto()
	in := mem.BufferSlice{mem.SliceBuffer(wire)}

	ro, _ := echopbphaser.ReadEchoRequest(echopbphaser.NewEchoRequest().Bytes())
	var nilPtr *echopbphaser.EchoRequest
	for name, target := range map[string]any{
		"read-only handle":   ro,
		"zero handle":        echopbphaser.EchoRequest{},
		"zero runtime.Msg":   runtime.Msg{},
		"nil handle pointer": nilPtr,
		"not a message":      new(int),
	} {
		if err := c.Unmarshal(in, target); err == nil {
			t.Errorf("Unmarshal into a %s succeeded", name)
		}
	}
	if _, err := c.Marshal(42); err == nil {
		t.Error("Marshal of an int succeeded")
	}
	if len(data.Materialize()) != 0 {
		t.Error("an empty message is not empty on the wire")
	}

	// Hostile bytes: an error, never a panic.
	for _, b := range [][]byte{{0x0a, 0xff}, {0x12, 0x02, 0x80}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}} {
		if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, echopbphaser.NewEchoRequest()); err == nil {
			t.Errorf("Unmarshal of % x succeeded", b)
		}
	}

	// Bytes split across buffers, as grpc-go receives large messages.
	split := mem.BufferSlice{mem.SliceBuffer(wire[:5]), mem.SliceBuffer(wire[5:])}
	got := echopbphaser.NewEchoRequest()
	if err := c.Unmarshal(split, got); err != nil || !gproto.Equal(got, pbRequest(3)) {
		t.Errorf("split input: %v (%v)", got, err)
	}

	// protobuf-go messages go through as grpc-go's codec takes them.
	pbData, err := c.Marshal(pbRequest(3))
	if err != nil {
		t.Fatal(err)
	}
	back := new(echopb.EchoRequest)
	if err := c.Unmarshal(pbData, back); err != nil || !gproto.Equal(back, pbRequest(3)) {
		t.Errorf("protobuf-go round trip: %v (%v)", back, err)
	}

	// A payload whose fixed buffer filled up is not sent.
	full, err := echopbphaser.NewEchoRequestIn(make([]byte, 512))
	if err != nil {
		t.Fatal(err)
	}
	full.SetText(strings.Repeat("x", 1024))
	if _, err := c.Marshal(full); err == nil || !errors.Is(err, runtime.ErrFull) && !strings.Contains(err.Error(), "failed") {
		t.Errorf("Marshal of a failed payload: %v", err)
	}
}
