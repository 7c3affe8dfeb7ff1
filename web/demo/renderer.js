// WebGL 2 renderer of the demo. Metaballs as in the Unity SPH demo's alpha-threshold rendering:
// every particle is splatted, instanced (one draw call, as the Rust stratification demo draws its
// particles), into an offscreen half-float target with additive blending; a full-screen pass then keeps the pixels
// whose summed field passes a threshold and colours them by the weighted mean colour. Containers
// and obstacles are convex fans drawn around it; rigid bodies are filled in their own colour
// with a darker outline (and a circle with a spoke, so its turning shows) over the fluid. World
// units map to the canvas by a fit of the scene's bounds.
import { BodyShape, BoundaryKind } from '../src/puddle.js';
import { RAMP_GLSL, compile, rgb, ParticleQuads, setColorUniforms } from './particles-gl.js';

const SPLAT_VS = `#version 300 es
layout(location = 0) in vec2 a_corner;     // quad corner in [-1, 1]^2
layout(location = 1) in float a_x;         // per particle, world units
layout(location = 2) in float a_y;
layout(location = 3) in uint a_material;
layout(location = 4) in float a_value;     // speed, density or pressure for ramp colouring
uniform vec4 u_view;                       // clip = world * u_view.xy + u_view.zw
uniform float u_radius;                    // splat radius, world units
uniform vec3 u_colors[32];
uniform int u_ramp;                        // 0: material colours, 1: a_value on the ramp
uniform vec2 u_range;                      // a_value at the ramp's ends
out vec2 v_offset;
out vec3 v_color;
void main() {
	v_offset = a_corner;
	// ramp mode splats the value itself (in red), so the threshold pass ramps the
	// splat-weighted mean value, as docs/scenes.md describes the pictures
	float t = clamp((a_value - u_range.x) / max(u_range.y - u_range.x, 1e-6), 0.0, 1.0);
	v_color = u_ramp == 1 ? vec3(t, 0.0, 0.0) : u_colors[a_material & 31u];
	vec2 world = vec2(a_x, a_y) + a_corner * u_radius;
	gl_Position = vec4(world * u_view.xy + u_view.zw, 0.0, 1.0);
}`;

// Field of one particle: (1 - r^2/R^2)^3, 1 at its centre, the splat of docs/scenes.md ("How
// pictures are drawn"), so output.threshold means the same here as in puddle's PNG renderer.
// Dots mode draws a hard disc instead.
const SPLAT_FS = `#version 300 es
precision highp float;
precision highp int; // u_ramp is shared with the vertex shader, whose ints are highp
in vec2 v_offset;
in vec3 v_color;
uniform int u_dots;
uniform int u_ramp;
out vec4 o_color;
${RAMP_GLSL}
void main() {
	float r2 = dot(v_offset, v_offset);
	if (r2 >= 1.0) discard;
	if (u_dots == 1) { o_color = vec4(u_ramp == 1 ? ramp(v_color.r) : v_color, 1.0); return; }
	float w = (1.0 - r2) * (1.0 - r2) * (1.0 - r2);
	o_color = vec4(v_color * w, w);
}`;

const FULLSCREEN_VS = `#version 300 es
out vec2 v_uv;
void main() {
	vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
	v_uv = p * 0.5 + 0.5;
	gl_Position = vec4(p, 0.0, 1.0);
}`;

// Threshold pass: inside where the field passes u_threshold, with a one-pixel smooth edge and a
// little shading from the field's depth so the blobs do not look flat.
const COMPOSITE_FS = `#version 300 es
precision highp float;
in vec2 v_uv;
uniform sampler2D u_field;
uniform float u_threshold;
uniform int u_ramp;
out vec4 o_color;
${RAMP_GLSL}
void main() {
	vec4 f = texture(u_field, v_uv);
	float edge = max(fwidth(f.a), 1e-3);
	float inside = smoothstep(u_threshold - edge, u_threshold + edge, f.a);
	if (inside <= 0.0) discard;
	vec3 color = f.rgb / max(f.a, 1e-6);
	if (u_ramp == 1) color = ramp(color.r);
	float depth = clamp((f.a - u_threshold) / (2.0 * u_threshold + 1.0), 0.0, 1.0);
	color *= 0.8 + 0.35 * depth;
	o_color = vec4(color * inside, inside);
}`;

