#version 300 es
// An image (contents, or an offscreen group composited back) clipped by a
// rounded rect in its own plane or an ancestor's (shape.glsl).
precision highp float;

uniform sampler2D s_image;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"
#include "shape.glsl"

void main() {
  vec2 uv = clamp(v_texcoord, v_texclamp.xy, v_texclamp.zw);
  o_color = texture(s_image, uv) * v_color
      * (effectCoverage() * edgeCoverage(v_edges * gl_FragCoord.w));
}
