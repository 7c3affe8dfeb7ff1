// The water over the scene, one full-screen pass (render_liquid.c's pdl_liquid_color is the
// same formula in C): normals from the smoothed depth; the scene behind refracted along them;
// Beer-Lambert absorption through the thickness in the liquid's own colour, plus the light it
// scatters in that colour; Schlick's Fresnel towards the sky; a highlight; the edge faded by
// the thickness; a waterline where the surface meets a body. Writes the nearer of the scene's
// and the water's depth.
uniform highp sampler2D u_scene;        // what is behind the water; alpha 0 on a body
uniform highp sampler2D u_scene_depth;  // the scene's depth
uniform highp sampler2D u_water_depth;  // the spheres' window depth (1: none)
uniform highp sampler2D u_depth;        // smoothed view depth, 0 where no water
uniform highp sampler2D u_thickness;    // rgb colour x weight, a thickness, lower resolution
uniform highp sampler2D u_weight;       // r the colour's weight
uniform vec2 u_thickness_scale;         // the part of those two drawn (uv)
uniform vec2 u_thickness_max;           // its last texel's centre (uv)
uniform vec2 u_origin;                  // the viewport's corner in the window
uniform vec2 u_tan_half;                // tan(fov / 2) times aspect, tan(fov / 2)
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_back;
uniform vec3 u_background;              // the scene's background colour
uniform float u_radius;                 // particle radius, world units
uniform float u_pixels;                 // pixels per world unit at view depth 1
uniform vec2 u_depth_ab;                // window depth d = 0.5 (-a + b / w) + 0.5 at view depth w
out vec4 o_color;
vec3 view_pos(vec2 uv, float z) { return vec3((uv * 2.0 - 1.0) * u_tan_half * z, -z); }
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy - u_origin), size = textureSize(u_depth, 0);
  vec2 texel = 1.0 / vec2(size), uv = (vec2(p) + 0.5) * texel;
  vec4 scene = texelFetch(u_scene, p, 0);
  vec3 background = scene.rgb;
  float solid = texelFetch(u_scene_depth, p, 0).r;
  gl_FragDepth = min(solid, texelFetch(u_water_depth, p, 0).r);
  float z = texelFetch(u_depth, p, 0).r;
  if (z <= 0.0) { o_color = vec4(background, 1.0); return; }
  vec3 P = view_pos(uv, z);
  // per axis the one-sided difference with the smaller depth step, so a silhouette does not
  // bend the normal of the surface next to it
  float zl = texelFetch(u_depth, max(p - ivec2(1, 0), ivec2(0)), 0).r;
  float zr = texelFetch(u_depth, min(p + ivec2(1, 0), size - 1), 0).r;
  float zd = texelFetch(u_depth, max(p - ivec2(0, 1), ivec2(0)), 0).r;
  float zu = texelFetch(u_depth, min(p + ivec2(0, 1), size - 1), 0).r;
  vec3 dx = (zr > 0.0 && (zl <= 0.0 || abs(zr - z) < abs(z - zl))) ? view_pos(uv + vec2(texel.x, 0.0), zr) - P : P - view_pos(uv - vec2(texel.x, 0.0), zl > 0.0 ? zl : z);
  vec3 dy = (zu > 0.0 && (zd <= 0.0 || abs(zu - z) < abs(z - zd))) ? view_pos(uv + vec2(0.0, texel.y), zu) - P : P - view_pos(uv - vec2(0.0, texel.y), zd > 0.0 ? zd : z);
  vec3 n = normalize(cross(dx, dy));
  if (n.z < 0.0) n = -n;
  vec3 v = normalize(-P);
  vec2 tuv = min(uv * u_thickness_scale, u_thickness_max);
  vec4 th = texture(u_thickness, tuv);
  float radii = th.a / u_radius;
  float weight = texture(u_weight, tuv).r;
  vec3 color = weight > 1e-6 * u_radius ? th.rgb / weight : vec3(1.0);
  // refraction: what is behind, shifted along the normal's screen components
  float shift = PDL_LIQUID_REFRACT * min(radii, PDL_LIQUID_REFRACT_MAX_RADII) * u_radius * u_pixels / z;
  vec2 at = clamp(vec2(p) + 0.5 - n.xy * shift, vec2(0.5), vec2(size) - 0.5);
  vec3 behind = texelFetch(u_scene, ivec2(at), 0).rgb;
  if (texelFetch(u_scene_depth, ivec2(at), 0).r < texelFetch(u_water_depth, p, 0).r) behind = background;
  // Beer-Lambert in the liquid's colour, and the light it scatters in that colour
  vec3 transmit = exp(-(PDL_LIQUID_ABSORB * (1.0 - color) + PDL_LIQUID_ABSORB_GREY) * radii);
  vec3 body = behind * transmit + PDL_LIQUID_SCATTER * color * (1.0 - transmit);
  // the sky reflected, Schlick's Fresnel
  vec3 r = reflect(-v, n);
  float sky_y = r.x * u_right.y + r.y * u_up.y + r.z * u_back.y;
  vec3 horizon = mix(u_background, vec3(1.0), PDL_LIQUID_SKY_HORIZON_WHITE);
  vec3 zenith = mix(u_background, vec3(PDL_LIQUID_SKY_BLUE), PDL_LIQUID_SKY_ZENITH_BLUE);
  float c5 = 1.0 - max(dot(n, v), 0.0);
  float fresnel = PDL_LIQUID_F0 + (1.0 - PDL_LIQUID_F0) * c5 * c5 * c5 * c5 * c5;
  vec3 c = mix(body, mix(horizon, zenith, clamp(sky_y, 0.0, 1.0)), fresnel);
  vec3 light = normalize(vec3(PDL_LIQUID_LIGHT));
  c += vec3(PDL_LIQUID_SPECULAR * pow(max(dot(n, normalize(light + v)), 0.0), PDL_LIQUID_SHININESS));
  // the edge follows the thickness, not the spheres' rims
  c = mix(background, c, smoothstep(PDL_LIQUID_EDGE_LO_RADII, PDL_LIQUID_EDGE_HI_RADII, radii));
  // the waterline: on a body, where the surface is within WATERLINE radii in front of it (view
  // depths; the thickness in front of it, blurred, spreads past the contact)
  if (scene.a < 0.5 && solid < 1.0) {
    float body = u_depth_ab.y / (2.0 * solid - 1.0 + u_depth_ab.x);
    float line = 1.0 - smoothstep(0.0, PDL_LIQUID_WATERLINE_RADII, (body - z) / u_radius);
    c = mix(c, vec3(PDL_LIQUID_WATERLINE_COLOR), PDL_LIQUID_WATERLINE_ALPHA * line);
  }
  o_color = vec4(c, 1.0);
}
