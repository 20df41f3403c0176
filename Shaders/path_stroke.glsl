// Included by path_stroke.vert and path_stroke.frag: the stroke's
// parameters of this frame (per instance: the vertex shader reads them from
// instance attributes and hands them on as flat varyings) and which parts of
// the path they leave visible. Along a subpath running from arc length sub0
// to sub1, the visible window is [lo, hi] = [max(sub0, trim start),
// min(sub1, trim end)] (strokeStart and strokeEnd), cut into dashes that
// start at lo: the dash pattern restarts with each subpath and with the
// trimmed start, as Cairo and Core Graphics stroke the trimmed path. Every
// start and end of a visible interval gets a cap, except where a closed
// subpath shown whole and dashed on at both ends joins its end to its start
// ("connected"), and where a subpath goes on into the next one (the same
// point, the same direction: StrokeMesher.links) and the trim shows both
// sides of that point: there the two are one outline ("joined"; without
// dashes only, whose on and off along the previous subpath this stage
// does not know).
//
// Specialized by the renderer (GL/PathPrograms.swift), as llvmpipe runs
// every side of a branch: DASH_COUNT (dashes of one period, 0 to 4), CAP (0
// butt, 1 round, 2 square), PIECE (0 segment, 1 segment at a corner, 2 round
// wedge, 3 bevel wedge, 4 dot).

#ifndef DASH_COUNT
#define DASH_COUNT 0
#endif
#ifndef CAP
#define CAP 0
#endif
#ifndef PIECE
#define PIECE 0
#endif
#define EPS 1e-3

// Segment flags (StrokeMesher): closed subpath, start and end cut along a
// bisector (no seam there), at a corner.
#define CLOSED_FLAG 1
#define CUT_START_FLAG 2
#define CUT_END_FLAG 4
// A subpath's start going on from the previous subpath's end, its end
// going on into the next one's start (StrokeMesher.links).
#define LINK_START_FLAG 16
#define LINK_END_FLAG 32

float g_halfWidth;
vec2 g_trim;  // strokeStart and strokeEnd, as arc lengths
#if DASH_COUNT > 0
vec2 g_dash[DASH_COUNT];  // the dashes of one period
float g_period;
float g_phase;  // in [0, period)
// DASH_COUNT, as the loops over the dashes read it. For the corner pieces
// (PIECE 1) a value the compiler cannot prove constant (the period is
// positive, so it adds 0), so that their loops stay loops: unrolled, their
// nested loops over three periods and several dashes took llvmpipe's LLVM
// 20 s to a minute to compile (issue 33: a dashed stroke on a path with a
// corner); as loops they compile in well under a second and draw the same
// pixels. The other pieces keep the constant and unrolled loops, which
// compile quickly and run faster.
int g_dashCount;
#endif

#if DASH_COUNT > 0
// The dashes of one period, two to a vec4 (on-length, off-length), as the
// instance attributes carry them.
void setDashes(vec4 dashes0, vec4 dashes1) {
#if PIECE == 1
  g_dashCount = DASH_COUNT + int(min(g_period, 0.0));
#else
  g_dashCount = DASH_COUNT;
#endif
  g_dash[0] = dashes0.xy;
#if DASH_COUNT > 1
  g_dash[1] = dashes0.zw;
#endif
#if DASH_COUNT > 2
  g_dash[2] = dashes1.xy;
#endif
#if DASH_COUNT > 3
  g_dash[3] = dashes1.zw;
#endif
}
#endif

// Whether arc length x is on a dash (its ends included), dashes starting at lo.
bool dashOn(float x, float lo) {
#if DASH_COUNT > 0
  float u = x - lo + g_phase;
  float m = u - floor(u / g_period) * g_period;
  for (int i = 0; i < g_dashCount; i++) {
    vec2 on = g_dash[i];
    if (m >= on.x - EPS && m <= on.y + EPS) return true;
    if (m + g_period <= on.y + EPS && m + g_period >= on.x - EPS) return true;
  }
  return false;
#else
  return true;
#endif
}

