// Included by the effect fragment shaders. Rounded rects evaluated per
// fragment in a layer's own plane: coverage of fills and rings from the
// signed distance divided by its screen-space gradient (so the edge stays
// one pixel wide under any scale, rotation or perspective), and shadows as
// the exact integral of a Gaussian over the rounded rect.

// Signed distance (negative inside) to the rect (minX, minY, maxX, maxY)
// with a radius per corner (minX-minY, maxX-minY, maxX-maxY, minX-maxY).
float roundedRectDistance(vec2 p, vec4 rect, vec4 radii) {
  vec2 center = 0.5 * (rect.xy + rect.zw);
  vec2 halfSize = 0.5 * (rect.zw - rect.xy);
  vec2 d = p - center;
  float r = d.y < 0.0 ? (d.x < 0.0 ? radii.x : radii.y) : (d.x < 0.0 ? radii.w : radii.z);
  vec2 q = abs(d) - halfSize + r;
  return min(max(q.x, q.y), 0.0) + length(max(q, 0.0)) - r;
}

// Fraction of the pixel inside the field's zero line: the distance in
// screen pixels is the distance over the length of its screen gradient.
// The gradient comes from differences across the 2x2 block of pixels, and a
// distance field is flat across the block where a square corner's two
// edges meet on the fragment and its neighbours (all three at d = 0): the
// gradient is then 0, and divided by it the rounding of d decided the
// coverage, 0, 1/2 or 1 by where the target's origin put the block (a
// 0.5-point border's inner corner on a pixel center: finding
// square-corner-coverage-from-rounding). A tenth of a pixel's step in the
// plane `p` is measured in floors it: a true gradient is below that only
// under a projection that shrinks one direction to a tenth of the other,
// and the rounding of d (a few ulps of the coordinates) moves the coverage
// by under a percent.
float fieldCoverage(float d, vec2 p) {
  float grid = min(length(dFdx(p)), length(dFdy(p)));
  float pixel = max(length(vec2(dFdx(d), dFdy(d))), max(0.1 * grid, 1e-6));
  return clamp(0.5 - d / pixel, 0.0, 1.0);
}

// Abramowitz and Stegun 7.1.27: |error| < 5e-4.
float erfApprox(float x) {
  float a = abs(x);
  float t = 1.0 + a * (0.278393 + a * (0.230389 + a * (0.000972 + a * 0.078108)));
  t *= t;
  return sign(x) * (1.0 - 1.0 / (t * t));
}

// The Gaussian's integral over [a, b] seen from x; k = 1 / (sigma sqrt 2).
float gaussianSpan(float x, float a, float b, float k) {
  return 0.5 * (erfApprox((b - x) * k) - erfApprox((a - x) * k));
}

// What the rounded corners of one horizontal band cut out of the blurred
// rect: the band runs from the edge at `edgeY` inward (`dir` = +1 for the
// top edge, -1 for the bottom) over the larger of its two radii. Along x
// the cut-out spans integrate in closed form; along y a midpoint rule with
// eight rows is accurate because the band is narrow.
float cornerCutouts(vec2 p, vec4 rect, float edgeY, float dir, float rl, float rr, float sigma, float k) {
  float h = max(rl, rr);
  if (h <= 0.0) return 0.0;
  float y0 = min(edgeY, edgeY + dir * h), y1 = max(edgeY, edgeY + dir * h);
  if (p.y < y0 - 3.0 * sigma || p.y > y1 + 3.0 * sigma) return 0.0;
  if (p.x > rect.x + rl + 3.0 * sigma && p.x < rect.z - rr - 3.0 * sigma) return 0.0;
  float dt = h / 8.0;
  float sum = 0.0;
  for (int i = 0; i < 8; i++) {
    float t = y0 + (float(i) + 0.5) * dt;
    float e = dir > 0.0 ? t - edgeY : edgeY - t;
    float insetL = e < rl ? rl - sqrt(max(rl * rl - (rl - e) * (rl - e), 0.0)) : 0.0;
    float insetR = e < rr ? rr - sqrt(max(rr * rr - (rr - e) * (rr - e), 0.0)) : 0.0;
    float across = gaussianSpan(p.x, rect.x, rect.x + insetL, k)
                 + gaussianSpan(p.x, rect.z - insetR, rect.z, k);
    float dy = (t - p.y) * k;
    sum += exp(-dy * dy) * across;
  }
  return sum * dt * k * 0.5641896;  // 1 / (sigma sqrt(2 pi)) = k / sqrt(pi)
}

