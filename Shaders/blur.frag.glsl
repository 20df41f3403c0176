#version 300 es
// One direction of a separable Gaussian blur: weights computed here (no
// weight texture), 2 * ceil(3 sigma) + 1 taps, normalized.
precision highp float;

uniform sampler2D s_image;
uniform vec2 u_direction;  // (1, 0) or (0, 1)
uniform float u_sigma;     // in texels
out vec4 o_color;

void main() {
  vec2 size = vec2(textureSize(s_image, 0));
  int radius = int(ceil(3.0 * u_sigma));
  float k = -0.5 / (u_sigma * u_sigma);
  vec4 sum = vec4(0.0);
  float total = 0.0;
  for (int i = -radius; i <= radius; i++) {
    float w = exp(float(i * i) * k);
    sum += texture(s_image, (gl_FragCoord.xy + u_direction * float(i)) / size) * w;
    total += w;
  }
  o_color = sum / total;
}