const SHAPE_VS = `#version 300 es
layout(location = 0) in vec2 a_position;
uniform vec4 u_view;
void main() { gl_Position = vec4(a_position * u_view.xy + u_view.zw, 0.0, 1.0); }`;

const SHAPE_FS = `#version 300 es
precision mediump float;
uniform vec3 u_color;
out vec4 o_color;
void main() { o_color = vec4(u_color, 1.0); }`;

// points on a circle: centre (x, y), radius r, angle a0 first, n segments
const circle = (x, y, r, a0, n) => Array.from({ length: n + 1 }, (_, i) => {
	const a = a0 + (i / n) * Math.PI * 2;
	return [x + Math.cos(a) * r, y + Math.sin(a) * r];
}).flat();

/** Triangle strip covering the outside of a convex container: each edge point paired with the
 * same point pushed far out from the centre, so walls are drawn over the fluid's soft edge. */
function exteriorOf(b) {
	const fan = fanOf(b);
	const cx = fan[0], cy = fan[1], far = 1e4;
	const ring = fan.slice(2); // the fan's rim, closed
	const strip = [];
	for (let i = 0; i < ring.length; i += 2) {
		strip.push(ring[i], ring[i + 1], cx + (ring[i] - cx) * far, cy + (ring[i + 1] - cy) * far);
	}
	return strip;
}


/** Triangle-fan vertices (world units) of a circle, box or polygon boundary. */
function fanOf(b) {
	if (b.kind === BoundaryKind.CIRCLE || b.kind === BoundaryKind.CIRCLE_CONTAINER)
		return [b.position.x, b.position.y, ...circle(b.position.x, b.position.y, b.radius, 0, 64)];
	const cx = b.corners.reduce((a, p) => a + p.x, 0) / b.corners.length;
	const cy = b.corners.reduce((a, p) => a + p.y, 0) / b.corners.length;
	return [cx, cy, ...b.corners.flatMap((p) => [p.x, p.y]), b.corners[0].x, b.corners[0].y];
}

/** A body's outline, closed (world units): its disc's rim or its corners (World.body()). */
function bodyRim(b) {
	if (b.shape === BodyShape.CIRCLE) return circle(b.position.x, b.position.y, b.radius, b.angle, 48);
	return [...b.corners, b.corners[0]].flatMap((p) => [p.x, p.y]);
}

/** Shade of 0xRRGGBB, each channel times k. */
const shade = (c, k) => rgb(c).reduce((out, v, i) => out | (Math.min(255, Math.round(v * k * 255)) << (16 - 8 * i)), 0);

export class Renderer {
	constructor(canvas) {
		this.canvas = canvas;
		// antialias: the bodies, walls and obstacles are drawn straight into the canvas as
		// polygons, and without multisampling their edges were jagged (the fluid's edge comes
		// from its smoothed field and is soft either way)
		const gl = canvas.getContext('webgl2', { antialias: true, alpha: false, preserveDrawingBuffer: true });
		if (!gl) throw new Error('WebGL 2 is not available in this browser');
		this.gl = gl;
		// Half-float targets are renderable and blendable with EXT_color_buffer_float (or the
		// half-float one); without either, an 8-bit target still works with a coarser field.
		this.floatTarget = !!(gl.getExtension('EXT_color_buffer_float') || gl.getExtension('EXT_color_buffer_half_float'));
		this.splat = compile(gl, SPLAT_VS, SPLAT_FS);
		this.composite = compile(gl, FULLSCREEN_VS, COMPOSITE_FS);
		this.shape = compile(gl, SHAPE_VS, SHAPE_FS);

		// one quad per particle (ParticleQuads: no instancing)
		this.arrays = new ParticleQuads(gl, [['x', 1], ['y', 2], ['material', 3], ['value', 4]]);

		this.shapeVao = gl.createVertexArray();
		this.shapeBuffer = gl.createBuffer();
		gl.bindVertexArray(this.shapeVao);
		gl.bindBuffer(gl.ARRAY_BUFFER, this.shapeBuffer);
		gl.enableVertexAttribArray(0);
		gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
		gl.bindVertexArray(null);
		this.emptyVao = gl.createVertexArray();

		this.target = null;
		this.view = [1, 1, 0, 0];
	}

