// Command channel measures the shared-memory channel (package shm) between
// two processes, beside the floor and a conventional baseline, all in one
// run:
//
//   - floor: an atomic store/load round trip between two processes (one
//     stores, the other spins on the word and stores a reply);
//   - shm: a 256 B message (a SmallStruct whose Phaser payload is 256 bytes)
//     built in place in a slot (one handle per slot, cleared and refilled),
//     read in place, checked; and a 1 MiB one (a Cloud whose data is 1 MiB,
//     made with NewCloudIn in the slot and filled by one copy, every byte
//     read), beside its floor: the same two processes, slots and
//     notification, the publisher copying the 1 MiB into the slot and the
//     subscriber summing every byte, with no Phaser code;
//   - baseline: the same messages marshaled with vtprotobuf, written to a
//     unix socket, read and unmarshaled into a reused struct;
//   - reference: filling and reading 1 MiB in one process (one copy, one
//     read, no transfer between CPUs).
//
// Latency is a ping-pong round trip measured by the driver (256 B: the
// reply is the same message; one-way = RTT/2), or for 1 MiB one-way from the
// publisher's clock before building to the subscriber's after reading every
// byte and checking (CLOCK_REALTIME, read by both processes), paced by a
// small reply. Throughput streams messages one way as fast as the publisher
// can; the subscriber reads each and counts what it missed. The driver's
// per-sample clock reads cost is measured and subtracted from round trips.
//
//	go run ./cmd/channel -scale 0.1                     # a quick look, one binary
//	./channel                                           # results/channel.md: two binaries, alternated
//
// -json writes the raw figures instead, and -merge combines several -json
// files (one per run and binary) into the markdown section.
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/unix"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/bench/gen/pb"
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	phruntime "github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/shm"
)

var (
	child   = flag.String("child", "", "internal: run as the second process of this case")
	out     = flag.String("out", "", "write the markdown section to this file (default stdout)")
	jsonOut = flag.String("json", "", "write the raw results as JSON to this file instead")
	merge   = flag.Bool("merge", false, "merge the -json files given as arguments into the markdown section")
	scale   = flag.Float64("scale", 1, "multiply every iteration count (0.1 for a quick run)")
	label   = flag.String("binary", "A", "the binary's label in the report")
	only    = flag.String("run", "", "run only the cases whose names contain this")
	pin     = flag.Bool("pin", runtime.NumCPU() >= 2, "pin the driver to CPU 0 and the second process to CPU 1")
	cpu     = flag.Int("cpu", -1, "internal: the CPU the second process pins itself to")
)

// Iteration counts at -scale 1.
const (
	floorRTTs     = 200000
	smallRTTs     = 100000
	socketRTTs    = 20000
	bigSamples    = 1000
	smallStream   = 1000000
	socketStreamN = 200000
	bigStream     = 2000
	bigData       = 1 << 20
	smallPayload  = 256
)

func n(base int) int { return max(10, int(float64(base)**scale)) }

func main() {
	flag.Parse()
	log.SetFlags(0)
	var err error
	switch {
	case *child != "":
		if *cpu >= 0 {
			err = pinTo(*cpu)
		}
		if err == nil {
			err = runChild(*child)
		}
	case *merge:
		err = mergeReports(flag.Args())
	default:
		err = drive()
	}
	if err != nil {
		log.Fatalf("channel: %v", err)
	}
}

// ---- results ----

// Result is one measured case.
type Result struct {
	Case    string  // the row's name
	Bytes   int     // message size on the channel or the wire
	P50     float64 // ns: round trip (Kind "rtt") or one way ("oneway"), or per message ("stream")
	P99     float64
	Mean    float64
	Kind    string  // "rtt", "oneway", "stream"
	MsgsPS  float64 // stream: intact messages per second at the receiver
	SentPS  float64 // stream: messages per second the sender sent
	GBPS    float64 // stream: payload bytes per second
	Missed  uint64  // stream: messages the receiver missed
	Torn    uint64  // messages found overwritten while read
	Samples int
	More    []Result `json:",omitempty"` // further rows a run measured together with this one
}

// Report is one run of one binary.
type Report struct {
	Binary  string
	Go      string
	CPU     string
	Load    string
	Started time.Time
	Results []Result
}

func percentiles(ns []float64) (p50, p99, mean float64) {
	slices.Sort(ns)
	var sum float64
	for _, v := range ns {
		sum += v
	}
	q := func(f float64) float64 { return ns[int(f*float64(len(ns)-1))] }
	return q(0.5), q(0.99), sum / float64(len(ns))
}

// clockCost is the median cost of the two clock reads around a sample.
func clockCost() float64 {
	s := make([]float64, 100000)
	for i := range s {
		t0 := time.Now()
		t1 := time.Now()
		s[i] = float64(t1.Sub(t0))
	}
	p50, _, _ := percentiles(s)
	return p50
}

// ---- the driver ----

// pinTo binds every thread of this process to cpu (threads made later
// inherit it).
func pinTo(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, _ := strconv.Atoi(t.Name())
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return fmt.Errorf("pin thread %d to CPU %d: %w", tid, cpu, err)
		}
	}
	return nil
}

// childCPU is the CPU the second process of a case pins itself to (-1:
// none); sameCPU makes it the driver's.
var childCPU = -1

func drive() error {
	if *pin {
		if err := pinTo(0); err != nil {
			return err
		}
		childCPU = 1
	}
	rep := Report{Binary: *label, Go: runtime.Version(), CPU: cpuName(), Load: loadAvg(), Started: time.Now()}
	cc := clockCost()
	var runs []func(float64) (Result, error)
	var names []string
	for _, c := range cases() {
		runs, names = append(runs, c.run), append(names, c.name)
	}
	for i, run := range runs {
		if *only != "" && !strings.Contains(names[i], *only) {
			continue
		}
		r, err := run(cc)
		if err != nil {
			return err
		}
		for _, r := range append([]Result{r}, r.More...) {
			fmt.Fprintf(os.Stderr, "%-34s p50 %9.0f ns  p99 %9.0f ns  %8.3f M msgs/s %7.2f GB/s missed %d\n",
				r.Case, r.P50, r.P99, r.MsgsPS/1e6, r.GBPS, r.Missed)
			rep.Results = append(rep.Results, r)
		}
		rep.Results[len(rep.Results)-1-len(r.More)].More = nil
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		return os.WriteFile(*jsonOut, b, 0o644)
	}
	return writeMarkdown([]Report{rep})
}

// driverCase is one of the driver's runs, named for -run.
type driverCase struct {
	name string
	run  func(float64) (Result, error)
}

