#version 300 es
// A solid fill: no texture fetch, the cheapest fragment llvmpipe can shade.
precision mediump float;

in vec4 v_color;
out vec4 o_color;

void main() {
  o_color = v_color;
}
