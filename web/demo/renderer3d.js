// WebGL 2 view of 3D worlds: particles as shaded sphere impostors (one point sprite each, the
// fragment shader lights a sphere and moves gl_FragDepth onto its surface, so spheres intersect
// correctly under the depth test), the container's edges and a floor under it, obstacles and
// rigid bodies as lit meshes (bodies in their own colour, edged darker: a box's edges, three
// great circles of a sphere, turning with it). The camera is the orbit camera of src/camera.js (pdl_camera's conventions), so a
// scene's "camera" shows the same picture as the native renderer.
import { cameraMatrix, cameraFrame } from '../src/camera.js';
import { BodyShape, BoundaryKind } from '../src/puddle.js';
import { boxCorners3d, rotate } from './bodies.js';
import { RAMP_GLSL, compile, rgb, ParticleArrays, setColorUniforms } from './particles-gl.js';
import { Liquid } from './liquid.js';

// One point per particle, its size the projected diameter of a sphere of radius u_radius.
const SPHERE_VS = `#version 300 es
layout(location = 0) in float a_x;
layout(location = 1) in float a_y;
layout(location = 2) in float a_z;
layout(location = 3) in uint a_material;
layout(location = 4) in float a_value;
uniform mat4 u_matrix;
uniform float u_radius;        // world units
uniform float u_pixels;        // viewport height in pixels times the projection's y scale / 2
uniform vec3 u_colors[32];
uniform int u_ramp;
uniform vec2 u_range;
out vec3 v_color;
out float v_depth;             // distance along the view direction (clip w), world units
out float v_size;              // point size in pixels
${RAMP_GLSL}
void main() {
	gl_Position = u_matrix * vec4(a_x, a_y, a_z, 1.0);
	v_depth = gl_Position.w;
	v_size = clamp(2.0 * u_radius * u_pixels / max(gl_Position.w, 1e-4), 1.0, 256.0);
	gl_PointSize = v_size;
	float t = (a_value - u_range.x) / max(u_range.y - u_range.x, 1e-6);
	v_color = u_ramp == 1 ? ramp(t) : u_colors[a_material & 31u];
}`;

// The point sprite as a lit sphere: normal from gl_PointCoord, Lambert plus a little specular
// and rim light; depth moved forward by the sphere's bulge (clip z = a w' + b over w', with w'
// the view depth of the surface point).
const SPHERE_FS = `#version 300 es
precision highp float;
in vec3 v_color;
in float v_depth;
in float v_size;
uniform float u_radius;
uniform vec2 u_depthAB;        // the projection's z row: clip z = a * view z + b
uniform vec3 u_light;          // towards the light, view space
out vec4 o_color;
void main() {
	vec2 p = gl_PointCoord * 2.0 - 1.0;
	p.y = -p.y;
	float r2 = dot(p, p);
	if (r2 > 1.0) discard;
	vec3 n = vec3(p, sqrt(1.0 - r2));
	float diffuse = max(dot(n, u_light), 0.0);
	float specular = pow(max(dot(reflect(-u_light, n), vec3(0.0, 0.0, 1.0)), 0.0), 24.0);
	vec3 color = v_color * (0.28 + 0.72 * diffuse) + 0.25 * specular;
	o_color = vec4(color, 1.0);
	float w = v_depth - u_radius * n.z;
	float ndc = (-u_depthAB.x * w + u_depthAB.y) / w;
	gl_FragDepth = clamp(0.5 * ndc + 0.5, 0.0, 1.0);
}`;

// Flat discs (style.discs, the fallback's cheapest looks): the particle's colour darkened a
// little toward the rim, with neither lighting nor a depth written per pixel, so a software
// rasteriser can test depth before the shader runs.
const DISC_FS = `#version 300 es
precision highp float;
in vec3 v_color;
out vec4 o_color;
void main() {
	vec2 p = gl_PointCoord * 2.0 - 1.0;
	float r2 = dot(p, p);
	if (r2 > 1.0) discard;
	o_color = vec4(v_color * (1.0 - 0.3 * r2), 1.0);
}`;