// cases are the driver's runs, in order. The 1 MiB channel cases run each
// write mode in turn (the floor first), so that the machine's state drifts
// little between a mode and its floor.
func cases() []driverCase {
	c := []driverCase{
		{"floor rtt", floorRTT}, {"shm 256 rtt", smallChannelRTT}, {"socket 256 rtt", smallSocketRTT},
		{"shm 256 one-cpu rtt", smallChannelRTTOneCPU}, {"shm 256 local", smallChannelLocal},
	}
	c = append(c, driverCase{"shm 1m oneway interleaved", bigChannelInterleaved})
	for _, m := range bigModes {
		c = append(c, driverCase{"shm 1m oneway " + m.String(), bigChannelOneWay(m)})
	}
	c = append(c, driverCase{"socket 1m oneway", bigSocketOneWay}, driverCase{"reference 1m", bigReference},
		driverCase{"shm 256 stream", smallChannelStream}, driverCase{"socket 256 stream", smallSocketStream})
	for _, m := range bigModes {
		c = append(c, driverCase{"shm 1m stream " + m.String(), bigChannelStream(m)})
	}
	return append(c, driverCase{"socket 1m stream", bigSocketStream})
}

// proc is the second process of a case.
type proc struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

func startChild(name string, files []*os.File, args ...string) (*proc, error) {
	cmd := exec.Command(os.Args[0], append([]string{"-child", name, "-cpu", strconv.Itoa(childCPU)}, args...)...)
	cmd.ExtraFiles = files
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, lines: bufio.NewScanner(stdout)}
	if line := p.line(); line != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("%s child said %q", name, line)
	}
	return p, nil
}

func (p *proc) line() string {
	if p.lines.Scan() {
		return p.lines.Text()
	}
	return ""
}

// result reads the child's JSON result line and waits for it to exit.
func (p *proc) result(r *Result) error {
	line := p.line()
	if err := p.cmd.Wait(); err != nil {
		return err
	}
	if r == nil {
		return nil
	}
	return json.Unmarshal([]byte(line), r)
}

func shmDir() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

func channelPath(name string) string {
	return filepath.Join(shmDir(), fmt.Sprintf("phaser-bench-%d-%s", os.Getpid(), name))
}

// ---- floor ----

// The floor's words: ping at 0, pong at 128 (separate cache lines).
func words(mem []byte) (ping, pong *atomic.Uint64) {
	return (*atomic.Uint64)(unsafe.Pointer(&mem[0])), (*atomic.Uint64)(unsafe.Pointer(&mem[128]))
}

func floorRTT(cc float64) (Result, error) {
	fd, err := unix.MemfdCreate("phaser-bench-floor", unix.MFD_CLOEXEC)
	if err != nil {
		return Result{}, err
	}
	f := os.NewFile(uintptr(fd), "floor")
	defer f.Close()
	f.Truncate(4096)
	mem, err := unix.Mmap(fd, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return Result{}, err
	}
	defer unix.Munmap(mem)
	iters := n(floorRTTs)
	p, err := startChild("floor", []*os.File{f}, strconv.Itoa(iters))
	if err != nil {
		return Result{}, err
	}
	ping, pong := words(mem)
	samples := make([]float64, 0, iters)
	for i := uint64(1); i <= uint64(iters); i++ {
		t0 := time.Now()
		ping.Store(i)
		for pong.Load() != i {
		}
		samples = append(samples, float64(time.Since(t0))-cc)
	}
	if err := p.result(nil); err != nil {
		return Result{}, err
	}
	return rtt("floor: atomic store/load", 8, samples[len(samples)/10:]), nil
}

