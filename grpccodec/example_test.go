package grpccodec_test

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/phaser-go/phaser/grpccodec"
	"github.com/phaser-go/phaser/grpccodec/internal/echopb/echopbphaser"
)

// A server and a client that exchange phaser-go handles: the server's
// handler decodes the request into a handle's payload and answers with
// another; the client sends a handle and receives into one it reuses.
// Either side could be any protobuf gRPC peer.
func Example() {
	desc := grpc.ServiceDesc{
		ServiceName: "phaser.grpctest.Echo",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Echo",
			Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				req := echopbphaser.NewEchoRequest()
				if err := dec(req); err != nil {
					return nil, err
				}
				reply := echopbphaser.NewEchoReply()
				reply.SetText("echo: " + req.Text())
				reply.SetSeq(req.Seq())
				return reply, nil
			},
		}},
	}
	srv := grpc.NewServer(grpc.ForceServerCodecV2(grpccodec.Codec{}))
	srv.RegisterService(&desc, nil)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go srv.Serve(lis)
	defer srv.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.Codec{})))
	if err != nil {
		panic(err)
	}
	defer conn.Close()

	req, reply := echopbphaser.NewEchoRequest(), echopbphaser.NewEchoReply()
	for i := range 2 {
		req.SetText(fmt.Sprint("hello ", i))
		req.SetSeq(int32(i))
		if err := conn.Invoke(context.Background(), "/phaser.grpctest.Echo/Echo", req, reply); err != nil {
			panic(err)
		}
		fmt.Println(reply.Seq(), reply.Text())
	}
	// Output:
	// 0 echo: hello 0
	// 1 echo: hello 1
}
