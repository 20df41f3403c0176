#version 300 es
// A path's stroke (see StrokeMesher.swift), one kind of piece per program
// (PIECE, path_stroke.glsl). Each piece is placed here from its item's line
// width, trim and dashes: a segment's quad is as wide as the line plus an
// antialiasing margin, ends on the bisector where its corner is cut so,
// and reaches past its ends where a cap can start or end there; a wedge's
// fan covers the gap on the outer side of its corner; pieces the trim or
// the dashes hide collapse to a point, so that their pixels are never shaded.
precision highp float;
precision highp int;

layout(location = 0) in vec2 a_base;       // the segment's end, or the wedge's or dot's point
layout(location = 1) in vec2 a_tangent;    // segment direction; a wedge's incoming one
layout(location = 2) in vec4 a_tangents;   // wedge: incoming, outgoing; segment: neighbours' (or 0)
layout(location = 3) in vec2 a_corner;     // segment: along, across (±1); wedge: fan point; dot: ±1, ±1
layout(location = 4) in vec2 a_range;      // arc lengths: segment start and end; wedge or dot position
layout(location = 5) in vec2 a_subpath;    // arc lengths where the subpath starts and ends
layout(location = 6) in vec2 a_kind;       // piece, flags (path_stroke.glsl)
layout(location = 7) in vec2 a_capAngles;  // segment: the path's direction at its ends, from its own
layout(location = 12) in vec4 i_stroke;    // trim start, trim end, half width, dash period
layout(location = 13) in vec4 i_dashes0;   // dashes 1 and 2: start and end in the period
layout(location = 14) in vec4 i_dashes1;   // dashes 3 and 4

#include "path_vertex.glsl"
#include "path_stroke.glsl"

out vec2 v_q;              // segment: (arc length, distance across); wedge, dot: offset from the point
flat out vec4 v_range;     // segment start and end, window lo and hi
flat out vec4 v_piece;     // flags, joined ends (1: start, 2: end), sub0, sub1
flat out vec4 v_tangents;  // wedge: incoming and outgoing directions; segment: neighbours', own frame
flat out vec4 v_neighbours;  // segment: the neighbours' weights, how far the stroke goes on into them
flat out vec4 v_stroke;    // half width, dash period, dash phase
flat out vec4 v_dashes0;
flat out vec4 v_dashes1;
flat out vec2 v_capAngles;  // segment: the path's direction at its ends (angles from its own)

vec2 perpendicular(vec2 v) { return vec2(-v.y, v.x); }

// A closed subpath's closing corner (at its start and end) shows when the
// subpath is connected; another corner where the stroke goes on through it.
bool cornerShows(float at, float sub0, float sub1, float lo, float hi, bool connected, bool closed) {
  bool closing = closed && (at >= sub1 - EPS || at <= sub0 + EPS);
  return closing ? connected : at > lo + EPS && at < hi - EPS && dashOnStrictly(at, lo);
}

// A neighbouring segment's direction in this segment's frame (along,
// across), when the stroke goes on into it; zero otherwise.
vec2 neighbour(vec2 t, bool shows) {
  if (!shows || dot(t, t) < 0.5) return vec2(0.0);
  return vec2(dot(t, a_tangent), dot(t, perpendicular(a_tangent)));
}

// The neighbour's weight for the union: its turn over a right angle.
float turnWeight(vec2 rel) {
  return dot(rel, rel) < 0.5 ? 0.0 : min(acos(clamp(rel.x, -1.0, 1.0)) / 1.5707963, 1.0);
}