func floorChild(args []string) error {
	iters, _ := strconv.Atoi(args[0])
	mem, err := unix.Mmap(3, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	ping, pong := words(mem)
	fmt.Println("ready")
	for i := uint64(1); i <= uint64(iters); i++ {
		for ping.Load() != i {
		}
		pong.Store(i)
	}
	return nil
}

func rtt(name string, size int, samples []float64) Result {
	p50, p99, mean := percentiles(samples)
	return Result{Case: name, Bytes: size, P50: p50, P99: p99, Mean: mean, Kind: "rtt", Samples: len(samples)}
}

// ---- messages ----

// The 256 B message: a SmallStruct whose name is sized so that its Phaser
// payload is smallPayload bytes; the same values marshal with vtprotobuf.
var smallName = func() string {
	mem := make([]byte, 4096)
	for l := 0; l < smallPayload; l++ {
		name := strings.Repeat("n", l)
		x, _ := pbphaser.NewSmallStructIn(mem)
		fillSmall(x, name, 0)
		if len(x.Bytes()) >= smallPayload {
			return name
		}
	}
	return ""
}()

const phone = "+1-555-0100"

func fillSmall(x pbphaser.SmallStruct, name string, seq uint64) {
	x.SetName(name)
	x.SetBirthDay(int64(seq))
	x.SetPhone(phone)
	x.SetSiblings(int32(seq))
	x.SetSpouse(seq&1 == 1)
	x.SetMoney(float64(seq) / 4)
}

// readSmall reads every field; it returns the sequence number and a
// checksum of the rest.
func readSmall(x pbphaser.SmallStruct) (uint64, uint64) {
	sum := checksum(x.NameBytes()) + checksum(x.PhoneBytes()) + uint64(x.Siblings()) + math.Float64bits(x.Money())
	if x.Spouse() {
		sum++
	}
	return uint64(x.BirthDay()), sum
}

func readSmallPB(m *pb.SmallStruct) (uint64, uint64) {
	sum := checksumString(m.Name) + checksumString(m.Phone) + uint64(m.Siblings) + math.Float64bits(m.Money)
	if m.Spouse {
		sum++
	}
	return uint64(m.BirthDay), sum
}

func smallPB(seq uint64) *pb.SmallStruct {
	return &pb.SmallStruct{Name: smallName, BirthDay: int64(seq), Phone: phone, Siblings: int32(seq), Spouse: seq&1 == 1, Money: float64(seq) / 4}
}

// checksum reads every byte of b (8 at a time).
func checksum(b []byte) uint64 {
	var s uint64
	for len(b) >= 8 {
		s += binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		s += uint64(c)
	}
	return s
}

func checksumString(s string) uint64 {
	return checksum(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// The 1 MiB message: a Cloud with its header and 1 MiB of data, filled by
// one copy from the producer's buffer.
var bigSource = func() []byte {
	b := make([]byte, bigData)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

const bigSlot = bigData + 64<<10

// bigMode is how a 1 MiB case's publisher writes its message into the slot
// and how its subscriber reads it. Every mode writes the same 1 MiB (one
// copy from bigSource) and a sequence number and stamp, publishes through
// the same channel, and reads every byte of the 1 MiB in place (checksum)
// before it checks the message and stops its clock.
type bigMode int

const (
	// bigFloor is the floor: no Phaser code. The publisher stores the
	// sequence number and stamp in the slot's first 16 bytes and copies
	// the 1 MiB to where a Cloud payload keeps its data (floorDataAt); the
	// subscriber reads them back from the slot.
	bigFloor bigMode = iota
	// bigSetData builds a Cloud in the slot with NewCloudIn, sets its
	// header and sizes, and copies the data in with SetData.
	bigSetData
	// bigAllocate is bigSetData with copy(AllocateData(n), bigSource)
	// instead: the bytes AllocateData hands out are zeroed first (format 3
	// scrubs, so caller memory never reaches the payload).
	bigAllocate
	// bigAllocateNoScrub is bigAllocate in a payload made with
	// Scrub: ScrubOff.
	bigAllocateNoScrub
)

var bigModes = []bigMode{bigFloor, bigSetData, bigAllocate, bigAllocateNoScrub}

func (m bigMode) String() string {
	switch m {
	case bigFloor:
		return "floor: raw bytes"
	case bigSetData:
		return "SetData"
	case bigAllocate:
		return "AllocateData + copy"
	case bigAllocateNoScrub:
		return "AllocateData + copy, ScrubOff"
	}
	return "?"
}

// floorDataAt is the offset in a slot of a Cloud payload's data bytes
// (SetData), where the floor copies its 1 MiB too: the same bytes at the
// same addresses.
var floorDataAt = func() int {
	mem := make([]byte, bigSlot)
	x, err := pbphaser.NewCloudIn(mem)
	if err != nil {
		panic(err)
	}
	fillBig(x, bigSetData, 1, 1)
	d := x.DataBytes()
	at := int(uintptr(unsafe.Pointer(unsafe.SliceData(d))) - uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
	if len(d) != bigData || at < 16 || at+bigData > bigSlot {
		panic(fmt.Sprintf("Cloud data at %d (%d bytes)", at, len(d)))
	}
	return at
}()

// writeBig writes message seq into slot and returns the bytes to publish.
func writeBig(slot []byte, mode bigMode, seq uint64, stamp int64) (int, error) {
	if mode == bigFloor {
		binary.LittleEndian.PutUint64(slot, seq)
		binary.LittleEndian.PutUint64(slot[8:], uint64(stamp))
		copy(slot[floorDataAt:], bigSource)
		return floorDataAt + bigData, nil
	}
	var opts []phruntime.Options
	if mode == bigAllocateNoScrub {
		opts = append(opts, phruntime.Options{Scrub: payloadbuffer.ScrubOff})
	}
	x, err := pbphaser.NewCloudIn(slot, opts...)
	if err != nil {
		return 0, err
	}
	fillBig(x, mode, seq, stamp)
	if x.Failed() {
		return 0, x.Err()
	}
	return len(x.Bytes()), nil
}

func fillBig(x pbphaser.Cloud, mode bigMode, seq uint64, stamp int64) {
	h := x.MutableHeader()
	h.SetSeq(uint32(seq))
	st := h.MutableStamp()
	st.SetSeconds(stamp / 1e9)
	st.SetNanos(int32(stamp % 1e9))
	x.SetWidth(bigData)
	x.SetHeight(1)
	if mode == bigSetData {
		x.SetData(bigSource)
	} else {
		copy(x.AllocateData(bigData), bigSource)
	}
}

// readBigData reads message data as mode wrote it: the sequence number,
// the stamp, a checksum of every data byte and the number of data bytes.
func readBigData(pl *phruntime.Payload, mode bigMode, data []byte) (seq uint64, stamp int64, sum uint64, n int, err error) {
	if mode == bigFloor {
		if len(data) != floorDataAt+bigData {
			return 0, 0, 0, 0, fmt.Errorf("floor message of %d bytes", len(data))
		}
		d := data[floorDataAt:]
		return binary.LittleEndian.Uint64(data), int64(binary.LittleEndian.Uint64(data[8:])), checksum(d), len(d), nil
	}
	x, err := pbphaser.ReadCloudInto(pl, data)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	seq, stamp, sum = readBig(x)
	return seq, stamp, sum, len(x.DataBytes()), nil
}

func readBig(x pbphaser.Cloud) (seq uint64, stamp int64, sum uint64) {
	h := x.Header()
	st := h.Stamp()
	return uint64(h.Seq()), st.Seconds()*1e9 + int64(st.Nanos()), checksum(x.DataBytes())
}

func bigPB(seq uint64, stamp int64) *pb.Cloud {
	return &pb.Cloud{
		Header: &pb.Header{Seq: uint32(seq), Stamp: &timestamppb.Timestamp{Seconds: stamp / 1e9, Nanos: int32(stamp % 1e9)}},
		Width:  bigData, Height: 1, Data: bigSource,
	}
}

func readBigPB(m *pb.Cloud) (uint64, int64, uint64) {
	return uint64(m.Header.GetSeq()), m.Header.GetStamp().GetSeconds()*1e9 + int64(m.Header.GetStamp().GetNanos()), checksum(m.Data)
}

// ---- shm: ping-pong ----

// endpoint is one process's side of a ping-pong over two channels.
type endpoint struct {
	pub *shm.Publisher
	out *smallSender // on pub
	sub *shm.Subscriber
	pl  phruntime.Payload
}

func (e *endpoint) close() {
	if e.pub != nil {
		e.pub.Close()
	}
	if e.sub != nil {
		e.sub.Close()
	}
}

func smallConfig() shm.Config {
	return shm.Config{Type: pbphaser.SmallStruct{}.PhaserType().Name(), SlotSize: 4096, Slots: 64}
}

func bigConfig(slots int) shm.Config {
	return shm.Config{Type: pbphaser.Cloud{}.PhaserType().Name(), SlotSize: bigSlot, Slots: slots}
}

func subscribe(path string, typeName string) (*shm.Subscriber, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return shm.Subscribe(ctx, path, shm.Options{Type: typeName}) // shm.DefaultSpin
}

// smallSender publishes 256 B messages the fast way: one handle per slot,
// made with NewSmallStructIn the first time the slot is loaned, then
// cleared and refilled (Loan returns slot Seq() mod Slots()).
type smallSender struct {
	p       *shm.Publisher
	handles []pbphaser.SmallStruct
	size    int // of the prepared message
}

func newSmallSender(p *shm.Publisher) *smallSender {
	return &smallSender{p: p, handles: make([]pbphaser.SmallStruct, p.Slots())}
}

// prepare builds message seq in the next slot; publish publishes it.
func (s *smallSender) prepare(seq uint64) error {
	slot, err := s.p.Loan()
	if err != nil {
		return err
	}
	h := &s.handles[s.p.Seq()%uint64(len(s.handles))]
	if h.IsPresent() {
		h.Clear()
	} else if *h, err = pbphaser.NewSmallStructIn(slot); err != nil {
		return err
	}
	fillSmall(*h, smallName, seq)
	s.size = len(h.Bytes())
	return nil
}

func (s *smallSender) publish() error {
	_, err := s.p.Publish(s.size)
	return err
}

func (s *smallSender) send(seq uint64) error {
	if err := s.prepare(seq); err != nil {
		return err
	}
	return s.publish()
}

// recvSmall receives the next message and checks it is seq.
func (e *endpoint) recvSmall(seq uint64) error {
	m, err := e.sub.Next(context.Background())
	if err != nil {
		return err
	}
	x, err := pbphaser.ReadSmallStructInto(&e.pl, m.Data)
	if err != nil {
		return err
	}
	got, _ := readSmall(x)
	if err := m.Check(); err != nil {
		return err
	}
	if got != seq || m.Missed != 0 {
		return fmt.Errorf("got message %d (missed %d), want %d", got, m.Missed, seq)
	}
	return nil
}

func smallChannelRTT(cc float64) (Result, error) {
	ping, pong := channelPath("ping"), channelPath("pong")
	var e endpoint
	defer e.close()
	var err error
	if e.pub, err = shm.Create(ping, smallConfig()); err != nil {
		return Result{}, err
	}
	e.out = newSmallSender(e.pub)
	iters := n(smallRTTs)
	p, err := startChild("small-shm", nil, ping, pong, strconv.Itoa(iters))
	if err != nil {
		return Result{}, err
	}
	if e.sub, err = subscribe(pong, smallConfig().Type); err != nil {
		return Result{}, err
	}
	samples := make([]float64, 0, iters)
	if err := e.out.prepare(1); err != nil {
		return Result{}, err
	}
	for i := uint64(1); i <= uint64(iters); i++ {
		t0 := time.Now()
		if err := e.out.publish(); err != nil {
			return Result{}, err
		}
		if err := e.recvSmall(i); err != nil {
			return Result{}, err
		}
		samples = append(samples, float64(time.Since(t0))-cc)
		if err := e.out.prepare(i + 1); err != nil {
			return Result{}, err
		}
	}
	if err := p.result(nil); err != nil {
		return Result{}, err
	}
	return rtt("shm channel, 256 B", smallPayload, samples[len(samples)/10:]), nil
}

// smallChannelRTTOneCPU is smallChannelRTT with both processes on CPU 0:
// what a subscriber's yielding spin gives when the scheduler puts the two
// on one CPU.
func smallChannelRTTOneCPU(cc float64) (Result, error) {
	if !*pin {
		return Result{Case: "shm channel, 256 B, one CPU", Kind: "rtt", P50: math.NaN(), P99: math.NaN()}, nil
	}
	childCPU = 0
	defer func() { childCPU = 1 }()
	r, err := smallChannelRTT(cc)
	r.Case = "shm channel, 256 B, one CPU"
	return r, err
}

// smallChannelLocal is one direction of the 256 B exchange in one
// goroutine, timed like a round trip: Publish, Next, read, Check (the
// message prepared beforehand, as in the ping-pong). Nothing crosses
// between CPUs, so it is the CPU cost the one-way latency adds to the
// cache-line transfers.
func smallChannelLocal(cc float64) (Result, error) {
	path := channelPath("local")
	var e endpoint
	defer e.close()
	var err error
	if e.pub, err = shm.Create(path, smallConfig()); err != nil {
		return Result{}, err
	}
	e.out = newSmallSender(e.pub)
	if e.sub, err = subscribe(path, smallConfig().Type); err != nil {
		return Result{}, err
	}
	iters := n(smallRTTs)
	samples := make([]float64, 0, iters)
	if err := e.out.prepare(1); err != nil {
		return Result{}, err
	}
	for i := uint64(1); i <= uint64(iters); i++ {
		t0 := time.Now()
		if err := e.out.publish(); err != nil {
			return Result{}, err
		}
		if err := e.recvSmall(i); err != nil {
			return Result{}, err
		}
		samples = append(samples, float64(time.Since(t0))-cc)
		if err := e.out.prepare(i + 1); err != nil {
			return Result{}, err
		}
	}
	r := rtt("shm channel, 256 B, one goroutine (one way)", smallPayload, samples[len(samples)/10:])
	r.Kind = "local"
	return r, nil
}

func smallChannelChild(args []string) error {
	ping, pong := args[0], args[1]
	iters, _ := strconv.Atoi(args[2])
	var e endpoint
	defer e.close()
	var err error
	if e.sub, err = subscribe(ping, smallConfig().Type); err != nil {
		return err
	}
	if e.pub, err = shm.Create(pong, smallConfig()); err != nil {
		return err
	}
	e.out = newSmallSender(e.pub)
	fmt.Println("ready")
	if err := e.out.prepare(1); err != nil {
		return err
	}
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := e.recvSmall(i); err != nil {
			return err
		}
		if err := e.out.publish(); err != nil {
			return err
		}
		if err := e.out.prepare(i + 1); err != nil {
			return err
		}
	}
	return nil
}

// ---- unix socket + vtprotobuf ----

// conn is one side of a socketpair with length-prefixed vtproto frames.
type conn struct {
	c   net.Conn
	out []byte
	in  []byte
	hdr [4]byte
}

func socketPair() (*conn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	mine := os.NewFile(uintptr(fds[0]), "socket")
	defer mine.Close()
	c, err := net.FileConn(mine)
	if err != nil {
		return nil, nil, err
	}
	return &conn{c: c}, os.NewFile(uintptr(fds[1]), "socket"), nil
}

func inheritedConn() (*conn, error) {
	f := os.NewFile(3, "socket")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, err
	}
	return &conn{c: c}, nil
}

type vtMessage interface {
	SizeVT() int
	MarshalToSizedBufferVT([]byte) (int, error)
	UnmarshalVT([]byte) error
}

// prepare marshals m into c's frame buffer; write sends the frame.
func (c *conn) prepare(m vtMessage) error {
	size := m.SizeVT()
	if cap(c.out) < 4+size {
		c.out = make([]byte, 4+size)
	}
	c.out = c.out[:4+size]
	binary.LittleEndian.PutUint32(c.out, uint32(size))
	_, err := m.MarshalToSizedBufferVT(c.out[4:])
	return err
}

func (c *conn) write() error {
	_, err := c.c.Write(c.out)
	return err
}

func (c *conn) send(m vtMessage) error {
	if err := c.prepare(m); err != nil {
		return err
	}
	return c.write()
}

func (c *conn) recv(m vtMessage) error {
	if _, err := io.ReadFull(c.c, c.hdr[:]); err != nil {
		return err
	}
	size := int(binary.LittleEndian.Uint32(c.hdr[:]))
	if cap(c.in) < size {
		c.in = make([]byte, size)
	}
	buf := c.in[:size]
	if _, err := io.ReadFull(c.c, buf); err != nil {
		return err
	}
	return m.UnmarshalVT(buf)
}

func smallSocketRTT(cc float64) (Result, error) {
	c, peer, err := socketPair()
	if err != nil {
		return Result{}, err
	}
	defer c.c.Close()
	iters := n(socketRTTs)
	p, err := startChild("small-socket", []*os.File{peer}, strconv.Itoa(iters))
	peer.Close()
	if err != nil {
		return Result{}, err
	}
	var m pb.SmallStruct
	samples := make([]float64, 0, iters)
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := c.prepare(smallPB(i)); err != nil {
			return Result{}, err
		}
		t0 := time.Now()
		if err := c.write(); err != nil {
			return Result{}, err
		}
		if err := c.recv(&m); err != nil {
			return Result{}, err
		}
		if got, _ := readSmallPB(&m); got != i {
			return Result{}, fmt.Errorf("socket reply %d, want %d", got, i)
		}
		samples = append(samples, float64(time.Since(t0))-cc)
	}
	if err := p.result(nil); err != nil {
		return Result{}, err
	}
	return rtt("unix socket + vtprotobuf, 256 B", smallPB(1).SizeVT(), samples[len(samples)/10:]), nil
}

func smallSocketChild(args []string) error {
	iters, _ := strconv.Atoi(args[0])
	c, err := inheritedConn()
	if err != nil {
		return err
	}
	fmt.Println("ready")
	var m pb.SmallStruct
	if err := c.prepare(smallPB(1)); err != nil {
		return err
	}
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := c.recv(&m); err != nil {
			return err
		}
		if got, _ := readSmallPB(&m); got != i {
			return fmt.Errorf("socket message %d, want %d", got, i)
		}
		if err := c.write(); err != nil {
			return err
		}
		if err := c.prepare(smallPB(i + 1)); err != nil {
			return err
		}
	}
	return nil
}

// ---- 1 MiB one way ----

// bigChannelOneWay: the driver writes a 1 MiB message into a slot as mode
// says (stamped before writing) and publishes it; the child reads every
// byte, checks, records now - stamp, and replies with an 8-byte ack (the
// same for every mode), which paces the next one.
func bigChannelOneWay(mode bigMode) func(float64) (Result, error) {
	return func(float64) (Result, error) {
		ping, pong := channelPath("big"), channelPath("ack")
		pub, err := shm.Create(ping, bigConfig(4))
		if err != nil {
			return Result{}, err
		}
		defer pub.Close()
		iters := n(bigSamples)
		p, err := startChild("big-shm", nil, ping, pong, strconv.Itoa(iters), strconv.Itoa(int(mode)))
		if err != nil {
			return Result{}, err
		}
		acks, err := subscribe(pong, ackConfig().Type)
		if err != nil {
			return Result{}, err
		}
		defer acks.Close()
		for i := uint64(1); i <= uint64(iters); i++ {
			if err := sendBig(pub, mode, i); err != nil {
				return Result{}, err
			}
			if err := recvAck(acks, i); err != nil {
				return Result{}, err
			}
		}
		var r Result
		if err := p.result(&r); err != nil {
			return Result{}, err
		}
		r.Case, r.Bytes = bigCase(mode), bigData
		return r, nil
	}
}

// bigChannelInterleaved is bigChannelOneWay with the write modes taking
// turns message by message (message i in bigModes[turn(i)], over a ring of one slot more than there are modes, so that every mode
// visits every slot): each mode's samples and its floor's are spread over
// the same seconds, so a change in the machine's state (where the two
// virtual CPUs run, what else runs) moves them alike.
func bigChannelInterleaved(float64) (Result, error) {
	ping, pong := channelPath("big"), channelPath("ack")
	cfg := bigConfig(len(bigModes) + 1)
	pub, err := shm.Create(ping, cfg)
	if err != nil {
		return Result{}, err
	}
	defer pub.Close()
	iters := n(bigSamples) * len(bigModes)
	p, err := startChild("big-shm", nil, ping, pong, strconv.Itoa(iters), "-1", strconv.Itoa(cfg.Slots))
	if err != nil {
		return Result{}, err
	}
	acks, err := subscribe(pong, ackConfig().Type)
	if err != nil {
		return Result{}, err
	}
	defer acks.Close()
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := sendBig(pub, bigModes[turn(i)], i); err != nil {
			return Result{}, err
		}
		if err := recvAck(acks, i); err != nil {
			return Result{}, err
		}
	}
	var r Result
	if err := p.result(&r); err != nil {
		return Result{}, err
	}
	return r, nil
}

