# The benchmark shapes for Cap'n Proto (see bench.proto).
@0xc1357edf2c32406b;

using Go = import "/go.capnp";
$Go.package("capnpb");
$Go.import("github.com/phaser-go/phaser/bench/gen/capnpb");

struct SmallStruct {
  name @0 :Text;
  birthDay @1 :Int64;
  phone @2 :Text;
  siblings @3 :Int32;
  spouse @4 :Bool;
  money @5 :Float64;
}

struct Time {
  sec @0 :Int64;
  nsec @1 :Int32;
}

struct Header {
  seq @0 :UInt32;
  stamp @1 :Time;
  frameId @2 :Text;
}

struct Quaternion {
  x @0 :Float64;
  y @1 :Float64;
  z @2 :Float64;
  w @3 :Float64;
}

struct Vector3 {
  x @0 :Float64;
  y @1 :Float64;
  z @2 :Float64;
}

struct Imu {
  header @0 :Header;
  orientation @1 :Quaternion;
  orientationCovariance @2 :List(Float64);
  angularVelocity @3 :Vector3;
  angularVelocityCovariance @4 :List(Float64);
  linearAcceleration @5 :Vector3;
  linearAccelerationCovariance @6 :List(Float64);
}

struct PointField {
  name @0 :Text;
  offset @1 :UInt32;
  datatype @2 :UInt8;
  count @3 :UInt32;
}

struct Point {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
  intensity @3 :Float32;
}

struct Cloud {
  header @0 :Header;
  height @1 :UInt32;
  width @2 :UInt32;
  fields @3 :List(PointField);
  isBigendian @4 :Bool;
  pointStep @5 :UInt32;
  rowStep @6 :UInt32;
  data @7 :Data;
  isDense @8 :Bool;
  points @9 :List(Point);
}

struct Image {
  header @0 :Header;
  height @1 :UInt32;
  width @2 :UInt32;
  encoding @3 :Text;
  isBigendian @4 :UInt8;
  step @5 :UInt32;
  data @6 :Data;
}