void main() {
  g_halfWidth = i_stroke.z;
  g_trim = i_stroke.xy;
#if DASH_COUNT > 0
  g_period = i_stroke.w;
  g_phase = i_matrix2.w;
  setDashes(i_dashes0, i_dashes1);
#endif
  float r = g_halfWidth;
  float px = pointsPerPixel(a_base);
  float margin = px;
  int flags = int(a_kind.y + 0.5);
  bool closed = (flags & CLOSED_FLAG) != 0;
  float sub0 = a_subpath.x;
  float sub1 = a_subpath.y;
  float lo = max(sub0, g_trim.x);
  float hi = min(sub1, g_trim.y);
  bool connected = closed && g_trim.x <= sub0 + EPS && g_trim.y >= sub1 - EPS
                   && dashOn(sub0, lo) && dashOn(sub1, lo);
  bvec2 joined = joinedEnds(flags, sub0, sub1, connected);
  bool visible = hi >= lo;
  vec2 offset = vec2(0.0);
  vec2 q = vec2(0.0);
  vec4 tangents = a_tangents;
  vec4 neighbours = vec4(0.0);
#if PIECE <= 1
  float sa = a_range.x;
  float sb = a_range.y;
  // A cap square to the path's direction rather than to the segment
  // reaches farther along it at one side: by the half width times the tilt.
  float tilt = r * max(abs(tan(a_capAngles.x)), abs(tan(a_capAngles.y)));
  float reach = (CAP == 0 ? 0.0 : r) + margin + tilt;
  visible = visible && anyVisible(sa - reach, sb + reach, lo, hi);
  // Whether a visible interval starts or ends within the segment's reach:
  // such segments are drawn by the CUT program, the others (wholly inside
  // one visible interval) by the one that does not evaluate trims.
  bool cutHere = startsIn(sa - reach, sb + reach, lo, hi, joined.x)
                 || endsIn(sa - reach, sb + reach, lo, hi, joined.y);
#ifdef CUT
  visible = visible && cutHere;
#else
  visible = visible && !cutHere;
#endif
  bool atStart = a_corner.x < 0.0;
  bool capNear = atStart ? startsIn(sa, min(sb, sa + reach), lo, hi, joined.x)
                         : endsIn(max(sa, sb - reach), sb, lo, hi, joined.y);
  bool cut = (flags & (atStart ? CUT_START_FLAG : CUT_END_FLAG)) != 0;
  // A tilted square cap's corner reaches past the band's side too.
  float across = a_corner.y * (r + margin + (capNear ? tilt : 0.0));
  if (cut && !capNear) {
    // On the bisector with the neighbour: where both bands' edges meet,
    // computed from the same pair of directions on both sides (no crack).
    vec2 incoming = atStart ? a_tangents.xy : a_tangent;
    vec2 outgoing = atStart ? a_tangent : a_tangents.zw;
    vec2 miter = (perpendicular(incoming) + perpendicular(outgoing)) / (1.0 + dot(incoming, outgoing));
    offset = miter * across;
    q = vec2((atStart ? sa : sb) + dot(offset, a_tangent), across);
  } else {
    // Past its end, a segment overlaps its neighbour by half a pixel (no
    // crack between them), or by a cap's reach where one can be.
    float extension = capNear ? reach : 0.5 * px;
    offset = a_tangent * a_corner.x * extension + perpendicular(a_tangent) * across;
    q = vec2((atStart ? sa : sb) + a_corner.x * extension, across);
  }
#if PIECE == 1
  vec2 before = neighbour(a_tangents.xy, cornerShows(sa, sub0, sub1, lo, hi, connected, closed));
  vec2 after = neighbour(a_tangents.zw, cornerShows(sb, sub0, sub1, lo, hi, connected, closed));
  tangents = vec4(before, after);
  neighbours = vec4(turnWeight(before), turnWeight(after), visibleRun(sa, lo, hi, false),
                    visibleRun(sb, lo, hi, true));
#endif
#elif PIECE <= 3
  float at = a_range.x;
  visible = visible && cornerShows(at, sub0, sub1, lo, hi, connected, closed);
  // The wedge between the two segments' outer sides, as a fan around the
  // point: split in two when it is wider than a right angle.
  vec2 outgoing = a_tangents.zw;
  float turn = a_tangent.x * outgoing.y - a_tangent.y * outgoing.x;
  float side = turn > 0.0 ? -1.0 : 1.0;
  vec2 oi = side * perpendicular(a_tangent);
  vec2 oo = side * perpendicular(outgoing);
  float c = dot(oi, oo);
  float radius = r + margin;
  vec2 mid = oi + oo;
  mid = length(mid) > 1e-4 ? normalize(mid) : a_tangent;
  int code = int(a_corner.x + 0.5);
  vec2 tip1 = c >= 0.0 ? (oi + oo) / (1.0 + c) : (oi + mid) / (1.0 + dot(oi, mid));
  vec2 tip2 = c >= 0.0 ? (oi + oo) / (1.0 + c) : (mid + oo) / (1.0 + dot(mid, oo));
  vec2 unit = code == 1 ? oi : code == 2 ? tip1 : code == 3 ? mid : code == 4 ? tip2 : oo;
  offset = code == 0 ? vec2(0.0) : radius * unit;
  q = offset;
#else
  float at = a_range.x;
  visible = visible && CAP != 0 && at >= lo - EPS && at <= hi + EPS && dashOn(at, lo);
  offset = a_corner * (r + margin);
  q = offset;
#endif
  place(visible ? a_base + offset : a_base);
  v_q = q;
  v_range = vec4(a_range, lo, hi);
  v_piece = vec4(float(flags), (joined.x ? 1.0 : 0.0) + (joined.y ? 2.0 : 0.0), sub0, sub1);
  v_tangents = tangents;
  v_neighbours = neighbours;
  v_stroke = vec4(r, i_stroke.w, i_matrix2.w, 0.0);
  v_dashes0 = i_dashes0;
  v_dashes1 = i_dashes1;
  v_capAngles = a_capAngles;
}