// turn is the index in bigModes of the mode of interleaved message i: the
// modes take turns in blocks of len(bigModes) messages, each block in
// another of their orders, so that each mode follows every other one
// equally often (what a message leaves in the caches moves the next one).
func turn(i uint64) int {
	perms := modeOrders()
	p := perms[(i/uint64(len(bigModes)))%uint64(len(perms))]
	return p[i%uint64(len(bigModes))]
}

// modeOrders are the permutations of the indexes of bigModes.
var modeOrders = sync.OnceValue(func() [][]int {
	var out [][]int
	var perm func(p []int, k int)
	perm = func(p []int, k int) {
		if k == len(p) {
			out = append(out, slices.Clone(p))
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			perm(p, k+1)
			p[k], p[i] = p[i], p[k]
		}
	}
	p := make([]int, len(bigModes))
	for i := range p {
		p[i] = i
	}
	perm(p, 0)
	return out
})

// interleavedCase is the row name of a 1 MiB mode measured interleaved.
func interleavedCase(mode bigMode) string { return bigCase(mode) + ", interleaved" }

// bigCase is the row name of a 1 MiB channel case.
func bigCase(mode bigMode) string {
	if mode == bigFloor {
		return "floor: copy 1 MiB into the slot + read it"
	}
	return "shm channel, 1 MiB, " + mode.String()
}

