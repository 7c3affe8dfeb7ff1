// Screen-space fluid rendering of 3D particles (renderer3d.js's "liquid" mode), after van der
// Laan, Green & Sainz 2009 ("Screen Space Fluid Rendering with Curvature Flow") with the depth
// smoothed by a narrow-range filter (Truong & Yuksel 2018). Passes, each a draw call:
//   scene      renderer3d.js draws the floor, obstacles and bodies into `scene` (colour texture
//              plus a depth texture) instead of the canvas: what the water refracts
//   (copy)     the scene's depth, blitted aside: the thickness pass leaves out liquid behind bodies
//   depth      particles as sphere impostors into an R32F texture of view depth (0: no water),
//              depth-tested against the scene's depth (a body in front hides the water)
//   thickness  additive (ONE, ONE) Gaussian splats at a half, third or quarter of the resolution
//              (thicknessDivisor): alpha the summed thickness, rgb the particle's colour
//              weighted the same way
//   smooth     separable narrow-range filter on the depth, two rounds of horizontal + vertical,
//              the radius in pixels proportional to the projected particle size
//   composite  a full-screen pass into the canvas: normals from the smoothed depth, Schlick
//              Fresnel reflection of a sky gradient, refraction of `scene` offset by normal x
//              thickness, Beer-Lambert absorption in the splatted colour, a specular highlight;
//              it writes the scene's depth so later lines are hidden by water and bodies
//   foam       fast particles with few neighbours (speed and density from the engine) as small
//              white points on top
// Needs rendering into R32F and blending into RGBA16F: EXT_color_buffer_float (WebGL 2 under
// SwiftShader has it, and EXT_float_blend). Without it `supported` is false and the renderer
// draws spheres.
import { RAMP_GLSL, compile, ParticleArrays, setColorUniforms } from './particles-gl.js';

// How many canvas pixels a thickness texel spans, each way (2 to 4), from the radius of a sphere
// at the camera's target in pixels: the splat is a Gaussian of standard deviation sqrt(2/3)
// radius (THICKNESS_FS's exp(-3 r^2) over twice the radius), resolved at texels no wider than
// that. The viewer's liquid_gl.c chooses the same way (docs/viewer.md has the costs it saves).
export function thicknessDivisor(radiusPixels) {
	const sigma = 0.8165 * radiusPixels;
	return sigma >= 4 ? 4 : sigma >= 3 ? 3 : 2;
}

// One point per particle sized as the projected sphere; the depth, thickness and foam passes
// share it. a_value is the colour ramp's value, a_speed and a_density drive the foam.
const POINT_VS = `#version 300 es
layout(location = 0) in float a_x;
layout(location = 1) in float a_y;
layout(location = 2) in float a_z;
layout(location = 3) in uint a_material;
layout(location = 4) in float a_value;
layout(location = 5) in float a_speed;
layout(location = 6) in float a_density;
uniform mat4 u_matrix;
uniform float u_radius;        // world units
uniform float u_pixels;        // pixels per world unit at view depth 1
uniform vec3 u_colors[32];
uniform int u_ramp;
uniform vec2 u_range;
uniform float u_restDensity[32];
uniform vec2 u_foam;           // x: speed above which, y: share of the rest density below which a particle is foam
uniform int u_foamOnly;
uniform vec2 u_depthAB;
out vec3 v_color;
out float v_depth;
${RAMP_GLSL}
void main() {
	gl_Position = u_matrix * vec4(a_x, a_y, a_z, 1.0);
	v_depth = gl_Position.w;
	float size = 2.0 * u_radius * u_pixels / max(gl_Position.w, 1e-4);
	float t = (a_value - u_range.x) / max(u_range.y - u_range.x, 1e-6);
	v_color = u_ramp == 1 ? ramp(t) : u_colors[a_material & 31u];
	if (u_foamOnly == 1) {
		// foam: how far past both thresholds, as the point's size and brightness
		float fast = a_speed / u_foam.x - 1.0, lonely = 1.0 - a_density / (u_foam.y * u_restDensity[a_material & 31u]);
		float f = min(fast, 2.0 * lonely);
		v_color = vec3(clamp(f * 3.0, 0.0, 1.0));
		size *= 0.55;
		// in front of the particle's own sphere, so the depth test keeps it
		float w = gl_Position.w - u_radius;
		gl_Position.z = (-u_depthAB.x * w + u_depthAB.y) / w * gl_Position.w;
		if (f <= 0.0) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); size = 0.0; }
	}
	gl_PointSize = clamp(size, 1.0, 256.0);
}`;

