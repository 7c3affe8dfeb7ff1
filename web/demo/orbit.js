// The page's orbit camera for 3D worlds (src/camera.js, pdl_camera's conventions) and the mouse
// and touch gestures that move it:
//   right drag (or left drag with "left drag orbits" on, or one finger with it on): orbit
//   wheel, or two fingers pinching: zoom (distance); two fingers dragging: orbit
//   shift + right drag (or middle drag): pan the target in the picture's plane
// It also turns a point of the canvas into the mouse ray the tools give the engine's pointer:
// position = the eye, direction = the ray through the point (pdl_camera_ray).
import { cameraEye, cameraFrame, cameraRay, clampCamera } from '../src/camera.js';

// degrees of yaw and pitch per CSS pixel dragged
const ORBIT_DEGREES_PER_PIXEL = 0.3;

export class Orbit {
	constructor(canvas, settings) {
		this.canvas = canvas;
		this.settings = settings; // { leftOrbits } shared with the panel
		this.camera = null; // a pdl_camera object: { target, yaw, pitch, distance, fov }
		this.home = null; // the scene's camera, for "reset camera"
		this.gesture = new Map(); // pointerId -> { x, y, pan }
		this.onChange = null;
		canvas.addEventListener('wheel', (e) => {
			if (!this.camera) return;
			e.preventDefault();
			this.zoom(Math.exp(e.deltaY * 0.001));
		}, { passive: false });
	}

	/** A new scene: its camera (null for 2D scenes, which turns the orbit off). */
	attach(camera) {
		this.home = camera ? structuredClone(camera) : null;
		this.camera = camera ? structuredClone(camera) : null;
		this.gesture.clear();
	}

	get active() {
		return this.camera !== null;
	}

	reset() {
		if (this.home) Object.assign(this.camera, structuredClone(this.home));
		this.onChange?.();
	}

	orbit(dyaw, dpitch) {
		this.camera.yaw -= dyaw;
		this.camera.pitch += dpitch;
		clampCamera(this.camera);
		this.onChange?.();
	}

	zoom(factor) {
		this.camera.distance *= factor;
		clampCamera(this.camera);
		this.onChange?.();
	}

	/** Moves the target by (dx, dy) CSS pixels in the picture's plane. */
	pan(dx, dy) {
		const { r, u } = cameraFrame(this.camera);
		// world units per CSS pixel at the target's depth
		const k = (2 * this.camera.distance * Math.tan(0.5 * this.camera.fov * (Math.PI / 180))) / this.canvas.clientHeight;
		const t = this.camera.target;
		for (const [axis, i] of [['x', 0], ['y', 1], ['z', 2]]) t[axis] += k * (-dx * r[i] + dy * u[i]);
		this.onChange?.();
	}

	/** Whether a pointerdown starts a camera gesture rather than a tool. */
	wants(e, toolTouches) {
		if (!this.active) return false;
		if (this.gesture.size > 0) return true; // a second finger joins the gesture
		if (e.pointerType === 'touch') return this.settings.leftOrbits || toolTouches > 0;
		return e.button === 2 || e.button === 1 || (e.button === 0 && this.settings.leftOrbits);
	}

	down(e) {
		this.gesture.set(e.pointerId, { x: e.clientX, y: e.clientY, pan: e.button === 1 || (e.button === 2 && e.shiftKey) });
	}

	/** Returns true if the event belonged to a camera gesture. */
	move(e) {
		const g = this.gesture.get(e.pointerId);
		if (!g) return false;
		const before = [...this.gesture.values()].map((p) => ({ ...p }));
		const dx = e.clientX - g.x, dy = e.clientY - g.y;
		g.x = e.clientX;
		g.y = e.clientY;
		if (this.gesture.size >= 2) {
			// two fingers: the change of their span zooms, the midpoint's motion orbits
			const [a, b] = [...this.gesture.values()];
			const [a0, b0] = before;
			const span0 = Math.hypot(a0.x - b0.x, a0.y - b0.y), span1 = Math.hypot(a.x - b.x, a.y - b.y);
			if (span0 > 1 && span1 > 1) this.zoom(span0 / span1);
			this.orbit((ORBIT_DEGREES_PER_PIXEL * dx) / 2, (ORBIT_DEGREES_PER_PIXEL * dy) / 2);
		} else if (g.pan || e.shiftKey) {
			this.pan(dx, dy);
		} else {
			this.orbit(ORBIT_DEGREES_PER_PIXEL * dx, ORBIT_DEGREES_PER_PIXEL * dy);
		}
		return true;
	}

	/** Returns true if the event ended a camera gesture's pointer. */
	up(e) {
		return this.gesture.delete(e.pointerId);
	}

	/** The mouse ray through a CSS point of the canvas: { eye, dir } (dir unit length). */
	ray(cssX, cssY) {
		const ndcX = (cssX / this.canvas.clientWidth) * 2 - 1, ndcY = 1 - (cssY / this.canvas.clientHeight) * 2;
		const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
		return { eye: cameraEye(this.camera), dir: cameraRay(this.camera, aspect, ndcX, ndcY) };
	}

	/**
	 * The point the ray through a CSS point meets: the nearest particle within `reach` of the ray
	 * (positions from World.positions()), or else the ray's point at the target's depth.
	 */
	pick(cssX, cssY, positions, reach) {
		const { eye, dir } = this.ray(cssX, cssY);
		let best = Infinity;
		if (positions && positions.z) {
			const { x, y, z, count } = positions, r2 = reach * reach;
			for (let i = 0; i < count; ++i) {
				const px = x[i] - eye.x, py = y[i] - eye.y, pz = z[i] - eye.z;
				const t = px * dir.x + py * dir.y + pz * dir.z;
				if (t <= 0 || t >= best) continue;
				if (px * px + py * py + pz * pz - t * t <= r2) best = t;
			}
		}
		const t = Number.isFinite(best) ? best : this.camera.distance;
		return { x: eye.x + dir.x * t, y: eye.y + dir.y * t, z: eye.z + dir.z * t, eye, dir };
	}

	/** CSS pixels (relative to the canvas) of a world point, for tests: the inverse of ray(). */
	toCss(x, y, z) {
		const { f, r, u } = cameraFrame(this.camera);
		const e = cameraEye(this.camera);
		const d = [x - e.x, y - e.y, z - e.z];
		const depth = d[0] * f[0] + d[1] * f[1] + d[2] * f[2];
		const t = Math.tan(0.5 * this.camera.fov * (Math.PI / 180));
		const aspect = this.canvas.clientWidth / Math.max(1, this.canvas.clientHeight);
		const ndcX = (d[0] * r[0] + d[1] * r[1] + d[2] * r[2]) / (depth * t * aspect);
		const ndcY = (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / (depth * t);
		return { x: ((ndcX + 1) / 2) * this.canvas.clientWidth, y: ((1 - ndcY) / 2) * this.canvas.clientHeight };
	}
}
