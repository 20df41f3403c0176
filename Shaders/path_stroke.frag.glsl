#version 300 es
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
#endif
// A path's stroke: box-filter coverage per fragment of the piece it
// belongs to, with trims, dashes and caps evaluated here (see
// path_stroke.glsl). A segment covers the band of the line's width along
// it, cut where a visible interval starts or ends inside it, with that
// end's cap along the segment (so caps at a trim or a dash follow the
// path's tangent there); a join covers its wedge; a dot its cap's shape.
//
// Pieces overlap, and the stroke is one layer of paint where they do (the
// union, as Core Graphics strokes it): the stencil lets the first fragment
// that draws a pixel be the only one. The segments' cores (CORE: the band
// less its antialiased edges, so fully covered across) draw first, so that
// a partly covered edge of one piece never takes a pixel inside another;
// where two edges meet at a sharp corner, each fragment takes the union of
// both segments' bands.
precision highp float;
precision highp int;

#define SHAPE_MODE 0
#include "shape.glsl"
#include "path_coverage.glsl"
#include "path_stroke.glsl"

in vec2 v_q;
flat in vec4 v_range;
flat in vec4 v_piece;
flat in vec4 v_tangents;
flat in vec4 v_neighbours;
out vec4 o_color;
#ifdef BLEND_ADVANCED
layout(blend_support_all_equations) out;
#endif

// Screen derivatives of v_q, taken once where every fragment runs.
vec2 g_x;
vec2 g_y;

// The screen gradient of a field whose gradient in v_q's space is u.
vec2 gradient(vec2 u) { return vec2(dot(u, g_x), dot(u, g_y)); }


// Coverage by the disk of the line's half width around offset d.
float disk(vec2 d) {
  float len = length(d);
  vec2 u = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  return fieldHalfPlane(u_halfWidth - len, -gradient(u));
}

// A segment's coverage by the visible interval [a, b]: the band across,
// cut along at the interval's ends that lie in the segment, with their
// caps; where the interval goes on past the segment's end, the segment
// stops there without antialiasing (the next piece goes on).
float interval(float a, float b, float across, bool connected) {
  float s = v_q.x;
  float sa = v_range.x;
  float sb = v_range.y;
  float r = u_halfWidth;
  if (b < a - EPS || a > sb + EPS || b < sa - EPS) return 0.0;
  bool startReal = !(connected && a <= v_piece.z + EPS);
  bool endReal = !(connected && b >= v_piece.w - EPS);
  bool startOwned = startReal && a >= sa - EPS && a < sb;
  bool endOwned = endReal && ((b > sa && b <= sb + EPS) || (b <= a + EPS && startOwned));
  float lower = a;
  float upper = b;
  if (u_cap == 2) {
    if (startOwned) lower -= r;
    if (endOwned) upper += r;
  }
  // Where the interval goes on past the segment, the body stops at the
  // segment's end without antialiasing; a round cap's half disk takes
  // over at the interval's own ends, so the body stops there sharp too.
  vec2 gs = gradient(vec2(1.0, 0.0));
  bool round_ = u_cap == 1;
  float below = startOwned && !round_ ? fieldHalfPlane(lower - s, -gs)
                                      : (s < (startOwned ? a : sa - EPS) ? 1.0 : 0.0);
  float above = endOwned && !round_ ? fieldHalfPlane(upper - s, -gs)
                                    : (s <= (endOwned ? b : sb + EPS) ? 1.0 : 0.0);
  float body = max(above - below, 0.0) * across;
  // A round cap is the half disk past its end: the other half lies on the
  // body, which may stop at the segment's end before the disk does.
  if (u_cap == 1) {
    if (startOwned && s <= a) body = max(body, disk(vec2(s - a, v_q.y)));
    if (endOwned && s >= b) body = max(body, disk(vec2(s - b, v_q.y)));
  }
  return body;
}

// The band of a neighbouring segment, whose direction in this segment's
// frame is rel, meeting it at arc length `end`: where the fragment lies
// on the neighbour's visible part next to the corner (after the start of
// the next one, before the end of the previous one, `run` long).
float neighbourBand(vec2 rel, float end, bool before, float run) {
  vec2 o = vec2(v_q.x - end, v_q.y);
  float along = before ? -dot(o, rel) : dot(o, rel);
  float slack = 1e-3 * (u_halfWidth + 1.0);
  if (along < -slack || along > run + slack) return 0.0;
  vec2 across = vec2(-rel.y, rel.x);
  float t = dot(o, across);
  vec2 g = -gradient(across);
  return fieldHalfPlane(u_halfWidth - t, g) - fieldHalfPlane(-u_halfWidth - t, g);
}

