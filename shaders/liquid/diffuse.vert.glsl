// One quad per diffuse particle (spray, foam and bubbles: src/diffuse.c, Ihmsen et al. 2012),
// facing the camera, PDL_LIQUID_DIFFUSE_SIZE particle radii across, drawn white by
// foam.frag.glsl after the water, through the water's and the scene's depth. As
// io/src/render_liquid.c's diffuse_discs: spray and foam PDL_LIQUID_DIFFUSE_LIFT radii towards the
// camera (foam floats on the surface the spheres' fronts make), foam fading over its last
// PDL_LIQUID_DIFFUSE_FADE seconds, bubbles fainter and not lifted. The front end prepends, after
// look.h, the particle's inputs as three functions:
//   vec3 pdl_diffuse_center()  its position, world units
//   float pdl_diffuse_kind()   0 spray, 1 foam, 2 bubble (pdl_diffuse_kind)
//   float pdl_diffuse_life()   the life it has left, seconds
layout(location = 0) in vec2 a_corner;
uniform mat4 u_view_projection;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_back;
uniform float u_radius;
out vec2 v_corner;
out vec3 v_color;
void main() {
  float kind = pdl_diffuse_kind();
  float alpha = PDL_LIQUID_SPRAY_ALPHA;
  if (kind > 1.5) alpha = PDL_LIQUID_BUBBLE_ALPHA;
  else if (kind > 0.5) alpha = PDL_LIQUID_DIFFUSE_FOAM_ALPHA * clamp(pdl_diffuse_life() / PDL_LIQUID_DIFFUSE_FADE, 0.0, 1.0);
  // foam.frag.glsl's opacity is PDL_LIQUID_FOAM_ALPHA times v_color.r at the centre
  v_color = vec3(alpha / PDL_LIQUID_FOAM_ALPHA);
  v_corner = a_corner;
  vec3 c = pdl_diffuse_center();
  if (kind < 1.5) c += u_back * PDL_LIQUID_DIFFUSE_LIFT * u_radius;
  float size = PDL_LIQUID_DIFFUSE_SIZE * u_radius;
  gl_Position = u_view_projection * vec4(c + (u_right * a_corner.x + u_up * a_corner.y) * size, 1.0);
}
