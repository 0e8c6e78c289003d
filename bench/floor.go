package bench

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/phaser-go/phaser/runtime"
)

// ros1-floor: a hand-written, straight-line Go writer of the ROS1 bytes of
// each shape, reading the same Phaser 3 payloads as phaser's ROSMarshal
// (the protobuf frontend's layout, the offsets below) and writing the same
// bytes. It is the floor of the goal "ROS1 marshal within 1.5x of a
// hand-written writer": what generated code could do with nothing
// between it and the bytes.
//
// It keeps the safety of phaser's reads: every message, string, vector and
// chunk is checked against the payload's length before it is read (Go's
// own bounds checks stay on), absent scalars (presence bit clear) are
// written as 0, absent messages and strings as defaults, a fixed array
// longer than its ROS size and a payload that does not fit are errors,
// never a panic. What it leaves out: it assumes every message has the
// compiled layout (phaser checks each type's table once, when it opens the
// payload or first reaches the type), and it compares each element of a
// repeated message with its vector's table word instead. TestFloor checks
// its bytes against phaser's and goroslib's, and that cut or corrupted
// payloads give an error.

var errFloor = errors.New("ros1-floor: payload does not hold the compiled layout within its length")

var le = binary.LittleEndian

// The Phaser 3 layout of the bench messages (protobuf frontend): each
// message's size and its fields' offsets and presence ids. TestFloorLayout
// checks them against the runtime's.
const (
	smallSize, smallName, smallBirthDay, smallPhone, smallSiblings, smallSpouse, smallMoney = 48, 8, 16, 24, 28, 32, 40
	smallBirthDayID, smallSiblingsID, smallSpouseID, smallMoneyID                           = 0, 1, 2, 3

	headerSize, headerSeq, headerStamp, headerFrameID = 20, 8, 12, 16
	headerSeqID                                       = 0

	timeSize, timeSeconds, timeNanos = 20, 8, 16
	timeSecondsID, timeNanosID       = 0, 1

	imuSize, imuHeader, imuOrientation, imuOrientationCov, imuAngularVelocity, imuAngularVelocityCov = 56, 8, 12, 16, 24, 32
	imuLinearAcceleration, imuLinearAccelerationCov                                                  = 40, 48
	quatSize, vec3Size                                                                               = 40, 32 // x, y, z(, w) at 8, 16, 24(, 32), ids 0..3

	cloudSize, cloudHeader, cloudHeight, cloudWidth, cloudFields, cloudIsBigendian = 64, 8, 12, 16, 24, 32
	cloudPointStep, cloudRowStep, cloudData, cloudIsDense, cloudPoints             = 36, 40, 44, 48, 56
	cloudHeightID, cloudWidthID, cloudIsBigendianID, cloudPointStepID              = 0, 1, 2, 3
	cloudRowStepID, cloudIsDenseID                                                 = 4, 5

	fieldSize, fieldName, fieldOffset, fieldDatatype, fieldCount = 24, 8, 12, 16, 20
	fieldOffsetID, fieldDatatypeID, fieldCountID                 = 0, 1, 2

	pointSize = 24 // x, y, z, intensity at 8, 12, 16, 20, ids 0..3

	imageSize, imageHeader, imageHeight, imageWidth, imageEncoding, imageIsBigendian, imageStep, imageData = 36, 8, 12, 16, 20, 24, 28, 32
	imageHeightID, imageWidthID, imageIsBigendianID, imageStepID                                           = 0, 1, 2, 3
)

// The Phaser 3 payload header (spec 1, 8.1) and MessageVectorBlock (8.8).
const (
	payloadHeader = 40 // bytes; the root's offset is word 1
	flagFailed    = 4  // flags byte (2) bit 2: the buffer filled up
	mvbHeaderSize = 144
	mvbMaxChunks  = 32
)

// zeroMsg is the image of an absent message: every field reads as absent.
var zeroMsg [64]byte

