// The water's view depth smoothed, one direction of a separable filter (the same filter as
// io/src/render_liquid.c's blur_pass, there in C): a bilateral filter in the spirit of the
// narrow-range filter (Truong & Yuksel 2018). Gaussian weights over a radius proportional to
// the projected particle radius, times a Gaussian of the depth difference beyond what the
// distance along the pass allows (a surface seen at a grazing angle changes depth by several
// pixel widths per pixel: without that allowance it kept its bumps across the pass, streaks),
// so a surface behind or in front stays apart. The pixel's depth is the weighted least-squares
// line through the samples, taken at the pixel: a plain mean moves a sloped surface towards the
// side of a cut-off window (a silhouette, a nearer sheet) that has more samples, and the cut
// wanders with the spheres' outline from line to line, which showed as streaks. Where a sheet
// has a gap narrower than a sphere (the water behind showing through), the sheet goes on across
// it. Pixels without water (0) stay 0.
uniform highp sampler2D u_depth;
uniform vec2 u_dir;
uniform float u_radius;  // particle radius, world units
uniform float u_pixels;  // pixels per world unit at view depth 1
out vec4 o_depth;

ivec2 g_p, g_size, g_dir;

// The depth k pixels along the pass (0: none there, or outside).
float depth_at(int k) {
  ivec2 q = g_p + g_dir * k;
  if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, g_size))) return 0.0;
  return texelFetch(u_depth, q, 0).r;
}

float reach_at(float d) {
  return clamp(floor(PDL_LIQUID_FILTER_RADII * u_radius * u_pixels / d), 1.0, PDL_LIQUID_FILTER_MAX_PIXELS);
}

void main() {
  g_p = ivec2(gl_FragCoord.xy);
  g_size = textureSize(u_depth, 0);
  g_dir = ivec2(u_dir);
  float d0 = depth_at(0);
  if (d0 <= 0.0) { o_depth = vec4(0.0); return; }
  float range = PDL_LIQUID_FILTER_RANGE_RADII * u_radius;
  float slope = PDL_LIQUID_FILTER_SLOPE * d0 / u_pixels;
  // across a gap: on both sides within a sphere's projected radius a sample nearer by more than
  // the range, the two agreeing: the pixel takes their interpolation
  int gap = int(min(ceil(u_radius * u_pixels / d0), reach_at(d0)));
  int found[2] = int[2](0, 0);
  float near[2] = float[2](0.0, 0.0);
  for (int side = 0; side < 2; ++side)
    for (int k = 1; k <= int(PDL_LIQUID_FILTER_MAX_PIXELS); ++k) {
      if (k > gap) break;
      float d = depth_at(side == 1 ? k : -k);
      if (d > 0.0 && d < d0 - range - slope * float(k)) { found[side] = k; near[side] = d; break; }
    }
  if (found[0] > 0 && found[1] > 0 && abs(near[1] - near[0]) <= range + slope * float(found[0] + found[1]))
    d0 = near[0] + (near[1] - near[0]) * float(found[0]) / float(found[0] + found[1]);
  float reach = reach_at(d0);
  float inv_2sz = 1.0 / (2.0 * range * range);
  // sums of the weights w, w k, w k^2, w (d - d0), w k (d - d0)
  float s0 = 0.0, s1 = 0.0, s2 = 0.0, t0 = 0.0, t1 = 0.0;
  for (int k = -int(reach); k <= int(reach); ++k) {
    float fk = float(k);
    float d = depth_at(k);
    if (d <= 0.0) continue;
    float dd = max(0.0, abs(d - d0) - slope * abs(fk));
    float w = exp(-2.0 * fk * fk / (reach * reach)) * exp(-dd * dd * inv_2sz);
    float e = d - d0;
    s0 += w; s1 += w * fk; s2 += w * fk * fk; t0 += w * e; t1 += w * fk * e;
  }
  // a line needs samples in two places; else the mean
  float det = s0 * s2 - s1 * s1;
  o_depth = vec4(d0 + (det > 1e-3 * s0 * s2 ? (t0 * s2 - s1 * t1) / det : t0 / s0), 0.0, 0.0, 1.0);
}
