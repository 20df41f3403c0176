#version 300 es
#include "blend_support.glsl"
// Layers with effects: a solid color, an image (TEXTURED) or a gradient
// (GRADIENT, with its kind's GRADIENT_* define; see gradient.glsl), covered
// by a rounded rect in the item's own plane (a fill, a border ring, or a
// blurred shadow) and clipped by an ancestor's rounded bounds (CLIP); see
// shape.glsl. The renderer compiles one variant per combination it meets.
precision highp float;

#ifdef TEXTURED
uniform sampler2D s_image;
#endif

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"
#include "shape.glsl"
#ifdef GRADIENT
#include "gradient.glsl"
#endif
#include "triangles_only.glsl"

void main() {
  float coverage = effectCoverage() * edgeCoverage(v_edges * gl_FragCoord.w);
#if defined(GRADIENT)
  o_color = dithered(gradientColor(v_texcoord) * v_color) * coverage;
#elif defined(TEXTURED)
  vec2 uv = clamp(v_texcoord, v_texclamp.xy, v_texclamp.zw);
  o_color = texture(s_image, uv) * v_color * coverage;
#else
  o_color = v_color * coverage;
#endif
  o_color = drawnAsTriangles(o_color);
}
