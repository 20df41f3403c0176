#version 300 es
// CAGradientLayer, radial (see gradient.glsl).
#define GRADIENT_RADIAL 1
precision highp float;
#include "edge_coverage.glsl"
#include "gradient.glsl"