// Lines and lit meshes: position and normal; a zero normal means unlit (lines).
const MESH_VS = `#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_matrix;
out vec3 v_normal;
void main() {
	v_normal = a_normal;
	gl_Position = u_matrix * vec4(a_position, 1.0);
}`;

const MESH_FS = `#version 300 es
precision mediump float;
in vec3 v_normal;
uniform vec3 u_color;
uniform vec3 u_lightWorld;     // towards the light, world space
uniform float u_alpha;
out vec4 o_color;
void main() {
	float lit = dot(v_normal, v_normal) > 0.0 ? 0.45 + 0.55 * max(dot(normalize(v_normal), u_lightWorld), 0.0) : 1.0;
	o_color = vec4(u_color * lit, u_alpha);
}`;

const isRound = (b) => b.kind === BoundaryKind.CIRCLE || b.kind === BoundaryKind.CIRCLE_CONTAINER;
const isContainer = (b) => b.kind === BoundaryKind.CIRCLE_CONTAINER || b.kind === BoundaryKind.BOX_CONTAINER;

/** The 8 corners of a box boundary turned by its angle about z: index bit 0 x, bit 1 y, bit 2 z. */
function boxCorners(b) {
	const c = Math.cos(b.angle ?? 0), s = Math.sin(b.angle ?? 0), h = b.half_extents, p = b.position;
	const out = [];
	for (let i = 0; i < 8; ++i) {
		const x = (i & 1 ? 1 : -1) * h.x, y = (i & 2 ? 1 : -1) * h.y, z = (i & 4 ? 1 : -1) * h.z;
		out.push([p.x + c * x - s * y, p.y + s * x + c * y, p.z + z]);
	}
	return out;
}

/**
 * The corners of the tank as drawn: each container's box (a sphere container's bounding box),
 * else the scene's bounds. The page projects them for its tankRect().
 */
export function tankCorners(boundaries, bounds) {
	const containers = boundaries.filter(isContainer);
	if (!containers.length) return Array.from({ length: 8 }, (_, i) =>
		[i & 1 ? bounds.max.x : bounds.min.x, i & 2 ? bounds.max.y : bounds.min.y, i & 4 ? bounds.max.z : bounds.min.z]);
	return containers.flatMap((b) => boxCorners(isRound(b) ? { position: b.position, half_extents: { x: b.radius, y: b.radius, z: b.radius } } : b));
}

// half extents grown by 1% for edges drawn just outside a box
const grown = (h) => ({ x: h.x * 1.01, y: h.y * 1.01, z: h.z * 1.01 });

const BOX_EDGES = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
// faces as corner quads (counter-clockwise seen from outside) with their axis and side
const BOX_FACES = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];

const NO_ROTATION = { x: 0, y: 0, z: 0, w: 1 };

/** Line list (x, y, z, 0, 0, 0 per vertex) of three great circles of a sphere, turned by q. */
function greatCircles(p, r, q = NO_ROTATION) {
	const out = [], n = 64;
	for (let axis = 0; axis < 3; ++axis) {
		const at = (k) => {
			const a = (k / n) * 2 * Math.PI, u = Math.cos(a) * r, v = Math.sin(a) * r;
			const d = rotate(q, axis === 0 ? [u, v, 0] : axis === 1 ? [u, 0, v] : [0, u, v]);
			return [p.x + d[0], p.y + d[1], p.z + d[2]];
		};
		for (let i = 0; i < n; ++i) out.push(...at(i), 0, 0, 0, ...at(i + 1), 0, 0, 0);
	}
	return out;
}

/** Line list of a box's 12 edges from its corners (boxCorners' order). */
function boxEdges(c) {
	return BOX_EDGES.flatMap(([i, j]) => [...c[i], 0, 0, 0, ...c[j], 0, 0, 0]);
}