func sendBig(p *shm.Publisher, mode bigMode, seq uint64) error {
	stamp := time.Now().UnixNano()
	slot, err := p.Loan()
	if err != nil {
		return err
	}
	size, err := writeBig(slot, mode, seq, stamp)
	if err != nil {
		return err
	}
	_, err = p.Publish(size)
	return err
}

// The 1 MiB cases' ack: 8 bytes, the sequence number, on its own channel.
func ackConfig() shm.Config { return shm.Config{Type: "bench.Ack", SlotSize: 64, Slots: 64} }

func sendAck(p *shm.Publisher, seq uint64) error {
	slot, err := p.Loan()
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(slot, seq)
	_, err = p.Publish(8)
	return err
}

func recvAck(s *shm.Subscriber, seq uint64) error {
	m, err := s.Next(context.Background())
	if err != nil {
		return err
	}
	if len(m.Data) != 8 {
		return fmt.Errorf("ack of %d bytes", len(m.Data))
	}
	got := binary.LittleEndian.Uint64(m.Data)
	if err := m.Check(); err != nil {
		return err
	}
	if got != seq || m.Missed != 0 {
		return fmt.Errorf("ack %d (missed %d), want %d", got, m.Missed, seq)
	}
	return nil
}

// bigChannelChild receives the 1 MiB one-way messages: all written in
// bigMode args[3], or, for -1, message i in bigModes[turn(i)]
// (from a ring of args[4] slots).
func bigChannelChild(args []string) error {
	ping, pong := args[0], args[1]
	iters, _ := strconv.Atoi(args[2])
	m, _ := strconv.Atoi(args[3])
	modes := []bigMode{bigMode(m)}
	cfg := bigConfig(4)
	if m < 0 {
		modes = bigModes
		cfg.Slots, _ = strconv.Atoi(args[4])
	}
	sub, err := subscribe(ping, cfg.Type)
	if err != nil {
		return err
	}
	defer sub.Close()
	acks, err := shm.Create(pong, ackConfig())
	if err != nil {
		return err
	}
	defer acks.Close()
	fmt.Println("ready")
	var pl phruntime.Payload
	samples := make([][]float64, len(modes))
	for i := uint64(1); i <= uint64(iters); i++ {
		msg, err := sub.Next(context.Background())
		if err != nil {
			return err
		}
		k := 0
		if len(modes) > 1 {
			k = turn(i)
		}
		seq, stamp, sum, _, err := readBigData(&pl, modes[k], msg.Data)
		if err != nil {
			return err
		}
		if err := msg.Check(); err != nil {
			return err
		}
		now := time.Now().UnixNano()
		if seq != i || sum != bigSum {
			return fmt.Errorf("1 MiB message %d: seq %d, checksum %x", i, seq, sum)
		}
		samples[k] = append(samples[k], float64(now-stamp))
		if err := sendAck(acks, i); err != nil {
			return err
		}
	}
	var rs []Result
	for k, s := range samples {
		r := oneWay(s)
		r.Case, r.Bytes = interleavedCase(modes[k]), bigData
		rs = append(rs, r)
	}
	if len(rs) == 1 {
		return json.NewEncoder(os.Stdout).Encode(rs[0])
	}
	rs[0].More = rs[1:]
	return json.NewEncoder(os.Stdout).Encode(rs[0])
}

