// Narrow-range filter of the water's view depth (Truong & Yuksel 2018), one direction: Gaussian
// weights over a radius proportional to the projected particle radius; a sample farther than
// the pixel by more than the range (another surface behind) is left out, a nearer one clamped
// to the range, so edges stay edges and the particles' bumps flatten. The range is measured
// from the plane through the pixel with the surface's slope along the pass, not from the
// pixel's depth: a surface seen at a grazing angle changes depth by more than the range within
// the filter, and measured from the pixel the filter left out most samples there, so the bumps
// stayed in one direction and showed as streaks along the other. Pixels without water stay 0.
uniform highp sampler2D u_depth;
uniform vec2 u_dir;
uniform float u_radius;  // particle radius, world units
uniform float u_pixels;  // pixels per world unit at view depth 1
out vec4 o_depth;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy), size = textureSize(u_depth, 0), dir = ivec2(u_dir);
  float z = texelFetch(u_depth, p, 0).r;
  if (z <= 0.0) { o_depth = vec4(0.0); return; }
  float radius_px = clamp(PDL_LIQUID_FILTER_RADII * u_radius * u_pixels / z, 1.0, PDL_LIQUID_FILTER_MAX_PIXELS);
  float stride = max(1.0, radius_px / float(PDL_LIQUID_FILTER_TAPS));
  float sigma = 0.5 * radius_px, range = PDL_LIQUID_FILTER_RANGE_RADII * u_radius;
  // the surface's slope along this pass, over half the filter's radius, from the side that
  // changes less (so a silhouette next to the pixel does not count), at most a range over
  // that (steeper is a rim, not a wall), none across a gap
  int k = max(1, int(0.5 * radius_px));
  float zl = texelFetch(u_depth, clamp(p - dir * k, ivec2(0), size - 1), 0).r;
  float zr = texelFetch(u_depth, clamp(p + dir * k, ivec2(0), size - 1), 0).r;
  float dl = zl > 0.0 ? z - zl : 1e30, dr = zr > 0.0 ? zr - z : 1e30;
  float slope = min(abs(dl), abs(dr)) > 2.0 * range ? 0.0 : clamp(abs(dr) < abs(dl) ? dr : dl, -range, range) / float(k);
  // the samples' heights over that slope's plane through the pixel, averaged
  float sum = 0.0, weights = 1.0;
  for (int i = -PDL_LIQUID_FILTER_TAPS; i <= PDL_LIQUID_FILTER_TAPS; ++i) {
    float d = float(i) * stride;
    if (i == 0 || abs(d) > radius_px) continue;
    int o = int(d);
    float s = texelFetch(u_depth, clamp(p + dir * o, ivec2(0), size - 1), 0).r;
    float e = s - z - slope * float(o);
    if (s <= 0.0 || e > range) continue;
    e = max(e, -range);
    float w = exp(-d * d / (2.0 * sigma * sigma));
    sum += e * w;
    weights += w;
  }
  o_depth = vec4(z + sum / weights, 0.0, 0.0, 1.0);
}
