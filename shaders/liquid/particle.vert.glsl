// One quad per particle, facing the camera, u_scale radii across: the depth, thickness and foam
// passes share it. The front end prepends, after look.h, the particle's inputs as four
// functions (its own attribute layout and colour map):
//   vec3 pdl_center()          the particle's position, world units
//   vec3 pdl_color()           its colour (the material's, or the colour ramp's)
//   float pdl_speed()          its speed, world units per second
//   float pdl_density_share()  its density over its material's rest density
layout(location = 0) in vec2 a_corner;
uniform mat4 u_view_projection;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_back;
uniform float u_radius;
uniform float u_scale;
uniform int u_foam_only;
out vec2 v_corner;
out vec3 v_color;
out vec3 v_center;
out float v_depth;
void main() {
  v_color = pdl_color();
  v_corner = a_corner;
  v_center = pdl_center();
  vec3 c = v_center;
  if (u_foam_only == 1) {
    // how far past both foam thresholds, as the disc's opacity
    float fast = pdl_speed() / PDL_LIQUID_FOAM_SPEED - 1.0;
    float lonely = 1.0 - pdl_density_share() / PDL_LIQUID_FOAM_DENSITY;
    float f = min(fast, 2.0 * lonely);
    v_color = vec3(clamp(f * 3.0, 0.0, 1.0));
    c += u_back * PDL_LIQUID_FOAM_LIFT * u_radius;
    if (!(f > 0.0)) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); v_depth = 0.0; return; }
  }
  v_depth = (u_view_projection * vec4(c, 1.0)).w;
  gl_Position = u_view_projection * vec4(c + (u_right * a_corner.x + u_up * a_corner.y) * u_radius * u_scale, 1.0);
}
