// Included by the path fragment shaders (after shape.glsl, which provides
// the clip: effectCoverage() with SHAPE_MODE 0). Coverage of a pixel by a
// straight edge is the area of the pixel square on the inside of the edge
// (a box filter), from the edge's distance to the pixel's center and its
// direction on screen: exact for straight edges, where a linear ramp of
// the distance is off by up to 1/8 on diagonals.

uniform vec4 u_color;  // premultiplied, opacity included
#ifdef PLANES
uniform vec3 u_planes[8];  // half-planes a·x + b·y + c >= 0 of the plane (depth-sorted pieces)
uniform int u_planeCount;
#endif

// The pixel square's area on the inside of a line d pixels from its center
// (positive inside) whose unit normal on screen is n. Projected on n the
// square's area is a trapezoid of width lo + hi (the normal's components,
// smaller and larger) with ramps of width lo: integrated, quadratic on the
// ramps and linear between.
float halfPlaneCoverage(float d, vec2 n) {
  vec2 a = abs(n);
  float lo = max(min(a.x, a.y), 1e-3);
  float hi = max(a.x, a.y);
  float x = clamp(d + 0.5 * (lo + hi), 0.0, lo + hi);
  float k = 0.5 / (lo * hi);
  float e = lo + hi - x;
  float rise = x * x * k;
  float flat_ = (x - 0.5 * lo) / hi;
  float fall = 1.0 - e * e * k;
  return x < lo ? rise : (x > hi ? fall : flat_);
}

// Coverage by the region where a field of the plane (in points) is >= 0,
// given its gradient on screen: the field over the gradient's length is
// the distance in pixels.
float fieldHalfPlane(float f, vec2 g) {
  float len = length(g);
  if (len < 1e-12) return f >= 0.0 ? 1.0 : 0.0;
  return halfPlaneCoverage(f / len, g / len);
}

// False where a depth-sorting cut removes the fragment (no antialiasing:
// the other piece continues across the cut).
bool insidePlanes() {
#ifdef PLANES
  for (int i = 0; i < 8; i++) {
    if (i >= u_planeCount) break;
    if (dot(u_planes[i], vec3(v_local, 1.0)) < 0.0) return false;
  }
#endif
  return true;
}
