#version 300 es
// One triangle that covers the whole target, for passes that shade every
// pixel of a small offscreen target (downsampling, blurring).
precision highp float;

void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