// floorSources returns the payload bytes of every value of vals, built by
// phaser and copied as a receiver holds them (phaser's ROSMarshal reads
// the same bytes).
func floorSources[T phaserMsg, V any](shape string, vals []V, newIn func([]byte, ...runtime.Options) (T, error), set func(T, *V)) [][]byte {
	out := make([][]byte, len(vals))
	for i := range vals {
		x := phaserNew(shape, newIn, nil)
		set(x, &vals[i])
		out[i] = bytes.Clone(x.Bytes())
	}
	return out
}

// floorRoot returns the root message's size bytes.
func floorRoot(p []byte, size int) ([]byte, error) {
	if len(p) < payloadHeader || p[0] != 'P' || p[1] != 'H' || p[3] != 3 || p[2]&flagFailed != 0 {
		return nil, errFloor
	}
	m, ok := floorMsg(p, le.Uint32(p[4:]), size)
	if !ok {
		return nil, errFloor
	}
	return m, nil
}

// floorMsg returns the size bytes of the message at off, zeroMsg's if off
// is 0 (an absent message), or false if they do not fit in p.
func floorMsg(p []byte, off uint32, size int) ([]byte, bool) {
	if off == 0 {
		return zeroMsg[:size], true
	}
	if uint64(off)+uint64(size) > uint64(len(p)) {
		return nil, false
	}
	return p[off : int(off)+size], true
}

// floorStr returns the bytes of the string whose block is at slot (0:
// absent, the empty string).
func floorStr(p []byte, slot uint32) ([]byte, bool) {
	if slot == 0 {
		return nil, true
	}
	o := uint64(slot)
	if o+4 > uint64(len(p)) {
		return nil, false
	}
	end := o + 4 + uint64(le.Uint32(p[o:o+4:o+4]))
	if end > uint64(len(p)) {
		return nil, false
	}
	return p[o+4 : end : end], true // (a constant capacity: no pointer mask)
}

// on32 and on64 are all ones if presence bit id is set in pres, else 0.
func on32(pres uint32, id uint) uint32 { return -(pres >> id & 1) }
func on64(pres uint32, id uint) uint64 { return -uint64(pres >> id & 1) }

// floorGrow extends dst by n bytes and returns it and the new n bytes.
func floorGrow(dst []byte, n int) ([]byte, []byte) {
	dst = slices.Grow(dst, n)
	k := len(dst)
	dst = dst[:k+n]
	return dst, dst[k:]
}

// putStr writes a ROS string (uint32 length, bytes) at b[o:] and returns
// the offset after it.
func putStr(b []byte, o int, s []byte) int {
	le.PutUint32(b[o:], uint32(len(s)))
	return o + 4 + copy(b[o+4:], s)
}

// floorTime is a ROS time of a google.protobuf.Timestamp, canonical as
// genpy writes it (0 <= nsec < 1e9).
func floorTime(seconds int64, nanos int32) (sec, nsec uint32) {
	const ns = 1_000_000_000
	s, n := seconds+int64(nanos)/ns, int64(nanos)%ns
	if n < 0 {
		s--
		n += ns
	}
	return uint32(s), uint32(n)
}

// floorHdr is a std_msgs/Header read from a payload.
type floorHdr struct {
	seq, sec, nsec uint32
	frame          []byte
}

// size is its ROS1 length.
func (h *floorHdr) size() int { return 16 + len(h.frame) }

// put writes it at b[o:].
func (h *floorHdr) put(b []byte, o int) int {
	w := b[o : o+12]
	le.PutUint32(w[0:], h.seq)
	le.PutUint32(w[4:], h.sec)
	le.PutUint32(w[8:], h.nsec)
	return putStr(b, o+12, h.frame)
}

