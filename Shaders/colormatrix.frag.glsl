#version 300 es
// One color filter over a whole offscreen target: a 4×4 matrix and a bias
// on straight (un-premultiplied) color, clamped to 0…1, premultiplied again.
precision highp float;

uniform sampler2D s_image;
uniform mat4 u_matrix;  // column-major: u_matrix * color
uniform vec4 u_bias;
out vec4 o_color;

void main() {
  vec4 p = texelFetch(s_image, ivec2(gl_FragCoord.xy), 0);
  vec4 c = p.a > 0.0 ? vec4(p.rgb / p.a, p.a) : vec4(0.0);
  vec4 f = clamp(u_matrix * c + u_bias, 0.0, 1.0);
  o_color = vec4(f.rgb * f.a, f.a);
}
