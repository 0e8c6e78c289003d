package bench

// vtprotobuf: the protoc-gen-go structs with vtproto's generated
// SizeVT/MarshalToSizedBufferVT/UnmarshalVT. Build sets the struct's fields
// (protobuf.go), sizes it and marshals into a reused buffer; readers Reset
// (UnmarshalVT merges) and unmarshal into a reused struct. The codecs are
// in ops.go.

// vtBuf returns out with length n, grown as needed, for
// MarshalToSizedBufferVT.
func vtBuf(out []byte, n int) []byte {
	if cap(out) < n {
		return make([]byte, n, 2*n)
	}
	return out[:n]
}
