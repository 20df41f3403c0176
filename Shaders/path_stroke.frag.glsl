#version 300 es
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
#endif
// A path's stroke, one kind of piece per program (PIECE, path_stroke.glsl):
// box-filter coverage per fragment, with trims, dashes and caps evaluated
// here. A segment covers the band of the line's width along it, cut where
// a visible interval starts or ends inside it, with that end's cap square
// to the path's direction there (interpolated between the directions at
// the segment's ends: the curve's tangent, not the chord's); a segment at a corner also covers its neighbour's band next to
// the corner (the pixels of the inner corner, whichever piece draws them);
// a wedge covers the outer gap of a round or bevel corner; a dot its cap.
//
// Where pieces overlap the stroke is one layer of paint (the union, as
// Core Graphics strokes it): the depth test lets the first fragment that
// draws a pixel be the only one of its item.
precision highp float;
precision highp int;

#define SHAPE_MODE 0
#include "shape.glsl"
#ifdef GRADIENT_PAINT
#include "gradient.glsl"
#endif
#include "path_coverage.glsl"
#include "path_stroke.glsl"

in vec2 v_q;
flat in vec4 v_range;
flat in vec4 v_piece;
flat in vec4 v_tangents;
flat in vec4 v_neighbours;
flat in vec4 v_stroke;
flat in vec4 v_dashes0;
flat in vec4 v_dashes1;
flat in vec2 v_capAngles;
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
  return fieldHalfPlane(g_halfWidth - len, -gradient(u));
}

// Coverage by the band of the line's width across direction u (in v_q's
// space) at distance t from its middle.
float band(float t, vec2 u) {
  vec2 g = -gradient(u);
  return fieldHalfPlane(g_halfWidth - t, g) - fieldHalfPlane(-g_halfWidth - t, g);
}

#if PIECE <= 1
// The path at arc length x of the segment, in its frame (along, across):
// the point of the curve the chord stands for (xy: the cubic from the
// chord's ends with the directions there, as far off the chord as the
// flattening left it) and the direction (zw: the angle interpolated
// between the ends', exact along a circle's chord, whose tangent turns
// evenly). Along a line both are the chord's.
vec4 pathAt(float x) {
  float sa = v_range.x;
  float sb = v_range.y;
  float len = sb - sa;
  float u = len > 0.0 ? clamp((x - sa) / len, 0.0, 1.0) : 0.0;
  float off = len * u * (1.0 - u) * ((1.0 - u) * tan(v_capAngles.x) - u * tan(v_capAngles.y));
  float phi = mix(v_capAngles.x, v_capAngles.y, u);
  return vec4(x, off, cos(phi), sin(phi));
}

#if CAP != 0
// Coverage by a cap at offset o from the cut, the path going on along -t:
// the half disk of the half width, or the half square reaching a half
// width along t and to both sides of it. Its edge on the cut is
// antialiased as the body's is, so that the two add up to the stroke.
float cap(vec2 o, vec2 t) {
  float side = fieldHalfPlane(dot(o, t), gradient(t));
#if CAP == 1
  return disk(o) * side;
#else
  vec2 n = vec2(-t.y, t.x);
  return band(dot(o, n), n) * fieldHalfPlane(g_halfWidth - dot(o, t), -gradient(t)) * side;
#endif
}
#endif

// A segment's coverage by the visible interval [a, b]: the band across
// (`across`), cut at the interval's ends that lie in the segment square to
// the path's direction there, with their caps. Where the interval goes on
// past the segment's end the segment stops there without antialiasing
// (the next piece goes on), or, on a bisector cut, where its geometry stops.
float interval(float a, float b, float across, bvec2 joined) {
  float s = v_q.x;
  float sa = v_range.x;
  float sb = v_range.y;
  float r = g_halfWidth;
  if (b < a - EPS || a > sb + EPS || b < sa - EPS) return 0.0;
  int flags = int(v_piece.x + 0.5);
  bool startReal = !(joined.x && a <= v_piece.z + EPS);
  bool endReal = !(joined.y && b >= v_piece.w - EPS);
  bool startOwned = startReal && a >= sa - EPS && a < sb;
  bool endOwned = endReal && ((b > sa && b <= sb + EPS) || (b <= a + EPS && startOwned));
  // An interval starting at this segment's end, or ending at its start,
  // is its neighbour's.
  if ((!startOwned && a >= sb - EPS) || (!endOwned && b <= sa + EPS)) return 0.0;
  // How far the fragment lies past each cut, along the path's direction
  // there (a square cap reaches a half width farther).
  vec4 pa = pathAt(a);
  vec4 pb = pathAt(b);
  vec2 oa = v_q - pa.xy;
  vec2 ob = v_q - pb.xy;
  vec2 ta = pa.zw;
  vec2 tb = pb.zw;
  float pastA = dot(oa, ta);
  float pastB = dot(ob, tb);
  // Coverage of the parts before the start's cut and before the end's.
  // A cap (a half disk or a half square, square to the path's direction)
  // adds what lies past the interval's own ends.
  float below;
  float above;
  if (startOwned) {
    below = fieldHalfPlane(-pastA, -gradient(ta));
  } else {
    below = (flags & CUT_START_FLAG) != 0 ? 0.0 : (s < sa - EPS ? 1.0 : 0.0);
  }
  if (endOwned) {
    above = fieldHalfPlane(-pastB, -gradient(tb));
  } else {
    above = (flags & CUT_END_FLAG) != 0 ? 1.0 : (s <= sb + EPS ? 1.0 : 0.0);
  }
  float body = max(above - below, 0.0) * across;
#if CAP != 0
  if (startOwned) body += cap(oa, -ta);
  if (endOwned) body += cap(ob, tb);
  body = min(body, 1.0);
#endif
  return body;
}

