#version 300 es
// Box-filters the source down by u_factor (2, 4, 8 or 16) in each direction:
// (u_factor / 2)^2 bilinear taps, each the mean of 2x2 texels.
precision highp float;

uniform sampler2D s_image;
uniform int u_factor;
out vec4 o_color;

void main() {
  vec2 size = vec2(textureSize(s_image, 0));
  vec2 origin = floor(gl_FragCoord.xy) * float(u_factor);
  int taps = u_factor / 2;
  vec4 sum = vec4(0.0);
  for (int j = 0; j < taps; j++) {
    for (int i = 0; i < taps; i++) {
      sum += texture(s_image, (origin + vec2(float(2 * i + 1), float(2 * j + 1))) / size);
    }
  }
  o_color = sum / float(taps * taps);
}
