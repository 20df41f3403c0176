#version 300 es
#include "blend_support.glsl"
// CAGradientLayer (see gradient.glsl); the renderer defines the kind.
precision highp float;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"
#include "gradient.glsl"
#include "triangles_only.glsl"

void main() {
  vec4 color = dithered(gradientColor(v_texcoord) * v_color);
  o_color = drawnAsTriangles(color * edgeCoverage(v_edges * gl_FragCoord.w));
}
