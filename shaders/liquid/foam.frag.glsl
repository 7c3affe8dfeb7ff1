// A foam disc: white, opaque by how far the particle is past the thresholds (v_color.r).
in vec2 v_corner;
in vec3 v_color;
out vec4 o_color;
void main() {
  float a = (1.0 - dot(v_corner, v_corner)) * v_color.r;
  if (a <= 0.0) discard;
  o_color = vec4(vec3(PDL_LIQUID_FOAM_COLOR), PDL_LIQUID_FOAM_ALPHA * a);
}
