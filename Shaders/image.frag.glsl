#version 300 es
// An image (premultiplied texels) tinted by a premultiplied color; the color
// carries the layer's accumulated opacity.
precision mediump float;

uniform sampler2D s_image;

in vec2 v_texcoord;
in vec4 v_color;
out vec4 o_color;

void main() {
  o_color = texture(s_image, v_texcoord) * v_color;
}
