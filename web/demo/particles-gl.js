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
 * `divisor` 1 gives one value per instance (2D quads), 0 one per vertex (3D points).
 */
export class ParticleArrays {
	constructor(gl, attributes, divisor) {
		this.gl = gl;
		this.buffers = {};
		for (const [name, loc] of attributes) {
			const buffer = gl.createBuffer();
			gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
			gl.enableVertexAttribArray(loc);
			if (name === 'material') gl.vertexAttribIPointer(loc, 1, gl.UNSIGNED_BYTE, 0, 0);
			else gl.vertexAttribPointer(loc, 1, gl.FLOAT, false, 0, 0);
			if (divisor) gl.vertexAttribDivisor(loc, divisor);
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

/** The colour map's uniforms of a particle program in use: material colours, ramp, range. */
export function setColorUniforms(gl, uniforms, materials, { ramp, range }) {
	const colors = new Float32Array(96);
	materials.forEach((m, i) => colors.set(rgb(m.color), 3 * i));
	gl.uniform3fv(uniforms.u_colors, colors);
	gl.uniform1i(uniforms.u_ramp, ramp);
	gl.uniform2fv(uniforms.u_range, range);
}