// Whether arc length x is well inside a dash (a join there joins two parts of it).
bool dashOnStrictly(float x, float lo) {
#if DASH_COUNT > 0
  float u = x - lo + g_phase;
  float m = u - floor(u / g_period) * g_period;
  for (int i = 0; i < g_dashCount; i++) {
    vec2 on = g_dash[i];
    if (m > on.x + EPS && m < on.y - EPS) return true;
    if (m + g_period > on.x + EPS && m + g_period < on.y - EPS) return true;
  }
  return false;
#else
  return true;
#endif
}

// Whether a dash starts (or ends) between x0 and x1 inside the window.
bool dashBoundaryIn(float x0, float x1, float lo, float hi, bool ends) {
#if DASH_COUNT > 0
  if (x1 - x0 >= g_period) return true;
  float first = floor((x0 - lo + g_phase) / g_period) * g_period + lo - g_phase;
  for (int j = 0; j < 2; j++) {
    float base = first + float(j) * g_period;
    for (int i = 0; i < g_dashCount; i++) {
      float e = base + (ends ? g_dash[i].y : g_dash[i].x);
      if (e >= x0 - EPS && e <= x1 + EPS && e >= lo - EPS && e <= hi + EPS) return true;
    }
  }
#endif
  return false;
}

// Whether the stroke goes on through the subpath's start (x) and end (y):
// a closed subpath shown whole, or a link to the neighbouring subpath
// with the trim showing both sides of it.
bvec2 joinedEnds(int flags, float sub0, float sub1, bool connected) {
  bool start = connected;
  bool end = connected;
#if DASH_COUNT == 0
  start = start || ((flags & LINK_START_FLAG) != 0 && g_trim.x < sub0 - EPS && g_trim.y > sub0 + EPS);
  end = end || ((flags & LINK_END_FLAG) != 0 && g_trim.x < sub1 - EPS && g_trim.y > sub1 + EPS);
#endif
  return bvec2(start, end);
}

// Whether a visible interval starts in [x0, x1) (it gets a cap there).
bool startsIn(float x0, float x1, float lo, float hi, bool connected) {
  if (!connected && lo >= x0 - EPS && lo < x1 && dashOn(lo, lo)) return true;
  return dashBoundaryIn(x0, x1, lo, hi, false);
}

// Whether a visible interval ends in (x0, x1].
bool endsIn(float x0, float x1, float lo, float hi, bool connected) {
  if (!connected && hi > x0 && hi <= x1 + EPS && dashOn(hi, lo)) return true;
  return dashBoundaryIn(x0, x1, lo, hi, true);
}

// Whether anything of [x0, x1] is visible. A window that only touches it
// at x0 or x1 shows nothing of it: startsIn and endsIn leave such an end
// out (it is a neighbour's), so the segment would pass for one wholly
// inside the window and be drawn whole (a trim ending on a corner, exactly
// a reach before the next segment: trim-end-on-a-corner-strokes-closing-edge).
// A window of length zero (a dot where round caps draw one) still shows.
bool anyVisible(float x0, float x1, float lo, float hi) {
  float a = max(x0, lo);
  float b = min(x1, hi);
  if (b < a || (b == a && hi > lo)) return false;
#if DASH_COUNT > 0
  return dashOn(a, lo) || dashBoundaryIn(a, b, lo, hi, false);
#else
  return true;
#endif
}

// How far the visible interval holding x goes on from x, forward or back
// (0 where x is not visible).
float visibleRun(float x, float lo, float hi, bool forward) {
  float window = forward ? hi - x : x - lo;
#if DASH_COUNT > 0
  float u = x - lo + g_phase;
  float m = u - floor(u / g_period) * g_period;
  for (int i = 0; i < g_dashCount; i++) {
    vec2 on = g_dash[i];
    if (m >= on.x - EPS && m <= on.y + EPS) return min(window, forward ? on.y - m : m - on.x);
    float n = m + g_period;
    if (n >= on.x - EPS && n <= on.y + EPS) return min(window, forward ? on.y - n : n - on.x);
  }
  return 0.0;
#else
  return max(window, 0.0);
#endif
}