// readHeader reads the Header message at off.
func readHeader(p []byte, off uint32) (floorHdr, bool) {
	m, ok := floorMsg(p, off, headerSize)
	if !ok {
		return floorHdr{}, false
	}
	pres := le.Uint32(m[4:])
	h := floorHdr{seq: le.Uint32(m[headerSeq:]) & on32(pres, headerSeqID)}
	if h.frame, ok = floorStr(p, le.Uint32(m[headerFrameID:])); !ok {
		return floorHdr{}, false
	}
	t, ok := floorMsg(p, le.Uint32(m[headerStamp:]), timeSize)
	if !ok {
		return floorHdr{}, false
	}
	tp := le.Uint32(t[4:])
	h.sec, h.nsec = floorTime(int64(le.Uint64(t[timeSeconds:])&on64(tp, timeSecondsID)),
		int32(le.Uint32(t[timeNanos:])&on32(tp, timeNanosID)))
	return h, true
}

// floorSmall writes the ROS1 bytes of the SmallStruct payload p.
func floorSmall(dst, p []byte) ([]byte, error) {
	m, err := floorRoot(p, smallSize)
	if err != nil {
		return dst, err
	}
	pres := le.Uint32(m[4:])
	name, ok1 := floorStr(p, le.Uint32(m[smallName:]))
	phone, ok2 := floorStr(p, le.Uint32(m[smallPhone:]))
	if !ok1 || !ok2 {
		return dst, errFloor
	}
	var spouse byte
	if m[smallSpouse]&byte(on32(pres, smallSpouseID)) != 0 {
		spouse = 1
	}
	dst, b := floorGrow(dst, 29+len(name)+len(phone))
	o := putStr(b, 0, name)
	le.PutUint64(b[o:], le.Uint64(m[smallBirthDay:])&on64(pres, smallBirthDayID))
	o = putStr(b, o+8, phone)
	w := b[o : o+13]
	le.PutUint32(w[0:], le.Uint32(m[smallSiblings:])&on32(pres, smallSiblingsID))
	w[4] = spouse
	le.PutUint64(w[5:], le.Uint64(m[smallMoney:])&on64(pres, smallMoneyID))
	return dst, nil
}

// floorHeader writes the ROS1 bytes of the Header payload p.
func floorHeader(dst, p []byte) ([]byte, error) {
	if _, err := floorRoot(p, headerSize); err != nil {
		return dst, err
	}
	h, ok := readHeader(p, le.Uint32(p[4:]))
	if !ok {
		return dst, errFloor
	}
	dst, b := floorGrow(dst, h.size())
	h.put(b, 0)
	return dst, nil
}

// putDoubles writes a message's doubles at offsets 8, 16, ... (n of them,
// presence ids 0..n-1) at w.
func putDoubles(w, m []byte, n int) {
	pres := le.Uint32(m[4:])
	for k := range n {
		le.PutUint64(w[8*k:], le.Uint64(m[8+8*k:])&on64(pres, uint(k)))
	}
}

// floorCov returns the bytes of the repeated double whose VectorHeader is
// hdr, for a ROS float64[9]: at most 72.
func floorCov(p, hdr []byte) ([]byte, bool) {
	num, data := le.Uint32(hdr), le.Uint32(hdr[4:])
	if num == 0 {
		return nil, true
	}
	end := uint64(data) + 8*uint64(num)
	if num > 9 || data == 0 || end > uint64(len(p)) {
		return nil, false
	}
	return p[data:end], true
}

// floorImu writes the ROS1 bytes of the Imu payload p.
func floorImu(dst, p []byte) ([]byte, error) {
	m, err := floorRoot(p, imuSize)
	if err != nil {
		return dst, err
	}
	h, ok := readHeader(p, le.Uint32(m[imuHeader:]))
	q, ok1 := floorMsg(p, le.Uint32(m[imuOrientation:]), quatSize)
	a, ok2 := floorMsg(p, le.Uint32(m[imuAngularVelocity:]), vec3Size)
	l, ok3 := floorMsg(p, le.Uint32(m[imuLinearAcceleration:]), vec3Size)
	oc, ok4 := floorCov(p, m[imuOrientationCov:imuOrientationCov+8])
	ac, ok5 := floorCov(p, m[imuAngularVelocityCov:imuAngularVelocityCov+8])
	lc, ok6 := floorCov(p, m[imuLinearAccelerationCov:imuLinearAccelerationCov+8])
	if !ok || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return dst, errFloor
	}
	hs := h.size()
	dst, b := floorGrow(dst, hs+32+72+24+72+24+72)
	h.put(b, 0)
	w := b[hs : hs+296]
	putDoubles(w[0:32], q, 4)
	clear(w[32+copy(w[32:104], oc) : 104])
	putDoubles(w[104:128], a, 3)
	clear(w[128+copy(w[128:200], ac) : 200])
	putDoubles(w[200:224], l, 3)
	clear(w[224+copy(w[224:296], lc) : 296])
	return dst, nil
}