// The rounded rect convolved with a Gaussian of standard deviation sigma.
// The blurred rect is a product of erf differences; what the rounded
// corners cut out of it depends on how wide the blur is next to the radius
// (the renderer picks the function from sigma and the radii):
// - no radius: nothing (the fast function);
// - sigma >= 0.6 r: each corner's cut-out (the square r x r minus the
//   quarter disc) blurs like a square of the same area at the corner, two
//   more erf differences per corner (under 1.5/255 from the exact integral);
// - sigma <= 0.1 r: the blur is narrow next to the curvature: the profile
//   of a straight edge along the signed distance (under 5/255);
// - in between: the cut-outs integrated, closed form across and eight rows
//   along (the costly case, skipped where the corners are out of reach;
//   blurredRoundedRectIntegrated).
float blurredRoundedRectFast(vec2 p, vec4 rect, vec4 radii, float sigma) {
  float k = 0.70710678 / sigma;
  float rmax = max(max(radii.x, radii.y), max(radii.z, radii.w));
  if (rmax > 0.0 && sigma <= 0.1 * rmax) {
    return 0.5 - 0.5 * erfApprox(roundedRectDistance(p, rect, radii) * k);
  }
  float value = gaussianSpan(p.x, rect.x, rect.z, k) * gaussianSpan(p.y, rect.y, rect.w, k);
  if (rmax <= 0.0) return value;
  vec4 side = radii * 0.46325;  // sqrt(1 - pi / 4): the cut-out's area as a square
  value -= gaussianSpan(p.x, rect.x, rect.x + side.x, k) * gaussianSpan(p.y, rect.y, rect.y + side.x, k);
  value -= gaussianSpan(p.x, rect.z - side.y, rect.z, k) * gaussianSpan(p.y, rect.y, rect.y + side.y, k);
  value -= gaussianSpan(p.x, rect.z - side.z, rect.z, k) * gaussianSpan(p.y, rect.w - side.z, rect.w, k);
  value -= gaussianSpan(p.x, rect.x, rect.x + side.w, k) * gaussianSpan(p.y, rect.w - side.w, rect.w, k);
  return clamp(value, 0.0, 1.0);
}

float blurredRoundedRectIntegrated(vec2 p, vec4 rect, vec4 radii, float sigma) {
  float k = 0.70710678 / sigma;
  float value = gaussianSpan(p.x, rect.x, rect.z, k) * gaussianSpan(p.y, rect.y, rect.w, k);
  value -= cornerCutouts(p, rect, rect.y, 1.0, radii.x, radii.y, sigma, k);
  value -= cornerCutouts(p, rect, rect.w, -1.0, radii.w, radii.z, sigma, k);
  return clamp(value, 0.0, 1.0);
}

// Specialized by the renderer (GL/EffectPrograms.swift), because llvmpipe
// runs both sides of a branch whose condition varies over a block of
// pixels: SHAPE_MODE 0 none, 1 fill, 2 ring, 3 blurred (closed forms),
// 4 blurred (corners integrated); CLIP when a clip applies.
#ifndef SHAPE_MODE
#define SHAPE_MODE 1
#endif

in vec2 v_local;
flat in vec4 v_shapeRect;
flat in vec4 v_shapeRadii;
flat in vec4 v_shapeParams;  // y: border width or sigma
in vec3 v_clipPos;           // the fragment in the clip's plane, homogeneous
flat in vec4 v_clipRect;
flat in vec4 v_clipRadii;

// The coverage from the item's shape and its clip.
float effectCoverage() {
  float coverage = 1.0;
#if SHAPE_MODE == 1
  coverage = fieldCoverage(roundedRectDistance(v_local, v_shapeRect, v_shapeRadii), v_local);
#elif SHAPE_MODE == 2
  float w = v_shapeParams.y;
  float outer = fieldCoverage(roundedRectDistance(v_local, v_shapeRect, v_shapeRadii), v_local);
  float inner = fieldCoverage(roundedRectDistance(
      v_local, v_shapeRect + vec4(w, w, -w, -w), max(v_shapeRadii - w, 0.0)), v_local);
  coverage = clamp(outer - inner, 0.0, 1.0);
#elif SHAPE_MODE == 3
  coverage = blurredRoundedRectFast(v_local, v_shapeRect, v_shapeRadii, v_shapeParams.y);
#elif SHAPE_MODE == 4
  coverage = blurredRoundedRectIntegrated(v_local, v_shapeRect, v_shapeRadii, v_shapeParams.y);
#endif
#ifdef CLIP
  vec2 p = v_clipPos.xy / v_clipPos.z;
  coverage *= fieldCoverage(roundedRectDistance(p, v_clipRect, v_clipRadii), p);
#endif
  return coverage;
}