#if PIECE == 1
// The union with the band of a neighbouring segment (direction rel in this
// segment's frame) meeting it at arc length `end`, where the fragment lies
// on the neighbour's visible part next to the corner (after the start of
// the next one, before the end of the previous one, `run` long): the
// maximum where they run nearly the same way, the union of independent
// coverages at right angles (weight w).
float unionWithNeighbour(float c, vec2 rel, float end, bool before, float run, float w) {
  if (w <= 0.0) return c;
  vec2 o = vec2(v_q.x - end, v_q.y);
  float along = before ? -dot(o, rel) : dot(o, rel);
  float slack = 1e-3 * (g_halfWidth + 1.0);
  if (along < -slack || along > run + slack) return c;
  vec2 across = vec2(-rel.y, rel.x);
  float other = band(dot(o, across), across);
  return mix(max(c, other), c + other - c * other, w);
}
#endif

float segmentCoverage() {
  float across = band(v_q.y, vec2(0.0, 1.0));
#ifndef CUT
  // Wholly inside one visible interval: only the seams at ends not cut
  // along a bisector stop the body (the vertex shader sends the others to
  // the CUT program).
  int flags = int(v_piece.x + 0.5);
  float s = v_q.x;
  bool past = ((flags & CUT_START_FLAG) == 0 && s < v_range.x - EPS)
              || ((flags & CUT_END_FLAG) == 0 && s > v_range.y + EPS);
  float coverage = past ? 0.0 : across;
#else
  float lo = v_range.z;
  float hi = v_range.w;
  int joinedCode = int(v_piece.y + 0.5);
  bvec2 joined = bvec2((joinedCode & 1) != 0, (joinedCode & 2) != 0);
#if DASH_COUNT == 0
  float coverage = interval(lo, hi, across, joined);
#else
  float coverage = 0.0;
  float k = floor((v_q.x - lo + g_phase) / g_period);
  for (int j = -1; j <= 1; j++) {
    float base = (k + float(j)) * g_period + lo - g_phase;
    for (int i = 0; i < g_dashCount; i++) {
      float a = max(base + g_dash[i].x, lo);
      float b = min(base + g_dash[i].y, hi);
      coverage = max(coverage, interval(a, b, across, joined));
    }
  }
#endif
#endif
#if PIECE == 1
  coverage = unionWithNeighbour(coverage, v_tangents.xy, v_range.x, true, v_neighbours.z, v_neighbours.x);
  coverage = unionWithNeighbour(coverage, v_tangents.zw, v_range.y, false, v_neighbours.w, v_neighbours.y);
#endif
  return coverage;
}
#endif


#if PIECE == 2 || PIECE == 3
// A wedge, between the seams where the two segments end (no antialiasing
// there: the segments go on), bounded outside by an arc or a bevel.
float wedgeCoverage() {
  vec2 q = v_q;
  vec2 ti = v_tangents.xy;
  vec2 to = v_tangents.zw;
  float slack = 1e-3 * (g_halfWidth + 1.0);
  if (dot(q, ti) < -slack || dot(q, to) > slack) return 0.0;
#if PIECE == 2
  return disk(q);
#else
  float turn = ti.x * to.y - ti.y * to.x;
  float side = turn > 0.0 ? -1.0 : 1.0;
  vec2 oi = side * vec2(-ti.y, ti.x);
  vec2 oo = side * vec2(-to.y, to.x);
  vec2 mid = oi + oo;
  if (length(mid) < 1e-4) return 0.0;
  vec2 b = normalize(mid);
  return fieldHalfPlane(g_halfWidth * dot(oi, b) - dot(q, b), -gradient(b));
#endif
}
#endif

#if PIECE == 4
// A zero-length subpath: a round cap's disk, or a square cap's square
// (aligned with the plane's axes, as Cairo draws it).
float dotCoverage() {
#if CAP == 1
  return disk(v_q);
#else
  return band(v_q.x, vec2(1.0, 0.0)) * band(v_q.y, vec2(0.0, 1.0));
#endif
}
#endif

void main() {
#ifndef AFFINE_DEPTH
  gl_FragDepth = v_depth;
#endif
  g_halfWidth = v_stroke.x;
#if DASH_COUNT > 0
  g_period = v_stroke.y;
  g_phase = v_stroke.z;
  setDashes(v_dashes0, v_dashes1);
#endif
  g_x = dFdx(v_q);
  g_y = dFdy(v_q);
#if PIECE <= 1
  float coverage = segmentCoverage();
#elif PIECE <= 3
  float coverage = wedgeCoverage();
#else
  float coverage = dotCoverage();
#endif
  // Invisible fragments must not take the pixel from a piece that covers it.
  if (coverage < 1.0 / 512.0) discard;
  if (!insidePlanes()) discard;
  o_color = paint(coverage * effectCoverage());
}