var bigSum = checksum(bigSource)

func printOneWay(samples []float64) error {
	return json.NewEncoder(os.Stdout).Encode(oneWay(samples))
}

// oneWay is the one-way latency of samples, less the first tenth (warm-up).
func oneWay(samples []float64) Result {
	samples = samples[len(samples)/10:]
	p50, p99, mean := percentiles(samples)
	return Result{P50: p50, P99: p99, Mean: mean, Kind: "oneway", Samples: len(samples)}
}

func bigSocketOneWay(float64) (Result, error) {
	c, peer, err := socketPair()
	if err != nil {
		return Result{}, err
	}
	defer c.c.Close()
	iters := n(bigSamples)
	p, err := startChild("big-socket", []*os.File{peer}, strconv.Itoa(iters))
	peer.Close()
	if err != nil {
		return Result{}, err
	}
	var ack pb.SmallStruct
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := c.send(bigPB(i, time.Now().UnixNano())); err != nil {
			return Result{}, err
		}
		if err := c.recv(&ack); err != nil {
			return Result{}, err
		}
	}
	var r Result
	if err := p.result(&r); err != nil {
		return Result{}, err
	}
	r.Case, r.Bytes = "unix socket + vtprotobuf, 1 MiB", bigPB(1, 0).SizeVT()
	return r, nil
}

func bigSocketChild(args []string) error {
	iters, _ := strconv.Atoi(args[0])
	c, err := inheritedConn()
	if err != nil {
		return err
	}
	fmt.Println("ready")
	var m pb.Cloud
	samples := make([]float64, 0, iters)
	for i := uint64(1); i <= uint64(iters); i++ {
		if err := c.recv(&m); err != nil {
			return err
		}
		seq, stamp, sum := readBigPB(&m)
		now := time.Now().UnixNano()
		if seq != i || sum != bigSum {
			return fmt.Errorf("1 MiB socket message %d: seq %d", i, seq)
		}
		samples = append(samples, float64(now-stamp))
		if err := c.send(smallPB(i)); err != nil {
			return err
		}
	}
	return printOneWay(samples)
}

// bigReference fills and reads the 1 MiB message's data in one process: a
// copy into a 1 MiB buffer, then a checksum of it, alternating over as
// many buffers as the channel case's ring has slots (so that the buffers
// are not all cache-hot either).
func bigReference(float64) (Result, error) {
	bufs := make([][]byte, 4)
	for i := range bufs {
		bufs[i] = make([]byte, bigData)
	}
	iters := n(bigSamples)
	samples := make([]float64, 0, iters)
	var sink uint64
	for i := range iters {
		t0 := time.Now()
		b := bufs[i%len(bufs)]
		copy(b, bigSource)
		sink += checksum(b)
		samples = append(samples, float64(time.Since(t0)))
	}
	if sink != uint64(iters)*bigSum {
		return Result{}, errors.New("reference checksum")
	}
	p50, p99, mean := percentiles(samples[len(samples)/10:])
	return Result{Case: "reference: copy + read 1 MiB, one process", Bytes: bigData, P50: p50, P99: p99, Mean: mean,
		Kind: "oneway", Samples: len(samples) * 9 / 10}, nil
}

// ---- streams ----

// stream is what a streaming receiver reports.
func streamResult(intact, missed, torn uint64, bytes int64, first, last time.Time) Result {
	el := last.Sub(first).Seconds()
	r := Result{Kind: "stream", Missed: missed, Torn: torn, Samples: int(intact)}
	if el > 0 && intact > 1 {
		r.MsgsPS = float64(intact-1) / el
		r.GBPS = float64(bytes) / el / 1e9
		r.Mean = el * 1e9 / float64(intact-1)
		r.P50, r.P99 = r.Mean, r.Mean
	}
	return r
}

func channelStream(name, typeName string, cfg shm.Config, count int, sender func(*shm.Publisher) func(uint64) error, size int, args ...string) (Result, error) {
	path := channelPath("stream")
	pub, err := shm.Create(path, cfg)
	if err != nil {
		return Result{}, err
	}
	defer pub.Close()
	p, err := startChild(name, nil, append([]string{path, typeName}, args...)...)
	if err != nil {
		return Result{}, err
	}
	send := sender(pub)
	t0 := time.Now()
	for i := uint64(1); i <= uint64(count); i++ {
		if err := send(i); err != nil {
			return Result{}, err
		}
	}
	sent := float64(count) / time.Since(t0).Seconds()
	pub.Close()
	var r Result
	if err := p.result(&r); err != nil {
		return Result{}, err
	}
	r.Bytes, r.SentPS = size, sent
	return r, nil
}

func smallChannelStream(float64) (Result, error) {
	cfg := smallConfig()
	cfg.Slots = 1024
	r, err := channelStream("stream-small-shm", cfg.Type, cfg, n(smallStream),
		func(p *shm.Publisher) func(uint64) error { return newSmallSender(p).send }, smallPayload)
	r.Case = "shm channel, 256 B"
	return r, err
}

func bigChannelStream(mode bigMode) func(float64) (Result, error) {
	return func(float64) (Result, error) {
		r, err := channelStream("stream-big-shm", bigConfig(8).Type, bigConfig(8), n(bigStream),
			func(p *shm.Publisher) func(uint64) error { return func(i uint64) error { return sendBig(p, mode, i) } },
			bigData, strconv.Itoa(int(mode)))
		r.Case = bigCase(mode)
		return r, err
	}
}