// View depth of the sphere's front surface into R32F; gl_FragDepth the same for the depth test.
const DEPTH_FS = `#version 300 es
precision highp float;
in vec3 v_color;
in float v_depth;
uniform float u_radius;
uniform vec2 u_depthAB;
out vec4 o_depth;
void main() {
	vec2 p = gl_PointCoord * 2.0 - 1.0;
	float r2 = dot(p, p);
	if (r2 > 1.0) discard;
	float w = v_depth - u_radius * sqrt(1.0 - r2);
	o_depth = vec4(w, 0.0, 0.0, 1.0);
	gl_FragDepth = clamp(0.5 * (-u_depthAB.x * w + u_depthAB.y) / w + 0.5, 0.0, 1.0);
}`;

// A Gaussian splat twice the sphere's radius holding its volume ((4/3) pi r^3: 1.05 r at the
// centre, falling by e^-3 at the edge), so thickness and colour come out blurred over about a
// particle without a pass of their own. The colour is weighted by it times a falloff with the
// depth below the water's surface (the depth pass's nearest sphere) over u_layer: one sees the
// colour of the liquid near the surface, so layers show instead of averaging along the ray.
const THICKNESS_FS = `#version 300 es
precision highp float;
in vec3 v_color;
in float v_depth;
uniform float u_radius;
uniform float u_layer;
uniform sampler2D u_surface;   // the depth pass's target, full resolution
uniform sampler2D u_solid;     // the scene's depth buffer without the particles
uniform vec2 u_depthAB;
uniform vec2 u_down;           // canvas pixels per thickness texel, x and y
layout(location = 0) out vec4 o_color;   // rgb colour x weight, a thickness
layout(location = 1) out vec4 o_weight;  // r the colour's weight
void main() {
	vec2 p = gl_PointCoord * 2.0 - 1.0;
	float r2 = dot(p, p);
	if (r2 > 1.0) discard;
	// liquid behind a body does not count
	ivec2 at = ivec2(gl_FragCoord.xy * u_down);
	float solid = 2.0 * texelFetch(u_solid, at, 0).r - 1.0;
	if (solid < 1.0 && v_depth > u_depthAB.y / (solid + u_depthAB.x)) discard;
	float t = 1.05 * u_radius * exp(-3.0 * r2);
	float surface = texelFetch(u_surface, at, 0).r;
	float weight = t * (surface > 0.0 ? exp(-max(v_depth - u_radius - surface, 0.0) / u_layer) : 1.0);
	o_color = vec4(v_color * weight, t);
	o_weight = vec4(weight, 0.0, 0.0, 0.0);
}`;

const FOAM_FS = `#version 300 es
precision mediump float;
in vec3 v_color;
out vec4 o_color;
void main() {
	vec2 p = gl_PointCoord * 2.0 - 1.0;
	float a = (1.0 - dot(p, p)) * v_color.r;
	if (a <= 0.0) discard;
	o_color = vec4(vec3(0.95, 0.97, 1.0), 0.85 * a);
}`;

// One triangle over the whole target.
const FULL_VS = `#version 300 es
void main() {
	vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
	gl_Position = vec4(p, 0.0, 1.0);
}`;

