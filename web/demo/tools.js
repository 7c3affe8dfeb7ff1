// Mouse and touch on the canvas. Each pressed pointer (mouse button or finger) gets one of the
// engine's 8 pointer slots while it is down, so several fingers push the fluid at once.
//   attract / repel: a pointer force (all four reference demos: click and drag); the right mouse
//                    button always repels
//   spawn:           new particles of the chosen material under the pointer (the Unity SPH demo's
//                    right click)
//   box:             drops a rigid body (a box or a circle, the panel's density and size) where
//                    pressed: the engine's body, which falls, floats, sinks and pushes the fluid
//                    (the Unity SPH demo's "C" dropped a box)
//   erase:           removes the particles under the pointer
// With attract and box, pressing on a body grabs it instead: while held, the body's velocity is
// set each frame toward the pointer (the grabbed point follows it), so letting go while moving
// throws it. In 3D worlds (an Orbit camera attached) the right button orbits instead of
// repelling, and the pointer is a ray: attract and repel give the engine's pointer position =
// the eye and direction = the ray through the mouse (pdl_pointer.direction), so the fluid along
// the line of sight is pulled to it or pushed from it; spawn, box and erase act where the ray
// meets the fluid (or at the camera target's depth); a grabbed body keeps its distance from the
// eye.
import { MAX_POINTERS } from '../src/puddle.js';
import { contains2d, rayHit3d, rotate } from './bodies.js';

export const TOOLS = ['attract', 'repel', 'spawn', 'box', 'erase'];
/** The shapes the box tool drops, panel label -> addBody() shape ("circle" is a sphere in 3D). */
export const BODY_SHAPES = { box: 'box', 'circle / sphere': 'circle' };
// tools whose left press grabs a body under the pointer
const GRAB_TOOLS = ['attract', 'box'];
// A held body's velocity toward the pointer: the gap times this (1/s), so it closes most of the
// gap in about 1 / GRAB_GAIN seconds; at most half an interaction radius per solver substep,
// which the engine's contacts handle without tunnelling.
const GRAB_GAIN = 12;
const GRAB_MAX_STEP = 0.5;

