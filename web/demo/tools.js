// Mouse and touch on the canvas. Each pressed pointer (mouse button or finger) gets one of the
// engine's 8 pointer slots while it is down, so several fingers push the fluid at once.
//   attract / repel: a pointer force (references 001-004: click and drag); the right mouse
//                    button always repels
//   spawn:           new particles of the chosen material under the pointer (reference 002's
//                    right click)
//   box:             drops a box obstacle that falls until it lands (reference 002's "C")
//   erase:           removes the particles under the pointer
// In 3D worlds (an Orbit camera attached) the right button orbits instead of repelling, and the
// pointer is a ray: attract and repel give the engine's pointer position = the eye and direction
// = the ray through the mouse (pdl_pointer.direction), so the fluid along the line of sight is
// pulled to it or pushed from it; spawn, box and erase act where the ray meets the fluid (or at
// the camera target's depth).
import { BoundaryKind, MAX_POINTERS } from '../src/puddle.js';

export const TOOLS = ['attract', 'repel', 'spawn', 'box', 'erase'];

export class Tools {
	constructor(canvas, renderer, settings, orbit = null) {
		this.canvas = canvas;
		this.renderer = renderer;
		this.orbit = orbit; // the 3D camera's gestures and mouse rays (demo/orbit.js)
		this.settings = settings; // shared with the panel: tool, radius, strength, drag, ...
		this.active = new Map(); // pointerId -> { slot, tool, x, y, vx, vy, lastX, lastY, lastT }
		this.boxes = []; // falling boxes: { id, vy, resting, hw, hh }
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
			if ((e.key === 'b' || e.key === 'c') && this.hover) this.dropBox(this.hover.x, this.hover.y, this.hover.z);
			// 1-5 pick the tool, in the order of TOOLS
			const pick = TOOLS[Number(e.key) - 1];
			if (pick) {
				this.settings.tool = pick;
				this.onToolChange?.(pick);
			}
		});
	}

	/**
	 * A new world (scene change or reset): forget its slots and boxes. The scene's scripted
	 * strokes drive pointers 0 .. reserved - 1 (docs/scenes.md), so hands take the slots above.
	 */
	attach(world, reserved = 0) {
		this.world = world;
		this.reserved = reserved;
		this.active.clear();
		this.boxes = [];
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

	freeSlot() {
		const used = new Set([...this.active.values()].map((a) => a.slot));
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
		if (tool === 'box') {
			this.dropBox(p.x, p.y, p.z);
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
		if (this.world) this.world.clearPointer(a.slot);
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
			}
		}
		this.fallBoxes(dt);
	}

	dropBox(x, y, z = 0) {
		if (!this.world) return;
		const hw = this.settings.boxSize / 2, hh = this.settings.boxSize / 2;
		const id = this.world.addBox({ x, y, z }, { x: hw, y: hh, z: hw }, { friction: 0.5 });
		this.boxes.push({ id, vy: 0, resting: false, hw, hh });
	}

	/**
	 * Boxes fall under world gravity until they land on the container floor or on a box that has
	 * landed. They are kinematic: the engine moves fluid out of their way and their surface
	 * velocity carries it (pdl_boundary_def.velocity), but the fluid does not push back.
	 */
	fallBoxes(dt) {
		const w = this.world;
		const g = w.def.gravity.y;
		for (const box of this.boxes) {
			if (box.resting) continue;
			const def = w.getBoundary(box.id);
			if (!def) continue;
			box.vy += g * dt;
			let y = def.position.y + box.vy * dt;
			const floor = this.floorUnder(def.position, box);
			if (y <= floor) {
				y = floor;
				box.vy = 0;
				box.resting = true;
			}
			w.setBoundary(box.id, { position: { ...def.position, y }, velocity: { x: 0, y: box.vy, z: 0 } });
		}
	}

	// The highest surface under a box centred at `at`: container bottom or a landed box's top.
	// In 3D the footprint is square (half width hw along x and z) and circles are spheres.
	floorUnder(at, box) {
		const { x, y } = at, z = at.z ?? 0, three = this.world.dimensions === 3;
		let floor = -Infinity;
		for (const b of this.world.boundaries()) {
			if (b.kind === BoundaryKind.BOX_CONTAINER) {
				floor = Math.max(floor, b.position.y - b.half_extents.y + box.hh);
			} else if (b.kind === BoundaryKind.CIRCLE_CONTAINER) {
				// lowest point of the circle (sphere) below the box's wider half
				const away = three ? Math.hypot(x - b.position.x, z - b.position.z) : Math.abs(x - b.position.x);
				const dx = Math.min(b.radius, away + box.hw);
				floor = Math.max(floor, b.position.y - Math.sqrt(b.radius * b.radius - dx * dx) + box.hh);
			}
		}
		for (const other of this.boxes) {
			if (other === box || !other.resting) continue;
			const o = this.world.getBoundary(other.id);
			if (!o || Math.abs(o.position.x - x) >= other.hw + box.hw) continue;
			if (three && Math.abs(o.position.z - z) >= other.hw + box.hw) continue;
			const top = o.position.y + other.hh + box.hh;
			if (top <= y + 1e-3) floor = Math.max(floor, top);
		}
		return floor;
	}

	/** Rings to draw: each held pointer's reach, or the hovering one's while nothing is held. */
	rings() {
		if (this.is3d) return []; // the 3D view draws no reach rings: a ray's reach is a cylinder
		const colors = { attract: 0xd7dde6, repel: 0xff7a5c, spawn: 0x7ad67a, erase: 0xffd24a };
		const ring = (p, tool) => ({ x: p.x, y: p.y, radius: tool === 'spawn' ? this.settings.spawnRadius : this.settings.radius, color: colors[tool] });
		const held = [...this.active.values()].map((a) => ring(a, a.tool));
		if (held.length || !this.hover || this.settings.tool === 'box') return held;
		return [ring(this.hover, this.settings.tool)];
	}
}