// Narrow-range filter, one direction: Gaussian weights over a radius proportional to the
// projected particle radius; a sample farther than the centre by more than the range (another
// surface behind) is left out, a nearer one is clamped to the range, so edges stay edges and
// the particles' bumps flatten. Pixels without water stay 0.
const SMOOTH_FS = `#version 300 es
precision highp float;
uniform sampler2D u_depth;
uniform ivec2 u_dir;
uniform float u_radius;        // particle radius, world units
uniform float u_pixels;
out vec4 o_depth;
const int TAPS = 12;           // per side, the most
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy), size = textureSize(u_depth, 0);
	float z = texelFetch(u_depth, p, 0).r;
	if (z <= 0.0) { o_depth = vec4(0.0); return; }
	float radiusPx = clamp(4.0 * u_radius * u_pixels / z, 1.0, 48.0);
	float stride = max(1.0, radiusPx / float(TAPS));
	float sigma = 0.5 * radiusPx, range = 3.0 * u_radius;
	// the surface's slope along this pass, over half the filter's radius, from the side that
	// changes less (so a silhouette next to the pixel does not count), at most a range over
	// that, none across a gap (liquid_gl.c says why: the viewer's copy of this filter)
	int k = max(1, int(0.5 * radiusPx));
	float zl = texelFetch(u_depth, clamp(p - u_dir * k, ivec2(0), size - 1), 0).r;
	float zr = texelFetch(u_depth, clamp(p + u_dir * k, ivec2(0), size - 1), 0).r;
	float dl = zl > 0.0 ? z - zl : 1e30, dr = zr > 0.0 ? zr - z : 1e30;
	float slope = min(abs(dl), abs(dr)) > 2.0 * range ? 0.0 : clamp(abs(dr) < abs(dl) ? dr : dl, -range, range) / float(k);
	// the samples' heights over that slope's plane through the pixel, averaged
	float sum = 0.0, weights = 1.0;
	for (int i = -TAPS; i <= TAPS; ++i) {
		float d = float(i) * stride;
		if (i == 0 || abs(d) > radiusPx) continue;
		int o = int(d);
		float s = texelFetch(u_depth, clamp(p + u_dir * o, ivec2(0), size - 1), 0).r;
		float e = s - z - slope * float(o);
		if (s <= 0.0 || e > range) continue;
		e = max(e, -range);
		float w = exp(-d * d / (2.0 * sigma * sigma));
		sum += e * w;
		weights += w;
	}
	o_depth = vec4(z + sum / weights, 0.0, 0.0, 1.0);
}`;