/** Line list (x, y, z, 0, 0, 0 per vertex) of a boundary's outline. */
function outline(b) {
	return isRound(b) ? greatCircles(b.position, b.radius) : boxEdges(boxCorners(b));
}

/** Triangle list (x, y, z, nx, ny, nz per vertex) of a sphere. */
function sphereMesh(p, r) {
	const out = [], rings = 16, segments = 32;
	const at = (i, j) => {
		const t = (i / rings) * Math.PI, f = (j / segments) * 2 * Math.PI;
		const n = [Math.sin(t) * Math.cos(f), Math.cos(t), Math.sin(t) * Math.sin(f)];
		return [p.x + r * n[0], p.y + r * n[1], p.z + r * n[2], ...n];
	};
	for (let i = 0; i < rings; ++i)
		for (let j = 0; j < segments; ++j) out.push(...at(i, j), ...at(i + 1, j), ...at(i + 1, j + 1), ...at(i, j), ...at(i + 1, j + 1), ...at(i, j + 1));
	return out;
}

/** Triangle list (x, y, z, nx, ny, nz per vertex) of a solid boundary. */
function solid(b) {
	return isRound(b) ? sphereMesh(b.position, b.radius) : boxMesh(boxCorners(b));
}

/** Triangle list of a box from its 8 corners (boxCorners' order), normals facing out. */
function boxMesh(c) {
	const out = [];
	for (const [a, b1, c1, d] of BOX_FACES) {
		const e1 = c[b1].map((v, k) => v - c[a][k]), e2 = c[d].map((v, k) => v - c[a][k]);
		let n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
		const len = Math.hypot(...n) || 1;
		n = n.map((v) => -v / len);
		for (const k of [a, b1, c1, a, c1, d]) out.push(...c[k], ...n);
	}
	return out;
}

