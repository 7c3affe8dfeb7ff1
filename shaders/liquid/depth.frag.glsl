// The view depth of the sphere's front surface into an R32F target (0: no water), its window
// depth for the depth test; behind the scene's depth (a body in front), nothing.
in vec2 v_corner;
in vec3 v_center;
uniform mat4 u_view_projection;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_back;
uniform float u_radius;
uniform highp sampler2D u_solid;
out vec4 o_depth;
void main() {
  float r2 = dot(v_corner, v_corner);
  if (r2 > 1.0) discard;
  vec3 n = u_right * v_corner.x + u_up * v_corner.y + u_back * sqrt(1.0 - r2);
  vec4 clip = u_view_projection * vec4(v_center + n * u_radius, 1.0);
  float d = 0.5 * clip.z / clip.w + 0.5;
  if (d >= texelFetch(u_solid, ivec2(gl_FragCoord.xy), 0).r) discard;
  gl_FragDepth = d;
  o_depth = vec4(clip.w, 0.0, 0.0, 1.0);
}