const COMPOSITE_FS = `#version 300 es
precision highp float;
uniform sampler2D u_scene;       // what is behind the water
uniform sampler2D u_sceneDepth;  // depth buffer of scene + particles
uniform sampler2D u_depth;       // smoothed view depth, 0 where no water
uniform sampler2D u_thickness;   // rgb colour x weight, a thickness (lower resolution)
uniform sampler2D u_weight;      // r the colour's weight
uniform vec2 u_thicknessScale;   // the part of those two drawn (uv)
uniform vec2 u_thicknessMax;     // its last texel's centre (uv)
uniform vec2 u_tanHalf;          // tan(fov / 2) times aspect, tan(fov / 2)
uniform vec3 u_right, u_up, u_forward; // the camera's frame, world space
uniform vec3 u_light;            // towards the light, view space
uniform float u_absorb;          // Beer-Lambert coefficient per world unit of thickness, where the colour is 0
uniform float u_specular;
out vec4 o_color;

vec3 viewPos(vec2 uv, float z) {
	return vec3((uv * 2.0 - 1.0) * u_tanHalf * z, -z);
}

vec3 sky(vec3 d) {
	float y = d.y;
	vec3 horizon = vec3(0.78, 0.86, 0.95), zenith = vec3(0.22, 0.45, 0.82), ground = vec3(0.16, 0.18, 0.21);
	return y >= 0.0 ? mix(horizon, zenith, sqrt(y)) : mix(horizon * 0.6, ground, sqrt(-y * 4.0 > 1.0 ? 1.0 : -y * 4.0));
}

void main() {
	ivec2 p = ivec2(gl_FragCoord.xy), size = textureSize(u_depth, 0);
	vec2 texel = 1.0 / vec2(size), uv = gl_FragCoord.xy * texel;
	vec3 background = texelFetch(u_scene, p, 0).rgb;
	gl_FragDepth = texelFetch(u_sceneDepth, p, 0).r;
	float z = texelFetch(u_depth, p, 0).r;
	if (z <= 0.0) { o_color = vec4(background, 1.0); return; }
	vec3 P = viewPos(uv, z);
	// normal from the smoothed depth: per axis the one-sided difference with the smaller depth
	// step, so a silhouette does not bend the normal of the surface next to it
	float zl = texelFetch(u_depth, max(p - ivec2(1, 0), ivec2(0)), 0).r, zr = texelFetch(u_depth, min(p + ivec2(1, 0), size - 1), 0).r;
	float zd = texelFetch(u_depth, max(p - ivec2(0, 1), ivec2(0)), 0).r, zu = texelFetch(u_depth, min(p + ivec2(0, 1), size - 1), 0).r;
	vec3 dx = (zr > 0.0 && (zl <= 0.0 || abs(zr - z) < abs(z - zl))) ? viewPos(uv + vec2(texel.x, 0.0), zr) - P : P - viewPos(uv - vec2(texel.x, 0.0), zl > 0.0 ? zl : z);
	vec3 dy = (zu > 0.0 && (zd <= 0.0 || abs(zu - z) < abs(z - zd))) ? viewPos(uv + vec2(0.0, texel.y), zu) - P : P - viewPos(uv - vec2(0.0, texel.y), zd > 0.0 ? zd : z);
	vec3 n = normalize(cross(dx, dy));
	if (n.z < 0.0) n = -n;
	vec3 v = normalize(-P);

	vec2 tuv = min(uv * u_thicknessScale, u_thicknessMax);
	vec4 th = texture(u_thickness, tuv);
	float thickness = th.a;
	float weight = texture(u_weight, tuv).r;
	vec3 color = weight > 1e-5 ? th.rgb / weight : vec3(0.2, 0.5, 0.85);
	// refraction: what is behind, displaced along the normal by the thickness
	vec2 offset = n.xy * min(thickness, 6.0) * 0.012;
	vec3 behind = texture(u_scene, clamp(uv + offset, vec2(0.0), vec2(1.0))).rgb;
	// Beer-Lambert: each channel absorbed in proportion to how little of it the colour has;
	// the light the water scatters towards the eye grows with the thickness in its colour
	vec3 transmit = exp(-(1.0 - color) * u_absorb * thickness);
	float scatter = 1.0 - exp(-0.5 * thickness);
	vec3 body = behind * transmit + color * scatter * (0.55 + 0.55 * max(dot(n, u_light), 0.0));
	// reflection of the sky, Schlick's Fresnel with water's F0
	vec3 r = reflect(-v, n);
	vec3 world = r.x * u_right + r.y * u_up - r.z * u_forward;
	float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
	vec3 c = mix(body, sky(world), fresnel);
	c += vec3(u_specular) * pow(max(dot(n, normalize(u_light + v)), 0.0), 120.0);
	// thin edges fade into what is behind
	c = mix(background, c, smoothstep(0.0, 0.25, thickness));
	o_color = vec4(c, 1.0);
}`;

function target(gl, width, height, internal, format, type, filter) {
	const t = gl.createTexture();
	gl.bindTexture(gl.TEXTURE_2D, t);
	gl.texImage2D(gl.TEXTURE_2D, 0, internal, width, height, 0, format, type, null);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
	return t;
}

function framebuffer(gl, color, depth) {
	const fb = gl.createFramebuffer();
	gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
	if (color) gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, color, 0);
	if (depth) gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, depth, 0);
	if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('liquid: framebuffer incomplete');
	return fb;
}

// The look's knobs (Liquid.settings; the defaults measured on the shipped 3D scenes):
//   foamSpeed, foamDensity  foam is a particle faster than foamSpeed (world units per second)
//                           with less than foamDensity of its material's rest density around it
//   absorb                  Beer-Lambert absorption per world unit of thickness of a colour
//                           channel at 0 (a channel at 1 passes)
//   rounds                  smoothing rounds (horizontal + vertical each)
//   specular                the highlight's strength
//   layer                   the colour's depth below the surface, in particle radii
const SETTINGS = { foamSpeed: 4, foamDensity: 0.8, absorb: 0.35, rounds: 2, specular: 0.8, layer: 6 };