export class Renderer3D {
	constructor(canvas) {
		this.canvas = canvas;
		// the same context as the 2D renderer's (one per canvas): it has a depth buffer
		const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, preserveDrawingBuffer: true });
		if (!gl) throw new Error('WebGL 2 is not available in this browser');
		this.gl = gl;
		this.sphere = compile(gl, SPHERE_VS, SPHERE_FS);
		this.disc = compile(gl, SPHERE_VS, DISC_FS);
		this.mesh = compile(gl, MESH_VS, MESH_FS);
		this.points = gl.createVertexArray();
		gl.bindVertexArray(this.points);
		this.arrays = new ParticleArrays(gl, [['x', 0], ['y', 1], ['z', 2], ['material', 3], ['value', 4]]);
		this.meshVao = gl.createVertexArray();
		this.meshBuffer = gl.createBuffer();
		gl.bindVertexArray(this.meshVao);
		gl.bindBuffer(gl.ARRAY_BUFFER, this.meshBuffer);
		gl.enableVertexAttribArray(0);
		gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
		gl.enableVertexAttribArray(1);
		gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
		gl.bindVertexArray(null);
		this.matrix = new Float32Array(16);
		this.liquid = new Liquid(gl); // style.mode3d 'liquid': screen-space water (liquid.js)
	}

	/** Canvas pixels from CSS size and device pixel ratio, times `scale`. */
	resize(scale = 1) {
		const dpr = (globalThis.devicePixelRatio || 1) * scale;
		const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
		const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
		if (this.canvas.width !== w || this.canvas.height !== h) {
			this.canvas.width = w;
			this.canvas.height = h;
		}
	}

	get aspect() {
		return this.canvas.width / Math.max(1, this.canvas.height);
	}

	drawMesh(vertices, mode, color, alpha = 1) {
		if (!vertices.length) return;
		const gl = this.gl;
		gl.useProgram(this.mesh.program);
		gl.uniformMatrix4fv(this.mesh.uniforms.u_matrix, false, this.matrix);
		gl.uniform3fv(this.mesh.uniforms.u_color, color);
		gl.uniform3fv(this.mesh.uniforms.u_lightWorld, this.lightWorld);
		gl.uniform1f(this.mesh.uniforms.u_alpha, alpha);
		gl.bindVertexArray(this.meshVao);
		gl.bindBuffer(gl.ARRAY_BUFFER, this.meshBuffer);
		gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(vertices), gl.STREAM_DRAW);
		gl.drawArrays(mode, 0, vertices.length / 6);
	}

	/** A floor under the scene: a quad at the container's bottom (or the bounds') with a grid. */
	floor(containers, bounds) {
		let lo = { ...bounds.min }, hi = { ...bounds.max };
		const box = containers[0];
		if (box) {
			const c = box.kind === BoundaryKind.BOX_CONTAINER ? boxCorners(box) : null;
			if (c) {
				lo = { x: Math.min(...c.map((p) => p[0])), y: Math.min(...c.map((p) => p[1])), z: Math.min(...c.map((p) => p[2])) };
				hi = { x: Math.max(...c.map((p) => p[0])), y: 0, z: Math.max(...c.map((p) => p[2])) };
			} else {
				const p = box.position, r = box.radius;
				lo = { x: p.x - r, y: p.y - r, z: p.z - r };
				hi = { x: p.x + r, y: 0, z: p.z + r };
			}
		}
		// a margin around the footprint, so the floor reads as ground rather than a lid
		const mx = 0.25 * (hi.x - lo.x), mz = 0.25 * (hi.z - lo.z), y = lo.y - 1e-3 * (hi.x - lo.x);
		const x0 = lo.x - mx, x1 = hi.x + mx, z0 = lo.z - mz, z1 = hi.z + mz;
		const quad = [x0, y, z0, x0, y, z1, x1, y, z1, x0, y, z0, x1, y, z1, x1, y, z0].flatMap((v, i) => (i % 3 === 2 ? [v, 0, 1, 0] : [v]));
		const grid = [];
		const steps = 12;
		for (let i = 0; i <= steps; ++i) {
			const x = x0 + ((x1 - x0) * i) / steps, z = z0 + ((z1 - z0) * i) / steps;
			grid.push(x, y, z0, 0, 0, 0, x, y, z1, 0, 0, 0, x0, y, z, 0, 0, 0, x1, y, z, 0, 0, 0);
		}
		return { quad, grid };
	}

	/**
	 * Draws one frame of a 3D world: `particles` is World.particles() (with z), `boundaries`
	 * World.boundaries(), `camera` a pdl_camera object, `style` the page's render settings,
	 * `bodies` the live bodies (World.body() of each).
	 */
	draw(particles, boundaries, materials, style, camera, bounds, bodies = [], diffuse = null) {
		const gl = this.gl;
		const w = this.canvas.width, h = this.canvas.height;
		cameraMatrix(camera, this.aspect, this.matrix);
		const { f, r, u } = cameraFrame(camera);
		// light from above, over the viewer's right shoulder
		const light = [0.35 * r[0] + 0.8 * u[0] - 0.5 * f[0], 0.35 * r[1] + 0.8 * u[1] - 0.5 * f[1], 0.35 * r[2] + 0.8 * u[2] - 0.5 * f[2]];
		const ll = Math.hypot(...light);
		this.lightWorld = light.map((v) => v / ll);
		const lightView = [0.35, 0.8, 0.5].map((v) => v / Math.hypot(0.35, 0.8, 0.5));

		const n = particles.count, mode = style.mode3d ?? 'liquid', liquid = mode === 'liquid' && this.liquid.supported && n > 0;
		gl.bindFramebuffer(gl.FRAMEBUFFER, liquid ? this.liquid.begin(w, h) : null);
		gl.viewport(0, 0, w, h);
		const [br, bg, bb] = rgb(style.background);
		gl.clearColor(br, bg, bb, 1);
		gl.clearDepth(1);
		gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
		gl.enable(gl.DEPTH_TEST);
		gl.depthFunc(gl.LEQUAL);

		const containers = boundaries.filter(isContainer);
		const obstacles = boundaries.filter((b) => !isContainer(b));
		const { quad, grid } = this.floor(containers, bounds);
		const wall = rgb(style.wallColor);
		this.drawMesh(quad, gl.TRIANGLES, wall.map((v) => v * 0.8));
		this.drawMesh(grid, gl.LINES, wall.map((v) => Math.min(1, v * 1.5 + 0.05)));
		for (const o of obstacles) this.drawMesh(solid(o), gl.TRIANGLES, rgb(style.obstacleColor));
		// in the liquid's scene a body's alpha is 0: the water draws its waterline where it meets one
		// (shaders/liquid/composite.frag.glsl); blending is off, so the alpha is only stored
		const bodyAlpha = liquid ? 0 : 1;
		for (const b of bodies) {
			const round = b.shape === BodyShape.CIRCLE, corners = round ? null : boxCorners3d(b);
			this.drawMesh(round ? sphereMesh(b.position, b.radius) : boxMesh(corners), gl.TRIANGLES, rgb(b.color), bodyAlpha);
			// the edges a hair outside the surface, so the depth test keeps them in front of it
			const edges = round ? greatCircles(b.position, b.radius * 1.01, b.orientation) : boxEdges(boxCorners3d({ ...b, half_extents: grown(b.half_extents) }));
			this.drawMesh(edges, gl.LINES, rgb(b.color).map((v) => v * 0.5), bodyAlpha);
		}

		// pixels per world unit at view depth 1: half the viewport height times cot(fov / 2)
		const pixels = 0.5 * h / Math.tan(0.5 * camera.fov * (Math.PI / 180));
		const near = camera.distance / 100, far = camera.distance * 100;
		const depthAB = [(far + near) / (near - far), (2 * far * near) / (near - far)];
		if (liquid) this.liquid.draw(particles, materials, style, { matrix: this.matrix, pixels, radius: style.sphereRadius, depthAB,
			fov: camera.fov, aspect: this.aspect, frame: { f, r, u }, background: style.background, distance: camera.distance,
			diffuse });
		else if (n > 0) {
			this.arrays.upload('x', particles.x);
			this.arrays.upload('y', particles.y);
			this.arrays.upload('z', particles.z);
			this.arrays.upload('material', particles.material);
			const colorMap = this.arrays.uploadColorValues(particles, style);
			const discs = style.discs && mode === 'spheres';
			const program = discs ? this.disc : this.sphere;
			gl.useProgram(program.program);
			const uf = program.uniforms;
			gl.uniformMatrix4fv(uf.u_matrix, false, this.matrix);
			gl.uniform1f(uf.u_radius, style.sphereRadius * (mode === 'dots' ? 0.4 : 1));
			gl.uniform1f(uf.u_pixels, pixels);
			setColorUniforms(gl, uf, materials, colorMap);
			if (!discs) {
				gl.uniform2fv(uf.u_depthAB, depthAB);
				gl.uniform3fv(uf.u_light, lightView);
			}
			gl.bindVertexArray(this.points);
			gl.drawArrays(gl.POINTS, 0, n);
		}

		// the container's edges over everything, faint where fluid hides them
		const edges = containers.flatMap(outline);
		gl.depthFunc(gl.GREATER);
		gl.enable(gl.BLEND);
		gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
		this.drawMesh(edges, gl.LINES, wall.map((v) => Math.min(1, v * 2.2 + 0.1)), 0.3);
		gl.disable(gl.BLEND);
		gl.depthFunc(gl.LEQUAL);
		this.drawMesh(edges, gl.LINES, wall.map((v) => Math.min(1, v * 2.2 + 0.1)));
		gl.disable(gl.DEPTH_TEST);
		gl.bindVertexArray(null);
	}

}
