#version 300 es
#include "blend_support.glsl"
// Composites an offscreen group through its mask: the mask layer's
// rendering, drawn over the same pixels, multiplies by its alpha (and the
// group's clip, when compiled with CLIP).
precision highp float;

uniform sampler2D s_image;
uniform sampler2D s_mask;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#define SHAPE_MODE 0
#include "shape.glsl"

void main() {
  o_color = texture(s_image, v_texcoord) * (texture(s_mask, v_texcoord).a * effectCoverage()) * v_color;
}