export class Liquid {
	constructor(gl) {
		this.gl = gl;
		this.supported = !!gl.getExtension('EXT_color_buffer_float');
		if (!this.supported) return;
		gl.getExtension('EXT_float_blend');
		this.depthProgram = compile(gl, POINT_VS, DEPTH_FS);
		this.thicknessProgram = compile(gl, POINT_VS, THICKNESS_FS);
		this.foamProgram = compile(gl, POINT_VS, FOAM_FS);
		this.smooth = compile(gl, FULL_VS, SMOOTH_FS);
		this.composite = compile(gl, FULL_VS, COMPOSITE_FS);
		this.points = gl.createVertexArray();
		gl.bindVertexArray(this.points);
		this.arrays = new ParticleArrays(gl, [['x', 0], ['y', 1], ['z', 2], ['material', 3], ['value', 4], ['speed', 5], ['density', 6]], 0);
		gl.bindVertexArray(null);
		this.empty = gl.createVertexArray();
		this.size = [0, 0];
		this.profile = false; // when true, draw() finishes each pass and times it into passMs
		this.passMs = {};
		this.settings = { ...SETTINGS };
		// 2, 3 or 4 fixes the thickness target's divisor (to compare pictures); 0 chooses it
		this.fixedThicknessDivisor = 0;
	}

