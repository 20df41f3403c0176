#version 300 es
#include "blend_support.glsl"
// An image (premultiplied texels) tinted by a premultiplied color; the color
// carries the layer's accumulated opacity. Texture coordinates are clamped to
// the shown part of the image (contentsRect), so that the antialiasing fringe
// outside the rect repeats its edge instead of showing the neighbouring sprite.
precision highp float;

uniform sampler2D s_image;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"

void main() {
  vec2 uv = clamp(v_texcoord, v_texclamp.xy, v_texclamp.zw);
  o_color = texture(s_image, uv) * v_color * edgeCoverage(v_edges * gl_FragCoord.w);
}