// Two pieces' coverages united: the maximum where they run nearly the
// same way, the union of independent coverages at right angles.
float unionCoverage(float c, float o, float w) {
  return mix(max(c, o), c + o - c * o, w);
}

float ownSegmentCoverage();

float segmentCoverage() {
  float coverage = ownSegmentCoverage();
#ifndef CORE
  if (v_neighbours.x > 0.0) {
    coverage = unionCoverage(
        coverage, neighbourBand(v_tangents.xy, v_range.x, true, v_neighbours.z), v_neighbours.x);
  }
  if (v_neighbours.y > 0.0) {
    coverage = unionCoverage(
        coverage, neighbourBand(v_tangents.zw, v_range.y, false, v_neighbours.w), v_neighbours.y);
  }
#endif
  return coverage;
}

float ownSegmentCoverage() {
  float s = v_q.x;
  float t = v_q.y;
  float r = u_halfWidth;
#ifdef CORE
  float across = 1.0;
#else
  vec2 gt = gradient(vec2(0.0, 1.0));
  float across = fieldHalfPlane(r - t, -gt) - fieldHalfPlane(-r - t, -gt);
#endif
  float lo = v_range.z;
  float hi = v_range.w;
  bool connected = v_piece.y > 0.5;
#if DASH_COUNT == 0
  return interval(lo, hi, across, connected);
#else
  float best = 0.0;
  float k = floor((s - lo + u_dashPhase) / u_dashPeriod);
  for (int j = -1; j <= 1; j++) {
    float base = (k + float(j)) * u_dashPeriod + lo - u_dashPhase;
    for (int i = 0; i < DASH_COUNT; i++) {
      float a = max(base + u_dashOn[i].x, lo);
      float b = min(base + u_dashOn[i].y, hi);
      best = max(best, interval(a, b, across, connected));
    }
  }
  return best;
#endif
}

// A join's wedge, between the seams where the two segments end (no
// antialiasing there: the segments go on), bounded outside by an arc, the
// segments' outer sides met in a miter, or a bevel.
float joinCoverage() {
  vec2 q = v_q;
  vec2 ti = v_tangents.xy;
  vec2 to = v_tangents.zw;
  float r = u_halfWidth;
  float slack = 1e-3 * (r + 1.0);
  if (dot(q, ti) < -slack || dot(q, to) > slack) return 0.0;
  float turn = ti.x * to.y - ti.y * to.x;
  float side = turn > 0.0 ? -1.0 : 1.0;
  vec2 oi = side * vec2(-ti.y, ti.x);
  vec2 oo = side * vec2(-to.y, to.x);
  float piece = v_piece.x;
  if (piece < 1.5) return disk(q);
  if (piece < 2.5) {
    return min(fieldHalfPlane(r - dot(q, oi), -gradient(oi)),
               fieldHalfPlane(r - dot(q, oo), -gradient(oo)));
  }
  vec2 mid = oi + oo;
  if (length(mid) < 1e-4) return 0.0;
  vec2 b = normalize(mid);
  return fieldHalfPlane(r * dot(oi, b) - dot(q, b), -gradient(b));
}

// A zero-length subpath: a round cap's disk, or a square cap's square
// (aligned with the plane's axes, as Cairo draws it).
float dotCoverage() {
  if (u_cap == 1) return disk(v_q);
  float r = u_halfWidth;
  vec2 gx = gradient(vec2(1.0, 0.0));
  vec2 gy = gradient(vec2(0.0, 1.0));
  float bx = fieldHalfPlane(r - v_q.x, -gx) - fieldHalfPlane(-r - v_q.x, -gx);
  float by = fieldHalfPlane(r - v_q.y, -gy) - fieldHalfPlane(-r - v_q.y, -gy);
  return bx * by;
}

void main() {
  g_x = dFdx(v_q);
  g_y = dFdy(v_q);
  float piece = v_piece.x;
#ifdef CORE
  float coverage = segmentCoverage();
#else
  float coverage = piece < 0.5 ? segmentCoverage() : piece < 3.5 ? joinCoverage() : dotCoverage();
#endif
  // Invisible fragments must not take the pixel from a piece that covers it.
  if (coverage < 1.0 / 512.0) discard;
  if (!insidePlanes()) discard;
  o_color = u_color * (coverage * effectCoverage());
}