	resize(w, h) {
		if (this.size[0] === w && this.size[1] === h) return;
		const gl = this.gl;
		for (const t of this.textures ?? []) gl.deleteTexture(t);
		for (const f of this.framebuffers ?? []) gl.deleteFramebuffer(f);
		const hw = Math.max(1, w >> 1), hh = Math.max(1, h >> 1);
		this.sceneColor = target(gl, w, h, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, gl.LINEAR);
		this.sceneDepth = target(gl, w, h, gl.DEPTH_COMPONENT24, gl.DEPTH_COMPONENT, gl.UNSIGNED_INT, gl.NEAREST);
		this.depth = [0, 1].map(() => target(gl, w, h, gl.R32F, gl.RED, gl.FLOAT, gl.NEAREST));
		this.thickness = target(gl, hw, hh, gl.RGBA16F, gl.RGBA, gl.HALF_FLOAT, gl.LINEAR);
		this.weight = target(gl, hw, hh, gl.R16F, gl.RED, gl.HALF_FLOAT, gl.LINEAR);
		this.solidDepth = target(gl, w, h, gl.DEPTH_COMPONENT24, gl.DEPTH_COMPONENT, gl.UNSIGNED_INT, gl.NEAREST);
		this.solidFb = framebuffer(gl, null, this.solidDepth);
		this.sceneFb = framebuffer(gl, this.sceneColor, this.sceneDepth);
		this.depthFb = this.depth.map((t, i) => framebuffer(gl, t, i === 0 ? this.sceneDepth : null));
		this.thicknessFb = framebuffer(gl, this.thickness, null);
		gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, this.weight, 0);
		gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
		this.textures = [this.sceneColor, this.sceneDepth, ...this.depth, this.thickness, this.weight, this.solidDepth];
		this.framebuffers = [this.sceneFb, ...this.depthFb, this.thicknessFb, this.solidFb];
		this.size = [w, h];
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
	}

	/** The framebuffer the renderer draws the scene behind the water into, w x h pixels. */
	begin(w, h) {
		this.resize(w, h);
		this.started = performance.now();
		return this.sceneFb;
	}

	/**
	 * With `profile` on, the milliseconds since the last mark into passMs[name]. Chromium's
	 * gl.finish() does not wait for the GPU process, so this reads one pixel of the target just
	 * drawn (float targets as floats), which does.
	 */
	mark(name, float = false) {
		if (!this.profile) return;
		const gl = this.gl;
		if (float) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, new Float32Array(4));
		else gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
		const now = performance.now();
		this.passMs[name] = now - this.started;
		this.started = now;
	}

	/**
	 * Draws the particles as liquid over the scene drawn into begin()'s framebuffer, into the
	 * canvas. `view`: { matrix, pixels (per world unit at depth 1), radius, depthAB, fov, aspect,
	 * frame: { f, r, u } }.
	 */
	draw(particles, materials, style, view) {
		const gl = this.gl, [w, h] = this.size, n = particles.count;
		this.mark('scene');
		if (n > 0) {
			this.arrays.upload('x', particles.x);
			this.arrays.upload('y', particles.y);
			this.arrays.upload('z', particles.z);
			this.arrays.upload('material', particles.material);
			this.colorMap = this.arrays.uploadColorValues(particles, style);
			this.arrays.upload('speed', this.arrays.rampValues(particles, 'speed'));
			this.arrays.upload('density', particles.density);
		}
		gl.bindVertexArray(this.points);
		const rest = new Float32Array(32).fill(1);
		materials.forEach((m, i) => (rest[i] = m.rest_density));
		const pointUniforms = (prog, foamOnly) => {
			gl.useProgram(prog.program);
			const u = prog.uniforms;
			gl.uniformMatrix4fv(u.u_matrix, false, view.matrix);
			gl.uniform1f(u.u_radius, view.radius);
			gl.uniform1f(u.u_pixels, view.pixels);
			gl.uniform2fv(u.u_depthAB, view.depthAB);
			if (u.u_colors) setColorUniforms(gl, u, materials, this.colorMap);
			if (u.u_restDensity) gl.uniform1fv(u.u_restDensity, rest);
			gl.uniform2f(u.u_foam, this.settings.foamSpeed, this.settings.foamDensity);
			gl.uniform1i(u.u_foamOnly, foamOnly);
		};

		// the scene's depth as it is before the particles join it, for the thickness pass
		gl.bindFramebuffer(gl.READ_FRAMEBUFFER, this.sceneFb);
		gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, this.solidFb);
		gl.blitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.DEPTH_BUFFER_BIT, gl.NEAREST);
		// depth: nearest sphere surface, behind bodies hidden by the scene's depth
		gl.bindFramebuffer(gl.FRAMEBUFFER, this.depthFb[0]);
		gl.viewport(0, 0, w, h);
		gl.clearBufferfv(gl.COLOR, 0, [0, 0, 0, 0]);
		gl.enable(gl.DEPTH_TEST);
		gl.depthFunc(gl.LESS);
		pointUniforms(this.depthProgram, 0);
		gl.drawArrays(gl.POINTS, 0, n);
		this.mark('depth', true);

		// thickness and colour, summed at 1 / down of the resolution (thicknessDivisor): the
		// targets are made at half resolution and the splats drawn into their lower-left tw x th
		const down = this.fixedThicknessDivisor || thicknessDivisor(view.radius * view.pixels / view.distance);
		const hw = Math.max(1, w >> 1), hh = Math.max(1, h >> 1);
		const tw = Math.max(1, Math.floor(w / down)), th = Math.max(1, Math.floor(h / down));
		this.thicknessDivisor = down;
		gl.bindFramebuffer(gl.FRAMEBUFFER, this.thicknessFb);
		gl.viewport(0, 0, tw, th);
		gl.clearBufferfv(gl.COLOR, 0, [0, 0, 0, 0]);
		gl.clearBufferfv(gl.COLOR, 1, [0, 0, 0, 0]);
		gl.disable(gl.DEPTH_TEST);
		gl.enable(gl.BLEND);
		gl.blendFunc(gl.ONE, gl.ONE);
		pointUniforms(this.thicknessProgram, 0);
		// twice the radius at 1 / down of the resolution
		gl.uniform1f(this.thicknessProgram.uniforms.u_pixels, view.pixels * 2 / down);
		gl.uniform2f(this.thicknessProgram.uniforms.u_down, w / tw, h / th);
		gl.uniform1f(this.thicknessProgram.uniforms.u_layer, this.settings.layer * view.radius);
		gl.uniform1i(this.thicknessProgram.uniforms.u_surface, 0);
		gl.uniform1i(this.thicknessProgram.uniforms.u_solid, 1);
		gl.activeTexture(gl.TEXTURE1);
		gl.bindTexture(gl.TEXTURE_2D, this.solidDepth);
		gl.activeTexture(gl.TEXTURE0);
		gl.bindTexture(gl.TEXTURE_2D, this.depth[0]);
		gl.drawArrays(gl.POINTS, 0, n);
		gl.bindTexture(gl.TEXTURE_2D, null);
		gl.activeTexture(gl.TEXTURE1);
		gl.bindTexture(gl.TEXTURE_2D, null);
		gl.activeTexture(gl.TEXTURE0);
		gl.disable(gl.BLEND);
		this.mark('thickness', true);

		// smoothing: depth[0] -> depth[1] horizontally, back vertically, twice
		gl.viewport(0, 0, w, h);
		gl.useProgram(this.smooth.program);
		gl.bindVertexArray(this.empty);
		gl.uniform1f(this.smooth.uniforms.u_radius, view.radius);
		gl.uniform1f(this.smooth.uniforms.u_pixels, view.pixels);
		gl.uniform1i(this.smooth.uniforms.u_depth, 0);
		gl.activeTexture(gl.TEXTURE0);
		for (let round = 0; round < this.settings.rounds; ++round) {
			for (const [from, dir] of [[0, [1, 0]], [1, [0, 1]]]) {
				// the depth attachment stays with depthFb[0]; the filter needs none
				gl.bindFramebuffer(gl.FRAMEBUFFER, this.depthFb[1 - from]);
				gl.bindTexture(gl.TEXTURE_2D, this.depth[from]);
				gl.uniform2i(this.smooth.uniforms.u_dir, dir[0], dir[1]);
				gl.drawArrays(gl.TRIANGLES, 0, 3);
			}
		}
		this.mark('smooth', true);

		// composite into the canvas, with the scene's depth for what is drawn after
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
		gl.enable(gl.DEPTH_TEST);
		gl.depthFunc(gl.ALWAYS);
		const c = this.composite, u = c.uniforms;
		gl.useProgram(c.program);
		const textures = [[this.sceneColor, 'u_scene'], [this.sceneDepth, 'u_sceneDepth'], [this.depth[0], 'u_depth'], [this.thickness, 'u_thickness'], [this.weight, 'u_weight']];
		textures.forEach(([t, name], i) => {
			gl.activeTexture(gl.TEXTURE0 + i);
			gl.bindTexture(gl.TEXTURE_2D, t);
			gl.uniform1i(u[name], i);
		});
		const tan = Math.tan(0.5 * view.fov * (Math.PI / 180));
		gl.uniform2f(u.u_tanHalf, tan * view.aspect, tan);
		gl.uniform2f(u.u_thicknessScale, tw / hw, th / hh);
		gl.uniform2f(u.u_thicknessMax, (tw - 0.5) / hw, (th - 0.5) / hh);
		gl.uniform3fv(u.u_right, view.frame.r);
		gl.uniform3fv(u.u_up, view.frame.u);
		gl.uniform3fv(u.u_forward, view.frame.f);
		gl.uniform3fv(u.u_light, view.light);
		gl.uniform1f(u.u_absorb, this.settings.absorb);
		gl.uniform1f(u.u_specular, this.settings.specular);
		gl.drawArrays(gl.TRIANGLES, 0, 3);
		textures.forEach((_, i) => {
			gl.activeTexture(gl.TEXTURE0 + i);
			gl.bindTexture(gl.TEXTURE_2D, null);
		});
		gl.activeTexture(gl.TEXTURE0);
		this.mark('composite');

		// foam and spray on top, hidden by what is nearer
		gl.depthFunc(gl.LEQUAL);
		gl.depthMask(false);
		gl.enable(gl.BLEND);
		gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
		gl.bindVertexArray(this.points);
		pointUniforms(this.foamProgram, 1);
		if (this.settings.foamSpeed > 0) gl.drawArrays(gl.POINTS, 0, n);
		gl.disable(gl.BLEND);
		gl.depthMask(true);
		this.mark('foam');
	}
}