	/** Canvas pixels from CSS size and device pixel ratio, times `scale`; returns true if changed. */
	resize(scale = 1) {
		const dpr = (globalThis.devicePixelRatio || 1) * scale;
		const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
		const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
		if (this.canvas.width === w && this.canvas.height === h && this.target) return false;
		this.canvas.width = w;
		this.canvas.height = h;
		this.makeTarget(w, h);
		return true;
	}

	makeTarget(w, h) {
		const gl = this.gl;
		if (this.target) {
			gl.deleteTexture(this.target.texture);
			gl.deleteFramebuffer(this.target.framebuffer);
		}
		const texture = gl.createTexture();
		gl.bindTexture(gl.TEXTURE_2D, texture);
		if (this.floatTarget) gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA16F, w, h, 0, gl.RGBA, gl.HALF_FLOAT, null);
		else gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
		gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
		gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
		gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
		gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
		const framebuffer = gl.createFramebuffer();
		gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
		gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
		if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE && this.floatTarget) {
			this.floatTarget = false;
			return this.makeTarget(w, h);
		}
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
		this.target = { texture, framebuffer, w, h };
	}

	/** Fits the world rectangle [min, max] into the canvas, centred, aspect kept. */
	fit(bounds) {
		const w = this.canvas.width, h = this.canvas.height;
		const bw = bounds.max.x - bounds.min.x, bh = bounds.max.y - bounds.min.y;
		const pixelsPerUnit = Math.min(w / bw, h / bh);
		const sx = (2 * pixelsPerUnit) / w, sy = (2 * pixelsPerUnit) / h;
		const cx = 0.5 * (bounds.min.x + bounds.max.x), cy = 0.5 * (bounds.min.y + bounds.max.y);
		this.view = [sx, sy, -cx * sx, -cy * sy];
		this.pixelsPerUnit = pixelsPerUnit;
	}

	/** World coordinates of a point given in CSS pixels relative to the canvas. */
	toWorld(cssX, cssY) {
		const [sx, sy, ox, oy] = this.view;
		const clipX = (cssX / this.canvas.clientWidth) * 2 - 1, clipY = 1 - (cssY / this.canvas.clientHeight) * 2;
		return { x: (clipX - ox) / sx, y: (clipY - oy) / sy };
	}

	/** CSS pixels (relative to the canvas) of a world point: the inverse of toWorld(). */
	toCss(x, y) {
		const [sx, sy, ox, oy] = this.view;
		return { x: ((x * sx + ox + 1) / 2) * this.canvas.clientWidth, y: ((1 - (y * sy + oy)) / 2) * this.canvas.clientHeight };
	}

	drawFans(fans, color, mode = this.gl.TRIANGLE_FAN) {
		const gl = this.gl;
		gl.useProgram(this.shape.program);
		gl.uniform4fv(this.shape.uniforms.u_view, this.view);
		gl.uniform3fv(this.shape.uniforms.u_color, rgb(color));
		gl.bindVertexArray(this.shapeVao);
		gl.bindBuffer(gl.ARRAY_BUFFER, this.shapeBuffer);
		for (const fan of fans) {
			gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(fan), gl.STREAM_DRAW);
			gl.drawArrays(mode, 0, fan.length / 2);
		}
	}

	/**
	 * Draws one frame. `particles` is World.particles(); `boundaries` World.boundaries();
	 * `style` holds the scene's output colours and the panel's render settings; `bodies` the
	 * live bodies (World.body() of each).
	 */
	draw(particles, boundaries, materials, style, bodies = []) {
		const gl = this.gl;
		const { w, h } = this.target;
		const n = particles.count;
		const containers = boundaries.filter((b) => b.kind === BoundaryKind.CIRCLE_CONTAINER || b.kind === BoundaryKind.BOX_CONTAINER);
		const obstacles = boundaries.filter((b) => !containers.includes(b));

		// 1. the field: splat every particle into the offscreen target
		let colorMap = { ramp: 0, range: [0, 1] };
		if (n > 0) {
			this.arrays.upload('x', particles.x);
			this.arrays.upload('y', particles.y);
			this.arrays.upload('material', particles.material);
			colorMap = this.arrays.uploadColorValues(particles, style);
		}
		const dots = style.mode === 'particles';
		gl.bindFramebuffer(gl.FRAMEBUFFER, dots ? null : this.target.framebuffer);
		gl.viewport(0, 0, w, h);
		if (dots) {
			this.drawBackground(containers, style);
		} else {
			gl.clearColor(0, 0, 0, 0);
			gl.clear(gl.COLOR_BUFFER_BIT);
		}
		if (n > 0) {
			gl.useProgram(this.splat.program);
			const u = this.splat.uniforms;
			gl.uniform4fv(u.u_view, this.view);
			gl.uniform1f(u.u_radius, dots ? style.dotRadius : style.blobRadius);
			setColorUniforms(gl, u, materials, colorMap);
			gl.uniform1i(u.u_dots, dots ? 1 : 0);
			gl.enable(gl.BLEND);
			if (dots) gl.blendFunc(gl.ONE, gl.ZERO);
			else gl.blendFunc(gl.ONE, gl.ONE);
			this.arrays.draw(n);
			gl.disable(gl.BLEND);
		}
		if (!dots) {
			// 2. background and container, then the threshold pass over them
			gl.bindFramebuffer(gl.FRAMEBUFFER, null);
			gl.viewport(0, 0, w, h);
			this.drawBackground(containers, style);
			gl.useProgram(this.composite.program);
			gl.activeTexture(gl.TEXTURE0);
			gl.bindTexture(gl.TEXTURE_2D, this.target.texture);
			gl.uniform1i(this.composite.uniforms.u_field, 0);
			gl.uniform1f(this.composite.uniforms.u_threshold, style.threshold);
			gl.uniform1i(this.composite.uniforms.u_ramp, colorMap.ramp);
			gl.enable(gl.BLEND);
			gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
			gl.bindVertexArray(this.emptyVao);
			gl.drawArrays(gl.TRIANGLES, 0, 3);
			gl.disable(gl.BLEND);
		}
		// 3. bodies over the fluid, then walls and obstacles over both (docs/scenes.md:
		// "Containers and obstacles are drawn over the fluid"), as the native pictures do
		for (const b of bodies) this.drawBody(b);
		this.drawFans(containers.map(exteriorOf), style.wallColor, gl.TRIANGLE_STRIP);
		this.drawFans(obstacles.map(fanOf), style.obstacleColor);
		gl.bindVertexArray(null);
	}

	/** A body over the fluid: filled, outlined; a circle's spoke from its centre marks its angle. */
	drawBody(b) {
		const gl = this.gl, rim = bodyRim(b);
		if (rim.length < 6) return;
		const line = shade(b.color, 0.55);
		this.drawFans([[b.position.x, b.position.y, ...rim]], b.color);
		this.drawFans([rim], line, gl.LINE_STRIP);
		if (b.shape === BodyShape.CIRCLE) this.drawFans([[b.position.x, b.position.y, rim[0], rim[1]]], line, gl.LINES);
	}

	/** Outlines of the pointers' reach: [{ x, y, radius, color }] in world units. */
	drawRings(rings) {
		const gl = this.gl;
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
		for (const r of rings) this.drawFans([circle(r.x, r.y, r.radius, 0, 48)], r.color, gl.LINE_STRIP);
		gl.bindVertexArray(null);
	}

	drawBackground(containers, style) {
		const gl = this.gl;
		const [r, g, b] = rgb(containers.length ? style.wallColor : style.background);
		gl.clearColor(r, g, b, 1);
		gl.clear(gl.COLOR_BUFFER_BIT);
		this.drawFans(containers.map(fanOf), style.background);
	}

	/** Fraction of pixels that differ from the top-left pixel (a blank canvas gives 0). */
	coverage() {
		const gl = this.gl;
		// the canvas, whichever renderer (this or renderer3d.js) drew it last
		const w = this.canvas.width, h = this.canvas.height;
		const pixels = new Uint8Array(w * h * 4);
		gl.bindFramebuffer(gl.FRAMEBUFFER, null);
		gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
		const colors = new Set();
		let differ = 0;
		for (let i = 0; i < pixels.length; i += 4) {
			const d = Math.abs(pixels[i] - pixels[0]) + Math.abs(pixels[i + 1] - pixels[1]) + Math.abs(pixels[i + 2] - pixels[2]);
			if (d > 24) ++differ;
			if (colors.size < 64) colors.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
		}
		return { differ: differ / (w * h), colors: colors.size };
	}
}
