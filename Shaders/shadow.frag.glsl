#version 300 es
// A blurred offscreen rendering drawn as a shadow: its alpha times the
// premultiplied shadow color.
precision highp float;

uniform sampler2D s_image;

in vec2 v_texcoord;
in vec4 v_color;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "triangles_only.glsl"

void main() {
  o_color = drawnAsTriangles(v_color * texture(s_image, v_texcoord).a);
}