// floorVec is a checked MessageVectorBlock of n elements of size bytes.
type floorVec struct {
	data, stride, c, chunks, meta uint32
	n                             int
}

// readVec checks the MessageVectorBlock whose VectorHeader is hdr, for
// elements of size bytes.
func readVec(p, hdr []byte, size int) (floorVec, bool) {
	num, data := le.Uint32(hdr), le.Uint32(hdr[4:])
	if num == 0 {
		return floorVec{}, true
	}
	if data == 0 || uint64(data)+mvbHeaderSize > uint64(len(p)) {
		return floorVec{}, false
	}
	b := p[data : data+mvbHeaderSize]
	v := floorVec{data: data, stride: le.Uint32(b[0:]), c: le.Uint32(b[4:]), meta: le.Uint32(b[8:]), chunks: le.Uint32(b[12:]), n: int(num)}
	if v.stride < uint32(size) || v.stride%4 != 0 || v.c == 0 || v.chunks == 0 || v.chunks > mvbMaxChunks ||
		uint64(num) > uint64(v.c)*(1<<uint64(v.chunks)-1) {
		return floorVec{}, false
	}
	return v, true
}

// chunk returns the bytes of the first cnt elements of chunk k.
func (v *floorVec) chunk(p []byte, k uint32, cnt int) ([]byte, bool) {
	if k >= v.chunks {
		return nil, false
	}
	base := le.Uint32(p[v.data+16+4*k:])
	end := uint64(base) + uint64(cnt)*uint64(v.stride)
	if base == 0 || end > uint64(len(p)) {
		return nil, false
	}
	return p[base:end], true
}

