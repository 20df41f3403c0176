#version 300 es
// A path's stroke (see StrokeMesher.swift). Each piece is placed here from
// this frame's line width, caps, trim and dashes: a segment's quad is as
// wide as the line plus an antialiasing margin and reaches past its ends
// only where a cap can start or end there; a join's fan covers the wedge
// on the outer side of its corner; pieces the trim or the dashes hide
// collapse to a point, so that their pixels are never shaded.
precision highp float;
precision highp int;

layout(location = 0) in vec2 a_base;        // the segment's end, or the join's or dot's point
layout(location = 1) in vec2 a_tangent;     // segment direction; a join's incoming one
layout(location = 2) in vec4 a_tangents;    // join: incoming, outgoing; segment: neighbours' (or 0)
layout(location = 3) in vec2 a_corner;      // segment: along, across (±1); join: fan point; dot: ±1, ±1
layout(location = 4) in vec2 a_range;       // arc lengths: segment start and end; join or dot position
layout(location = 5) in vec2 a_subpath;     // arc lengths where the subpath starts and ends
layout(location = 6) in vec2 a_kind;        // piece (0 segment, 1 round, 2 miter, 3 bevel join, 4 dot), closed

#include "path_vertex.glsl"
#include "path_stroke.glsl"

out vec2 v_q;              // segment: (arc length, distance across); join, dot: offset from the point
flat out vec4 v_range;     // segment start and end, window lo and hi
flat out vec4 v_piece;     // piece, connected, sub0, sub1
flat out vec4 v_tangents;  // join: incoming and outgoing directions; segment: neighbours', see below
flat out vec4 v_neighbours;  // segment: the neighbours' weights, and how far the stroke goes on into them

vec2 perpendicular(vec2 v) { return vec2(-v.y, v.x); }

// Whether the join at arc length `at` shows: the stroke goes on through it.
// A closed subpath's closing join (at its start and end) shows when the
// subpath is connected.
bool joinShows(float at, float sub0, float sub1, float lo, float hi, bool connected) {
  bool closing = a_kind.y > 0.5 && (at >= sub1 - EPS || at <= sub0 + EPS);
  return closing ? connected : at > lo + EPS && at < hi - EPS && dashOnStrictly(at, lo);
}

// A neighbouring segment's direction in the segment's own frame (along,
// across), when the stroke goes on into it through a real corner; zero
// otherwise. Near a sharp corner a fragment of the segment also covers
// the neighbour's band (the fragment shader takes the union), so that the
// inner corner's pixels get the coverage of both, whichever draws first.
vec2 neighbour(vec2 t, bool shows) {
  if (!shows || dot(t, t) < 0.5) return vec2(0.0);
  vec2 rel = vec2(dot(t, a_tangent), dot(t, perpendicular(a_tangent)));
  return rel.x > 0.985 ? vec2(0.0) : rel;  // nearly straight on: nothing to gain
}

// The neighbour's weight for the union: its turn over a right angle.
float turnWeight(vec2 rel) {
  return dot(rel, rel) < 0.5 ? 0.0 : min(acos(clamp(rel.x, -1.0, 1.0)) / 1.5707963, 1.0);
}

void main() {
  float r = u_halfWidth;
  float px = pointsPerPixel(a_base);
  float margin = px;
  float piece = a_kind.x;
  float sub0 = a_subpath.x;
  float sub1 = a_subpath.y;
  float lo = max(sub0, u_trim.x);
  float hi = min(sub1, u_trim.y);
  bool connected = a_kind.y > 0.5 && u_trim.x <= sub0 + EPS && u_trim.y >= sub1 - EPS
                   && dashOn(sub0, lo) && dashOn(sub1, lo);
  bool visible = hi >= lo;
  vec2 offset = vec2(0.0);
  vec2 q = vec2(0.0);
  vec4 tangents = a_tangents;
  vec4 neighbours = vec4(0.0);
  if (piece < 0.5) {
    float sa = a_range.x;
    float sb = a_range.y;
    float reach = (u_cap == 0 ? 0.0 : r) + margin;
    visible = visible && anyVisible(sa - reach, sb + reach, lo, hi);
    bool atStart = a_corner.x < 0.0;
    // Past its ends a segment overlaps its neighbours by half a pixel
    // (no crack between them), or by a cap's reach where one can be.
    float extension = 0.5 * px;
    if (atStart ? startsIn(sa, min(sb, sa + reach), lo, hi, connected)
                : endsIn(max(sa, sb - reach), sb, lo, hi, connected)) {
      extension = reach;
    }
    float along = a_corner.x * extension;
    // The core stops where the band's coverage falls below 1 (box-filter
    // coverage is 1 from √2/2 pixels inside an edge).
    float core = max(r - 0.75 * px, 0.0);
    float across = sign(a_corner.y) * (abs(a_corner.y) > 1.5 ? r + margin : core);
    offset = a_tangent * along + perpendicular(a_tangent) * across;
    q = vec2((atStart ? sa : sb) + along, across);
    vec2 before = neighbour(a_tangents.xy, joinShows(sa, sub0, sub1, lo, hi, connected));
    vec2 after = neighbour(a_tangents.zw, joinShows(sb, sub0, sub1, lo, hi, connected));
    tangents = vec4(before, after);
    neighbours = vec4(turnWeight(before), turnWeight(after), visibleRun(sa, lo, hi, false),
                      visibleRun(sb, lo, hi, true));
  } else if (piece < 3.5) {
    float at = a_range.x;
    visible = visible && joinShows(at, sub0, sub1, lo, hi, connected);
    // The wedge between the two segments' outer sides, as a fan around the
    // point: split in two when it is wider than a right angle.
    vec2 outgoing = a_tangents.zw;
    float turn = a_tangent.x * outgoing.y - a_tangent.y * outgoing.x;
    float side = turn > 0.0 ? -1.0 : 1.0;
    vec2 oi = side * perpendicular(a_tangent);
    vec2 oo = side * perpendicular(outgoing);
    float c = dot(oi, oo);
    float factor = piece > 1.5 && piece < 2.5 ? inversesqrt(max(0.5 * (1.0 + c), 1e-8)) : 1.0;
    float radius = r * factor + margin;
    vec2 mid = oi + oo;
    mid = length(mid) > 1e-4 ? normalize(mid) : a_tangent;
    int code = int(a_corner.x + 0.5);
    vec2 tip1 = c >= 0.0 ? (oi + oo) / (1.0 + c) : (oi + mid) / (1.0 + dot(oi, mid));
    vec2 tip2 = c >= 0.0 ? (oi + oo) / (1.0 + c) : (mid + oo) / (1.0 + dot(mid, oo));
    vec2 unit = code == 1 ? oi : code == 2 ? tip1 : code == 3 ? mid : code == 4 ? tip2 : oo;
    offset = code == 0 ? vec2(0.0) : radius * unit;
    q = offset;
  } else {
    float at = a_range.x;
    visible = visible && u_cap != 0 && at >= lo - EPS && at <= hi + EPS && dashOn(at, lo);
    offset = a_corner * (r + margin);
    q = offset;
  }
  place(visible ? a_base + offset : a_base);
  v_q = q;
  v_range = vec4(a_range, lo, hi);
  v_piece = vec4(piece, connected ? 1.0 : 0.0, sub0, sub1);
  v_tangents = tangents;
  v_neighbours = neighbours;
}
