// What the 2D and 3D renderers share to draw particles: shader compilation, the colour ramp,
// one vertex buffer per particle array with its upload, and the colour map's uniforms.

/** GLSL of the speed / density / pressure colour ramp, for a particle vertex shader. */
export const RAMP_GLSL = `
vec3 ramp(float t) {
	// blue - teal - green - yellow - red (docs/scenes.md)
	const vec3 stops[5] = vec3[5](vec3(0.15, 0.25, 0.8), vec3(0.1, 0.65, 0.7), vec3(0.3, 0.75, 0.3),
	                              vec3(0.95, 0.85, 0.2), vec3(0.9, 0.2, 0.15));
	float x = clamp(t, 0.0, 1.0) * 4.0;
	int i = min(int(x), 3);
	return mix(stops[i], stops[i + 1], x - float(i));
}`;

/** Compiles and links a program; `uniforms` maps each active uniform's name to its location. */
export function compile(gl, vs, fs) {
	const program = gl.createProgram();
	for (const [type, source] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
		const shader = gl.createShader(type);
		gl.shaderSource(shader, source);
		gl.compileShader(shader);
		if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
		gl.attachShader(program, shader);
	}
	gl.linkProgram(program);
	if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
	const uniforms = {};
	const n = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
	for (let i = 0; i < n; ++i) {
		const name = gl.getActiveUniform(program, i).name.replace(/\[0\]$/, '');
		uniforms[name] = gl.getUniformLocation(program, name);
	}
	return { program, uniforms };
}

/** 0xRRGGBB as [r, g, b] in 0..1. */
export const rgb = (c) => [((c >> 16) & 255) / 255, ((c >> 8) & 255) / 255, (c & 255) / 255];

function extent(values) {
	let lo = Infinity, hi = -Infinity;
	for (let i = 0; i < values.length; ++i) {
		const v = values[i];
		if (v < lo) lo = v;
		if (v > hi) hi = v;
	}
	return lo <= hi ? [lo, hi] : [0, 1];
}

/**
 * One vertex buffer per particle array, as attributes of the vertex array bound when it is
 * made: `attributes` lists [name, location]; 'material' is one unsigned byte, the rest floats;
 * one value per vertex (3D points; ParticleQuads, below, repeats them for a quad's corners).
 */
export class ParticleArrays {
	constructor(gl, attributes) {
		this.gl = gl;
		this.buffers = {};
		for (const [name, loc] of attributes) {
			const buffer = gl.createBuffer();
			gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
			gl.enableVertexAttribArray(loc);
			if (name === 'material') gl.vertexAttribIPointer(loc, 1, gl.UNSIGNED_BYTE, 0, 0);
			else gl.vertexAttribPointer(loc, 1, gl.FLOAT, false, 0, 0);
			this.buffers[name] = { buffer, capacity: 0 };
		}
		this.scratchValues = new Float32Array(0);
		this.copies = {}; // plain copies of views over shared memory, see upload()
	}

	upload(name, data) {
		const gl = this.gl;
		const slot = this.buffers[name];
		// WebGL refuses views over a SharedArrayBuffer (the threaded build's memory): copy those
		// into a plain array first. The single-threaded build uploads its zero-copy views as is.
		if (data.buffer instanceof ArrayBuffer === false) {
			let copy = this.copies[name];
			if (!copy || copy.length < data.length) copy = this.copies[name] = new data.constructor(Math.ceil(data.length * 1.25));
			copy.set(data);
			data = copy.subarray(0, data.length);
		}
		gl.bindBuffer(gl.ARRAY_BUFFER, slot.buffer);
		if (data.byteLength > slot.capacity) {
			slot.capacity = Math.ceil(data.byteLength * 1.25);
			gl.bufferData(gl.ARRAY_BUFFER, slot.capacity, gl.DYNAMIC_DRAW);
		}
		gl.bufferSubData(gl.ARRAY_BUFFER, 0, data);
	}