// streamChannelChild receives until the channel closes, reading every
// field (every byte of a 1 MiB message, written as bigMode args[2] says).
func streamChannelChild(args []string, big bool) error {
	sub, err := subscribe(args[0], args[1])
	if err != nil {
		return err
	}
	defer sub.Close()
	var mode bigMode
	if big {
		m, _ := strconv.Atoi(args[2])
		mode = bigMode(m)
	}
	fmt.Println("ready")
	var (
		pl             phruntime.Payload
		intact, missed uint64
		bytes          int64
		first, last    time.Time
		badContent     uint64
	)
	for {
		m, err := sub.Next(context.Background())
		if errors.Is(err, shm.ErrClosed) {
			break
		}
		if err != nil {
			return err
		}
		missed += m.Missed
		var seq, sum uint64
		var size int
		if big {
			var rerr error
			seq, _, sum, size, rerr = readBigData(&pl, mode, m.Data)
			if rerr != nil {
				if m.Check() == nil {
					return rerr
				}
				continue // torn while read (counted in Stats().Torn)
			}
		} else {
			x, err := pbphaser.ReadSmallStructInto(&pl, m.Data)
			if err != nil {
				return err
			}
			seq, sum = readSmall(x)
			size = len(m.Data)
		}
		if m.Check() != nil {
			continue // counted in Stats().Torn
		}
		if seq != m.Seq || (big && sum != bigSum) {
			badContent++
		}
		now := time.Now()
		if intact == 0 {
			first = now
		}
		last = now
		intact++
		bytes += int64(size)
	}
	if badContent != 0 {
		return fmt.Errorf("%d intact messages with wrong content", badContent)
	}
	return json.NewEncoder(os.Stdout).Encode(streamResult(intact, missed, sub.Stats().Torn, bytes, first, last))
}

func socketStream(name string, count int, msg func(uint64) vtMessage, size int) (Result, error) {
	c, peer, err := socketPair()
	if err != nil {
		return Result{}, err
	}
	defer c.c.Close()
	p, err := startChild(name, []*os.File{peer}, strconv.Itoa(count))
	peer.Close()
	if err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	for i := uint64(1); i <= uint64(count); i++ {
		if err := c.send(msg(i)); err != nil {
			return Result{}, err
		}
	}
	sent := float64(count) / time.Since(t0).Seconds()
	var r Result
	if err := p.result(&r); err != nil {
		return Result{}, err
	}
	r.Bytes, r.SentPS = size, sent
	return r, nil
}

func smallSocketStream(float64) (Result, error) {
	r, err := socketStream("stream-small-socket", n(socketStreamN), func(i uint64) vtMessage { return smallPB(i) }, smallPB(1).SizeVT())
	r.Case = "unix socket + vtprotobuf, 256 B"
	return r, err
}

func bigSocketStream(float64) (Result, error) {
	r, err := socketStream("stream-big-socket", n(bigStream), func(i uint64) vtMessage { return bigPB(i, 0) }, bigPB(1, 0).SizeVT())
	r.Case = "unix socket + vtprotobuf, 1 MiB"
	return r, err
}

func streamSocketChild(args []string, big bool) error {
	count, _ := strconv.Atoi(args[0])
	c, err := inheritedConn()
	if err != nil {
		return err
	}
	fmt.Println("ready")
	var (
		small       pb.SmallStruct
		cloud       pb.Cloud
		bytes       int64
		first, last time.Time
	)
	for i := uint64(1); i <= uint64(count); i++ {
		var seq, sum uint64
		var size int
		if big {
			if err := c.recv(&cloud); err != nil {
				return err
			}
			seq, _, sum = readBigPB(&cloud)
			if sum != bigSum {
				return fmt.Errorf("1 MiB socket message %d: checksum", i)
			}
			size = len(cloud.Data)
		} else {
			if err := c.recv(&small); err != nil {
				return err
			}
			seq, _ = readSmallPB(&small)
			size = small.SizeVT()
		}
		if seq != i {
			return fmt.Errorf("socket message %d, want %d", seq, i)
		}
		now := time.Now()
		if i == 1 {
			first = now
		}
		last = now
		bytes += int64(size)
	}
	return json.NewEncoder(os.Stdout).Encode(streamResult(uint64(count), 0, 0, bytes, first, last))
}

func runChild(name string) error {
	args := flag.Args()
	switch name {
	case "floor":
		return floorChild(args)
	case "small-shm":
		return smallChannelChild(args)
	case "small-socket":
		return smallSocketChild(args)
	case "big-shm":
		return bigChannelChild(args)
	case "big-socket":
		return bigSocketChild(args)
	case "stream-small-shm":
		return streamChannelChild(args, false)
	case "stream-big-shm":
		return streamChannelChild(args, true)
	case "stream-small-socket":
		return streamSocketChild(args, false)
	case "stream-big-socket":
		return streamSocketChild(args, true)
	}
	return fmt.Errorf("unknown child %q", name)
}

// ---- the report ----

func mergeReports(files []string) error {
	if len(files) == 0 {
		return errors.New("-merge needs the -json files as arguments")
	}
	var reps []Report
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var r Report
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		reps = append(reps, r)
	}
	return writeMarkdown(reps)
}

