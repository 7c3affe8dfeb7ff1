// Screen-space fluid rendering of 3D particles (renderer3d.js's "liquid" mode; Green 2010, depth
// and thickness, the depth smoothed by a narrow-range filter, Truong & Yuksel 2018). The
// shaders and the look's constants are ../shaders/liquid/ (server.mjs serves them at
// /shaders/), the same files the viewer embeds (apps/viewer/liquid_gl.c); this module fetches
// them once, prepends the WebGL 2 header line and the particles' inputs, and issues the passes,
// each a draw call:
//   scene      renderer3d.js draws the floor, obstacles and bodies into `scene` (colour texture
//              plus a depth texture) instead of the canvas: what the water refracts
//   (copy)     the scene's depth, blitted aside: the thickness pass leaves out liquid behind bodies
//   depth      particles as sphere impostors (instanced quads facing the camera) into an R32F
//              texture of view depth (0: no water), depth-tested against the scene's depth
//   thickness  additive (ONE, ONE) Gaussian splats at a half, third or quarter of the resolution
//              (thicknessDivisor): alpha the summed thickness, rgb the particle's colour
//              weighted by the splat and its depth below the surface
//   smooth     separable narrow-range filter on the depth, horizontal + vertical, in rounds
//   composite  a full-screen pass into the canvas: the water over the scene
//   foam       fast particles with few neighbours (speed and density from the engine) as small
//              white discs on top
// Needs rendering into R32F and blending into RGBA16F: EXT_color_buffer_float (WebGL 2 under
// SwiftShader has it, and EXT_float_blend). Without it `supported` is false and the renderer
// draws spheres.
import { RAMP_GLSL, compile, ParticleQuads, rgb, setColorUniforms } from './particles-gl.js';

const SHADERS = new URL('../shaders/liquid/', import.meta.url);
const FILES = ['look.h', 'particle.vert.glsl', 'depth.frag.glsl', 'thickness.frag.glsl', 'foam.frag.glsl',
	'fullscreen.vert.glsl', 'smooth.frag.glsl', 'composite.frag.glsl', 'diffuse.vert.glsl'];
const SOURCES = Object.fromEntries(await Promise.all(FILES.map(async (name) => {
	const response = await fetch(new URL(name, SHADERS));
	if (!response.ok) throw new Error(`liquid: ${name}: HTTP ${response.status}`);
	return [name, await response.text()];
})));