	/**
	 * Uploads the 'value' array the colour ramp reads (speed, density or pressure; with
	 * colorMode 'material' a placeholder, bound but unused) and returns the ramp's uniforms:
	 * ramp 1 or 0, and the range, the style's or (colorMin = colorMax) the values' extent.
	 */
	uploadColorValues(particles, style) {
		if (style.colorMode === 'material') {
			this.upload('value', particles.x);
			return { ramp: 0, range: [0, 1] };
		}
		const values = this.rampValues(particles, style.colorMode);
		this.upload('value', values);
		return { ramp: 1, range: style.colorMin === style.colorMax ? extent(values) : [style.colorMin, style.colorMax] };
	}

	rampValues(p, mode) {
		if (mode === 'density') return p.density;
		if (mode === 'pressure') return p.pressure;
		if (this.scratchValues.length < p.count) this.scratchValues = new Float32Array(Math.ceil(p.count * 1.25));
		const v = this.scratchValues.subarray(0, p.count);
		if (p.vz) for (let i = 0; i < p.count; ++i) v[i] = Math.hypot(p.vx[i], p.vy[i], p.vz[i]);
		else for (let i = 0; i < p.count; ++i) v[i] = Math.hypot(p.vx[i], p.vy[i]);
		return v;
	}
}

const QUAD_CORNERS = new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]); // a quad's corners, triangle-strip order

/**
 * Particles as camera-facing quads, four vertices each (location 0: the corner, -1..1 each way),
 * drawn as one indexed draw without instancing: `attributes` as ParticleArrays's, each value
 * uploaded once per corner. Chromium's software WebGL (SwiftShader) runs an instanced draw as
 * one draw per instance: the liquid's depth pass over dam-break-3d's 19,734 particles took 580
 * ms under it whatever the resolution (29 us an instance), the spheres' one draw of as many
 * points 45 ms. The two triangles of each quad are the instanced triangle strip's, in the same
 * order (0 1 2, 2 1 3), so every pixel and every blended sum comes out as it did. Owns its
 * vertex array; draw() binds it.
 */
export class ParticleQuads extends ParticleArrays {
	constructor(gl, attributes) {
		const vao = gl.createVertexArray();
		gl.bindVertexArray(vao);
		const corners = gl.createBuffer();
		gl.bindBuffer(gl.ARRAY_BUFFER, corners);
		gl.enableVertexAttribArray(0);
		gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
		super(gl, attributes);
		this.vao = vao;
		this.corners = corners;
		this.indices = gl.createBuffer();
		gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indices); // (the vertex array's)
		gl.bindVertexArray(null);
		this.quads = 0; // how many quads the corner and index buffers hold
		this.repeated = {}; // per array, the values four times over
	}

	upload(name, data) {
		const need = 4 * data.length;
		let out = this.repeated[name];
		if (!out || out.length < need) out = this.repeated[name] = new data.constructor(Math.ceil(need * 1.25));
		for (let i = 0, k = 0; i < data.length; ++i, k += 4) {
			const v = data[i];
			out[k] = out[k + 1] = out[k + 2] = out[k + 3] = v;
		}
		super.upload(name, out.subarray(0, need));
	}

	/** Draws the first n particles' quads with the program in use. */
	draw(n) {
		const gl = this.gl;
		gl.bindVertexArray(this.vao);
		if (n > this.quads) {
			const quads = Math.ceil(n * 1.25), corners = new Float32Array(8 * quads), indices = new Uint32Array(6 * quads);
			for (let q = 0; q < quads; ++q) {
				corners.set(QUAD_CORNERS, 8 * q);
				const v = 4 * q;
				indices.set([v, v + 1, v + 2, v + 2, v + 1, v + 3], 6 * q);
			}
			gl.bindBuffer(gl.ARRAY_BUFFER, this.corners);
			gl.bufferData(gl.ARRAY_BUFFER, corners, gl.STATIC_DRAW);
			gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
			this.quads = quads;
		}
		if (n > 0) gl.drawElements(gl.TRIANGLES, 6 * n, gl.UNSIGNED_INT, 0);
	}
}

/** The colour map's uniforms of a particle program in use: material colours, ramp, range. */
export function setColorUniforms(gl, uniforms, materials, { ramp, range }) {
	const colors = new Float32Array(96);
	materials.forEach((m, i) => colors.set(rgb(m.color), 3 * i));
	gl.uniform3fv(uniforms.u_colors, colors);
	gl.uniform1i(uniforms.u_ramp, ramp);
	gl.uniform2fv(uniforms.u_range, range);
}
