#version 300 es
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
#endif
// A path's fill. The ribbon's fragments compute the box-filter coverage of
// their edge; at corners (CORNERS) it is combined with the neighbouring
// edges' (convex: the intersection, reflex: the union; between the minimum
// and the product by the corner's turn, which v_weights carries). Fragments
// of no coverage are discarded, so that they leave the depth unmarked for
// the interior (INTERIOR), drawn after with coverage 1 where the ribbon
// drew nothing.
precision highp float;
precision highp int;

#define SHAPE_MODE 0
#include "shape.glsl"
#ifdef GRADIENT_PAINT
#include "gradient.glsl"
#endif
#include "path_coverage.glsl"

in vec3 v_dist;
flat in vec2 v_weights;
out vec4 o_color;
#ifdef BLEND_ADVANCED
layout(blend_support_all_equations) out;
#endif

// Two edges' coverages at a corner: w > 0 convex, w < 0 reflex; |w| is the
// turn over a right angle (nearly straight corners take the min or max,
// right angles the product or its dual, exact for axis-aligned corners).
float cornerCoverage(float c, float o, float w) {
  return w >= 0.0 ? mix(min(c, o), c * o, w) : mix(max(c, o), c + o - c * o, -w);
}

void main() {
#ifndef AFFINE_DEPTH
  gl_FragDepth = v_depth;
#endif
#ifdef INTERIOR
  float coverage = 1.0;
#else
  vec3 dx = dFdx(v_dist);
  vec3 dy = dFdy(v_dist);
  float coverage = fieldHalfPlane(v_dist.x, vec2(dx.x, dy.x));
#ifdef CORNERS
  coverage = cornerCoverage(coverage, fieldHalfPlane(v_dist.y, vec2(dx.y, dy.y)), v_weights.x);
  coverage = cornerCoverage(coverage, fieldHalfPlane(v_dist.z, vec2(dx.z, dy.z)), v_weights.y);
#endif
  // Invisible fragments must not take the pixel from a piece that covers it.
  if (coverage < 1.0 / 512.0) discard;
#endif
  if (!insidePlanes()) discard;
  o_color = paint(coverage * effectCoverage());
}