// floorCloud writes the ROS1 bytes of the Cloud payload p.
func floorCloud(dst, p []byte) ([]byte, error) {
	m, err := floorRoot(p, cloudSize)
	if err != nil {
		return dst, err
	}
	pres := le.Uint32(m[4:])
	h, ok := readHeader(p, le.Uint32(m[cloudHeader:]))
	data, ok1 := floorStr(p, le.Uint32(m[cloudData:]))
	fv, ok2 := readVec(p, m[cloudFields:cloudFields+8], fieldSize)
	pv, ok3 := readVec(p, m[cloudPoints:cloudPoints+8], pointSize)
	if !ok || !ok1 || !ok2 || !ok3 {
		return dst, errFloor
	}
	// The fields' names, for the size: a few elements.
	var names [8][]byte
	nameLen := 0
	if fv.n > len(names) {
		return dst, errFloor // more than the bench's fields: not this floor's job
	}
	for i, k := 0, uint32(0); i < fv.n; k++ {
		cnt := min(int(fv.c)<<k, fv.n-i)
		ch, ok := fv.chunk(p, k, cnt)
		if !ok {
			return dst, errFloor
		}
		for j := range cnt {
			e := ch[j*int(fv.stride):][:fieldSize]
			if le.Uint32(e) != fv.meta {
				return dst, errFloor
			}
			if names[i], ok = floorStr(p, le.Uint32(e[fieldName:])); !ok {
				return dst, errFloor
			}
			nameLen += len(names[i])
			i++
		}
	}
	hs := h.size()
	n := hs + 8 + 4 + fv.n*13 + nameLen + 1 + 8 + 4 + len(data) + 1 + 4 + 16*pv.n
	dst, b := floorGrow(dst, n)
	o := h.put(b, 0)
	w := b[o : o+12]
	le.PutUint32(w[0:], le.Uint32(m[cloudHeight:])&on32(pres, cloudHeightID))
	le.PutUint32(w[4:], le.Uint32(m[cloudWidth:])&on32(pres, cloudWidthID))
	le.PutUint32(w[8:], uint32(fv.n))
	o += 12
	for i, k := 0, uint32(0); i < fv.n; k++ {
		cnt := min(int(fv.c)<<k, fv.n-i)
		ch, _ := fv.chunk(p, k, cnt)
		for j := range cnt {
			e := ch[j*int(fv.stride):][:fieldSize]
			ep := le.Uint32(e[4:])
			o = putStr(b, o, names[i])
			w := b[o : o+9]
			le.PutUint32(w[0:], le.Uint32(e[fieldOffset:])&on32(ep, fieldOffsetID))
			w[4] = e[fieldDatatype] & byte(on32(ep, fieldDatatypeID))
			le.PutUint32(w[5:], le.Uint32(e[fieldCount:])&on32(ep, fieldCountID))
			o += 9
			i++
		}
	}
	w = b[o : o+9]
	if m[cloudIsBigendian]&byte(on32(pres, cloudIsBigendianID)) != 0 {
		w[0] = 1
	} else {
		w[0] = 0
	}
	le.PutUint32(w[1:], le.Uint32(m[cloudPointStep:])&on32(pres, cloudPointStepID))
	le.PutUint32(w[5:], le.Uint32(m[cloudRowStep:])&on32(pres, cloudRowStepID))
	o = putStr(b, o+9, data)
	w = b[o : o+5]
	if m[cloudIsDense]&byte(on32(pres, cloudIsDenseID)) != 0 {
		w[0] = 1
	} else {
		w[0] = 0
	}
	le.PutUint32(w[1:], uint32(pv.n))
	o += 5
	for i, k := 0, uint32(0); i < pv.n; k++ {
		cnt := min(int(pv.c)<<k, pv.n-i)
		ch, ok := pv.chunk(p, k, cnt)
		if !ok {
			return dst, errFloor
		}
		stride := int(pv.stride)
		out := b[o : o+16*cnt]
		for j := range cnt {
			e := ch[j*stride:][:pointSize]
			if le.Uint32(e) != pv.meta {
				return dst, errFloor
			}
			ep := le.Uint32(e[4:])
			w := out[16*j:][:16]
			le.PutUint32(w[0:], le.Uint32(e[8:])&on32(ep, 0))
			le.PutUint32(w[4:], le.Uint32(e[12:])&on32(ep, 1))
			le.PutUint32(w[8:], le.Uint32(e[16:])&on32(ep, 2))
			le.PutUint32(w[12:], le.Uint32(e[20:])&on32(ep, 3))
		}
		o += 16 * cnt
		i += cnt
	}
	return dst, nil
}

// floorImage writes the ROS1 bytes of the Image payload p.
func floorImage(dst, p []byte) ([]byte, error) {
	m, err := floorRoot(p, imageSize)
	if err != nil {
		return dst, err
	}
	pres := le.Uint32(m[4:])
	h, ok := readHeader(p, le.Uint32(m[imageHeader:]))
	enc, ok1 := floorStr(p, le.Uint32(m[imageEncoding:]))
	data, ok2 := floorStr(p, le.Uint32(m[imageData:]))
	if !ok || !ok1 || !ok2 {
		return dst, errFloor
	}
	hs := h.size()
	dst, b := floorGrow(dst, hs+8+4+len(enc)+5+4+len(data))
	o := h.put(b, 0)
	w := b[o : o+8]
	le.PutUint32(w[0:], le.Uint32(m[imageHeight:])&on32(pres, imageHeightID))
	le.PutUint32(w[4:], le.Uint32(m[imageWidth:])&on32(pres, imageWidthID))
	o = putStr(b, o+8, enc)
	w = b[o : o+5]
	w[0] = m[imageIsBigendian] & byte(on32(pres, imageIsBigendianID))
	le.PutUint32(w[1:], le.Uint32(m[imageStep:])&on32(pres, imageStepID))
	putStr(b, o+5, data)
	return dst, nil
}
