#version 300 es
// CAGradientLayer, conic (see gradient.glsl).
#define GRADIENT_CONIC 1
precision highp float;
#include "edge_coverage.glsl"
#include "gradient.glsl"