export class Tools {
	constructor(canvas, renderer, settings, orbit = null) {
		this.canvas = canvas;
		this.renderer = renderer;
		this.orbit = orbit; // the 3D camera's gestures and mouse rays (demo/orbit.js)
		this.settings = settings; // shared with the panel: tool, radius, strength, drag, body*, ...
		// pointerId -> { slot, tool, x, y, z, vx, vy, vz, eye, dir, lastT }; a grab ('grab') holds
		// { body, offset (the held point in the body's frame), depth (3D: along the ray) } instead of a slot
		this.active = new Map();
		this.onError = null; // (error) => void: a body the engine refuses (outside the container, ...)
		this.world = null;
		this.reserved = 0;
		this.hover = null;
		canvas.addEventListener('pointerdown', (e) => this.down(e));
		canvas.addEventListener('pointermove', (e) => this.move(e));
		for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) canvas.addEventListener(type, (e) => this.up(e));
		canvas.addEventListener('contextmenu', (e) => e.preventDefault());
		canvas.addEventListener('pointerleave', () => {
			this.hover = null;
		});
		window.addEventListener('keydown', (e) => {
			if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
			if ((e.key === 'b' || e.key === 'c') && this.hover) this.dropBody(this.hover.x, this.hover.y, this.hover.z);
			// 1-5 pick the tool, in the order of TOOLS
			const pick = TOOLS[Number(e.key) - 1];
			if (pick) {
				this.settings.tool = pick;
				this.onToolChange?.(pick);
			}
		});
	}

	/**
	 * A new world (scene change or reset): forget its slots and grabs. The scene's scripted
	 * strokes drive pointers 0 .. reserved - 1 (docs/scenes.md), so hands take the slots above.
	 */
	attach(world, reserved = 0) {
		this.world = world;
		this.reserved = reserved;
		this.active.clear();
	}

	get is3d() {
		return this.world?.dimensions === 3 && this.orbit?.active;
	}

	/** The world point under the pointer; in 3D with the ray ({ eye, dir }) it lies on. */
	worldPoint(e) {
		const r = this.canvas.getBoundingClientRect();
		const cx = e.clientX - r.left, cy = e.clientY - r.top;
		if (this.is3d) return this.orbit.pick(cx, cy, this.world.positions(), 0.75 * this.world.def.interaction_radius);
		return this.renderer.toWorld(cx, cy);
	}

	/**
	 * The body under the pointer, nearest the eye in 3D: { id, body, point (the world point
	 * pressed on it), depth (3D: along the ray) }, or null.
	 */
	bodyAt(e) {
		const w = this.world;
		if (!w.bodyCount) return null;
		const r = this.canvas.getBoundingClientRect();
		const cx = e.clientX - r.left, cy = e.clientY - r.top;
		if (this.is3d) {
			const { eye, dir } = this.orbit.ray(cx, cy);
			let best = null;
			for (const id of w.bodies()) {
				const body = w.body(id), t = rayHit3d(body, eye, dir);
				if (t < (best?.depth ?? Infinity)) best = { id, body, depth: t };
			}
			if (best) best.point = { x: eye.x + dir.x * best.depth, y: eye.y + dir.y * best.depth, z: eye.z + dir.z * best.depth };
			return best;
		}
		const p = this.renderer.toWorld(cx, cy);
		// the last drawn on top: bodies are drawn in slot order
		for (const id of w.bodies().reverse()) {
			const body = w.body(id);
			if (contains2d(body, p.x, p.y)) return { id, body, point: p, depth: 0 };
		}
		return null;
	}

	freeSlot() {
		const used = new Set([...this.active.values()].filter((a) => a.tool !== 'grab').map((a) => a.slot));
		for (let s = this.reserved; s < MAX_POINTERS; ++s) if (!used.has(s)) return s;
		return -1;
	}

	down(e) {
		if (!this.world) return;
		e.preventDefault();
		if (this.is3d) {
			const touches = [...this.active.values()].filter((a) => a.touch);
			if (this.orbit.wants(e, touches.length)) {
				// a second finger turns the first one's tool into a two-finger camera gesture
				for (const [id, a] of this.active) {
					if (!a.touch) continue;
					this.world.clearPointer(a.slot);
					this.active.delete(id);
					this.orbit.down({ pointerId: id, clientX: a.clientX, clientY: a.clientY, button: 0 });
				}
				this.orbit.down(e);
				this.capture(e);
				return;
			}
		}
		const p = this.worldPoint(e);
		const tool = e.button === 2 ? 'repel' : this.settings.tool;
		const hit = GRAB_TOOLS.includes(tool) ? this.bodyAt(e) : null;
		if (hit) {
			this.active.set(e.pointerId, { tool: 'grab', body: hit.id, offset: toBodyFrame(hit.body, hit.point, this.is3d), depth: hit.depth,
				x: hit.point.x, y: hit.point.y, z: hit.point.z ?? 0, eye: p.eye, dir: p.dir, touch: e.pointerType === 'touch',
				clientX: e.clientX, clientY: e.clientY, lastT: performance.now() });
			this.capture(e);
			return;
		}
		if (tool === 'box') {
			this.dropBody(p.x, p.y, p.z);
			return;
		}
		const slot = this.freeSlot();
		if (slot < 0) return;
		this.active.set(e.pointerId, { slot, tool, x: p.x, y: p.y, z: p.z ?? 0, vx: 0, vy: 0, vz: 0, eye: p.eye, dir: p.dir,
			touch: e.pointerType === 'touch', clientX: e.clientX, clientY: e.clientY, lastT: performance.now() });
		this.capture(e);
	}

	capture(e) {
		try {
			// keep receiving moves when the pointer leaves the canvas while pressed
			this.canvas.setPointerCapture(e.pointerId);
		} catch {
			// a pointer the browser no longer tracks (or a synthetic event): no capture needed
		}
	}

	move(e) {
		if (this.orbit?.move(e)) return;
		const a = this.active.get(e.pointerId);
		// (in 3D the hover point is a pass over the particles along the ray: cheap next to a step)
		const p = this.worldPoint(e);
		this.hover = e.pointerType === 'touch' ? null : p;
		if (!a) return;
		const now = performance.now(), dt = Math.max(1e-3, (now - a.lastT) / 1000);
		// the pointer's own velocity, smoothed, so that drag carries the fluid along with it
		const k = Math.min(1, dt * 20);
		a.vx += ((p.x - a.x) / dt - a.vx) * k;
		a.vy += ((p.y - a.y) / dt - a.vy) * k;
		a.vz += (((p.z ?? 0) - a.z) / dt - a.vz) * k;
		a.x = p.x;
		a.y = p.y;
		a.z = p.z ?? 0;
		a.eye = p.eye;
		a.dir = p.dir;
		a.clientX = e.clientX;
		a.clientY = e.clientY;
		a.lastT = now;
	}

	up(e) {
		if (this.orbit?.up(e)) return;
		const a = this.active.get(e.pointerId);
		if (!a) return;
		// a released body keeps the velocity it was given: thrown
		if (this.world && a.tool !== 'grab') this.world.clearPointer(a.slot);
		this.active.delete(e.pointerId);
	}

	/** Applies the held pointers before a step; `dt` is the frame length in seconds. */
	beforeStep(dt) {
		const w = this.world, s = this.settings;
		for (const a of this.active.values()) {
			// a pointer that stopped moving has no velocity
			if (performance.now() - a.lastT > 100) a.vx = a.vy = a.vz = 0;
			if (a.tool === 'attract' || a.tool === 'repel') {
				const strength = a.tool === 'repel' ? -Math.abs(s.strength) : Math.abs(s.strength);
				// 3D: a ray from the eye through the mouse (pdl_pointer.direction)
				const ray = this.is3d && a.dir ? { position: a.eye, direction: a.dir } : { position: { x: a.x, y: a.y } };
				w.setPointer(a.slot, { ...ray, velocity: { x: a.vx, y: a.vy, z: a.vz }, radius: s.radius, strength, drag: s.drag });
			} else if (a.tool === 'spawn') {
				this.spawnAccumulator = (this.spawnAccumulator ?? 0) + s.spawnRate * dt;
				const count = Math.floor(this.spawnAccumulator);
				this.spawnAccumulator -= count;
				if (count > 0 && w.particleCount + count <= w.def.max_particles) {
					w.spawn({ x: a.x, y: a.y, z: a.z }, {
						material: Math.min(s.spawnMaterial, w.materialCount - 1), count,
						radius: s.spawnRadius, velocity: { x: a.vx * 0.5, y: a.vy * 0.5, z: a.vz * 0.5 },
					});
				}
			} else if (a.tool === 'erase') {
				// 3D: a sphere where the ray meets the fluid
				w.removeParticlesInCircle({ x: a.x, y: a.y, z: a.z }, s.radius);
			} else if (a.tool === 'grab') {
				this.pull(a);
			}
		}
	}

	/** A held body: its velocity toward the pointer, so the grabbed point follows it. */
	pull(a) {
		const w = this.world, b = w.body(a.body);
		if (!b) return; // removed while held (panel, reset)
		const held = fromBodyFrame(b, a.offset, this.is3d);
		// 3D: the point of the current mouse ray at the depth it was grabbed at
		const to = this.is3d && a.dir
			? [a.eye.x + a.dir.x * a.depth, a.eye.y + a.dir.y * a.depth, a.eye.z + a.dir.z * a.depth]
			: [a.x, a.y, b.position.z];
		const v = [0, 1, 2].map((k) => (to[k] - held[k]) * GRAB_GAIN);
		const def = w.def, most = (GRAB_MAX_STEP * def.interaction_radius * def.substeps) / def.dt;
		const speed = Math.hypot(...v);
		if (speed > most) v.forEach((c, k) => { v[k] = (c * most) / speed; });
		w.setBody(a.body, { linear_velocity: v });
	}

	/**
	 * Drops a dynamic body (the panel's shape, density and size) centred at the point; the
	 * engine refuses one that would reach out of the container (reported through onError).
	 */
	dropBody(x, y, z = 0) {
		if (!this.world) return null;
		const s = this.settings, half = s.bodySize / 2;
		try {
			const id = this.world.addBody({ shape: s.bodyShape, position: { x, y, z }, half_extents: { x: half, y: half, z: half }, radius: half,
				density: s.bodyDensity });
			// it displaces the fluid where it lands: the particles inside it would be squeezed
			// out through its faces in a burst and cling to its sides (as the viewer does)
			if (s.bodyShape === 'circle') this.world.removeParticlesInCircle({ x, y, z }, half);
			else this.world.removeParticlesInBox({ x, y, z }, { x: half, y: half, z: half });
			return id;
		} catch (e) {
			if (!this.onError) throw e;
			this.onError(e);
			return null;
		}
	}

	/** Removes every body (the scene's too; a reset brings those back). */
	clearBodies() {
		for (const id of this.world.bodies()) this.world.removeBody(id);
	}

	/** Rings to draw: each held pointer's reach, or the hovering one's while nothing is held. */
	rings() {
		if (this.is3d) return []; // the 3D view draws no reach rings: a ray's reach is a cylinder
		const colors = { attract: 0xd7dde6, repel: 0xff7a5c, spawn: 0x7ad67a, erase: 0xffd24a };
		const ring = (p, tool) => ({ x: p.x, y: p.y, radius: tool === 'spawn' ? this.settings.spawnRadius : this.settings.radius, color: colors[tool] });
		const held = [...this.active.values()].filter((a) => a.tool !== 'grab').map((a) => ring(a, a.tool));
		if (held.length || !this.hover || this.settings.tool === 'box') return held;
		return [ring(this.hover, this.settings.tool)];
	}
}

/** A world point in the body's own frame (2D: turned back by its angle; 3D: by its orientation). */
function toBodyFrame(b, p, three) {
	const d = [p.x - b.position.x, p.y - b.position.y, three ? p.z - b.position.z : 0];
	if (three) return rotate({ x: -b.orientation.x, y: -b.orientation.y, z: -b.orientation.z, w: b.orientation.w }, d);
	const c = Math.cos(b.angle), s = Math.sin(b.angle);
	return [c * d[0] + s * d[1], -s * d[0] + c * d[1], 0];
}

/** The world point of a point given in the body's frame: [x, y, z]. */
function fromBodyFrame(b, local, three) {
	const p = b.position;
	if (three) {
		const r = rotate(b.orientation, local);
		return [p.x + r[0], p.y + r[1], p.z + r[2]];
	}
	const c = Math.cos(b.angle), s = Math.sin(b.angle);
	return [p.x + c * local[0] - s * local[1], p.y + s * local[0] + c * local[1], 0];
}
