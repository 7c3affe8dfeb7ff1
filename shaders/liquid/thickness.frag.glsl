// A Gaussian splat of PDL_LIQUID_SPLAT_RADII radii holding the sphere's volume (look.h), summed
// (blending ONE, ONE) at a lower resolution: alpha the thickness, rgb the colour weighted by the
// splat and by its depth below the water's surface, the weight beside it. Liquid behind a body
// does not count.
in vec2 v_corner;
in vec3 v_color;
in float v_depth;
uniform float u_radius;
uniform highp sampler2D u_surface; // the depth pass's target, full resolution
uniform highp sampler2D u_solid;   // the scene's depth
uniform vec2 u_depth_ab;           // window depth d = 0.5 (-a + b / w) + 0.5 at view depth w
uniform vec2 u_down;               // full-resolution pixels per thickness texel, x and y
layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_weight;
void main() {
  float r2 = dot(v_corner, v_corner);
  if (r2 > 1.0) discard;
  ivec2 at = ivec2(gl_FragCoord.xy * u_down);
  float solid = 2.0 * texelFetch(u_solid, at, 0).r - 1.0;
  if (solid < 1.0 && v_depth > u_depth_ab.y / (solid + u_depth_ab.x)) discard;
  float t = 1.05 * u_radius * exp(-3.0 * r2);
  float surface = texelFetch(u_surface, at, 0).r;
  float below = surface > 0.0 ? max(v_depth - u_radius - surface, 0.0) : 0.0;
  float weight = t * exp(-below / (PDL_LIQUID_LAYER_RADII * u_radius));
  o_color = vec4(v_color * weight, t);
  o_weight = vec4(weight, 0.0, 0.0, 0.0);
}