/** look.h's constants by name (numbers; a colour as an array of three). */
export const LOOK = Object.fromEntries([...SOURCES['look.h'].matchAll(/^#define (PDL_LIQUID_\w+) (.+)$/gm)]
	.map(([, name, value]) => [name, value.includes(',') ? value.split(',').map(Number) : Number(value)]));

// The particles' inputs as particle.vert.glsl asks for them: this page's attribute layout
// (location 0 the quad's corner) and colour map.
const PARTICLE_INPUTS = `
layout(location = 1) in float a_x;
layout(location = 2) in float a_y;
layout(location = 3) in float a_z;
layout(location = 4) in uint a_material;
layout(location = 5) in float a_value;
layout(location = 6) in float a_speed;
layout(location = 7) in float a_density;
uniform vec3 u_colors[32];
uniform int u_ramp;
uniform vec2 u_range;
uniform float u_restDensity[32];
${RAMP_GLSL}
vec3 pdl_center() { return vec3(a_x, a_y, a_z); }
vec3 pdl_color() { return u_ramp == 1 ? ramp((a_value - u_range.x) / max(u_range.y - u_range.x, 1e-6)) : u_colors[a_material & 31u]; }
float pdl_speed() { return a_speed; }
float pdl_density_share() { return a_density / u_restDensity[a_material & 31u]; }
`;

// The diffuse particles' inputs as diffuse.vert.glsl asks for them (the world's diffuse(): kind
// uploaded as floats).
const DIFFUSE_INPUTS = `
layout(location = 1) in float a_x;
layout(location = 2) in float a_y;
layout(location = 3) in float a_z;
layout(location = 4) in float a_life;
layout(location = 5) in float a_kind;
vec3 pdl_diffuse_center() { return vec3(a_x, a_y, a_z); }
float pdl_diffuse_kind() { return a_kind; }
float pdl_diffuse_life() { return a_life; }
`;

// WebGL 2's header line (the viewer's is "#version 330 core"), then look.h, then the inputs.
const source = (name, inputs = '') =>
	`#version 300 es\nprecision highp float;\nprecision highp int;\n${SOURCES['look.h']}\n${inputs}\n${SOURCES[name]}`;

// How many canvas pixels a thickness texel spans, each way (2 to 4), from the radius of a sphere
// at the camera's target in pixels: the splat is a Gaussian of standard deviation sqrt(2/3)
// radius (thickness.frag.glsl's exp(-3 r^2) over twice the radius), resolved at texels no wider
// than that. The viewer's liquid_gl.c chooses the same way (docs/viewer.md has the costs it saves).
export function thicknessDivisor(radiusPixels) {
	const sigma = 0.8165 * radiusPixels;
	return sigma >= 4 ? 4 : sigma >= 3 ? 3 : 2;
}

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

// The page's knobs (Liquid.settings): foam on or off (foamSpeed 0: off; the rule's thresholds
// are look.h's) and the smoothing rounds. The rest of the look is look.h.
const SETTINGS = { foamSpeed: LOOK.PDL_LIQUID_FOAM_SPEED, rounds: LOOK.PDL_LIQUID_FILTER_ROUNDS };

export class Liquid {
	constructor(gl) {
		this.gl = gl;
		this.supported = !!gl.getExtension('EXT_color_buffer_float');
		if (!this.supported) return;
		gl.getExtension('EXT_float_blend');
		const point = source('particle.vert.glsl', PARTICLE_INPUTS), full = source('fullscreen.vert.glsl');
		this.depthProgram = compile(gl, point, source('depth.frag.glsl'));
		this.thicknessProgram = compile(gl, point, source('thickness.frag.glsl'));
		this.foamProgram = compile(gl, point, source('foam.frag.glsl'));
		this.smooth = compile(gl, full, source('smooth.frag.glsl'));
		this.composite = compile(gl, full, source('composite.frag.glsl'));
		// one quad per particle (ParticleQuads: no instancing)
		this.arrays = new ParticleQuads(gl, [['x', 1], ['y', 2], ['z', 3], ['material', 4], ['value', 5], ['speed', 6], ['density', 7]]);
		// the diffuse particles: their own quads, whitened by foam.frag.glsl
		this.diffuseProgram = compile(gl, source('diffuse.vert.glsl', DIFFUSE_INPUTS), source('foam.frag.glsl'));
		this.diffuseArrays = new ParticleQuads(gl, [['x', 1], ['y', 2], ['z', 3], ['life', 4], ['kind', 5]]);
		this.diffuseKind = new Float32Array(0);
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
	 * frame: { f, r, u }, background (0xRRGGBB), distance, diffuse (the world's diffuse(), or
	 * none) }.
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
		const rest = new Float32Array(32).fill(1);
		materials.forEach((m, i) => (rest[i] = m.rest_density));
		const { f, r, u } = view.frame, back = [-f[0], -f[1], -f[2]];
		const pointUniforms = (prog, scale, foamOnly) => {
			gl.useProgram(prog.program);
			const uf = prog.uniforms;
			gl.uniformMatrix4fv(uf.u_view_projection, false, view.matrix);
			gl.uniform3fv(uf.u_right, r);
			gl.uniform3fv(uf.u_up, u);
			gl.uniform3fv(uf.u_back, back);
			gl.uniform1f(uf.u_radius, view.radius);
			gl.uniform1f(uf.u_scale, scale);
			if (uf.u_colors) setColorUniforms(gl, uf, materials, this.colorMap);
			if (uf.u_restDensity) gl.uniform1fv(uf.u_restDensity, rest);
			gl.uniform1i(uf.u_foam_only, foamOnly);
		};
		const bind = (unit, texture) => {
			gl.activeTexture(gl.TEXTURE0 + unit);
			gl.bindTexture(gl.TEXTURE_2D, texture);
		};

		// the scene's depth as it is before the particles join it
		gl.bindFramebuffer(gl.READ_FRAMEBUFFER, this.sceneFb);
		gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, this.solidFb);
		gl.blitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.DEPTH_BUFFER_BIT, gl.NEAREST);
		// depth: nearest sphere surface, behind bodies hidden by the scene's depth
		gl.bindFramebuffer(gl.FRAMEBUFFER, this.depthFb[0]);
		gl.viewport(0, 0, w, h);
		gl.clearBufferfv(gl.COLOR, 0, [0, 0, 0, 0]);
		gl.enable(gl.DEPTH_TEST);
		gl.depthFunc(gl.LESS);
		pointUniforms(this.depthProgram, 1, 0);
		gl.uniform1i(this.depthProgram.uniforms.u_solid, 0);
		bind(0, this.solidDepth);
		this.arrays.draw(n);
		bind(0, null);
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
		const tu = this.thicknessProgram.uniforms;
		pointUniforms(this.thicknessProgram, LOOK.PDL_LIQUID_SPLAT_RADII, 0);
		gl.uniform2fv(tu.u_depth_ab, view.depthAB);
		gl.uniform2f(tu.u_down, w / tw, h / th);
		gl.uniform1i(tu.u_surface, 0);
		gl.uniform1i(tu.u_solid, 1);
		bind(1, this.solidDepth);
		bind(0, this.depth[0]);
		this.arrays.draw(n);
		bind(1, null);
		bind(0, null);
		gl.disable(gl.BLEND);
		this.mark('thickness', true);

		// smoothing: depth[0] -> depth[1] horizontally, back vertically, in rounds
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
				gl.uniform2f(this.smooth.uniforms.u_dir, dir[0], dir[1]);
				gl.drawArrays(gl.TRIANGLES, 0, 3);
			}
		}
		this.mark('smooth', true);

		// composite into the canvas, with the nearer of the scene's and the water's depth
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
		gl.enable(gl.DEPTH_TEST);
		gl.depthFunc(gl.ALWAYS);
		const c = this.composite, cu = c.uniforms;
		gl.useProgram(c.program);
		const textures = [[this.sceneColor, 'u_scene'], [this.solidDepth, 'u_scene_depth'], [this.sceneDepth, 'u_water_depth'],
			[this.depth[0], 'u_depth'], [this.thickness, 'u_thickness'], [this.weight, 'u_weight']];
		textures.forEach(([t, name], i) => {
			bind(i, t);
			gl.uniform1i(cu[name], i);
		});
		const tan = Math.tan(0.5 * view.fov * (Math.PI / 180));
		gl.uniform2f(cu.u_tan_half, tan * view.aspect, tan);
		gl.uniform2f(cu.u_thickness_scale, tw / hw, th / hh);
		gl.uniform2f(cu.u_thickness_max, (tw - 0.5) / hw, (th - 0.5) / hh);
		gl.uniform2f(cu.u_origin, 0, 0);
		gl.uniform3fv(cu.u_right, r);
		gl.uniform3fv(cu.u_up, u);
		gl.uniform3fv(cu.u_back, back);
		gl.uniform3fv(cu.u_background, rgb(view.background));
		gl.uniform1f(cu.u_radius, view.radius);
		gl.uniform1f(cu.u_pixels, view.pixels);
		gl.uniform2fv(cu.u_depth_ab, view.depthAB);
		gl.drawArrays(gl.TRIANGLES, 0, 3);
		textures.forEach((_, i) => bind(i, null));
		gl.activeTexture(gl.TEXTURE0);
		this.mark('composite');

		// foam and spray on top, hidden by what is nearer
		gl.depthFunc(gl.LEQUAL);
		gl.depthMask(false);
		gl.enable(gl.BLEND);
		gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
		pointUniforms(this.foamProgram, LOOK.PDL_LIQUID_FOAM_SIZE, 1);
		if (this.settings.foamSpeed > 0) this.arrays.draw(n);
		// the world's spray, foam and bubbles the same way (io/src/render_liquid.c's diffuse_discs)
		const d = view.diffuse;
		if (d && d.count > 0) {
			for (const name of ['x', 'y', 'z', 'life']) this.diffuseArrays.upload(name, d[name]);
			if (this.diffuseKind.length < d.count) this.diffuseKind = new Float32Array(Math.ceil(d.count * 1.25));
			const kind = this.diffuseKind.subarray(0, d.count);
			for (let i = 0; i < d.count; ++i) kind[i] = d.kind[i];
			this.diffuseArrays.upload('kind', kind);
			pointUniforms(this.diffuseProgram, 1, 0);
			this.diffuseArrays.draw(d.count);
		}
		gl.disable(gl.BLEND);
		gl.depthMask(true);
		this.mark('foam');
	}
}
