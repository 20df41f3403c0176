// Included by the path fragment shaders (after shape.glsl, which provides
// the clip: effectCoverage() with SHAPE_MODE 0). Coverage of a pixel by a
// straight edge is the area of the pixel square on the inside of the edge
// (a box filter), from the edge's distance to the pixel's center and its
// direction on screen: exact for straight edges, where a linear ramp of
// the distance is off by up to 1/8 on diagonals.

flat in vec4 v_color;  // premultiplied, opacity included
flat in float v_depth;  // the item's depth level (path_vertex.glsl)
#ifdef TEXTURE_PAINT
uniform sampler2D s_paint;
uniform vec4 u_paintRect;  // the texture coordinates holding the group's rendering
in vec2 v_paint;
#endif
#ifdef GRADIENT_PAINT
in vec2 v_gradient;  // the point of the gradient layer's bounds (gradient.glsl, included before)
#endif
#ifdef PLANES
uniform vec3 u_planes[8];  // half-planes a·x + b·y + c >= 0 of the plane (depth-sorted pieces)
uniform int u_planeCount;
#endif

// The pixel square's area on the inside of the zero line of a field of the
// plane (in points) whose screen gradient is g, at a pixel where the field
// is f. Projected on the line's normal, the square's area is a trapezoid of
// width lo + hi (the normal's components, smaller and larger) with ramps of
// width lo: integrated, quadratic on the ramps and linear between. Every
// length here is in the field's units (pixels times |g|): no normalizing.
float fieldHalfPlane(float f, vec2 g) {
  vec2 a = abs(g);
  float hi = max(max(a.x, a.y), 1e-20);
  float lo = max(min(a.x, a.y), 1e-3 * hi);
  float width = lo + hi;
  float x = clamp(f + 0.5 * width, 0.0, width);
  float k = 0.5 / max(lo * hi, 1e-30);
  float e = width - x;
  return x < lo ? x * x * k : (x > hi ? 1.0 - e * e * k : (x - 0.5 * lo) / hi);
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

// The paint of a pixel the path covers by `coverage`: the item's color,
// or (TEXTURE_PAINT) the group's rendering at the pixel times the
// color's alpha (the mask's opacity and the group's), nothing outside
// what the group's target holds; or (GRADIENT_PAINT) the gradient that is
// the group's whole rendering, as gradient.frag draws it, times that
// alpha (the planner takes this way only when the path lies inside the
// gradient's bounds).
vec4 paint(float coverage) {
#if defined(TEXTURE_PAINT)
  if (any(lessThan(v_paint, u_paintRect.xy)) || any(greaterThan(v_paint, u_paintRect.zw))) discard;
  return texture(s_paint, v_paint) * (v_color.a * coverage);
#elif defined(GRADIENT_PAINT)
  return dithered(gradientColor(v_gradient) * v_color.a) * coverage;
#else
  return v_color * coverage;
#endif
}