// median returns the median over reports of f(the case's result).
func median(reps []Report, name, kind string, f func(Result) float64) float64 {
	var v []float64
	for _, rep := range reps {
		for _, r := range rep.Results {
			if r.Case == name && r.Kind == kind {
				v = append(v, f(r))
			}
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func us(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "–"
	case ns < 10000:
		return fmt.Sprintf("%.2f µs", ns/1000)
	default:
		return fmt.Sprintf("%.0f µs", ns/1000)
	}
}

func writeMarkdown(reps []Report) error {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	binaries := map[string][]Report{}
	var labels []string
	for _, r := range reps {
		if _, ok := binaries[r.Binary]; !ok {
			labels = append(labels, r.Binary)
		}
		binaries[r.Binary] = append(binaries[r.Binary], r)
	}
	slices.Sort(labels)
	first := reps[0]
	w("## Shared-memory channel (`shm`)\n\n")
	w("**Provisional**: measured while other jobs loaded the machine (load average at the start of each run: %s), so the figures are noisy and the p99s mostly show scheduling. ", loads(reps))
	w("%s, %s, %d run(s) of %d binaries (%s: the same code linked with different `-randlayout` seeds), medians over runs. Rerun: `cd bench && ./channel` (`go run ./cmd/channel -scale 0.1` for a quick look).\n\n",
		first.Go, first.CPU, len(reps), len(labels), strings.Join(labels, ", "))
	w("What each case does: `bench/cmd/channel/main.go`. 256 B: a SmallStruct whose Phaser payload is 256 bytes (vtprotobuf: the same values, %d bytes); "+
		"the publisher keeps one handle per slot (made with `NewSmallStructIn` the first time, then `Clear`ed and refilled); every field is read on the receiving side. 1 MiB: a Cloud with 1 MiB of `data`, filled by one copy from the producer's buffer and read whole (a checksum) by the receiver; "+
		"the channel builds it in place in the slot (`NewCloudIn`, the header and sizes set, the data copied in with `SetData`, or with `copy(AllocateData(n), src)`) and reads it in place (`ReadCloudInto`, every byte of `DataBytes()`, then `Check`); "+
		"its floor is the same two processes, channel, slots, notification and 8-byte ack with no Phaser code: the publisher stores a sequence number and stamp and copies the 1 MiB into the slot at the offset where the Cloud keeps its data, the subscriber sums every byte with the same checksum; vtprotobuf marshals into a reused buffer, writes a length-prefixed frame to a unix socket, and the receiver reads and unmarshals into a reused struct.\n\n",
		smallPB(1).SizeVT())

	rttCases := []string{"floor: atomic store/load", "shm channel, 256 B", "unix socket + vtprotobuf, 256 B", "shm channel, 256 B, one CPU"}
	w("### Latency, 256 B (ping-pong round trips; one way = round trip / 2)\n\n")
	w("| case | round trip p50 | p99 | one way p50 | p99 |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, c := range rttCases {
		p50 := median(reps, c, "rtt", func(r Result) float64 { return r.P50 })
		p99 := median(reps, c, "rtt", func(r Result) float64 { return r.P99 })
		w("| %s | %s | %s | %s | %s |\n", c, us(p50), us(p99), us(p50/2), us(p99/2))
	}
	local := "shm channel, 256 B, one goroutine (one way)"
	w("| %s | | | %s | %s |\n", local,
		us(median(reps, local, "local", func(r Result) float64 { return r.P50 })),
		us(median(reps, local, "local", func(r Result) float64 { return r.P99 })))
	w("\nThe one-goroutine row is the CPU cost of one direction (Publish of a prepared message, Next, ReadSmallStructInto, six getters, Check) with no transfer between CPUs; the one-CPU row puts both processes on CPU 0, where the subscriber's spin yields the CPU after 2 µs. The floor's round trip depends on how far apart the hypervisor placed the two virtual CPUs at the time: it has been seen at 0.08 µs as well as at 0.45 µs on this machine, and the channel's ratio to it is far larger on near CPUs, where the CPU cost above dominates.\n")
	w("\n### Latency, 1 MiB (one way: the publisher's clock before building to the receiver's after reading every byte)\n\n")
	w("The interleaved rows are one run in which the four write modes take turns message by message (%d samples each); the rows after them run each mode on its own, one after the other.\n\n", n(bigSamples))
	w("| case | p50 | p99 | mean |\n| --- | ---: | ---: | ---: |\n")
	var bigCases, interleaved []string
	for _, m := range bigModes {
		bigCases = append(bigCases, bigCase(m))
		interleaved = append(interleaved, interleavedCase(m))
	}
	for _, c := range append(append(interleaved, bigCases...), "unix socket + vtprotobuf, 1 MiB", "reference: copy + read 1 MiB, one process") {
		w("| %s | %s | %s | %s |\n", c,
			us(median(reps, c, "oneway", func(r Result) float64 { return r.P50 })),
			us(median(reps, c, "oneway", func(r Result) float64 { return r.P99 })),
			us(median(reps, c, "oneway", func(r Result) float64 { return r.Mean })))
	}
	w("\n### Throughput (one way, the publisher as fast as it can; the receiver reads every message it gets)\n\n")
	w("| case | sent msgs/s | intact msgs/s received | GB/s received | missed | torn |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, c := range append([]string{"shm channel, 256 B", "unix socket + vtprotobuf, 256 B"}, append(bigCases, "unix socket + vtprotobuf, 1 MiB")...) {
		w("| %s | %.0f | %.0f | %.2f | %.0f | %.0f |\n", c,
			median(reps, c, "stream", func(r Result) float64 { return r.SentPS }),
			median(reps, c, "stream", func(r Result) float64 { return r.MsgsPS }),
			median(reps, c, "stream", func(r Result) float64 { return r.GBPS }),
			median(reps, c, "stream", func(r Result) float64 { return float64(r.Missed) }),
			median(reps, c, "stream", func(r Result) float64 { return float64(r.Torn) }))
	}
	w("\nGB/s counts the bytes as sent (Phaser payload on the channel, protobuf encoding on the socket; for 1 MiB, the data field). The channel never makes its publisher wait, so a receiver slower than the publisher misses messages (and is told how many); the socket blocks its sender instead. Medians per column, over the runs.\n\n")

	w("### Goals, per binary\n\n")
	w("| binary | runs | 256 B one way p50 / floor round trip p50 (goal ≤ 2) | 256 B round trip / floor round trip | 256 B shm / socket round trip | 1 MiB one way p50, SetData / floor (goal ≈ 1) | AllocateData / floor | AllocateData, ScrubOff / floor | 1 MiB GB/s received, SetData / floor | 1 MiB socket / SetData one way |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	floor := bigCase(bigFloor)
	for _, l := range labels {
		rs := binaries[l]
		p50 := func(c, k string) float64 { return median(rs, c, k, func(r Result) float64 { return r.P50 }) }
		w("| %s | %d | %.2f | %.2f | %.2f | %s | %s | %s | %s | %.1f |\n", l, len(rs),
			p50("shm channel, 256 B", "rtt")/2/p50("floor: atomic store/load", "rtt"),
			p50("shm channel, 256 B", "rtt")/p50("floor: atomic store/load", "rtt"),
			p50("shm channel, 256 B", "rtt")/p50("unix socket + vtprotobuf, 256 B", "rtt"),
			ratios(rs, interleavedCase(bigSetData), interleavedCase(bigFloor), "oneway", func(r Result) float64 { return r.P50 }),
			ratios(rs, interleavedCase(bigAllocate), interleavedCase(bigFloor), "oneway", func(r Result) float64 { return r.P50 }),
			ratios(rs, interleavedCase(bigAllocateNoScrub), interleavedCase(bigFloor), "oneway", func(r Result) float64 { return r.P50 }),
			ratios(rs, bigCase(bigSetData), floor, "stream", func(r Result) float64 { return r.GBPS }),
			p50("unix socket + vtprotobuf, 1 MiB", "oneway")/p50(bigCase(bigSetData), "oneway"))
	}
	w("\nThe 1 MiB latency ratios are of the interleaved rows (the modes take turns message by message, so each mode and its floor share the same seconds of the run): the median over runs of each run's ratio, then in brackets the smallest and largest run. The throughput ratio is of the separate stream cases, whose publisher runs flat out: a receiver that shares slots with a writer that fast is slowed by the lines it loses to it, so a slower publisher can deliver more intact messages (AllocateData's rows), and the ratio measures that contention as much as bandwidth.\n")
	w("\nRound trips are timed by the driver around each exchange, less the measured cost of its two clock reads.\n")
	text := b.String()
	if *out == "" {
		fmt.Print(text)
		return nil
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}

// ratios returns, over reps, the median of each run's f(a)/f(b) and the
// range, as "median (min–max)".
func ratios(reps []Report, a, b, kind string, f func(Result) float64) string {
	var v []float64
	for _, rep := range reps {
		one := []Report{rep}
		if r := median(one, a, kind, f) / median(one, b, kind, f); !math.IsNaN(r) {
			v = append(v, r)
		}
	}
	if len(v) == 0 {
		return "–"
	}
	slices.Sort(v)
	return fmt.Sprintf("%.2f (%.2f–%.2f)", v[len(v)/2], v[0], v[len(v)-1])
}

func loads(reps []Report) string {
	var l []string
	for _, r := range reps {
		l = append(l, cmp.Or(r.Load, "?"))
	}
	return strings.Join(l, "; ")
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func cpuName() string {
	return fmt.Sprintf("%s, %d logical CPUs", cpuid.CPU.BrandName, runtime.NumCPU())
}
